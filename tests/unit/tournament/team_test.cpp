// Team events: a round robin of four teams worked by hand (match points, board points, the
// tie-breaks, the board prizes), the Berger team round robin, missing boards and absent teams,
// simulated team Swiss events checked round by round, when an event is finished, the state
// file and the TGK of the games.
#include "tournament/team.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "federation/games.h"
#include "tournament/team_json.h"
#include "tournament/team_standings.h"
#include "tournament/tgk.h"

namespace toguz::tournament {
namespace {

// Teams "A".."": each with `members` players "A1", "A2"... rated from `rating` down.
TeamEvent team_test_event(System system, int teams, int boards, int members, int rounds = 0) {
  TeamEvent ev;
  ev.name = "Team cup";
  ev.date = "2026.12.01";
  ev.system = system;
  ev.rounds = rounds;
  ev.boards = boards;
  for (int t = 0; t < teams; ++t) {
    Team team;
    team.name = std::string(1, char('A' + t));
    for (int m = 0; m < members; ++m) {
      Player p;
      p.name = team.name + std::to_string(m + 1);
      p.rating = 2000 - 10 * t - m;
      team.roster.push_back(p);
    }
    ev.teams.push_back(team);
  }
  return ev;
}

// The result that gives the first-named team's player `home_half` half points on board b.
BoardResult team_test_result(int board, int home_half) {
  const bool white_home = home_has_white(board);
  if (home_half == 1) return BoardResult::Draw;
  return (home_half == 2) == white_home ? BoardResult::WhiteWins : BoardResult::BlackWins;
}

void team_test_play(TeamEvent& ev, int match, const std::vector<int>& home_halves) {
  const int r = int(ev.played.size()) - 1;
  for (int b = 0; b < int(home_halves.size()); ++b)
    set_board_result(ev, r, match, b, team_test_result(b, home_halves[b]));
}

// The hand-worked round robin: A, B, C, D on two boards (docs/tournaments.md "Team events").
// R1 A-D 2-0, B-C 1-1; R2 D-C 1.5-0.5, A-B 0.5-1.5; R3 B-D 1-1, C-A 2-0.
TeamEvent team_test_worked_event() {
  TeamEvent ev = team_test_event(System::RoundRobin, 4, 2, 2);
  const std::vector<std::vector<std::vector<int>>> halves = {
      {{2, 2}, {2, 0}}, {{2, 1}, {1, 0}}, {{0, 2}, {2, 2}}};
  for (const auto& round : halves) {
    add_next_team_round(ev);
    for (int m = 0; m < 2; ++m) team_test_play(ev, m, round[m]);
  }
  return ev;
}

TEST(TeamEvent, BoardColoursAlternateAndTheMatchScores) {
  TeamEvent ev = team_test_event(System::Swiss, 2, 4, 4, 1);
  add_next_team_round(ev);
  const TeamMatch& m = ev.played[0].matches[0];
  EXPECT_EQ(m.home, 0);  // the higher-rated team is first-named in round 1
  EXPECT_EQ(m.home_lineup, (std::vector<int>{0, 1, 2, 3}));
  // Home: board 1 (White) won, board 2 (Black) drawn, board 3 (White) lost, board 4 (Black) won.
  set_board_result(ev, 0, 0, 0, BoardResult::WhiteWins);
  set_board_result(ev, 0, 0, 1, BoardResult::Draw);
  set_board_result(ev, 0, 0, 2, BoardResult::BlackWins);
  set_board_result(ev, 0, 0, 3, BoardResult::BlackWins);
  EXPECT_EQ(match_half_points(m, true), 5);
  EXPECT_EQ(match_half_points(m, false), 3);
  EXPECT_EQ(match_points(m, true), 2);
  EXPECT_EQ(match_points(m, false), 0);
  const IndividualView v = individual_view(ev);
  ASSERT_EQ(v.event.played[0].boards.size(), 4u);
  for (int b = 0; b < 4; ++b) {
    const Board& board = v.event.played[0].boards[b];
    EXPECT_EQ(board.white < v.offsets[1], b % 2 == 0) << "board " << b + 1;
  }
  const std::vector<TeamScore> s = team_scores(ev);
  EXPECT_EQ(s[0].match_points, 2);
  EXPECT_EQ(s[0].board_half_points, 5);
  EXPECT_EQ(s[1].board_half_points, 3);
}

TEST(TeamEvent, HandWorkedRoundRobinStandings) {
  TeamEvent ev = team_test_worked_event();
  // Totals: A 2 MP 2.5 BP, B 4 MP 3.5, C 3 MP 3.5, D 3 MP 2.5. Default tie-breaks BP, DE, TSB.
  std::vector<TeamStanding> st = team_standings(ev);
  std::vector<int> order;
  for (const TeamStanding& s : st) order.push_back(s.team);
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3, 0}));
  EXPECT_EQ(st[1].score.match_points, 3);
  EXPECT_EQ(st[1].score.board_half_points, 7);
  EXPECT_EQ(st[1].tie_breaks, (std::vector<double>{3.5, 0, 9.5}));
  // Direct encounter first: D beat C in round 2. TSB: opponent's MP times the board points
  // scored against him: A 3*2 + 4*0.5 + 3*0 = 8, B 3*1 + 2*1.5 + 3*1 = 9, C 4*1 + 3*0.5 + 2*2 =
  // 9.5, D 2*0 + 3*1.5 + 4*1 = 8.5. Buchholz (opponents' MP): A 10, B 8, C 9, D 9.
  ev.tie_breaks = {TeamTieBreak::DirectEncounter, TeamTieBreak::SonnebornBerger,
                   TeamTieBreak::BoardPoints, TeamTieBreak::Buchholz};
  st = team_standings(ev);
  const std::vector<std::vector<double>> want = {
      {0, 9, 3.5, 8}, {2, 8.5, 2.5, 9}, {0, 9.5, 3.5, 9}, {0, 8, 2.5, 10}};
  const std::vector<int> want_order = {1, 3, 2, 0};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(st[i].team, want_order[i]);
    EXPECT_EQ(st[i].rank, i + 1);
    EXPECT_EQ(st[i].tie_breaks, want[i]) << "place " << i + 1;
  }
  // Board points first: B 3.5, C 3.5 (MP 4 and 3), then D and A (2.5; MP 3 and 2).
  ev.scoring = TeamScoring::BoardPoints;
  ev.tie_breaks.clear();
  order.clear();
  for (const TeamStanding& s : team_standings(ev)) order.push_back(s.team);
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3, 0}));
}

