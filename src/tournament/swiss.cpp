#include "tournament/swiss.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "tournament/matching.h"

namespace toguz::tournament {

std::vector<std::vector<char>> colour_history(const Event& event) {
  const size_t n = event.players.size();
  std::vector<std::vector<char>> out(n, std::vector<char>(event.played.size(), '-'));
  for (size_t r = 0; r < event.played.size(); ++r)
    for (const Board& b : event.played[r].boards) {
      if (is_forfeit(b.result)) continue;
      out.at(b.white)[r] = 'W';
      out.at(b.black)[r] = 'B';
    }
  return out;
}

namespace {

// A colour preference (C.04.1 / A.6): 3 absolute, 2 strong, 1 mild, 0 none.
struct Preference {
  int strength = 0;
  char colour = 0;  // 'W' or 'B'
};

struct PlayerState {
  int score = 0;               // half points
  int pno = 0;                 // pairing number, 1-based
  int cd = 0;                  // whites minus blacks, games over the board
  std::vector<char> played;    // colours of the games over the board, in order
  std::vector<char> by_round;  // 'W', 'B', '-' per round
  bool had_bye = false;
  std::vector<char> met;  // met[j]: played j over the board
  Preference pref;
};

Preference preference_of(const PlayerState& s) {
  if (s.played.empty()) return {};
  const char last = s.played.back();
  const char other = last == 'W' ? 'B' : 'W';
  const bool two_same = s.played.size() >= 2 && s.played[s.played.size() - 2] == last;
  if (s.cd > 1) return {3, 'B'};
  if (s.cd < -1) return {3, 'W'};
  if (two_same) return {3, other};
  if (s.cd == 1) return {2, 'B'};
  if (s.cd == -1) return {2, 'W'};
  return {1, other};
}

class Pairer {
 public:
  Pairer(const Event& event, const std::vector<int>& pts) : n_(int(event.players.size())), st_(n_) {
    const std::vector<int> order = pairing_order(event.players);
    for (int i = 0; i < n_; ++i) st_[order[i]].pno = i + 1;
    const int next = int(event.played.size()) + 1;
    const auto colours = colour_history(event);
    for (int p = 0; p < n_; ++p) {
      PlayerState& s = st_[p];
      s.score = pts[p];
      s.met.assign(n_, 0);
      s.by_round = colours[p];
      for (char c : colours[p])
        if (c != '-') {
          s.played.push_back(c);
          s.cd += c == 'W' ? 1 : -1;
        }
    }
    for (const Round& r : event.played) {
      for (int p : r.byes) st_.at(p).had_bye = true;
      for (const Board& b : r.boards) {
        // A forfeit win counts as the bye (FIDE C.04.1.d); a forfeited game is no meeting.
        if (b.result == BoardResult::WhiteForfeitWin) st_[b.white].had_bye = true;
        if (b.result == BoardResult::BlackForfeitWin) st_[b.black].had_bye = true;
        if (!is_forfeit(b.result)) st_[b.white].met[b.black] = st_[b.black].met[b.white] = 1;
      }
    }
    for (PlayerState& s : st_) s.pref = preference_of(s);
    forbidden_.assign(n_, std::vector<char>(n_, 0));
    for (auto [a, b] : event.forbidden)
      if (a >= 0 && b >= 0 && a < n_ && b < n_) forbidden_[a][b] = forbidden_[b][a] = 1;
    out_.assign(n_, 0);
    for (int p = 0; p < n_; ++p) out_[p] = event.players[p].withdrawn ? 1 : 0;
    for (const ByeRequest& q : event.bye_requests)
      if (q.round == next && q.player >= 0 && q.player < n_ && !out_[q.player]) {
        out_[q.player] = 1;
        (q.kind == ByeKind::Half ? half_byes_ : zero_byes_).push_back(q.player);
      }
    active_ = n_ - int(std::count(out_.begin(), out_.end(), 1));
    ranking_.resize(n_);
    for (int i = 0; i < n_; ++i) ranking_[i] = i;
    std::sort(ranking_.begin(), ranking_.end(), [&](int a, int b) { return ranks_above(a, b); });
  }

