#include "tournament/team_standings.h"

#include <algorithm>
#include <numeric>

#include "rules/record.h"
#include "tournament/standings.h"
#include "tournament/tgk.h"

namespace toguz::tournament {

std::vector<TeamTieBreak> team_tie_breaks_of(const TeamEvent& ev) {
  return ev.tie_breaks.empty() ? default_team_tie_breaks(ev.scoring) : ev.tie_breaks;
}

std::vector<std::vector<TeamRoundEntry>> team_round_entries(const TeamEvent& ev) {
  std::vector<std::vector<TeamRoundEntry>> out(ev.teams.size(),
                                               std::vector<TeamRoundEntry>(ev.played.size()));
  for (size_t r = 0; r < ev.played.size(); ++r) {
    for (const TeamMatch& m : ev.played[r].matches) {
      const bool played = match_complete(m) && !match_forfeited(m);
      for (bool home : {true, false})
        out.at(home ? m.home : m.away)[r] = {home ? m.away : m.home, home, match_points(m, home),
                                             match_half_points(m, home), played};
    }
    if (ev.system == System::Swiss)
      for (int t : ev.played[r].byes) out.at(t)[r] = {-1, false, 2, 2 * ev.boards, false};
  }
  return out;
}

namespace {

// A score in points: match points as they are, board points from half points.
double primary_value(const TeamEvent& ev, int match_points, int board_half_points) {
  return ev.scoring == TeamScoring::MatchPoints ? match_points : board_half_points / 2.0;
}

// Every tie-break but direct encounter, which depends on who is tied (below).
double team_tie_break_value(const TeamEvent& ev, TeamTieBreak tb, int team,
                            const std::vector<TeamScore>& scores,
                            const std::vector<std::vector<TeamRoundEntry>>& entries) {
  const TeamScore& own = scores[team];
  double v = 0;
  for (const TeamRoundEntry& e : entries[team]) {
    const TeamScore& opp = e.played ? scores[e.opponent] : own;  // unplayed: the dummy opponent
    if (tb == TeamTieBreak::Buchholz)
      v += primary_value(ev, opp.match_points, opp.board_half_points);
    if (tb == TeamTieBreak::SonnebornBerger) v += opp.match_points * (e.board_half_points / 2.0);
  }
  if (tb == TeamTieBreak::MatchPoints) v = own.match_points;
  if (tb == TeamTieBreak::BoardPoints) v = own.board_half_points / 2.0;
  return v;
}

// Among `group`, the primary score of the matches they played among themselves, if every two
// of them met; else 0 for all.
std::vector<double> team_direct_encounter(const TeamEvent& ev, const std::vector<int>& group,
                                          const std::vector<std::vector<TeamRoundEntry>>& entries) {
  return direct_encounter_among(group, [&](int a, int b) {
    double v = -1;
    for (const TeamRoundEntry& e : entries[a])
      if (e.played && e.opponent == b)
        v = std::max(v, 0.0) + primary_value(ev, e.match_points, e.board_half_points);
    return v;
  });
}

}  // namespace

std::vector<TeamStanding> team_standings(const TeamEvent& ev) {
  const int n = int(ev.teams.size());
  const std::vector<TeamScore> scores = team_scores(ev);
  const auto entries = team_round_entries(ev);
  const std::vector<TeamTieBreak> tbs = team_tie_breaks_of(ev);
  std::vector<int> seed_pos(n);
  const std::vector<int> seed = ev.system == System::Swiss ? team_seed_order(ev) : [n] {
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), 0);
    return v;
  }();
  for (int i = 0; i < n; ++i) seed_pos[seed[i]] = i;
  std::vector<TeamStanding> st(n);
  std::vector<double> pts(n);
  for (int t = 0; t < n; ++t) {
    st[t].team = t;
    st[t].score = scores[t];
    pts[t] = primary_value(ev, scores[t].match_points, scores[t].board_half_points);
    for (TeamTieBreak tb : tbs)
      st[t].tie_breaks.push_back(team_tie_break_value(ev, tb, t, scores, entries));
  }
  std::vector<bool> de_column;
  for (TeamTieBreak tb : tbs) de_column.push_back(tb == TeamTieBreak::DirectEncounter);
  return rank_rows(st, pts, seed_pos, de_column, [&](const std::vector<int>& g) {
    return team_direct_encounter(ev, g, entries);
  });
}