TEST(TeamEvent, BoardPrizesCountEachBoard) {
  const TeamEvent ev = team_test_worked_event();
  // Board 1: D1 2 of 3, A1 1.5, B1 1.5 (by name), C1 1.
  const auto prizes = board_prizes(ev);
  ASSERT_EQ(prizes.size(), 2u);
  std::vector<std::string> names;
  std::vector<int> pts;
  for (const BoardPrizeRow& r : prizes[0]) {
    names.push_back(ev.teams[r.team].roster[r.player].name);
    pts.push_back(r.half_points);
    EXPECT_EQ(r.games, 3);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"D1", "A1", "B1", "C1"}));
  EXPECT_EQ(pts, (std::vector<int>{4, 3, 3, 2}));
  EXPECT_EQ(board_prizes_table(ev, 0).rows[0],
            (std::vector<std::string>{"1", "D1 (1970)", "D", "2", "3", "3", "67"}));
}

TEST(TeamEvent, BergerRoundRobinMeetsEveryTeamOnce) {
  for (int n = 2; n <= 9; ++n)
    for (System sys : {System::RoundRobin, System::DoubleRoundRobin}) {
      TeamEvent ev = team_test_event(sys, n, 2, 3);
      std::map<std::pair<int, int>, int> met;
      while (int(ev.played.size()) < ev.total_rounds()) {
        add_next_team_round(ev);
        EXPECT_FALSE(ev.finished()) << "a board of the round is still to play";
        for (int m = 0; m < int(ev.played.back().matches.size()); ++m) {
          const TeamMatch& tm = ev.played.back().matches[m];
          ++met[{std::min(tm.home, tm.away), std::max(tm.home, tm.away)}];
          team_test_play(ev, m, {1, 2});
        }
      }
      EXPECT_THROW(pair_next_team_round(ev), std::runtime_error);
      EXPECT_TRUE(ev.finished());
      const int times = sys == System::DoubleRoundRobin ? 2 : 1;
      EXPECT_EQ(int(met.size()), n * (n - 1) / 2) << n;
      for (const auto& [pair, count] : met) EXPECT_EQ(count, times) << n;
    }
}