  Round pair() {
    // Level 0: no rematch, FIDE's absolute colour rules. 1: the colour difference only (a
    // third same colour in a row allowed). 2: rematches allowed. 3: colours ignored.
    for (level_ = 0; level_ <= 3; ++level_) {
      build_allowed();
      // a withdrawn player is left out as if already paired
      matched_ = out_;
      last_mate_.clear();
      int bye = -1;
      if (active_ % 2 == 1) {
        for (auto it = ranking_.rbegin(); it != ranking_.rend() && bye < 0; ++it) {
          if (st_[*it].had_bye || out_[*it]) continue;
          matched_[*it] = 1;
          if (completable())
            bye = *it;
          else
            matched_[*it] = 0;
        }
        if (bye < 0) continue;
      } else if (!completable()) {
        continue;
      }
      std::vector<std::pair<int, int>> pairs = pair_brackets();
      Round round;
      if (bye >= 0) round.byes.push_back(bye);
      round.half_byes = half_byes_;
      round.zero_byes = zero_byes_;
      for (auto [a, b] : pairs) {
        if (!ranks_above(a, b)) std::swap(a, b);
        round.boards.push_back(a_takes_white(a, b) ? Board{a, b, BoardResult::Pending, {}}
                                                   : Board{b, a, BoardResult::Pending, {}});
      }
      // Board order: the pair's higher score, then the sum of scores, then the higher rank.
      auto key = [&](const Board& b) {
        const int hi = std::max(st_[b.white].score, st_[b.black].score);
        const int sum = st_[b.white].score + st_[b.black].score;
        const int top = std::min(rank_of(b.white), rank_of(b.black));
        return std::tuple<int, int, int>(-hi, -sum, top);
      };
      std::stable_sort(round.boards.begin(), round.boards.end(),
                       [&](const Board& x, const Board& y) { return key(x) < key(y); });
      return round;
    }
    throw std::runtime_error(
        "no pairing keeps every forbidden pair apart and gives the bye to a player without one");
  }

 private:
  bool ranks_above(int a, int b) const {
    if (st_[a].score != st_[b].score) return st_[a].score > st_[b].score;
    return st_[a].pno < st_[b].pno;
  }
  int rank_of(int p) const {
    return int(std::find(ranking_.begin(), ranking_.end(), p) - ranking_.begin());
  }

  bool colour_ok(int p, char c) const {
    if (level_ >= 3) return true;
    const PlayerState& s = st_[p];
    const int cd = s.cd + (c == 'W' ? 1 : -1);
    if (cd > 2 || cd < -2) return false;
    if (level_ == 0 && s.played.size() >= 2 && s.played.back() == c &&
        s.played[s.played.size() - 2] == c)
      return false;
    return true;
  }

  void build_allowed() {
    allowed_.assign(n_, std::vector<char>(n_, 0));
    for (int a = 0; a < n_; ++a)
      for (int b = 0; b < n_; ++b) {
        if (a == b || forbidden_[a][b] || (level_ < 2 && st_[a].met[b])) continue;
        allowed_[a][b] =
            (colour_ok(a, 'W') && colour_ok(b, 'B')) || (colour_ok(a, 'B') && colour_ok(b, 'W'));
      }
  }

  // The players not yet paired (nor given the bye) can all be paired. Tries the last perfect
  // matching found first (its pairs still free, the others paired greedily), which answers
  // most calls of the bracket search; else Edmonds' algorithm.
  bool completable() {
    std::vector<int> free;
    for (int p = 0; p < n_; ++p)
      if (!matched_[p]) free.push_back(p);
    if (free.size() % 2) return false;
    std::vector<int> mate(n_, -1), broken;
    for (int f : free) {
      const int m = last_mate_.empty() ? -1 : last_mate_[f];
      if (m >= 0 && !matched_[m] && allowed_[f][m])
        mate[f] = m;
      else
        broken.push_back(f);
    }
    bool all = true;
    for (size_t i = 0; i < broken.size(); ++i) {
      if (mate[broken[i]] >= 0) continue;
      for (size_t j = i + 1; j < broken.size() && mate[broken[i]] < 0; ++j)
        if (mate[broken[j]] < 0 && allowed_[broken[i]][broken[j]]) {
          mate[broken[i]] = broken[j];
          mate[broken[j]] = broken[i];
        }
      all = all && mate[broken[i]] >= 0;
    }
    if (!all) {
      const size_t m = free.size();
      std::vector<std::vector<char>> adj(m, std::vector<char>(m, 0));
      for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < m; ++j) adj[i][j] = allowed_[free[i]][free[j]];
      const std::vector<int> found = maximum_matching(adj);
      for (size_t i = 0; i < m; ++i) {
        if (found[i] < 0) return false;
        mate[free[i]] = free[found[i]];
      }
    }
    last_mate_ = std::move(mate);
    return true;
  }