namespace {

// The board's result from one side: its half points, and whether it was a game over the board.
struct SideResult {
  int half_points = 0;
  bool game = false;
  char outcome = '*';  // '1', '0', '=', '+', '-', '*'
};

SideResult side_result(BoardResult r, bool white) {
  SideResult s;
  if (r == BoardResult::Pending) return s;
  s.half_points = white ? white_half_points(r) : black_half_points(r);
  s.game = !is_forfeit(r);
  s.outcome = s.game ? (s.half_points == 2   ? '1'
                        : s.half_points == 1 ? '='
                                             : '0')
                     : (s.half_points == 2 ? '+' : '-');
  return s;
}

// Calls f(round, match, board, team, roster index, white) for every side of every board that
// has a player.
template <typename F>
void for_each_board_side(const TeamEvent& ev, F f) {
  for (size_t r = 0; r < ev.played.size(); ++r)
    for (size_t mi = 0; mi < ev.played[r].matches.size(); ++mi) {
      const TeamMatch& m = ev.played[r].matches[mi];
      for (int b = 0; b < int(m.results.size()); ++b) {
        const auto [h, a] = board_players(m, b);
        if (h >= 0) f(int(r), int(mi), b, m.home, h, home_has_white(b));
        if (a >= 0) f(int(r), int(mi), b, m.away, a, !home_has_white(b));
      }
    }
}

}  // namespace

std::vector<std::vector<BoardPrizeRow>> board_prizes(const TeamEvent& ev) {
  std::vector<std::vector<BoardPrizeRow>> out(ev.boards);
  for_each_board_side(ev, [&](int r, int mi, int b, int team, int player, bool white) {
    const SideResult s = side_result(ev.played[r].matches[mi].results[b], white);
    if (s.outcome == '*') return;
    std::vector<BoardPrizeRow>& rows = out.at(b);
    auto it = std::find_if(rows.begin(), rows.end(), [&](const BoardPrizeRow& x) {
      return x.team == team && x.player == player;
    });
    if (it == rows.end()) it = rows.insert(rows.end(), BoardPrizeRow{team, player, b});
    it->games += s.game;
    it->scored += 1;
    it->half_points += s.half_points;
  });
  for (auto& rows : out)
    std::stable_sort(rows.begin(), rows.end(), [&](const BoardPrizeRow& x, const BoardPrizeRow& y) {
      if (x.half_points != y.half_points) return x.half_points > y.half_points;
      if (x.scored != y.scored) return x.scored < y.scored;
      return ev.teams[x.team].roster[x.player].name < ev.teams[y.team].roster[y.player].name;
    });
  return out;
}

namespace {

// A board's result as the first-named team's player sees it: "1-0" he won.
std::string home_view(BoardResult r, bool home_white) {
  if (r == BoardResult::Pending) return "";
  const SideResult h = side_result(r, home_white), a = side_result(r, !home_white);
  if (!h.game) return std::string(1, h.outcome == '+' ? '+' : '-') + (a.outcome == '+' ? '+' : '-');
  return h.half_points == 1 ? "1/2-1/2" : h.half_points == 2 ? "1-0" : "0-1";
}

std::string member_label(const TeamEvent& ev, int team, int player) {
  return player < 0 ? "-" : player_label(ev.teams[team].roster[player]);
}

}  // namespace

