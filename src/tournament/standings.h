// Standings with tie-breaks, and the crosstable (docs/tournaments.md gives the definitions).
#pragma once

#include <functional>
#include <vector>

#include "tournament/event.h"

namespace toguz::tournament {

// One player's round: the opponent, his colour and his points.
struct RoundEntry {
  enum Kind : uint8_t { Game, Forfeit, Bye, Absent } kind = Absent;
  int opponent = -1;  // player index (-1 for a bye or when absent)
  char colour = '-';  // 'W', 'B', '-'
  int half_points = 0;
  bool pending = false;  // the game has no result yet
};

struct Standing {
  int player = 0;  // index into Event::players
  int rank = 0;    // 1-based; players equal on score and every tie-break share a rank
  int half_points = 0;
  std::vector<double> tie_breaks;  // in the order of the tie-break list used
  std::vector<RoundEntry> rounds;  // one per round paired
};

// Every player's rounds (index: player, then round).
std::vector<std::vector<RoundEntry>> round_entries(const Event& event);

// The standings after the rounds paired so far, best first: score, then each tie-break in
// `event.tie_breaks` (or the system's default), then pairing order.
std::vector<Standing> standings(const Event& event);

// The order of a table by `score` (higher first), then each column of `keys` in turn, then
// `seed` (lower first). The columns marked in `de_column` (direct encounter) are filled first,
// one at a time, by `de` for each group equal on the score and every key before that column.
// `rank[i]` is order[i]'s rank: equal on everything, the same.
struct RankedOrder {
  std::vector<int> order;
  std::vector<int> rank;
};
RankedOrder rank_by_keys(const std::vector<double>& score, std::vector<std::vector<double>>& keys,
                         const std::vector<int>& seed, const std::vector<bool>& de_column,
                         const std::function<std::vector<double>(const std::vector<int>&)>& de);

// `rows` (each with `tie_breaks` and `rank`) in the order of rank_by_keys, their keys taken
// from and written back to `tie_breaks`.
template <typename Row>
std::vector<Row> rank_rows(const std::vector<Row>& rows, const std::vector<double>& score,
                           const std::vector<int>& seed, const std::vector<bool>& de_column,
                           const std::function<std::vector<double>(const std::vector<int>&)>& de) {
  std::vector<std::vector<double>> keys;
  for (const Row& r : rows) keys.push_back(r.tie_breaks);
  const RankedOrder ranked = rank_by_keys(score, keys, seed, de_column, de);
  std::vector<Row> out;
  for (size_t i = 0; i < ranked.order.size(); ++i) {
    out.push_back(rows[ranked.order[i]]);
    out.back().tie_breaks = keys[ranked.order[i]];
    out.back().rank = ranked.rank[i];
  }
  return out;
}

// Direct encounter among `group`: for each member the sum of `points(a, b)` over the others b,
// where it returns the points a scored against b over the board (negative: they did not meet);
// all 0 unless every two of them met.
std::vector<double> direct_encounter_among(const std::vector<int>& group,
                                           const std::function<double(int a, int b)>& points);

// The tie-break list `standings` uses.
std::vector<TieBreak> tie_breaks_of(const Event& event);

}  // namespace toguz::tournament
