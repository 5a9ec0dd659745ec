// The tournament library: Berger tables against the published FIDE tables, the Swiss pairing's
// guarantees over thousands of simulated events, tie-breaks on hand-worked examples, the arena's
// points, and an over-the-board event's round trip through TGK.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "tournament/arena.h"
#include "tournament/event_json.h"
#include "tournament/matching.h"
#include "tournament/round_robin.h"
#include "tournament/standings.h"
#include "tournament/swiss.h"
#include "tournament/tgk.h"

namespace toguz::tournament {
namespace {

// "1-8, 2-7, 3-6, 4-5" with Berger numbers; byes as "5-rest".
std::string round_text(const Round& r) {
  std::ostringstream out;
  for (const Board& b : r.boards)
    out << (out.tellp() ? ", " : "") << b.white + 1 << "-" << b.black + 1;
  return out.str();
}

// FIDE Handbook C.05 Annex 1, the Berger tables for 4 to 12 players, round by round.
const std::map<int, std::vector<std::string>> kBerger = {
    {4, {"1-4, 2-3", "4-3, 1-2", "2-4, 3-1"}},
    {6, {"1-6, 2-5, 3-4", "6-4, 5-3, 1-2", "2-6, 3-1, 4-5", "6-5, 1-4, 2-3", "3-6, 4-2, 5-1"}},
    {8,
     {"1-8, 2-7, 3-6, 4-5", "8-5, 6-4, 7-3, 1-2", "2-8, 3-1, 4-7, 5-6", "8-6, 7-5, 1-4, 2-3",
      "3-8, 4-2, 5-1, 6-7", "8-7, 1-6, 2-5, 3-4", "4-8, 5-3, 6-2, 7-1"}},
    {10,
     {"1-10, 2-9, 3-8, 4-7, 5-6", "10-6, 7-5, 8-4, 9-3, 1-2", "2-10, 3-1, 4-9, 5-8, 6-7",
      "10-7, 8-6, 9-5, 1-4, 2-3", "3-10, 4-2, 5-1, 6-9, 7-8", "10-8, 9-7, 1-6, 2-5, 3-4",
      "4-10, 5-3, 6-2, 7-1, 8-9", "10-9, 1-8, 2-7, 3-6, 4-5", "5-10, 6-4, 7-3, 8-2, 9-1"}},
    {12,
     {"1-12, 2-11, 3-10, 4-9, 5-8, 6-7", "12-7, 8-6, 9-5, 10-4, 11-3, 1-2",
      "2-12, 3-1, 4-11, 5-10, 6-9, 7-8", "12-8, 9-7, 10-6, 11-5, 1-4, 2-3",
      "3-12, 4-2, 5-1, 6-11, 7-10, 8-9", "12-9, 10-8, 11-7, 1-6, 2-5, 3-4",
      "4-12, 5-3, 6-2, 7-1, 8-11, 9-10", "12-10, 11-9, 1-8, 2-7, 3-6, 4-5",
      "5-12, 6-4, 7-3, 8-2, 9-1, 10-11", "12-11, 1-10, 2-9, 3-8, 4-7, 5-6",
      "6-12, 7-5, 8-4, 9-3, 10-2, 11-1"}},
};

TEST(RoundRobin, BergerTablesAreTheFideTables) {
  for (const auto& [n, rounds] : kBerger) {
    ASSERT_EQ(berger_rounds(n), int(rounds.size()));
    for (size_t r = 0; r < rounds.size(); ++r) {
      const Round round = berger_round(n, int(r) + 1);
      EXPECT_EQ(round_text(round), rounds[r]) << n << " players, round " << r + 1;
      EXPECT_TRUE(round.byes.empty());
    }
  }
}

TEST(RoundRobin, OddNumberRestsTheHighestNumbersOpponent) {
  // 7 players use the table for 8; whoever meets 8 rests.
  const Round r1 = berger_round(7, 1);
  EXPECT_EQ(round_text(r1), "2-7, 3-6, 4-5");
  EXPECT_EQ(r1.byes, std::vector<int>{0});
  const Round r2 = berger_round(7, 2);
  EXPECT_EQ(round_text(r2), "6-4, 7-3, 1-2");
  EXPECT_EQ(r2.byes, std::vector<int>{4});
  EXPECT_EQ(berger_rounds(7), 7);
}

TEST(RoundRobin, EveryoneMeetsEveryoneOnceAndDoubleReversesColours) {
  for (int n = 2; n <= 16; ++n) {
    const int cycle = berger_rounds(n);
    std::map<std::pair<int, int>, int> games;  // (white, black) -> count
    std::vector<int> rests(n, 0);
    std::vector<std::string> colours(n);
    for (int r = 1; r <= 2 * cycle; ++r) {
      const Round round = berger_round(n, r, true);
      std::vector<int> seen(n, 0);
      for (const Board& b : round.boards) {
        ++games[{b.white, b.black}];
        ++seen[b.white];
        ++seen[b.black];
        colours[b.white] += 'W';
        colours[b.black] += 'B';
      }
      for (int p : round.byes) ++seen[p], ++rests[p];
      for (int p = 0; p < n; ++p) EXPECT_EQ(seen[p], 1) << n << " players, round " << r;
    }
    for (int a = 0; a < n; ++a) {
      EXPECT_EQ(rests[a], n % 2 == 0 ? 0 : 2);
      // Never three same colours in a row across the whole double cycle.
      EXPECT_EQ(colours[a].find("WWW"), std::string::npos) << n << " players: " << colours[a];
      EXPECT_EQ(colours[a].find("BBB"), std::string::npos) << n << " players: " << colours[a];
      for (int b = 0; b < n; ++b) {
        if (a == b) continue;
        EXPECT_EQ(games[std::pair(a, b)], 1) << n << " players: " << a + 1 << "-" << b + 1;
      }
    }
  }
  EXPECT_THROW(berger_round(4, 4), std::invalid_argument);
  EXPECT_THROW(berger_round(1, 1), std::invalid_argument);
}

TEST(RoundRobin, EventPairsItsRoundsThenStops) {
  Event ev;
  ev.system = System::RoundRobin;
  for (const char* name : {"P1", "P2", "P3", "P4"}) ev.players.push_back({name, 0, ""});
  ev.played.push_back(pair_next_round(ev));
  EXPECT_THROW(pair_next_round(ev), std::runtime_error);  // results missing
  for (int r = 0; r < 3; ++r) {
    for (Board& b : ev.played.back().boards) b.result = BoardResult::Draw;
    if (r < 2) ev.played.push_back(pair_next_round(ev));
  }
  EXPECT_EQ(round_text(ev.played[2]), "2-4, 3-1");
  EXPECT_THROW(pair_next_round(ev), std::runtime_error);  // every round paired
}

// ---- Swiss ----

Event swiss_event(int players, int rounds, std::mt19937& rng) {
  Event ev;
  ev.system = System::Swiss;
  ev.rounds = rounds;
  std::uniform_int_distribution<int> rating(1200, 2200);
  for (int i = 0; i < players; ++i)
    ev.players.push_back({std::string("P") + std::to_string(i), rating(rng), ""});
  return ev;
}

void random_results(Round& round, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(0, 9);
  for (Board& b : round.boards) {
    const int x = d(rng);
    b.result = x < 4 ? BoardResult::WhiteWins : x < 7 ? BoardResult::BlackWins : BoardResult::Draw;
  }
}

// Whether the round could have been paired without a rematch: every player paired or given a bye
// he has not had, each pair new, and some colour allocation keeping every colour difference
// within -2..+2. Plain backtracking, independent of the pairing code.
bool rematch_free_pairing_exists(const Event& ev) {
  const int n = int(ev.players.size());
  std::vector<int> cd(n, 0);
  std::vector<char> had_bye(n, 0);
  std::set<std::pair<int, int>> met;
  for (const Round& r : ev.played) {
    for (int p : r.byes) had_bye[p] = 1;
    for (const Board& b : r.boards) {
      ++cd[b.white];
      --cd[b.black];
      met.insert({b.white, b.black});
      met.insert({b.black, b.white});
    }
  }
  auto ok = [&](int a, int b) {
    if (met.count({a, b})) return false;
    return (cd[a] + 1 <= 2 && cd[b] - 1 >= -2) || (cd[a] - 1 >= -2 && cd[b] + 1 <= 2);
  };
  std::vector<char> used(n, 0);
  std::function<bool()> match = [&]() {
    int a = 0;
    while (a < n && used[a]) ++a;
    if (a == n) return true;
    used[a] = 1;
    for (int b = a + 1; b < n; ++b)
      if (!used[b] && ok(a, b)) {
        used[b] = 1;
        if (match()) return true;
        used[b] = 0;
      }
    used[a] = 0;
    return false;
  };
  if (n % 2 == 0) return match();
  for (int p = 0; p < n; ++p) {
    if (had_bye[p]) continue;
    used[p] = 1;
    if (match()) return true;
    used[p] = 0;
  }
  return false;
}

TEST(Swiss, MatchingIsMaximumOnSmallGraphs) {
  // Against brute force on random graphs of up to 9 vertices (odd cycles need blossoms).
  std::mt19937 rng(7);
  for (int t = 0; t < 300; ++t) {
    const int n = 2 + t % 8;
    std::vector<std::vector<char>> adj(n, std::vector<char>(n, 0));
    std::bernoulli_distribution edge(0.35);
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) adj[i][j] = adj[j][i] = edge(rng);
    const std::vector<int> mate = maximum_matching(adj);
    int size = 0;
    for (int i = 0; i < n; ++i) {
      if (mate[i] < 0) continue;
      ASSERT_EQ(mate[mate[i]], i);
      ASSERT_TRUE(adj[i][mate[i]]);
      ++size;
    }
    std::function<int(int, std::vector<char>&)> best = [&](int i, std::vector<char>& used) {
      while (i < n && used[i]) ++i;
      if (i >= n) return 0;
      used[i] = 1;
      int b = best(i + 1, used);
      for (int j = i + 1; j < n; ++j)
        if (!used[j] && adj[i][j]) {
          used[j] = 1;
          b = std::max(b, 1 + best(i + 1, used));
          used[j] = 0;
        }
      used[i] = 0;
      return b;
    };
    std::vector<char> used(n, 0);
    EXPECT_EQ(size / 2, best(0, used)) << "graph " << t;
  }
}

TEST(Swiss, FirstRoundFoldsTheTopHalfOntoTheBottomHalf) {
  Event ev;
  ev.system = System::Swiss;
  ev.rounds = 5;
  // Entered in any order; pairing numbers follow the rating.
  for (int r : {1500, 1800, 1600, 2000, 1700, 1900, 1400, 2100})
    ev.players.push_back({std::string("R") + std::to_string(r), r, ""});
  auto name = [&](int p) { return ev.players[p].name; };
  const Round r1 = pair_swiss_round(ev);
  std::vector<std::string> boards;
  for (const Board& b : r1.boards) boards.push_back(name(b.white) + "-" + name(b.black));
  // #1-#5, #6-#2, #3-#7, #8-#4: the higher-ranked player takes White on odd pairing numbers.
  EXPECT_EQ(boards,
            (std::vector<std::string>{"R2100-R1700", "R1600-R2000", "R1900-R1500", "R1400-R1800"}));
}

TEST(Swiss, SecondRoundPairsScoreGroupsAndGrantsColours) {
  Event ev;
  ev.system = System::Swiss;
  ev.rounds = 3;
  for (int i = 1; i <= 8; ++i) ev.players.push_back({std::to_string(i), 2000 - i, ""});
  ev.played.push_back(pair_swiss_round(ev));
  // 1-5, 6-2, 3-7, 8-4, the higher-rated player winning each.
  for (Board& b : ev.played[0].boards)
    b.result = b.white < b.black ? BoardResult::WhiteWins : BoardResult::BlackWins;
  const Round r2 = pair_swiss_round(ev);
  std::vector<std::string> boards;
  for (const Board& b : r2.boards)
    boards.push_back(ev.players[b.white].name + "-" + ev.players[b.black].name);
  // Group 1: {1,2,3,4}, S1 {1,2}, S2 {3,4}. 1-3 and 2-4 would leave two colour wishes unmet (1
  // and 3 both had White, 2 and 4 Black); the transposition 1-4, 2-3 none (FIDE C.12 comes
  // before the order of transpositions). Group 0 likewise: 5-8, 6-7.
  EXPECT_EQ(boards, (std::vector<std::string>{"4-1", "2-3", "5-8", "7-6"}));
}

TEST(Swiss, OddNumberGivesTheByeToTheLowestRankedOnce) {
  Event ev;
  ev.system = System::Swiss;
  ev.rounds = 4;
  for (int i = 1; i <= 5; ++i) ev.players.push_back({std::to_string(i), 2000 - i, ""});
  std::set<int> byes;
  for (int r = 0; r < 4; ++r) {
    ev.played.push_back(pair_swiss_round(ev));
    ASSERT_EQ(ev.played.back().byes.size(), 1u);
    const int bye = ev.played.back().byes[0];
    EXPECT_TRUE(byes.insert(bye).second) << "a second bye for " << bye + 1;
    if (r == 0) {
      EXPECT_EQ(bye, 4);  // the lowest-rated
    }
    for (Board& b : ev.played.back().boards) b.result = BoardResult::WhiteWins;
  }
  EXPECT_EQ(half_points(ev)[ev.played[0].byes[0]] >= 2, true);  // a bye is worth a point
}

TEST(Swiss, AForfeitWinCountsAsTheBye) {
  Event ev;
  ev.system = System::Swiss;
  ev.rounds = 3;
  for (const char* n : {"A", "B", "C", "D", "E"}) ev.players.push_back({n, 0, ""});
  // R1: A-B 1-0, C-D 1-0, E bye.  R2: E-D won by D on forfeit, A-C 1/2, B bye.
  // Now A 1.5, C 1.5, B 1, D 1, E 1: among the lowest, E and B have had the bye and D a forfeit
  // win, so the bye goes up to C.
  ev.played = {
      Round{{Board{0, 1, BoardResult::WhiteWins, {}}, Board{2, 3, BoardResult::WhiteWins, {}}},
            {4}},
      Round{{Board{4, 3, BoardResult::BlackForfeitWin, {}}, Board{0, 2, BoardResult::Draw, {}}},
            {1}}};
  EXPECT_EQ(pair_swiss_round(ev).byes, std::vector<int>{2});
  // Without the forfeit (D won over the board) D, the lowest-ranked eligible, gets it.
  ev.played[1].boards[0].result = BoardResult::BlackWins;
  EXPECT_EQ(pair_swiss_round(ev).byes, std::vector<int>{3});
}

// Thousands of simulated events with random results: every round pairs everyone, no one gets a
// second bye, no colour difference leaves -2..+2, and a pair meets again only when no pairing
// without a rematch existed.
TEST(Swiss, SimulatedEventsKeepTheAbsoluteRules) {
  std::mt19937 rng(2026);
  int events = 0, rounds_paired = 0, rematches = 0;
  for (; events < 2000; ++events) {
    const int n = 3 + events % 14;  // 3..16 players
    const int rounds = std::min(n - 1 + events % 3, 3 + events % 7);
    Event ev = swiss_event(n, rounds, rng);
    std::set<std::pair<int, int>> met;
    std::vector<int> cd(n, 0), byes(n, 0);
    for (int r = 0; r < rounds; ++r) {
      const bool avoidable = rematch_free_pairing_exists(ev);
      Round round = pair_swiss_round(ev);
      ++rounds_paired;
      std::vector<int> seen(n, 0);
      for (int p : round.byes) ++seen[p], ++byes[p];
      ASSERT_EQ(round.byes.size(), size_t(n % 2)) << "event " << events << " round " << r + 1;
      for (const Board& b : round.boards) {
        ++seen[b.white];
        ++seen[b.black];
        ++cd[b.white];
        --cd[b.black];
        if (!met.insert({std::min(b.white, b.black), std::max(b.white, b.black)}).second) {
          ++rematches;
          ASSERT_FALSE(avoidable) << "event " << events << " round " << r + 1 << ": " << b.white
                                  << "-" << b.black << " met before";
        }
      }
      for (int p = 0; p < n; ++p) {
        ASSERT_EQ(seen[p], 1) << "event " << events << " round " << r + 1 << " player " << p;
        ASSERT_LE(byes[p], 1) << "event " << events << " player " << p;
        ASSERT_LE(std::abs(cd[p]), 2)
            << "event " << events << " round " << r + 1 << " player " << p;
      }
      random_results(round, rng);
      ev.played.push_back(std::move(round));
    }
  }
  EXPECT_EQ(events, 2000);
  RecordProperty("rounds", rounds_paired);
  RecordProperty("rematches", rematches);
  std::cout << events << " events, " << rounds_paired << " rounds, " << rematches
            << " unavoidable rematches\n";
}

// ---- Standings ----

Board game(int w, int b, BoardResult r) {
  return Board{w, b, r, {}};
}
constexpr BoardResult kW = BoardResult::WhiteWins, kB = BoardResult::BlackWins,
                      kD = BoardResult::Draw;

// A, B, C, D, E (indexes 0..4), three Swiss rounds with a bye in each:
//   R1: A-B 1-0, C-D 1/2, E bye    R2: E-A 0-1, B-C 1-0, D bye    R3: A-C 1/2, D-E 1-0, B bye
// Scores: A 2.5, B 2, C 1, D 2.5, E 1. Worked by hand (an unplayed round counts the player's
// own score in Buchholz and Sonneborn-Berger):
//   Buchholz  A 2+1+1 = 4      B 2.5+1+2 = 5.5    C 2.5+2+2.5 = 7    D 1+2.5+1 = 4.5   E 1+2.5+2.5
//   = 6 BH cut 1  A 3              B 4.5              C 5                D 3.5             E 5 SB
//   A 2+1+0.5 = 3.5  B 0+1+2 = 3        C 1.25+0+1.25 = 2.5 D 0.5+2.5+1 = 4  E 1+0+0 = 1 wins A 2
//   B 1                C 0                D 1               E 0
Event hand_worked_swiss() {
  Event ev;
  ev.system = System::Swiss;
  ev.rounds = 3;
  for (const char* n : {"A", "B", "C", "D", "E"}) ev.players.push_back({n, 0, ""});
  ev.played = {Round{{game(0, 1, kW), game(2, 3, kD)}, {4}},
               Round{{game(4, 0, kB), game(1, 2, kW)}, {3}},
               Round{{game(0, 2, kD), game(3, 4, kW)}, {1}}};
  return ev;
}

TEST(Standings, SwissTieBreaksWorkedByHand) {
  const Event ev = hand_worked_swiss();
  const std::vector<Standing> st = standings(ev);
  // Default Swiss order: BH-1, BH, SB, W, DE.
  std::vector<std::string> order;
  for (const Standing& s : st) order.push_back(ev.players[s.player].name);
  EXPECT_EQ(order, (std::vector<std::string>{"D", "A", "B", "C", "E"}));
  std::map<std::string, std::vector<double>> tb;
  std::map<std::string, int> pts;
  for (const Standing& s : st) {
    tb[ev.players[s.player].name] = s.tie_breaks;
    pts[ev.players[s.player].name] = s.half_points;
  }
  EXPECT_EQ(pts, (std::map<std::string, int>{{"A", 5}, {"B", 4}, {"C", 2}, {"D", 5}, {"E", 2}}));
  EXPECT_EQ(tb["A"], (std::vector<double>{3, 4, 3.5, 2, 0}));
  EXPECT_EQ(tb["B"], (std::vector<double>{4.5, 5.5, 3, 1, 0}));
  EXPECT_EQ(tb["C"], (std::vector<double>{5, 7, 2.5, 0, 0}));
  EXPECT_EQ(tb["D"], (std::vector<double>{3.5, 4.5, 4, 1, 0}));  // D and A never met: DE 0
  EXPECT_EQ(tb["E"], (std::vector<double>{5, 6, 1, 0, 0}));
  std::vector<int> ranks;
  for (const Standing& s : st) ranks.push_back(s.rank);
  EXPECT_EQ(ranks, (std::vector<int>{1, 2, 3, 4, 5}));  // C and E split by BH after BH-1

  // The crosstable rows: A's rounds.
  const auto& a = st[1].rounds;
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].opponent, 1);
  EXPECT_EQ(a[0].colour, 'W');
  EXPECT_EQ(a[1].colour, 'B');
  EXPECT_EQ(a[2].half_points, 1);
  EXPECT_EQ(st[0].rounds[1].kind, RoundEntry::Bye);  // D's bye in round 2
}