  // A lower bound on the colour conflicts among the bracket's players not yet done when all of
  // them but `spare` are paired among themselves: the wishes for one colour beyond those for
  // the other and the players without a wish must pair among themselves.
  int conflict_bound(int spare) const {
    int w = 0, b = 0, z = 0;
    for (size_t k = 0; k < bracket_.size(); ++k) {
      if (done_[k]) continue;
      const Preference& pr = st_[bracket_[k]].pref;
      if (pr.strength == 0)
        ++z;
      else if (pr.colour == 'W')
        ++w;
      else
        ++b;
    }
    return std::max(0, std::abs(w - b) - z - spare) / 2;
  }

  // Both want the same colour: one of them will not get it.
  bool conflict(int a, int b) const {
    return st_[a].pref.strength > 0 && st_[b].pref.strength > 0 &&
           st_[a].pref.colour == st_[b].pref.colour;
  }

  // Score groups from the top; the players a bracket cannot pair float down to the next.
  std::vector<std::pair<int, int>> pair_brackets() {
    std::vector<std::pair<int, int>> all;
    std::vector<int> floaters;
    size_t i = 0;
    std::vector<int> order;
    for (int p : ranking_)
      if (!matched_[p]) order.push_back(p);
    while (i < order.size()) {
      size_t j = i;
      while (j < order.size() && st_[order[j]].score == st_[order[i]].score) ++j;
      bracket_ = floaters;
      const size_t mdps = floaters.size();
      bracket_.insert(bracket_.end(), order.begin() + i, order.begin() + j);
      mdp_.assign(bracket_.size(), 0);
      std::fill(mdp_.begin(), mdp_.begin() + mdps, 1);
      last_ = j == order.size();
      done_.assign(bracket_.size(), 0);
      pairs_.clear();
      best_pairs_.clear();
      best_n_ = -1;
      conflicts_ = 0;
      nodes_ = 0;
      least_conflicts_ = conflict_bound(int(bracket_.size() % 2));
      search();
      floaters.clear();
      for (auto [a, b] : best_pairs_) {
        matched_[a] = matched_[b] = 1;
        all.push_back({a, b});
      }
      for (int p : bracket_)
        if (!matched_[p]) floaters.push_back(p);
      i = j;
    }
    return all;
  }

  // Branch and bound over the bracket in the Dutch order: the most pairs, then the fewest
  // colour conflicts, then the first found. Returns true to stop.
  bool search() {
    ++nodes_;
    size_t i = 0;
    while (i < done_.size() && done_[i]) ++i;
    if (i == done_.size()) {
      const int np = int(pairs_.size());
      if (np > best_n_ || (np == best_n_ && conflicts_ < best_conflicts_)) {
        best_n_ = np;
        best_conflicts_ = conflicts_;
        best_pairs_ = pairs_;
      }
      return (best_n_ == int(bracket_.size() / 2) && best_conflicts_ == least_conflicts_) ||
             nodes_ > kNodeLimit;
    }
    int left = 0;
    for (char d : done_) left += !d;
    const int ub = int(pairs_.size()) + left / 2;
    if (ub < best_n_ || (ub == best_n_ && conflicts_ + conflict_bound(left % 2) >= best_conflicts_))
      return false;

    const int p = bracket_[i];
    done_[i] = 1;
    std::vector<size_t> cands;
    if (mdp_[i]) {
      for (size_t k = i + 1; k < bracket_.size(); ++k)
        if (!done_[k] && !mdp_[k]) cands.push_back(k);
      for (size_t k = i + 1; k < bracket_.size(); ++k)
        if (!done_[k] && mdp_[k]) cands.push_back(k);
    } else {
      std::vector<size_t> rest{i};
      for (size_t k = i + 1; k < bracket_.size(); ++k)
        if (!done_[k]) rest.push_back(k);
      const size_t half = rest.size() / 2;
      for (size_t k = half; k < rest.size(); ++k) cands.push_back(rest[k]);
      for (size_t k = half; k-- > 1;) cands.push_back(rest[k]);
    }
    for (size_t k : cands) {
      const int q = bracket_[k];
      if (!allowed_[p][q]) continue;
      matched_[p] = matched_[q] = 1;
      if (completable()) {
        done_[k] = 1;
        pairs_.push_back({p, q});
        const bool c = conflict(p, q);
        conflicts_ += c;
        const bool stop = search();
        conflicts_ -= c;
        pairs_.pop_back();
        done_[k] = 0;
        if (stop) {
          matched_[p] = matched_[q] = 0;
          done_[i] = 0;
          return true;
        }
      }
      matched_[p] = matched_[q] = 0;
    }
    bool stop = false;
    if (!last_) stop = search();  // p floats down
    done_[i] = 0;
    return stop;
  }

