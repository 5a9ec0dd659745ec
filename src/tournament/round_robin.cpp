#include "tournament/round_robin.h"

#include <stdexcept>
#include <string>

namespace toguz::tournament {

int berger_rounds(int players) {
  return players % 2 == 0 ? players - 1 : players;
}

namespace {

// One round of the single-cycle table for an even number n of Berger numbers 1..n:
// the numbers 1..n-1 start at s = 1 + (r - 1) * n/2 (mod n-1) and are folded, n meets the
// first of them (White in odd rounds). Returns (white, black) Berger numbers, board order.
std::vector<std::pair<int, int>> single_round(int n, int r) {
  const int m = n - 1;
  std::vector<int> seq(m);
  const int start = (r - 1) * (n / 2) % m;
  for (int i = 0; i < m; ++i) seq[i] = (start + i) % m + 1;
  std::vector<std::pair<int, int>> out;
  if (r % 2 == 1)
    out.push_back({seq[0], n});
  else
    out.push_back({n, seq[0]});
  for (int i = 1; i < n / 2; ++i) out.push_back({seq[i], seq[m - i]});
  return out;
}

}  // namespace

Round berger_round(int players, int round, bool double_) {
  if (players < 2) throw std::invalid_argument("a round robin needs at least two players");
  const int cycle = berger_rounds(players);
  if (round < 1 || round > (double_ ? 2 : 1) * cycle)
    throw std::invalid_argument("round " + std::to_string(round) + " is not in the table (1.." +
                                std::to_string((double_ ? 2 : 1) * cycle) + ")");
  const int n = players % 2 == 0 ? players : players + 1;
  const bool second = round > cycle;
  int r = second ? round - cycle : round;
  if (double_ && !second && cycle >= 2 && r >= cycle - 1) r = r == cycle ? cycle - 1 : cycle;
  Round out;
  for (auto [w, b] : single_round(n, r)) {
    if (second) std::swap(w, b);
    if (w > players)
      out.byes.push_back(b - 1);
    else if (b > players)
      out.byes.push_back(w - 1);
    else
      out.boards.push_back(Board{w - 1, b - 1, BoardResult::Pending, {}});
  }
  return out;
}

}  // namespace toguz::tournament