// A round robin of four (Berger: R1 1-4, 2-3; R2 4-3, 1-2; R3 2-4, 3-1):
//   R1: A-D 0-1, B-C 1-0    R2: D-C 0-1, A-B 1-0    R3: B-D 1-0, C-A 0-1
// Scores A 2, B 2, C 1, D 1. A beat B: DE puts A first. C beat D: DE puts C third, though
// Sonneborn-Berger alone (C: D 1 x 1 = 1; D: A 2 x 1 = 2) would put D third.
TEST(Standings, DirectEncounterAmongTiedPlayers) {
  Event ev;
  ev.system = System::RoundRobin;
  for (const char* n : {"A", "B", "C", "D"}) ev.players.push_back({n, 0, ""});
  ev.played = {Round{{game(0, 3, kB), game(1, 2, kW)}, {}},
               Round{{game(3, 2, kB), game(0, 1, kW)}, {}},
               Round{{game(1, 3, kW), game(2, 0, kB)}, {}}};
  auto names = [&](const std::vector<Standing>& st) {
    std::string out;
    for (const Standing& s : st) out += ev.players[s.player].name;
    return out;
  };
  std::vector<Standing> st = standings(ev);  // DE, SB, W
  EXPECT_EQ(names(st), "ABCD");
  EXPECT_EQ(st[0].tie_breaks[0], 1);  // A's point against B
  EXPECT_EQ(st[1].tie_breaks[0], 0);
  EXPECT_EQ(st[0].tie_breaks[1], 3);  // SB: A beat B (2) and C (1)
  EXPECT_EQ(st[2].tie_breaks[1], 1);
  EXPECT_EQ(st[3].tie_breaks[1], 2);
  ev.tie_breaks = {TieBreak::SonnebornBerger};
  EXPECT_EQ(names(standings(ev)), "ABDC");
  // Direct encounter is only used when every tied player met every other: with the tie-break
  // list {DE} alone and three players on equal points without all games played, it is 0.
  ev.tie_breaks = {TieBreak::DirectEncounter};
  ev.played.pop_back();  // after two rounds: A 1, B 1, C 1, D 1, and not everyone has met
  for (const Standing& s : standings(ev)) EXPECT_EQ(s.tie_breaks[0], 0);
}

