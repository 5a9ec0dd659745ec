// The referee: illegal moves leave the game unchanged, the end checks in docs/rules.md order,
// recorded results, undo.
#include "rules/game.h"

#include <gtest/gtest.h>

#include "rules/notation.h"

namespace toguz {
namespace {

TEST(Game, RefusesIllegalMovesAndStaysUnchanged) {
  Game g(parse_position("0,1,1,2,11,x,2,1,20/3,5,18,0,1,20,0,11,1 26 39 w 16"));
  std::string why;
  EXPECT_FALSE(g.play(1, &why));
  EXPECT_EQ(why, "hole 1 is empty");
  EXPECT_FALSE(g.play(10, &why));
  EXPECT_EQ(why, "no hole 10 (holes are 1..9)");
  EXPECT_FALSE(g.play(0, &why));
  EXPECT_EQ(g.ply_count(), 0);
  EXPECT_EQ(format_position(g.position()), "0,1,1,2,11,x,2,1,20/3,5,18,0,1,20,0,11,1 26 39 w 16");
}

TEST(Game, OpponentsTuzCannotBePlayed) {
  // Black owns a tuz on White's hole 6; White may not play it, and it holds no stones.
  Game g(parse_position("0,1,1,2,11,x,2,1,20/3,5,18,0,1,20,0,11,1 26 39 w 16"));
  std::string why;
  EXPECT_FALSE(g.play(6, &why));
  EXPECT_EQ(why, "hole 6 is the opponent's tuz");
}

TEST(Game, DecidedIsCheckedBeforeNoMove) {
  // The first move of the master game from a crafted position: White captures to pass 81.
  Game g(parse_position("0,0,0,0,0,0,0,0,2/0,0,0,0,0,0,0,1,0 80 79 w 40"));
  ASSERT_TRUE(g.play(9));  // 2 stones: one back into 9, one into Black's 1 -> 1 (odd), no capture
  EXPECT_EQ(g.outcome(), Outcome::Ongoing);
  Game h(parse_position("0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,0 80 79 w 40"));
  ASSERT_TRUE(h.play(9));  // lands in Black's 1 -> 2, captured: White 82, Black has no stones
  EXPECT_EQ(h.outcome(), Outcome::Decided);
  EXPECT_EQ(h.result(), Result::WhiteWins);
  EXPECT_EQ(h.score(), (std::array<int, 2>{82, 79}));  // decided: the kaznas as they stand
  std::string why;
  EXPECT_FALSE(h.play(1, &why));
  EXPECT_EQ(why, "the game is over");
}

TEST(Game, NoMoveGivesTheRemainingStonesToTheOpponent) {
  Game g(parse_position("0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0 81 80 b 40", RuleOptions{}));
  ASSERT_EQ(g.outcome(), Outcome::NoMove);  // Black to move, no stones
  EXPECT_EQ(g.score(), (std::array<int, 2>{82, 80}));
  EXPECT_EQ(g.result(), Result::WhiteWins);
}

TEST(Game, UndoRestoresThePositionAndClearsRecordedResults) {
  Game g;
  ASSERT_TRUE(g.play(6));
  ASSERT_TRUE(g.play(8));
  g.set_recorded_result(Result::BlackWins, EndReason::Resignation);
  EXPECT_TRUE(g.over());
  EXPECT_EQ(g.end_reason(), EndReason::Resignation);
  ASSERT_TRUE(g.undo());
  EXPECT_FALSE(g.over());
  EXPECT_EQ(format_position(g.position()), "9,9,9,9,9,1,10,10,10/10,10,10,10,0,9,9,9,9 10 0 b 1");
  ASSERT_TRUE(g.undo());
  EXPECT_EQ(g.position(), Position::start());
  EXPECT_FALSE(g.undo());
}

TEST(Game, MoveInfoOfTheMastersFirstMove) {
  Game g;
  MoveInfo info;
  ASSERT_TRUE(g.play(6, nullptr, &info));
  EXPECT_EQ(info.last_hole, 5);
  EXPECT_EQ(info.last_row, Side::Black);
  EXPECT_EQ(info.captured, 10);
  EXPECT_EQ(format_move(info), "65(10)");
  EXPECT_EQ(format_move(info, MoveStyle::Book), "65 (10)");
  EXPECT_EQ(format_move(info, MoveStyle::Tgk), "65");
}

TEST(Game, TuzRestrictions) {
  // White lands in Black's hole 9 with 3 stones: hole N is never a tuz.
  Position p = parse_position("0,0,0,0,0,0,0,0,10/2,2,2,2,2,2,2,2,2 70 64 w 40");
  MoveInfo info = p.play(9);  // 10 stones: one back into 9, then Black 1..9 (+1 each)
  EXPECT_EQ(info.last_row, Side::Black);
  EXPECT_EQ(info.last_hole, 9);
  EXPECT_EQ(p.stones(Side::Black, 9), 3);
  EXPECT_FALSE(info.tuz_made);
  // Same number as the opponent's tuz: refused. Black owns White's 3 (x on White's row).
  Position q = parse_position("0,0,x,0,0,0,0,0,4/0,0,2,0,0,0,0,0,0 77 79 w 40");
  MoveInfo qi = q.play(9);  // 4 stones: 9, Black 1, 2, 3 -> Black's 3 holds 3
  EXPECT_EQ(qi.last_hole, 3);
  EXPECT_FALSE(qi.tuz_made);
  EXPECT_EQ(q.tuz(Side::White), 0);
  // Without the opponent's tuz on 3 the same move makes one.
  Position r = parse_position("0,0,1,0,0,0,0,0,4/0,0,2,0,0,0,0,0,0 76 79 w 40");
  MoveInfo ri = r.play(9);
  EXPECT_TRUE(ri.tuz_made);
  EXPECT_EQ(r.tuz(Side::White), 3);
  EXPECT_EQ(format_move(ri), "93X");
  EXPECT_EQ(r.kazna(Side::White), 79);
  EXPECT_TRUE(r.consistent());
}

}  // namespace
}  // namespace toguz
