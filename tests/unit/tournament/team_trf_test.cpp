// A team event's exchange file (tournament/team_trf.h): a three-team round robin on two boards
// checked column by column, simulated team Swiss and round robin events written, read and
// written again, refusals that name the line and the field, and damaged files refused.
#include "tournament/team_trf.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "tournament/team_json.h"
#include "trf_test_files.h"

namespace toguz::tournament {
namespace {

Player team_trf_player(const std::string& name, int rating, const std::string& title = "") {
  Player p;
  p.name = name;
  p.rating = rating;
  p.title = title;
  return p;
}

Team team_trf_team(const std::string& name, std::vector<Player> roster) {
  Team t;
  t.name = name;
  t.roster = std::move(roster);
  return t;
}

// Astana (3 players), Almaty and Shymkent (2 each) on two boards. Round 1: Almaty-Shymkent,
// Shymkent fields one player (board 2 is Almaty's by forfeit), 1-0 on board 1, Astana rests.
// Round 2: Astana-Almaty with Astana's reserve on board 2, a draw and a win for the reserve.
// Round 3: Shymkent-Astana, Shymkent does not come. The reserve withdraws afterwards.
TeamEvent team_trf_three_teams() {
  TeamEvent ev;
  ev.name = "Team Cup";
  ev.site = "Almaty";
  ev.date = "2026.12.01";
  ev.system = System::RoundRobin;
  ev.boards = 2;
  ev.teams = {team_trf_team("Astana", {team_trf_player("Eleusiz, Nurlan", 2100, "MS"),
                                       team_trf_player("Aktayev, Serik", 2000),
                                       team_trf_player("Reserve, Astana", 1900)}),
              team_trf_team("Almaty", {team_trf_player("Beket, Arman", 2050),
                                       team_trf_player("Kali, Aidana", 1950)}),
              team_trf_team("Shymkent", {team_trf_player("Saparbekov, Sabit", 2000),
                                         team_trf_player("Zhana, Oiynshy", 1900)})};
  add_next_team_round(ev);  // Almaty - Shymkent
  set_lineup(ev, 0, 2, {0});
  set_board_result(ev, 0, 0, 0, BoardResult::WhiteWins);
  add_next_team_round(ev);  // Astana - Almaty
  set_lineup(ev, 1, 0, {0, 2});
  set_board_result(ev, 1, 0, 0, BoardResult::Draw);
  set_board_result(ev, 1, 0, 1, BoardResult::BlackWins);
  add_next_team_round(ev);  // Shymkent - Astana
  set_lineup(ev, 2, 2, {});
  ev.teams[0].roster[2].withdrawn = true;
  return ev;
}

// Teams "A".."": `members` players each, rated from 2000 down, as TeamEvent's tests make them.
TeamEvent team_trf_sim_event(std::mt19937& rng) {
  TeamEvent ev;
  ev.name = "Sim";
  ev.date = "2026.01.02";
  const int kind = int(rng() % 3);
  ev.system = kind == 0 ? System::RoundRobin : System::Swiss;
  const int n = kind == 0 ? 2 + int(rng() % 6) : 3 + int(rng() % 10);
  ev.boards = 1 + int(rng() % 5);
  ev.scoring = rng() % 3 ? TeamScoring::MatchPoints : TeamScoring::BoardPoints;
  for (int t = 0; t < n; ++t) {
    Team team = team_trf_team(std::string(1, char('A' + t)), {});
    for (int m = 0; m < ev.boards + int(rng() % 3); ++m)
      team.roster.push_back(team_trf_player(team.name + std::to_string(m + 1), 2000 - 10 * t - m));
    ev.teams.push_back(team);
  }
  ev.rounds = ev.system == System::Swiss ? std::max(1, n / 2) : 0;
  return ev;
}

// Plays `ev` on: random results and forfeits, a short lineup or an absent team now and then, a
// withdrawal; the last round is perhaps left unfinished.
void team_trf_sim_play(std::mt19937& rng, TeamEvent& ev) {
  const int rounds = int(rng() % (ev.total_rounds() + 1));
  for (int r = 0; r < rounds; ++r) {
    try {
      add_next_team_round(ev);
    } catch (const std::runtime_error&) {
      return;
    }
    TeamRound& round = ev.played.back();
    for (int m = 0; m < int(round.matches.size()); ++m) {
      const TeamMatch& tm = round.matches[m];
      if (rng() % 12 == 0) {
        set_lineup(ev, r, rng() % 2 ? tm.home : tm.away, {});
      } else if (ev.boards > 1 && rng() % 4 == 0) {
        std::vector<int> l = default_lineup(ev, tm.away);
        l.erase(l.begin() + int(rng() % l.size()));
        set_lineup(ev, r, tm.away, l);
      }
      for (int b = 0; b < ev.boards; ++b)
        if (tm.results[b] == BoardResult::Pending)
          set_board_result(ev, r, m, b, BoardResult(1 + rng() % 6));
    }
    if (rng() % 5 == 0) ev.teams[rng() % ev.teams.size()].withdrawn = true;
    if (rng() % 5 == 0) ev.teams[0].roster[0].withdrawn = true;
  }
  if (!ev.played.empty() && !ev.played.back().matches.empty() && rng() % 3 == 0) {
    TeamMatch& m = ev.played.back().matches[0];
    if (forced_result(m, 0) == BoardResult::Pending) m.results[0] = BoardResult::Pending;
  }
}

std::string team_trf_error(const std::string& text) {
  try {
    team_event_from_trf(text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(accepted)";
}

// The matches of a round as "home-away" names, the byes as "bye X".
std::vector<std::string> team_trf_pairs(const TeamEvent& ev) {
  std::vector<std::string> out;
  try {
    const TeamRound r = pair_next_team_round(ev);
    for (const TeamMatch& m : r.matches)
      out.push_back(ev.teams[m.home].name + "-" + ev.teams[m.away].name);
    for (int t : r.byes) out.push_back("bye " + ev.teams[t].name);
  } catch (const std::runtime_error& e) {
    out.push_back(e.what());
  }
  return out;
}

TEST(TeamTrf, AnEventAsTheColumnsSay) {
  // Starting ranks team by team: Astana 1-3, Almaty 4-5, Shymkent 6-7. Standings: Astana 4
  // match points (1.5 + 2 board points), Almaty 2 (2 + 0.5), Shymkent 0.
  const std::string expected =
      "012 Team Cup\n"
      "022 Almaty\n"
      "042 2026/12/01\n"
      "062 7\n"
      "072 7\n"
      "082 3\n"
      "092 Round Robin\n"
      "XXR 3\n"
      "XXT BP DE TSB\n"
      "XXB 2\n"
      "XXS match-points\n"
      "XXD 3\n"
      "001    1  MS  Eleusiz, Nurlan                   2100                             1.5    1   "
      "            4 w =  0000 - +\n"
      "001    2      Aktayev, Serik                    2000                             1.0    1   "
      "                   0000 - +\n"
      "001    3      Reserve, Astana                   1900                             1.0    1   "
      "            5 b 1\n"
      "001    4      Beket, Arman                      2050                             1.5    2   "
      "  6 w 1     1 b =\n"
      "001    5      Kali, Aidana                      1950                             1.0    2  "
      "0000 - +     3 w 0\n"
      "001    6      Saparbekov, Sabit                 2000                             0.0    3   "
      "  4 b 0\n"
      "001    7      Zhana, Oiynshy                    1900                             0.0    3\n"
      "013 Astana                             1    2    3\n"
      "013 Almaty                             4    5\n"
      "013 Shymkent                           6    7\n"
      "320  0.0  0.0   1   3   2\n"
      "330 -+   3   3   1\n";
  const TeamEvent ev = team_trf_three_teams();
  const std::string text = team_event_to_trf(ev);
  EXPECT_EQ(text, expected);
  // The columns (1-based) as the format counts them.
  const std::string kali =
      "001    5      Kali, Aidana                      1950                             1.0    2  "
      "0000 - +     3 w 0";
  EXPECT_EQ(kali.substr(4, 4), "   5");        // 5-8 starting rank
  EXPECT_EQ(kali.substr(48, 4), "1950");       // 49-52 rating
  EXPECT_EQ(kali.substr(80, 4), " 1.0");       // 81-84 the player's points
  EXPECT_EQ(kali.substr(85, 4), "   2");       // 86-89 the team's place
  EXPECT_EQ(kali.substr(91, 8), "0000 - +");   // 92-99 round 1: the empty board's forfeit
  EXPECT_EQ(kali.substr(101, 8), "   3 w 0");  // 102-109 round 2: board 2, White, lost
  const std::string astana = "013 Astana                             1    2    3";
  EXPECT_EQ(astana.substr(4, 32), "Astana                          ");  // 5-36 team name
  EXPECT_EQ(astana.substr(36, 4), "   1");                              // 37-40 board 1
  EXPECT_EQ(astana.substr(41, 4), "   2");                              // 42-45 board 2
  EXPECT_EQ(astana.substr(46, 4), "   3");                              // 47-50 the reserve
  const std::string bye = "320  0.0  0.0   1   3   2";
  EXPECT_EQ(bye.substr(14, 3), "  1");  // 15-17 round 1's bye: Astana
  EXPECT_EQ(bye.substr(18, 3), "  3");  // 19-21 round 2's: Shymkent
  const std::string forfeit = "330 -+   3   3   1";
  EXPECT_EQ(forfeit.substr(4, 2), "-+");    // 5-6 the first-named team did not come
  EXPECT_EQ(forfeit.substr(7, 3), "  3");   // 8-10 round
  EXPECT_EQ(forfeit.substr(11, 3), "  3");  // 12-14 first-named: Shymkent
  EXPECT_EQ(forfeit.substr(15, 3), "  1");  // 16-18 the other: Astana

  const TeamEvent back = team_event_from_trf(text);
  EXPECT_EQ(team_event_to_trf(back), text);
  EXPECT_EQ(back.boards, 2);
  ASSERT_EQ(back.teams.size(), 3u);
  EXPECT_TRUE(back.teams[0].roster[2].withdrawn);
  EXPECT_EQ(back.teams[0].roster[0].title, "MS");
  ASSERT_EQ(back.played.size(), 3u);
  EXPECT_EQ(back.played[0].byes, (std::vector<int>{0}));
  const TeamMatch& r1 = back.played[0].matches[0];
  EXPECT_EQ(r1.home, 1);
  EXPECT_EQ(r1.away_lineup, (std::vector<int>{0}));
  EXPECT_EQ(r1.results[1], BoardResult::BlackForfeitWin);
  EXPECT_EQ(back.played[1].matches[0].home_lineup, (std::vector<int>{0, 2}));
  EXPECT_TRUE(back.played[2].matches[0].home_lineup.empty());
  EXPECT_EQ(back.played[2].matches[0].away_lineup, (std::vector<int>{0, 1}));
  // The state file of the event read back is the original's (no moves were entered).
  EXPECT_EQ(team_event_to_json(back), team_event_to_json(ev));
}

// A file as another program may write it: no XX lines of ours, a player not in the lineup
// marked "0000 - Z". The boards are the most players a team fielded.
TEST(TeamTrf, AnotherProgramsFileWithoutOurLines) {
  std::string text = team_event_to_trf(team_trf_three_teams());
  for (const char* code : {"XXB", "XXS", "XXD"}) {
    const size_t at = text.find(std::string("\n") + code);
    text.erase(at, text.find('\n', at + 1) - at);
  }
  const size_t zhana = text.find("Zhana, Oiynshy");
  text.insert(text.find('\n', zhana), "  0000 - Z");
  const TeamEvent back = team_event_from_trf(text);
  EXPECT_EQ(back.boards, 2);
  EXPECT_EQ(back.scoring, TeamScoring::MatchPoints);
  EXPECT_FALSE(back.teams[0].roster[2].withdrawn);
  ASSERT_EQ(back.played.size(), 3u);
  EXPECT_EQ(back.played[0].matches[0].away_lineup, (std::vector<int>{0}));
  EXPECT_EQ(back.played[0].matches[0].results[1], BoardResult::BlackForfeitWin);
}

TEST(TeamTrf, SimulatedEventsComeBackTheSame) {
  std::mt19937 rng(20261206);
  int rounds = 0, paired = 0;
  for (int trial = 0; trial < 200; ++trial) {
    TeamEvent ev = team_trf_sim_event(rng);
    team_trf_sim_play(rng, ev);
    rounds += int(ev.played.size());
    const std::string text = team_event_to_trf(ev);
    const TeamEvent back = team_event_from_trf(text);
    ASSERT_EQ(team_event_to_trf(back), text) << "trial " << trial << "\n" << text;
    ASSERT_EQ(back.played.size(), ev.played.size()) << "trial " << trial;
    const std::vector<std::string> next = team_trf_pairs(ev);
    EXPECT_EQ(team_trf_pairs(back), next) << "trial " << trial;
    paired += next.size() > 1 || next[0].find('-') != std::string::npos;  // not a refusal
    team_event_from_json(team_event_to_json(back));                       // a whole event
  }
  EXPECT_GT(rounds, 250);
  EXPECT_GT(paired, 50);
}

TEST(TeamTrf, RefusalsNameTheLineAndTheField) {
  const std::string good = team_event_to_trf(team_trf_three_teams());
  auto changed = [&](int index, size_t col, const std::string& text) {
    return trf_line_changed(good, index, col, text);
  };
  EXPECT_EQ(team_trf_error("012 Nobody\n"), "no player lines (001)");
  EXPECT_EQ(team_trf_error(good.substr(0, good.find("013"))), "no team lines (013)");
  struct Damage {
    int line;
    size_t col;
    std::string text, error;
  };
  const Damage damages[] = {
      {9, 5, "0", "line 10, XXB: expected a number from 1 to 100, found '0'"},
      {10, 5, "most-points ",
       "line 11, XXS: expected match-points or board-points, found "
       "'most-points'"},
      {8, 5, "BP XY", "line 9, XXT: no team tie-break 'XY'"},
      {11, 5, "9", "line 12, XXD: expected a number from 1 to 7, found '9'"},
      {19, 47, "   7", "line 22, team player (columns 42-45): player 7 has a team"},
      {21, 5, "        ", "line 22, team name (columns 5-36): empty"},
      {15, 92, "   7",
       "line 16, round 1: board 1 of Almaty against Shymkent: expected player 4 "
       "to meet the first of Shymkent"},
      {15, 97, "b", "line 18, round 1, board 1: the first-named team has White here"},
      {16, 92, "0000 - H",
       "line 17, round 1: a team player without an opponent wins the empty "
       "board by forfeit (0000 - +)"},
      {15, 99, "=", "line 18, round 1, board 1: the results '=' and '0' of one game disagree"},
      {12, 102, "   5",
       "line 13, round 2: board 1 of Astana against Almaty: expected player 1 "
       "to meet the first of Almaty"},
      {22, 15, "  2", "line 23, 320, round 1: team 2 plays in that round"},
      {23, 5, "+-", "line 24, 330 type (columns 5-6): '+-' does not fit the players' entries"},
      {23, 5, "x+", "line 24, 330 type (columns 5-6): expected +-, -+ or --, found 'x+'"},
  };
  for (const Damage& d : damages)
    EXPECT_EQ(team_trf_error(changed(d.line, d.col, d.text)), d.error) << d.text;
  // Without its 330 line, round 3's forfeit wins have no match.
  EXPECT_EQ(team_trf_error(good.substr(0, good.find("330"))),
            "line 13, round 3: the players of Astana have no game and no 330 line names their "
            "forfeited match");
}

TEST(TeamTrf, DamagedFilesAreRefusedNeverCrash) {
  std::mt19937 rng(11);
  TeamEvent ev;
  do {
    ev = team_trf_sim_event(rng);
    team_trf_sim_play(rng, ev);
  } while (ev.played.size() < 2);
  const std::string good = team_event_to_trf(ev);
  int refused = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const std::string text = trf_damaged(good, rng);
    try {
      const TeamEvent back = team_event_from_trf(text);
      team_event_from_json(team_event_to_json(back));  // what is accepted is a whole event
    } catch (const std::runtime_error&) {
      ++refused;
    }
  }
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace toguz::tournament