TEST(TeamEvent, MissingBoardsAndAbsentTeamsAreForfeits) {
  TeamEvent ev = team_test_event(System::Swiss, 2, 4, 5, 2);
  add_next_team_round(ev);
  // The second team fields three: reserves play, board 4 is empty.
  set_lineup(ev, 0, 1, {0, 2, 4});
  const TeamMatch& m = ev.played[0].matches[0];
  EXPECT_EQ(board_players(m, 1), (std::pair<int, int>{1, 2}));
  EXPECT_EQ(m.results[3], BoardResult::BlackForfeitWin);  // board 4: the home player is Black
  EXPECT_THROW(set_board_result(ev, 0, 0, 3, BoardResult::WhiteWins), std::invalid_argument);
  EXPECT_THROW(set_lineup(ev, 0, 1, {2, 0}), std::invalid_argument);  // out of roster order
  EXPECT_THROW(set_lineup(ev, 0, 1, {0, 1, 2, 3, 4}), std::invalid_argument);
  set_board_result(ev, 0, 0, 0, BoardResult::Draw);
  EXPECT_THROW(set_lineup(ev, 0, 1, {0, 1, 2, 3}), std::invalid_argument);  // a result is in
  set_board_result(ev, 0, 0, 0, BoardResult::Pending);
  // The second team does not come at all: every board is the first team's.
  set_lineup(ev, 0, 1, {});
  EXPECT_TRUE(match_complete(m));
  EXPECT_TRUE(match_forfeited(m));
  EXPECT_EQ(match_points(m, true), 2);
  EXPECT_EQ(match_half_points(m, true), 8);
  EXPECT_FALSE(team_round_entries(ev)[0][0].played);  // not a match for the tie-breaks
  EXPECT_TRUE(individual_view(ev).event.played[0].boards.empty());
}

// Simulated team Swiss events: every round, each team paired once or given the bye (once at
// most), no two teams meet twice, the first-named difference within -2..+2, board colours
// alternating, and the scores recounted from the board results.
TEST(TeamEvent, SimulatedSwissEventsKeepTheRules) {
  std::mt19937 rng(2026);
  int rounds_paired = 0;
  for (int e = 0; e < 300; ++e) {
    const int n = 3 + int(rng() % 12), boards = 1 + int(rng() % 6);
    // At most half as many rounds as teams: denser events may need the rematch that the Swiss
    // allows as its last resort (docs/tournaments.md, rule 2).
    const int rounds = std::max(1, std::min(n / 2, 2 + int(rng() % 5)));
    TeamEvent ev = team_test_event(System::Swiss, n, boards, boards + int(rng() % 3), rounds);
    ev.scoring = rng() % 3 ? TeamScoring::MatchPoints : TeamScoring::BoardPoints;
    std::set<std::pair<int, int>> met;
    std::vector<int> byes(n, 0), home_diff(n, 0);
    for (int r = 0; r < rounds; ++r) {
      add_next_team_round(ev);
      ++rounds_paired;
      TeamRound& round = ev.played.back();
      std::vector<int> seen(n, 0);
      for (int t : round.byes) ++seen[t], ++byes[t];
      for (int m = 0; m < int(round.matches.size()); ++m) {
        const TeamMatch& tm = round.matches[m];
        ++seen[tm.home], ++seen[tm.away];
        ++home_diff[tm.home], --home_diff[tm.away];
        EXPECT_TRUE(met.insert({std::min(tm.home, tm.away), std::max(tm.home, tm.away)}).second)
            << "event " << e << " round " << r + 1;
        if (boards > 1 && rng() % 4 == 0) {  // a short lineup now and then, never an absent team
          std::vector<int> l = default_lineup(ev, tm.away);
          l.pop_back();
          set_lineup(ev, r, tm.away, l);
        }
        for (int b = 0; b < boards; ++b)
          if (tm.results[b] == BoardResult::Pending)
            set_board_result(ev, r, m, b, BoardResult(1 + rng() % 3));
      }
      for (int t = 0; t < n; ++t) EXPECT_EQ(seen[t], 1) << "event " << e;
      for (int t = 0; t < n; ++t) EXPECT_LE(std::abs(home_diff[t]), 2) << "event " << e;
      EXPECT_LE(round.byes.size(), 1u);
    }
    for (int t = 0; t < n; ++t) EXPECT_LE(byes[t], 1);
    // Recount: board by board, White on the first-named team's odd boards.
    std::vector<int> mp(n, 0), bp(n, 0);
    const IndividualView view = individual_view(ev);
    for (size_t r = 0; r < ev.played.size(); ++r) {
      for (int t : ev.played[r].byes) mp[t] += 2, bp[t] += 2 * boards;
      for (const TeamMatch& tm : ev.played[r].matches) {
        int h = 0, a = 0;
        for (int b = 0; b < boards; ++b) {
          const bool hw = b % 2 == 0;
          h += hw ? white_half_points(tm.results[b]) : black_half_points(tm.results[b]);
          a += hw ? black_half_points(tm.results[b]) : white_half_points(tm.results[b]);
        }
        bp[tm.home] += h, bp[tm.away] += a;
        mp[tm.home] += h > a ? 2 : h == a ? 1 : 0;
        mp[tm.away] += a > h ? 2 : h == a ? 1 : 0;
      }
      for (const Board& b : view.event.played[r].boards) {
        const auto team_of = [&](int p) {
          return int(std::upper_bound(view.offsets.begin(), view.offsets.end(), p) -
                     view.offsets.begin()) -
                 1;
        };
        EXPECT_NE(team_of(b.white), team_of(b.black));
      }
    }
    const std::vector<TeamScore> s = team_scores(ev);
    for (int t = 0; t < n; ++t) {
      EXPECT_EQ(s[t].match_points, mp[t]) << "event " << e << " team " << t;
      EXPECT_EQ(s[t].board_half_points, bp[t]) << "event " << e << " team " << t;
    }
  }
  EXPECT_GT(rounds_paired, 700);
}

