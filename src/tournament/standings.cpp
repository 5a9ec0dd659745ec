#include "tournament/standings.h"

#include <algorithm>
#include <functional>
#include <numeric>

namespace toguz::tournament {

std::vector<std::vector<RoundEntry>> round_entries(const Event& event) {
  const size_t n = event.players.size();
  std::vector<std::vector<RoundEntry>> out(n, std::vector<RoundEntry>(event.played.size()));
  for (size_t r = 0; r < event.played.size(); ++r) {
    const Round& round = event.played[r];
    for (const Board& b : round.boards) {
      const RoundEntry::Kind kind = is_forfeit(b.result) ? RoundEntry::Forfeit : RoundEntry::Game;
      const bool pending = b.result == BoardResult::Pending;
      out.at(b.white)[r] = {kind, b.black, 'W', white_half_points(b.result), pending};
      out.at(b.black)[r] = {kind, b.white, 'B', black_half_points(b.result), pending};
    }
    for (int p : round.byes) out.at(p)[r] = {RoundEntry::Bye, -1, '-', event.bye_half_points()};
    for (int p : round.half_byes) out.at(p)[r] = {RoundEntry::Bye, -1, '-', 1};
    for (int p : round.zero_byes) out.at(p)[r] = {RoundEntry::Bye, -1, '-', 0};
  }
  return out;
}

std::vector<TieBreak> tie_breaks_of(const Event& event) {
  return event.tie_breaks.empty() ? default_tie_breaks(event.system) : event.tie_breaks;
}

namespace {

// Points among the players of `group` in the games between them (over the board), or all zero
// unless every two of them have played each other.
std::vector<double> direct_encounter(const std::vector<int>& group,
                                     const std::vector<std::vector<RoundEntry>>& entries) {
  return direct_encounter_among(group, [&](int a, int b) {
    double v = -1;
    for (const RoundEntry& e : entries[a])
      if (e.kind == RoundEntry::Game && !e.pending && e.opponent == b)
        v = std::max(v, 0.0) + e.half_points / 2.0;
    return v;
  });
}

}  // namespace

std::vector<Standing> standings(const Event& event) {
  const int n = int(event.players.size());
  const std::vector<int> pts = half_points(event);
  const auto entries = round_entries(event);
  const std::vector<TieBreak> tbs = tie_breaks_of(event);
  std::vector<int> pno(n);
  {
    const std::vector<int> order =
        event.system == System::Swiss ? pairing_order(event.players) : [&] {
          std::vector<int> o(n);
          std::iota(o.begin(), o.end(), 0);
          return o;
        }();
    for (int i = 0; i < n; ++i) pno[order[i]] = i;
  }

  std::vector<Standing> st(n);
  for (int p = 0; p < n; ++p) {
    st[p].player = p;
    st[p].half_points = pts[p];
    st[p].rounds = entries[p];
  }
  // Each round's contribution to Buchholz: the opponent's score after a game over the board,
  // else the player's own score (an unplayed round counts as a game against himself).
  auto contributions = [&](int p) {
    std::vector<double> c;
    for (const RoundEntry& e : entries[p]) {
      const bool played = e.kind == RoundEntry::Game && !e.pending;
      c.push_back((played ? pts[e.opponent] : pts[p]) / 2.0);
    }
    return c;
  };
  for (int p = 0; p < n; ++p) {
    const std::vector<double> c = contributions(p);
    for (TieBreak t : tbs) {
      double v = 0;
      switch (t) {
        case TieBreak::Buchholz:
          v = std::accumulate(c.begin(), c.end(), 0.0);
          break;
        case TieBreak::BuchholzCut1:
          v = std::accumulate(c.begin(), c.end(), 0.0);
          if (!c.empty()) v -= *std::min_element(c.begin(), c.end());
          break;
        case TieBreak::Median:
          v = std::accumulate(c.begin(), c.end(), 0.0);
          if (c.size() >= 2)
            v -= *std::min_element(c.begin(), c.end()) + *std::max_element(c.begin(), c.end());
          break;
        case TieBreak::SonnebornBerger:
          for (size_t r = 0; r < c.size(); ++r) v += c[r] * entries[p][r].half_points / 2.0;
          break;
        case TieBreak::Wins:
          for (const RoundEntry& e : entries[p])
            v += e.kind == RoundEntry::Game && !e.pending && e.half_points == 2;
          break;
        case TieBreak::DirectEncounter:
          break;  // below: it depends on who is tied
      }
      st[p].tie_breaks.push_back(v);
    }
  }
  std::vector<bool> de_column;
  for (TieBreak t : tbs) de_column.push_back(t == TieBreak::DirectEncounter);
  return rank_rows(st, std::vector<double>(pts.begin(), pts.end()), pno, de_column,
                   [&](const std::vector<int>& g) { return direct_encounter(g, entries); });
}

RankedOrder rank_by_keys(const std::vector<double>& score, std::vector<std::vector<double>>& keys,
                         const std::vector<int>& seed, const std::vector<bool>& de_column,
                         const std::function<std::vector<double>(const std::vector<int>&)>& de) {
  const size_t n = score.size(), nk = de_column.size();
  RankedOrder out;
  out.order.resize(n);
  std::iota(out.order.begin(), out.order.end(), 0);
  std::vector<int>& order = out.order;
  auto equal_before = [&](int a, int b, size_t k) {
    if (score[a] != score[b]) return false;
    for (size_t i = 0; i < k; ++i)
      if (keys[a][i] != keys[b][i]) return false;
    return true;
  };
  auto sort_by = [&](size_t k) {  // sort on score and the first k keys, then the seed
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      if (score[a] != score[b]) return score[a] > score[b];
      for (size_t i = 0; i < k; ++i)
        if (keys[a][i] != keys[b][i]) return keys[a][i] > keys[b][i];
      return seed[a] < seed[b];
    });
  };
  for (size_t k = 0; k < nk; ++k) {
    if (!de_column[k]) continue;
    sort_by(k);
    for (size_t i = 0; i < n;) {
      size_t j = i + 1;
      while (j < n && equal_before(order[i], order[j], k)) ++j;
      const std::vector<int> group(order.begin() + i, order.begin() + j);
      const std::vector<double> v = de(group);
      for (size_t g = 0; g < group.size(); ++g) keys[group[g]][k] = v[g];
      i = j;
    }
  }
  sort_by(nk);
  for (size_t i = 0; i < n; ++i)
    out.rank.push_back(i > 0 && equal_before(order[i - 1], order[i], nk) ? out.rank.back()
                                                                         : int(i) + 1);
  return out;
}

std::vector<double> direct_encounter_among(const std::vector<int>& group,
                                           const std::function<double(int a, int b)>& points) {
  std::vector<double> out(group.size(), 0);
  if (group.size() < 2) return out;
  for (size_t i = 0; i < group.size(); ++i)
    for (size_t j = 0; j < group.size(); ++j) {
      if (i == j) continue;
      const double v = points(group[i], group[j]);
      if (v < 0) return std::vector<double>(group.size(), 0);
      out[i] += v;
    }
  return out;
}

}  // namespace toguz::tournament
