// The tournament library: Berger tables against the published FIDE tables, the Swiss pairing's
// guarantees over thousands of simulated events, tie-breaks on hand-worked examples, the arena's
// points, and an over-the-board event's round trip through TGK.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <sstream>

#include "tournament/arena.h"
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

}  // namespace
}  // namespace toguz::tournament