TEST(TeamEvent, StateFileRoundTripsAndNamesTheBadField) {
  TeamEvent ev = team_test_worked_event();
  set_board_result(ev, 2, 0, 0, BoardResult::WhiteWins, {6, 8, 5});
  ev.tie_breaks = {TeamTieBreak::Buchholz};
  ev.teams[3].withdrawn = true;
  EXPECT_EQ(team_event_to_json(ev).find("rated"), std::string::npos) << "kept only when set";
  ev.rated = true;
  const std::string text = team_event_to_json(ev);
  const TeamEvent back = team_event_from_json(text);
  EXPECT_EQ(team_event_to_json(back), text);
  EXPECT_TRUE(back.rated);
  EXPECT_EQ(back.played[2].matches[0].moves[0], (std::vector<int>{6, 8, 5}));
  auto refused = [&](const std::string& from, const std::string& to) {
    std::string bad = text;
    bad.replace(bad.find(from), from.size(), to);
    try {
      team_event_from_json(bad);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refused("\"boards\":2", "\"boards\":0"), "boards: expected an integer from 1 to 100");
  EXPECT_EQ(refused("\"home_lineup\":[0,1]", "\"home_lineup\":[1,0]"),
            "played[0].matches[0].home_lineup: expected roster indexes in roster order");
  EXPECT_EQ(refused("\"name\":\"B2\"", "\"name\":\"A1\""),
            "teams[1].roster[1].name: 'A1' is in the event already");
  EXPECT_EQ(refused("\"home_lineup\":[0,1]", "\"home_lineup\":[0]"),
            "played[0].matches[0].boards[1].result: an empty board is +-");
}

TEST(TeamEvent, TgkHasTheBoardsAsGamesBetweenThePlayers) {
  TeamEvent ev = team_test_worked_event();
  set_board_result(ev, 0, 1, 1, BoardResult::BlackForfeitWin);  // B-C board 2: C2 forfeits
  const std::string tgk = team_event_tgk(ev);
  std::vector<federation::SeasonGame> games;
  std::vector<federation::SkippedGame> skipped;
  federation::read_season_games(tgk, "team.tgk", &games, &skipped);
  ASSERT_EQ(games.size(), 11u);  // 3 rounds, 2 matches, 2 boards; one forfeit not rated
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].reason, federation::SkipReason::Forfeit);
  // Round 1, A-D: board 1 A1 (White) beat D1; board 2 D2 (White) lost to A2.
  EXPECT_EQ(games[0].white.name, "A1");
  EXPECT_EQ(games[0].black.name, "D1");
  EXPECT_EQ(games[0].white_half_points, 2);
  EXPECT_EQ(games[1].white.name, "D2");
  EXPECT_EQ(games[1].black.name, "A2");
  EXPECT_EQ(games[1].white_half_points, 0);
  EXPECT_NE(tgk.find("[WhiteTeam \"A\"]"), std::string::npos);
  EXPECT_NE(tgk.find("[Board \"1.2\"]"), std::string::npos);
  const Event back = event_from_tgk(tgk, System::RoundRobin);
  EXPECT_EQ(back.players.size(), 8u);
  EXPECT_EQ(back.played.size(), 3u);
}

}  // namespace
}  // namespace toguz::tournament