TEST(Standings, RanksAreSharedOnlyWhenEverythingIsEqual) {
  Event ev;
  ev.system = System::RoundRobin;
  for (const char* n : {"A", "B"}) ev.players.push_back({n, 0, ""});
  ev.played = {Round{{game(0, 1, kD)}, {}}};
  const std::vector<Standing> st = standings(ev);
  EXPECT_EQ(st[0].rank, 1);
  EXPECT_EQ(st[1].rank, 1);
  EXPECT_EQ(st[0].player, 0);  // then pairing order
}

// ---- Arena ----

TEST(Arena, PairsByScoreAndCountsStreaksAsLichess) {
  Arena arena(100, 600);
  for (int r : {2000, 1900, 1800, 1700}) arena.join({std::string("P") + std::to_string(r), r, ""});
  auto pairs = [&](const std::vector<int>& games) {
    std::vector<std::pair<int, int>> out;
    for (int g : games) out.push_back({arena.games()[g].white, arena.games()[g].black});
    return out;
  };
  using P = std::vector<std::pair<int, int>>;
  EXPECT_TRUE(arena.pair(99).empty());  // not started
  std::vector<int> g = arena.pair(100);
  EXPECT_EQ(pairs(g), (P{{0, 1}, {2, 3}}));  // by rating at 0 points
  EXPECT_TRUE(arena.pair(101).empty());      // everyone is playing
  arena.finish(g[0], BoardResult::WhiteWins);
  arena.finish(g[1], BoardResult::BlackWins);
  EXPECT_EQ(arena.entries()[0].points, 2);
  EXPECT_EQ(arena.entries()[3].points, 2);

  g = arena.pair(200);
  // P0 (2) meets P3 (2); P3 has had White less often. P1-P2 next.
  EXPECT_EQ(pairs(g), (P{{3, 0}, {1, 2}}));
  arena.finish(g[0], BoardResult::BlackWins);  // P0's second win in a row: 2 points
  arena.finish(g[1], BoardResult::Draw);
  EXPECT_EQ(arena.entries()[0].points, 4);
  EXPECT_EQ(arena.entries()[0].streak, 2);
  EXPECT_EQ(arena.entries()[1].points, 1);

  g = arena.pair(300);
  // P0 (4) would meet P3 (2) again right away: he takes P1 (1) instead; P3 meets P2 (one White
  // in two games each: the higher-ranked P3 takes White).
  EXPECT_EQ(pairs(g), (P{{0, 1}, {3, 2}}));
  arena.finish(g[0], BoardResult::WhiteWins);  // on a streak: 4 points
  EXPECT_EQ(arena.entries()[0].points, 8);
  arena.pause(2);
  arena.finish(g[1], BoardResult::Draw);
  g = arena.pair(400);
  EXPECT_EQ(pairs(g), (P{{0, 3}}));       // P2 is paused; P1 waits alone
  arena.finish(g[0], BoardResult::Draw);  // a draw on a streak: 2 points, streak over
  EXPECT_EQ(arena.entries()[0].points, 10);
  EXPECT_EQ(arena.entries()[0].streak, 0);
  EXPECT_EQ(arena.entries()[3].points, 4);  // 2 + 1 + 1

  arena.resume(2);
  g = arena.pair(699);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_TRUE(arena.pair(700).empty());        // over: nothing new is paired
  arena.finish(g[0], BoardResult::WhiteWins);  // a game that ends after the end still counts
  EXPECT_EQ(arena.entries()[arena.games()[g[0]].white].wins >= 1, true);
  EXPECT_THROW(arena.finish(g[0], BoardResult::Draw), std::invalid_argument);
  EXPECT_THROW(arena.finish(99, BoardResult::Draw), std::invalid_argument);
  EXPECT_EQ(arena.ranking().front(), 0);
}