Table team_round_table(const TeamEvent& ev, int round, const ReportWords& w) {
  Table t{{w.match, w.board, w.first_named, w.colour, w.result, w.second_named},
          {true, true, false, false, false, false},
          {}};
  const TeamRound& r = ev.played.at(round - 1);
  for (size_t mi = 0; mi < r.matches.size(); ++mi) {
    const TeamMatch& m = r.matches[mi];
    const std::string score =
        match_complete(m) || std::any_of(m.results.begin(), m.results.end(),
                                         [](BoardResult x) { return x != BoardResult::Pending; })
            ? score_text(match_half_points(m, true)) + "-" + score_text(match_half_points(m, false))
            : "";
    t.rows.push_back(
        {std::to_string(mi + 1), "", ev.teams[m.home].name, "", score, ev.teams[m.away].name});
    for (int b = 0; b < int(m.results.size()); ++b) {
      const auto [h, a] = board_players(m, b);
      t.rows.push_back({"", std::to_string(b + 1), member_label(ev, m.home, h),
                        home_has_white(b) ? w.colour_white : w.colour_black,
                        home_view(m.results[b], home_has_white(b)), member_label(ev, m.away, a)});
    }
  }
  for (int team : r.byes) t.rows.push_back({"", "", ev.teams[team].name, "", w.bye, ""});
  return t;
}

std::string team_tie_break_word(TeamTieBreak t, const ReportWords& w) {
  const size_t i = size_t(t);
  return i < w.team_tie_breaks.size() ? w.team_tie_breaks[i] : std::string(team_tie_break_short(t));
}

Table team_standings_table(const TeamEvent& ev, const std::vector<TeamStanding>& st,
                           const ReportWords& w) {
  Table t{{w.rank, w.team, team_tie_break_word(TeamTieBreak::MatchPoints, w),
           team_tie_break_word(TeamTieBreak::BoardPoints, w)},
          {true, false, true, true},
          {}};
  const std::vector<TeamTieBreak> tbs = team_tie_breaks_of(ev);
  std::vector<size_t> shown;
  for (size_t k = 0; k < tbs.size(); ++k)
    if (tbs[k] != TeamTieBreak::MatchPoints && tbs[k] != TeamTieBreak::BoardPoints) {
      shown.push_back(k);
      t.header.push_back(team_tie_break_word(tbs[k], w));
      t.align_right.push_back(true);
    }
  for (const TeamStanding& s : st) {
    std::string name = ev.teams[s.team].name;
    if (ev.teams[s.team].withdrawn) name += " (" + w.withdrawn + ")";
    std::vector<std::string> row{std::to_string(s.rank), name, std::to_string(s.score.match_points),
                                 score_text(s.score.board_half_points)};
    for (size_t k : shown) row.push_back(tie_break_value(s.tie_breaks[k]));
    t.rows.push_back(std::move(row));
  }
  return t;
}

Table board_prizes_table(const TeamEvent& ev, int board, const ReportWords& w) {
  Table t{{w.rank, w.name, w.team, w.pts, w.boards, w.games, "%"},
          {true, false, false, true, true, true, true},
          {}};
  const auto rows = board_prizes(ev).at(board);
  for (size_t i = 0; i < rows.size(); ++i) {
    const BoardPrizeRow& r = rows[i];
    const int pct = r.scored ? (r.half_points * 50 + r.scored / 2) / r.scored : 0;
    t.rows.push_back({std::to_string(i + 1), player_label(ev.teams[r.team].roster[r.player]),
                      ev.teams[r.team].name, score_text(r.half_points), std::to_string(r.scored),
                      std::to_string(r.games), std::to_string(pct)});
  }
  return t;
}

namespace {

// The team event as html_page's heading reads it: name, site, date, the rounds planned and
// paired.
Event page_header(const TeamEvent& ev) {
  Event e;
  e.name = ev.name, e.site = ev.site, e.date = ev.date;
  e.system = System::Swiss;  // so that total_rounds() is `rounds`
  e.rounds = ev.total_rounds();
  e.played.resize(ev.played.size());
  return e;
}

}  // namespace