  // Colour allocation (C.04.3 E.1-E.5) for a ranked above b, within what the level allows.
  bool a_takes_white(int a, int b) const {
    const Preference pa = st_[a].pref, pb = st_[b].pref;
    bool a_white;
    if (pa.strength == 0 && pb.strength == 0) {
      a_white = st_[a].pno % 2 == 1;  // E.5, the initial colour is White
    } else if (pb.strength == 0) {
      a_white = pa.colour == 'W';
    } else if (pa.strength == 0) {
      a_white = pb.colour == 'B';
    } else if (pa.colour != pb.colour) {
      a_white = pa.colour == 'W';  // E.1
    } else if (pa.strength != pb.strength ||
               (pa.strength == 3 && std::abs(st_[a].cd) != std::abs(st_[b].cd))) {
      const bool a_stronger = pa.strength != pb.strength
                                  ? pa.strength > pb.strength
                                  : std::abs(st_[a].cd) > std::abs(st_[b].cd);
      a_white = a_stronger ? pa.colour == 'W' : pb.colour == 'B';  // E.2
    } else {
      // E.3: alternate from the latest round in which they had different colours; E.4: the
      // higher-ranked player's preference.
      a_white = pa.colour == 'W';
      const auto& ra = st_[a].by_round;
      const auto& rb = st_[b].by_round;
      for (size_t r = ra.size(); r-- > 0;)
        if (ra[r] != '-' && rb[r] != '-' && ra[r] != rb[r]) {
          a_white = ra[r] == 'B';
          break;
        }
    }
    const bool ok =
        a_white ? colour_ok(a, 'W') && colour_ok(b, 'B') : colour_ok(a, 'B') && colour_ok(b, 'W');
    return ok ? a_white : !a_white;
  }

  static constexpr long kNodeLimit = 20000;
  int n_;
  int active_ = 0;                            // players taking part this round
  std::vector<char> out_;                     // out_[p]: p withdrew or asked for a bye this round
  std::vector<int> half_byes_, zero_byes_;    // the byes asked for this round
  std::vector<std::vector<char>> forbidden_;  // pairs that must not meet
  std::vector<PlayerState> st_;
  std::vector<int> ranking_;
  int level_ = 0;
  std::vector<std::vector<char>> allowed_;
  std::vector<char> matched_;
  // The bracket being searched.
  std::vector<int> bracket_;
  std::vector<char> mdp_, done_;
  bool last_ = false;
  std::vector<std::pair<int, int>> pairs_, best_pairs_;
  int conflicts_ = 0, best_n_ = -1, best_conflicts_ = 0, least_conflicts_ = 0;
  std::vector<int> last_mate_;  // the last perfect matching completable() found
  long nodes_ = 0;
};

}  // namespace

Round pair_swiss_round(const Event& event) {
  return Pairer(event, pairing_half_points(event, int(event.played.size()) + 1)).pair();
}

Round pair_swiss_round(const Event& event, const std::vector<int>& scores) {
  if (scores.size() != event.players.size())
    throw std::invalid_argument("pair_swiss_round: one score per player expected");
  return Pairer(event, scores).pair();
}

}  // namespace toguz::tournament
