#include "tournament/arena.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace toguz::tournament {

Arena::Arena(int64_t start, int64_t duration, int64_t rematch_wait)
    : start_(start), duration_(duration), rematch_wait_(rematch_wait) {}

int Arena::join(const Player& player) {
  entries_.push_back(Entry{player});
  return int(entries_.size()) - 1;
}

void Arena::pause(int player) {
  entries_.at(player).paused = true;
  entries_.at(player).waiting_since.reset();
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

bool Arena::rematch(int a, int b) const {
  return entries_[a].last_opponent == b || entries_[b].last_opponent == a;
}

Arena::Pairs Arena::choose(const std::vector<int>& waiting, int64_t now, bool busy,
                           std::vector<int>& left) const {
  Pairs pairs;
  std::vector<char> taken(waiting.size(), 0);
  const size_t none = waiting.size();
  for (size_t i = 0; i < waiting.size(); ++i) {
    if (taken[i]) continue;
    const int a = waiting[i];
    size_t pick = none, next = none;
    for (size_t j = i + 1; j < waiting.size() && pick == none; ++j) {
      if (taken[j]) continue;
      if (next == none) next = j;
      if (!rematch(a, waiting[j])) pick = j;
    }
    if (pick == none && next != none) {
      // Only last opponents are free: meet again when nobody else can come soon, or after the
      // wait.
      const int b = waiting[next];
      const int64_t since = std::min(*entries_[a].waiting_since, *entries_[b].waiting_since);
      if (!busy || now - since >= rematch_wait_) pick = next;
    }
    if (pick == none) continue;
    taken[i] = taken[pick] = 1;
    pairs.push_back({a, waiting[pick]});
  }
  for (size_t i = 0; i < waiting.size(); ++i)
    if (!taken[i]) left.push_back(waiting[i]);
  return pairs;
}

void Arena::untangle(Pairs& pairs, std::vector<int>& left) const {
  for (auto& r : pairs) {
    if (!rematch(r.first, r.second)) continue;
    bool done = false;
    for (auto& m : pairs) {
      if (&m == &r || done) continue;
      for (int flip = 0; flip < 2 && !done; ++flip) {
        const int p = flip ? m.second : m.first, q = flip ? m.first : m.second;
        if (rematch(r.first, p) || rematch(r.second, q)) continue;
        m = {r.second, q};
        r.second = p;
        done = true;
      }
    }
    for (int& w : left) {
      if (done) break;
      for (int* x : {&r.first, &r.second}) {
        if (done || rematch(*x, w)) continue;
        std::swap(*(x == &r.first ? &r.second : &r.first), w);  // the other one waits
        done = true;
      }
    }
  }
}

int Arena::add_game(int a, int b) {
  if (ranks_above(b, a)) std::swap(a, b);
  // White to the one who had it less often (share of his games), the higher-ranked on a tie.
  int w = a;
  const Entry& x = entries_[a];
  const Entry& y = entries_[b];
  if (int64_t(x.whites) * std::max(1, y.games) > int64_t(y.whites) * std::max(1, x.games))
    std::swap(w, b);
  games_.push_back(Game{w, b});
  for (int p : {w, b}) {
    entries_[p].playing = true;
    entries_[p].waiting_since.reset();
  }
  entries_[w].last_opponent = b;
  entries_[b].last_opponent = w;
  return int(games_.size()) - 1;
}

std::vector<int> Arena::pair(int64_t now) {
  std::vector<int> made;
  if (!running(now)) return made;
  std::vector<int> waiting;
  bool busy = false;  // a game is running: someone else will be free
  for (int p : ranking()) {
    Entry& e = entries_[p];
    busy = busy || e.playing;
    if (e.playing || e.paused) continue;
    if (!e.waiting_since) e.waiting_since = now;
    waiting.push_back(p);
  }
  std::vector<int> left;
  Pairs pairs = choose(waiting, now, busy, left);
  if (rematch_wait_ > 0) untangle(pairs, left);  // 0: the first rule, as it was
  for (const auto& [a, b] : pairs) made.push_back(add_game(a, b));
  return made;
}

Arena::Game& Arena::open_game(int game) {
  if (game < 0 || game >= int(games_.size()))
    throw std::invalid_argument("no arena game " + std::to_string(game));
  Game& g = games_[game];
  if (g.result != BoardResult::Pending || g.called_off)
    throw std::invalid_argument("arena game " + std::to_string(game) + " is already over");
  return g;
}

void Arena::finish(int game, BoardResult result) {
  Game& g = open_game(game);
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
  Game& g = open_game(game);
  g.called_off = true;
  entries_[g.white].playing = false;
  entries_[g.black].playing = false;
}

void Arena::no_show(int game, BoardResult result) {
  if (result != BoardResult::WhiteForfeitWin && result != BoardResult::BlackForfeitWin)
    throw std::invalid_argument("a no-show is a forfeit");
  Game& g = open_game(game);
  g.result = result;
  g.no_show = true;
  Entry& absent = entries_[result == BoardResult::WhiteForfeitWin ? g.black : g.white];
  ++absent.games;
  absent.streak = 0;
  if (&absent == &entries_[g.white]) ++absent.whites;
  entries_[g.white].playing = false;
  entries_[g.black].playing = false;
}

}  // namespace toguz::tournament
