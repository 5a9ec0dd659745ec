#include "tournament/arena.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace toguz::tournament {

Arena::Arena(int64_t start, int64_t duration) : start_(start), duration_(duration) {}

int Arena::join(const Player& player) {
  entries_.push_back(Entry{player});
  return int(entries_.size()) - 1;
}

void Arena::pause(int player) {
  entries_.at(player).paused = true;
}
void Arena::resume(int player) {
  entries_.at(player).paused = false;
}

bool Arena::ranks_above(int a, int b) const {
  const Entry& x = entries_[a];
  const Entry& y = entries_[b];
  if (x.points != y.points) return x.points > y.points;
  if (x.player.rating != y.player.rating) return x.player.rating > y.player.rating;
  return a < b;
}

std::vector<int> Arena::ranking() const {
  std::vector<int> order(entries_.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return ranks_above(a, b); });
  return order;
}

std::vector<int> Arena::pair(int64_t now) {
  std::vector<int> made;
  if (!running(now)) return made;
  std::vector<int> waiting;
  for (int p : ranking())
    if (!entries_[p].playing && !entries_[p].paused) waiting.push_back(p);
  std::vector<char> taken(waiting.size(), 0);
  for (size_t i = 0; i < waiting.size(); ++i) {
    if (taken[i]) continue;
    const int a = waiting[i];
    size_t pick = waiting.size();
    for (size_t j = i + 1; j < waiting.size(); ++j) {
      if (taken[j]) continue;
      if (pick == waiting.size()) pick = j;  // the next one, if no better
      const int b = waiting[j];
      if (entries_[a].last_opponent != b && entries_[b].last_opponent != a) {
        pick = j;
        break;
      }
    }
    if (pick == waiting.size()) break;
    taken[i] = taken[pick] = 1;
    int w = a, b = waiting[pick];
    // White to the one who had it less often (share of his games), the higher-ranked on a tie.
    const Entry& x = entries_[w];
    const Entry& y = entries_[b];
    if (int64_t(x.whites) * std::max(1, y.games) > int64_t(y.whites) * std::max(1, x.games))
      std::swap(w, b);
    games_.push_back(Game{w, b});
    for (int p : {w, b}) {
      entries_[p].playing = true;
    }
    entries_[w].last_opponent = b;
    entries_[b].last_opponent = w;
    made.push_back(int(games_.size()) - 1);
  }
  return made;
}

void Arena::finish(int game, BoardResult result) {
  if (game < 0 || game >= int(games_.size()))
    throw std::invalid_argument("no arena game " + std::to_string(game));
  Game& g = games_[game];
  if (g.result != BoardResult::Pending || g.called_off)
    throw std::invalid_argument("arena game " + std::to_string(game) + " is already over");
  if (result == BoardResult::Pending)
    throw std::invalid_argument("an arena game ends with a result");
  g.result = result;
  auto score = [&](Entry& e, int half, bool forfeit) {
    ++e.games;
    e.playing = false;
    if (forfeit) {
      if (half != 2) e.streak = 0;
      return half;
    }
    const int base = half;  // 2 a win, 1 a draw, 0 a loss
    const int pts = e.streak >= 2 ? 2 * base : base;
    if (half == 2) {
      ++e.streak;
      ++e.wins;
    } else {
      e.streak = 0;
    }
    return pts;
  };
  const bool forfeit = is_forfeit(result);
  ++entries_[g.white].whites;
  g.white_points = score(entries_[g.white], white_half_points(result), forfeit);
  g.black_points = score(entries_[g.black], black_half_points(result), forfeit);
  entries_[g.white].points += g.white_points;
  entries_[g.black].points += g.black_points;
}

void Arena::call_off(int game) {
  if (game < 0 || game >= int(games_.size()))
    throw std::invalid_argument("no arena game " + std::to_string(game));
  Game& g = games_[game];
  if (g.result != BoardResult::Pending || g.called_off)
    throw std::invalid_argument("arena game " + std::to_string(game) + " is already over");
  g.called_off = true;
  entries_[g.white].playing = false;
  entries_[g.black].playing = false;
}

}  // namespace toguz::tournament
