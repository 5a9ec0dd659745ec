#include "tournament/standings.h"

#include <algorithm>
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
  std::vector<double> out(group.size(), 0);
  if (group.size() < 2) return out;
  for (size_t i = 0; i < group.size(); ++i)
    for (size_t j = 0; j < group.size(); ++j) {
      if (i == j) continue;
      bool met = false;
      for (const RoundEntry& e : entries[group[i]])
        if (e.kind == RoundEntry::Game && !e.pending && e.opponent == group[j]) {
          met = true;
          out[i] += e.half_points / 2.0;
        }
      if (!met) return std::vector<double>(group.size(), 0);
    }
  return out;
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
  // Sort key by key; direct encounter is computed among the players equal on every key before.
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  auto equal_before = [&](int a, int b, size_t k) {
    if (pts[a] != pts[b]) return false;
    for (size_t i = 0; i < k; ++i)
      if (st[a].tie_breaks[i] != st[b].tie_breaks[i]) return false;
    return true;
  };
  auto sort_by = [&](size_t k) {  // sort on score and the first k tie-breaks, then pno
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      if (pts[a] != pts[b]) return pts[a] > pts[b];
      for (size_t i = 0; i < k; ++i)
        if (st[a].tie_breaks[i] != st[b].tie_breaks[i])
          return st[a].tie_breaks[i] > st[b].tie_breaks[i];
      return pno[a] < pno[b];
    });
  };
  for (size_t k = 0; k < tbs.size(); ++k) {
    if (tbs[k] != TieBreak::DirectEncounter) continue;
    sort_by(k);
    for (size_t i = 0; i < order.size();) {
      size_t j = i + 1;
      while (j < order.size() && equal_before(order[i], order[j], k)) ++j;
      std::vector<int> group(order.begin() + i, order.begin() + j);
      const std::vector<double> de = direct_encounter(group, entries);
      for (size_t g = 0; g < group.size(); ++g) st[group[g]].tie_breaks[k] = de[g];
      i = j;
    }
  }
  sort_by(tbs.size());
  std::vector<Standing> out;
  for (size_t i = 0; i < order.size(); ++i) {
    Standing s = st[order[i]];
    s.rank =
        i > 0 && equal_before(order[i - 1], order[i], tbs.size()) ? out.back().rank : int(i) + 1;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace toguz::tournament