TEST(Arena, TwoPlayersMeetAgainWhenNoOneElseWaits) {
  Arena arena(0, 100);
  arena.join({"A", 1500, ""});
  arena.join({"B", 1500, ""});
  for (int i = 0; i < 3; ++i) {
    const std::vector<int> g = arena.pair(i);
    ASSERT_EQ(g.size(), 1u);
    arena.finish(g[0], BoardResult::WhiteWins);
  }
  // Colours alternate by share of Whites.
  EXPECT_EQ(arena.games()[0].white, 0);
  EXPECT_EQ(arena.games()[1].white, 1);
  EXPECT_EQ(arena.entries()[0].points + arena.entries()[1].points, 6);
}

// A game one side never began is his lost game and no game at all for the other: no points,
// the other's streak kept, both free again.
TEST(Arena, ANoShowIsNoWinForTheOther) {
  Arena arena(0, 1000);
  for (const char* n : {"A", "B", "C"}) arena.join({n, 1500, ""});
  std::vector<int> g = arena.pair(0);
  ASSERT_EQ(g.size(), 1u);
  const int w = arena.games()[g[0]].white;
  arena.finish(g[0], BoardResult::WhiteWins);
  g = arena.pair(1);  // the winner and the third: the winner wins again, a streak of 2
  ASSERT_EQ(g.size(), 1u);
  const Arena::Game& second = arena.games()[g[0]];
  arena.finish(g[0], second.white == w ? BoardResult::WhiteWins : BoardResult::BlackWins);
  EXPECT_EQ(arena.entries()[w].streak, 2);
  g = arena.pair(2);  // the other two (the streaker met both last)
  ASSERT_EQ(g.size(), 1u);
  const Arena::Game& third = arena.games()[g[0]];
  const Arena::Entry x = arena.entries()[third.white], y = arena.entries()[third.black];
  // Black never starts: White neither wins nor loses anything, his streak kept.
  arena.no_show(g[0], BoardResult::WhiteForfeitWin);
  EXPECT_TRUE(arena.games()[g[0]].no_show);
  const Arena::Entry& present = arena.entries()[third.white];
  const Arena::Entry& absent = arena.entries()[third.black];
  EXPECT_EQ(present.points, x.points);
  EXPECT_EQ(present.streak, x.streak);
  EXPECT_EQ(present.games, x.games);
  EXPECT_EQ(absent.points, y.points);
  EXPECT_EQ(absent.streak, 0);
  EXPECT_EQ(absent.games, y.games + 1);
  EXPECT_FALSE(present.playing);
  EXPECT_FALSE(absent.playing);
  EXPECT_THROW(arena.no_show(g[0], BoardResult::WhiteForfeitWin), std::invalid_argument);
  g = arena.pair(3);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_THROW(arena.no_show(g[0], BoardResult::WhiteWins), std::invalid_argument);
}