std::string team_pairings_page(const TeamEvent& ev, int round, const ReportWords& w) {
  const Event e = page_header(ev);
  return html_page(e,
                   "<h2>" + html_escape(round_heading(e, round, w)) + "</h2>\n" +
                       team_round_table(ev, round, w).html(),
                   w);
}

std::string team_standings_page(const TeamEvent& ev, const ReportWords& w) {
  const Event e = page_header(ev);
  std::string body = "<h2>" + html_escape(standings_heading(e, w)) + "</h2>\n" +
                     team_standings_table(ev, team_standings(ev), w).html() + "<h2>" +
                     html_escape(w.board_prizes) + "</h2>\n";
  for (int b = 0; b < ev.boards; ++b) {
    std::string heading = w.board_n;
    if (const size_t at = heading.find("{n}"); at != std::string::npos)
      heading.replace(at, 3, std::to_string(b + 1));
    body += "<h3>" + html_escape(heading) + "</h3>\n" + board_prizes_table(ev, b, w).html();
  }
  return html_page(e, body, w);
}

Table player_results_table(const TeamEvent& ev) {
  Table t{{"Team", "No", "Name"}, {false, true, false}, {}};
  for (size_t r = 0; r < ev.played.size(); ++r) {
    t.header.push_back(std::to_string(r + 1).insert(0, 1, 'R'));
    t.align_right.push_back(false);
  }
  t.header.push_back("Pts");
  t.align_right.push_back(true);
  std::vector<std::vector<std::vector<std::string>>> cells(ev.teams.size());
  std::vector<std::vector<int>> pts(ev.teams.size());
  for (size_t team = 0; team < ev.teams.size(); ++team) {
    cells[team].assign(ev.teams[team].roster.size(), std::vector<std::string>(ev.played.size()));
    pts[team].assign(ev.teams[team].roster.size(), 0);
  }
  for_each_board_side(ev, [&](int r, int mi, int b, int team, int player, bool white) {
    const SideResult s = side_result(ev.played[r].matches[mi].results[b], white);
    cells[team][player][r] = std::to_string(b + 1) + (white ? "w" : "b") + s.outcome;
    pts[team][player] += s.half_points;
  });
  for (size_t team = 0; team < ev.teams.size(); ++team)
    for (size_t p = 0; p < ev.teams[team].roster.size(); ++p) {
      std::vector<std::string> row{ev.teams[team].name, std::to_string(p + 1),
                                   ev.teams[team].roster[p].name};
      row.insert(row.end(), cells[team][p].begin(), cells[team][p].end());
      row.push_back(score_text(pts[team][p]));
      t.rows.push_back(std::move(row));
    }
  return t;
}

std::string team_event_tgk(const TeamEvent& ev) {
  const IndividualView view = individual_view(ev);
  std::string out;
  for (size_t r = 0; r < ev.played.size(); ++r)
    for (size_t mi = 0; mi < ev.played[r].matches.size(); ++mi) {
      const TeamMatch& m = ev.played[r].matches[mi];
      for (int b = 0; b < int(m.results.size()); ++b) {
        const auto [h, a] = board_players(m, b);
        if (h < 0 || a < 0) continue;
        const bool hw = home_has_white(b);
        const int hp = view.offsets[m.home] + h, ap = view.offsets[m.away] + a;
        const Board board{hw ? hp : ap, hw ? ap : hp, m.results[b], m.moves[b]};
        auto tags = board_tags(view.event, int(r), board);
        tags.push_back({"WhiteTeam", ev.teams[hw ? m.home : m.away].name});
        tags.push_back({"BlackTeam", ev.teams[hw ? m.away : m.home].name});
        tags.push_back({"Board", std::to_string(mi + 1) + "." + std::to_string(b + 1)});
        if (!out.empty()) out += '\n';
        out += write_record(board_game(board), tags, RecordStyle::Tgk);
      }
    }
  return out;
}

}  // namespace toguz::tournament
