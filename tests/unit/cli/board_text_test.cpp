// Golden tests for the text board (`toguz show`, `toguz play`) and structural checks of the SVG.
#include "cli/board_text.h"

#include <gtest/gtest.h>

#include <string>

#include "cli/board_svg.h"
#include "rules/notation.h"

namespace toguz::cli {
namespace {

// The expected blocks are written as raw strings starting on the line after R"(.
std::string block(const char* text) {
  return std::string(text).substr(1);
}

TEST(BoardText, StartFromWhitesSeat) {
  EXPECT_EQ(draw_board(Position::start()), block(R"(
      9     8     7     6     5     4     3     2     1
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
  |   9 |   9 |   9 |   9 |   9 |   9 |   9 |   9 |   9 |  Black  kazna   0
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
  |   9 |   9 |   9 |   9 |   9 |   9 |   9 |   9 |   9 |  White  kazna   0  <- to move
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
      1     2     3     4     5     6     7     8     9
)"));
}

TEST(BoardText, AfterFirstMoveFromBlacksSeat) {
  // docs/rules.md: after 1. 65(10).
  Position pos = parse_position("9,9,9,9,9,1,10,10,10/10,10,10,10,0,9,9,9,9 10 0 b 1");
  EXPECT_EQ(draw_board(pos, Side::Black), block(R"(
      9     8     7     6     5     4     3     2     1
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
  |  10 |  10 |  10 |   1 |   9 |   9 |   9 |   9 |   9 |  White  kazna  10
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
  |  10 |  10 |  10 |  10 |   0 |   9 |   9 |   9 |   9 |  Black  kazna   0  <- to move
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
      1     2     3     4     5     6     7     8     9
)"));
}

TEST(BoardText, TuzOnBothSides) {
  Position pos = parse_position("12,0,3,1,x,9,20,1,2/9,0,x,15,4,9,9,13,0 37 18 b 14");
  EXPECT_EQ(draw_board(pos), block(R"(
      9     8     7     6     5     4     3     2     1
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
  |   0 |  13 |   9 |   9 |   4 |  15 |  X  |   0 |   9 |  Black  kazna  18  <- to move
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
  |  12 |   0 |   3 |   1 |  X  |   9 |  20 |   1 |   2 |  White  kazna  37
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
      1     2     3     4     5     6     7     8     9
  X = tuz: White owns Black's 3, Black owns White's 5
)"));
  // The same position from Black's seat: the tuz marks move with their holes.
  EXPECT_EQ(draw_board(pos, Side::Black), block(R"(
      9     8     7     6     5     4     3     2     1
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
  |   2 |   1 |  20 |   9 |  X  |   1 |   3 |   0 |  12 |  White  kazna  37
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
  |   9 |   0 |  X  |  15 |   4 |   9 |   9 |  13 |   0 |  Black  kazna  18  <- to move
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
      1     2     3     4     5     6     7     8     9
  X = tuz: White owns Black's 3, Black owns White's 5
)"));
}

TEST(BoardText, ThreeDigitCountsAndNoMove) {
  Position pos = parse_position("0,0,0,0,0,0,0,0,0/100,0,0,0,0,0,0,0,0 62 0 w");
  EXPECT_EQ(draw_board(pos), block(R"(
      9     8     7     6     5     4     3     2     1
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
  |   0 |   0 |   0 |   0 |   0 |   0 |   0 |   0 | 100 |  Black  kazna   0
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
  |   0 |   0 |   0 |   0 |   0 |   0 |   0 |   0 |   0 |  White  kazna  62
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
      1     2     3     4     5     6     7     8     9
  Game over: White has no move
)"));
}

TEST(BoardText, BestemshiWithTuzDecided) {
  RuleOptions tuz_on;
  tuz_on.tuz = true;
  Position pos = parse_position("1,0,0,0,0/0,2,0,x,0 30 17 w", tuz_on);
  EXPECT_EQ(draw_board(pos), block(R"(
      5     4     3     2     1
  +-----+-----+-----+-----+-----+
  |   0 |  X  |   0 |   2 |   0 |  Black  kazna  17
  +-----+-----+-----+-----+-----+
  |   1 |   0 |   0 |   0 |   0 |  White  kazna  30
  +-----+-----+-----+-----+-----+
      1     2     3     4     5
  X = tuz: White owns Black's 4
  Game over: a kazna holds more than 25
)"));
}

TEST(BoardText, KozdatuStart) {
  EXPECT_EQ(draw_board(Position::start(Rules::for_variant(Variant::Kozdatu)), Side::Black),
            block(R"(
      7     6     5     4     3     2     1
  +-----+-----+-----+-----+-----+-----+-----+
  |   7 |   7 |   7 |   7 |   7 |   7 |   7 |  White  kazna   0  <- to move
  +-----+-----+-----+-----+-----+-----+-----+
  |   7 |   7 |   7 |   7 |   7 |   7 |   7 |  Black  kazna   0
  +-----+-----+-----+-----+-----+-----+-----+
      1     2     3     4     5     6     7
)"));
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(BoardSvg, Structure) {
  Position pos = parse_position("12,0,3,1,x,9,20,1,2/9,0,x,15,4,9,9,13,0 37 18 b 14");
  const std::string svg = draw_board_svg(pos);
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  // 18 holes + 2 kazna pills + the board + the background.
  EXPECT_EQ(count(svg, "<rect "), 18 + 2 + 2);
  // One dot per stone in holes with 1..15 stones: 12+3+1+9+1+2 (White), 9+15+4+9+9+13 (Black).
  EXPECT_EQ(count(svg, "<circle "), 28 + 59);
  EXPECT_EQ(count(svg, ">X</text>"), 2);
  EXPECT_EQ(count(svg, "White's tuz"), 1);
  EXPECT_EQ(count(svg, "Black's tuz"), 1);
  EXPECT_EQ(count(svg, ">Black's kazna: <tspan font-weight=\"bold\">18</tspan>"), 1);
  EXPECT_EQ(count(svg, ">White's kazna: <tspan font-weight=\"bold\">37</tspan>"), 1);
  EXPECT_EQ(count(svg, ">Black to move</text>"), 1);
  EXPECT_EQ(count(svg, "<path "), 1);  // the to-move marker
  // Counts over 15 are written but not dotted.
  EXPECT_EQ(count(svg, ">20</text>"), 1);
  // Deterministic.
  EXPECT_EQ(svg, draw_board_svg(pos));
}

TEST(BoardSvg, SeatAndFinishedGame) {
  RuleOptions tuz_on;
  tuz_on.tuz = true;
  Position pos = parse_position("1,0,0,0,0/0,2,0,x,0 30 17 w", tuz_on);
  const std::string svg = draw_board_svg(pos, Side::Black);
  EXPECT_EQ(count(svg, "<rect "), 10 + 2 + 2);
  EXPECT_EQ(count(svg, "<path "), 0);  // nobody to move
  EXPECT_EQ(count(svg, "Game over: a kazna holds more than 25"), 1);
  // From Black's seat the top row is White's, so White's hole 1 (1 stone) is the top row's
  // rightmost cell and Black's hole 1 the bottom row's leftmost.
  EXPECT_LT(svg.find("White's kazna"), svg.find("Black's kazna"));
}

}  // namespace
}  // namespace toguz::cli