// ---- Over-the-board games and TGK ----

const std::vector<std::string> kMasterGame = {"1.", "65", "87", "2.", "55", "99", "3.", "34", "35",
                                              "4.", "34", "89", "5.", "91", "45", "6.", "48", "92",
                                              "7.", "62", "78", "8.", "91", "58", "9.", "15"};

TEST(OverTheBoard, MovesAreCheckedAsTyped) {
  const std::vector<int> holes = check_moves(kMasterGame, BoardResult::WhiteWins);
  EXPECT_EQ(holes, (std::vector<int>{6, 8, 5, 9, 3, 3, 3, 8, 9, 4, 4, 9, 6, 7, 9, 5, 1}));
  EXPECT_TRUE(check_moves({}, BoardResult::Draw).empty());
  auto error_of = [](const std::vector<std::string>& tokens, BoardResult r) {
    try {
      check_moves(tokens, r);
    } catch (const MoveError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of({"65", "88"}, BoardResult::Draw),
            "move 1 (Black), '88': last stone falls in hole 7, not 8 (expected 87)");
  EXPECT_EQ(error_of({"65", "x7"}, BoardResult::Draw),
            "move 1 (Black), 'x7': not a move: expected a move: a hole digit 1-9, then optionally "
            "the landing hole, X/x, (n)");
  EXPECT_EQ(error_of({"65", "87", "55", "99(12)", "34(21)"}, BoardResult::Draw),
            "move 3 (White), '34(21)': the mover's kazna is 22 after the move, not 21 (expected "
            "34 (22))");
  EXPECT_EQ(error_of({"65"}, BoardResult::WhiteForfeitWin), "a forfeit has no moves");
}

TEST(OverTheBoard, EventRoundTripsThroughTgk) {
  Event ev;
  ev.name = "Кубок РК";
  ev.site = "Astana, KZ";
  ev.date = "2026.12.01";
  ev.system = System::Swiss;
  ev.rounds = 2;
  ev.players = {{"Кажгалиев Темірлан", 2105, "MS"},
                {"Сапарбеков Сәбит", 1980, ""},
                {"Eleusiz, Nurlan", 2200, "GM"},
                {"Aktayev, Serik", 0, ""},
                {"Bye Taker", 1500, ""}};
  ev.played.push_back(pair_swiss_round(ev));
  ASSERT_EQ(ev.played[0].boards.size(), 2u);
  ev.played[0].boards[0].moves = check_moves(kMasterGame, BoardResult::WhiteWins);
  ev.played[0].boards[0].result = BoardResult::WhiteWins;
  ev.played[0].boards[1].result = BoardResult::BlackForfeitWin;
  ev.played.push_back(pair_swiss_round(ev));
  for (Board& b : ev.played[1].boards) b.result = BoardResult::Draw;

  const std::string tgk = event_tgk(ev);
  EXPECT_NE(tgk.find("[Event \"Кубок РК\"]\n[Site \"Astana, KZ\"]\n[Date \"2026.12.01\"]\n"
                     "[Round \"1\"]\n"),
            std::string::npos)
      << tgk;
  EXPECT_NE(tgk.find("[WhiteTitle \"GM\"]"), std::string::npos);
  EXPECT_NE(tgk.find("[Termination \"forfeit\"]"), std::string::npos);
  EXPECT_NE(tgk.find("\n9. 15\n"), std::string::npos);

  const Event back = event_from_tgk(tgk, System::Swiss);
  EXPECT_EQ(back.name, ev.name);
  EXPECT_EQ(back.site, ev.site);
  EXPECT_EQ(back.date, ev.date);
  ASSERT_EQ(back.played.size(), ev.played.size());
  auto name_of = [](const Event& e, int p) { return e.players[p].name; };
  for (size_t r = 0; r < ev.played.size(); ++r) {
    ASSERT_EQ(back.played[r].boards.size(), ev.played[r].boards.size());
    for (size_t b = 0; b < ev.played[r].boards.size(); ++b) {
      const Board& x = ev.played[r].boards[b];
      const Board& y = back.played[r].boards[b];
      EXPECT_EQ(name_of(back, y.white), name_of(ev, x.white));
      EXPECT_EQ(name_of(back, y.black), name_of(ev, x.black));
      EXPECT_EQ(y.result, x.result);
      EXPECT_EQ(y.moves, x.moves);
    }
    ASSERT_EQ(back.played[r].byes.size(), 1u);
    EXPECT_EQ(name_of(back, back.played[r].byes[0]), name_of(ev, ev.played[r].byes[0]));
  }
  for (const Player& p : back.players) {
    auto it = std::find_if(ev.players.begin(), ev.players.end(),
                           [&](const Player& q) { return q.name == p.name; });
    ASSERT_NE(it, ev.players.end());
    EXPECT_EQ(p.rating, it->rating);
    EXPECT_EQ(p.title, it->title);
  }
  // The same standings, name by name, and the same file when written again.
  auto table = [&](const Event& e) {
    std::vector<std::pair<std::string, std::vector<double>>> out;
    for (const Standing& s : standings(e)) {
      std::vector<double> v{double(s.half_points)};
      v.insert(v.end(), s.tie_breaks.begin(), s.tie_breaks.end());
      out.push_back({e.players[s.player].name, v});
    }
    return out;
  };
  EXPECT_EQ(table(back), table(ev));
  EXPECT_EQ(event_tgk(back), tgk);
}

TEST(OverTheBoard, BadTgkNamesTheGame) {
  auto error_of = [](const std::string& text) {
    try {
      event_from_tgk(text, System::Swiss);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of("[White \"A\"]\n[Black \"B\"]\n[Round \"x\"]\n[Result \"1-0\"]\n"),
            "game 1 (line 1): Round: expected a round number, got 'x'");
  EXPECT_EQ(error_of("[White \"A\"]\n[Black \"B\"]\n[Round \"1\"]\n[Result \"*\"]\n\n*\n\n"
                     "[White \"A\"]\n[Round \"2\"]\n[Result \"*\"]\n\n*\n"),
            "game 2 (line 8): Black: the player's name is missing");
  EXPECT_NE(error_of("[White \"A\"]\n[Black \"B\"]\n[Round \"1\"]\n[Result \"1-0\"]\n\n1. 65 88\n")
                .find("game 1 (line 1): line 6, '88': "),
            std::string::npos);
}

TEST(OverTheBoard, StateFileRoundTripsAndNamesBadFields) {
  Event ev = hand_worked_swiss();
  ev.name = "Club \"Open\"";
  ev.tie_breaks = {TieBreak::SonnebornBerger, TieBreak::Wins};
  ev.played[0].boards[0].moves = check_moves(kMasterGame, BoardResult::WhiteWins);
  ev.played[1].boards[1].result = BoardResult::BlackForfeitWin;
  const std::string text = event_to_json(ev);
  const Event back = event_from_json(text);
  EXPECT_EQ(event_to_json(back), text);
  EXPECT_EQ(back.played[0].boards[0].moves, ev.played[0].boards[0].moves);
  EXPECT_EQ(back.tie_breaks, ev.tie_breaks);

  auto error_of = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    t.replace(at, from.size(), to);
    try {
      event_from_json(t);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of("\"system\":\"swiss\"", "\"system\":\"knockout\""),
            "system: expected round-robin, double-round-robin or swiss");
  EXPECT_EQ(error_of("\"white\":4", "\"white\":7"),
            "played[1].boards[0].white: expected an integer from 0 to 4");
  EXPECT_EQ(error_of("\"white\":4", "\"white\":1"),
            "played[1].boards[1].white: player 1 is already in this round");
  EXPECT_EQ(error_of("\"moves\":[6,8", "\"moves\":[6,6"),
            "played[0].boards[0].moves: move 2 (White), hole 5: hole 5 is empty");
  EXPECT_EQ(error_of("\"format\":\"toguz-tournament 1\"", "\"format\":\"x\""),
            "format: expected \"toguz-tournament 1\"");
  EXPECT_EQ(error_of("{\"name\":\"A\"", "{\"nom\":\"A\""), "players[0].name: missing");
}

}  // namespace
}  // namespace toguz::tournament
