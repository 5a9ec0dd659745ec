// Resigning and accepting draws (search/decisions.h): only on proven results, from real
// searches of positions whose result is known (the studies of tests/data/etudes.json).
#include "search/decisions.h"

#include <gtest/gtest.h>

#include "rules/game.h"
#include "rules/notation.h"
#include "search/engine.h"

namespace toguz::search {
namespace {

SearchResult run(const char* position, int depth) {
  Engine engine;
  engine.set_position(Game(parse_position(position)));
  Limits limits;
  limits.depth = depth;
  return engine.search(limits);
}

SearchResult with_score(int best_move, Score s) {
  SearchResult r;
  r.best_move = best_move;
  Info info;
  info.score = s;
  info.pv = {best_move};
  r.lines.push_back(info);
  return r;
}

TEST(Decisions, ResignsAndAcceptsADrawInAProvenLoss) {
  // White's only move feeds Black, who then leaves White without stones: lost 80-82.
  const SearchResult r = run("0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0 80 81 w", 5);
  ASSERT_TRUE(r.lines.at(0).score.proven);
  EXPECT_TRUE(should_resign(r));
  EXPECT_TRUE(accepts_draw(r));
}

TEST(Decisions, AcceptsADrawButDoesNotResignAProvenDraw) {
  // Akshuraev's study 2: a draw (81-81).
  const SearchResult r = run("x,0,0,0,0,0,4,1,1/0,2,x,0,0,1,0,0,0 77 76 w 40", 30);
  ASSERT_TRUE(r.lines.at(0).score.proven);
  ASSERT_EQ(r.lines[0].score.result, 0);
  EXPECT_FALSE(should_resign(r));
  EXPECT_TRUE(accepts_draw(r));
}

TEST(Decisions, NeitherInAProvenWin) {
  // Study 1: White wins.
  const SearchResult r = run("0,0,0,1,x,1,3,2,1/0,0,2,2,0,0,0,0,0 78 72 w 40", 20);
  ASSERT_TRUE(r.lines.at(0).score.proven);
  ASSERT_EQ(r.lines[0].score.result, 1);
  EXPECT_FALSE(should_resign(r));
  EXPECT_FALSE(accepts_draw(r));
}

TEST(Decisions, NeitherOnAnUnprovenScoreHoweverBad) {
  Score s;
  s.cp = -5000;  // fifty stones behind, but not proven
  const SearchResult r = with_score(3, s);
  EXPECT_FALSE(should_resign(r));
  EXPECT_FALSE(accepts_draw(r));
  s.cp = 0;  // an even, unproven position
  EXPECT_FALSE(accepts_draw(with_score(3, s)));
}

TEST(Decisions, NeitherWhenTheGameIsOverOrNothingWasSearched) {
  // The game is over (White has lost 80-82): nothing to resign or to agree.
  Engine engine;
  engine.set_position(Game(parse_position("0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,1 80 81 w")));
  Limits limits;
  limits.depth = 3;
  const SearchResult over = engine.search(limits);
  ASSERT_EQ(over.best_move, 0);
  ASSERT_TRUE(over.lines.at(0).score.proven);
  EXPECT_FALSE(should_resign(over));
  EXPECT_FALSE(accepts_draw(over));
  EXPECT_FALSE(should_resign(SearchResult{}));
  EXPECT_FALSE(accepts_draw(SearchResult{}));
}

}  // namespace
}  // namespace toguz::search
