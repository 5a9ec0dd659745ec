// Golden error messages of every parser: position strings name the field, move tokens say what
// was expected, records name the line (reader) or the ply, line and token (replay).
#include <gtest/gtest.h>

#include "rules/record.h"

namespace toguz {
namespace {

std::string position_error(const std::string& text) {
  try {
    parse_position(text);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(ParserErrors, PositionStringNamesTheField) {
  const std::pair<const char*, const char*> cases[] = {
      {"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0",
       "position string: expected 4 or 5 space-separated fields '<White holes>/<Black holes> <White "
       "kazna> <Black kazna> <side> [<move number>]', got 3"},
      {"9,9,9,9,9,9,9,9,9 0 0 w 1",
       "holes: expected '<White holes>/<Black holes>' with one '/', got '9,9,9,9,9,9,9,9,9'"},
      {"9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1",
       "White holes: expected 9, 7 or 5 comma-separated counts, got 8"},
      {"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9 0 0 w 1", "Black holes: expected 9 counts like White's row, got 7"},
      {"9,9,9,9,a,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1", "White holes: hole 5: expected a count or 'x', got 'a'"},
      {"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 z w 1", "Black kazna: expected a number, got 'z'"},
      {"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 white 1", "side: expected 'w' or 'b', got 'white'"},
      {"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 0", "move number: expected a number of 1 or more, got '0'"},
      {"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,8 0 0 w 1", "position: stones sum to 161, expected 162"},
      {"9,9,9,9,9,9,9,9,x/9,9,9,9,9,9,9,9,9 0 9 w 1", "White holes: 'x' in hole 9 (a tuz cannot be made there)"},
      {"x,9,9,9,9,9,9,9,9/x,9,9,9,9,9,9,9,9 9 9 w 1",
       "holes: both tuzes on hole 1 (they must have different numbers)"},
      {"x,x,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 18 w 1", "White holes: more than one 'x' (one tuz per player)"},
      {"7,7,7,7,7,7,x/7,7,7,7,7,7,7 7 0 w 1", "White holes: 'x' (a tuz) but tuz is off in kozdatu rules"},
  };
  for (const auto& [text, message] : cases) EXPECT_EQ(position_error(text), message) << text;
}

TEST(ParserErrors, MoveTokenSaysWhatWasExpected) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "expected a move: a hole digit 1-9, then optionally the landing hole, X/x, (n)"},
      {"a5", "expected a move: a hole digit 1-9, then optionally the landing hole, X/x, (n)"},
      {"60", "landing hole must be 1-9, got '0'"},
      {"6X", "a tuz mark needs the landing hole before it"},
      {"65(1x)", "expected '(n)' with the mover's kazna total, got '(1x)'"},
      {"65 (10", "expected '(n)' with the mover's kazna total, got '(10'"},
      {"65Y", "unexpected 'Y' after the move"},
      {"655", "unexpected '5' after the move"},
  };
  for (const auto& [text, message] : cases) {
    MoveToken t;
    std::string why;
    EXPECT_FALSE(parse_move_token(text, &t, &why)) << text;
    EXPECT_EQ(why, message) << text;
  }
}

TEST(ParserErrors, RecordReaderNamesTheLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"[Event \"x\"]\n[Site \"x\"\n1. 65 *",
       "line 2: tag: expected [Name \"value\"], the closing ']' is missing in '[Site \"x\"'"},
      {"[Event x]\n", "line 1: tag: expected [Name \"value\"], the opening '\"' of the value is missing in '[Event x]'"},
      {"[ \"x\"]\n", "line 1: tag: expected [Name \"value\"], the name is missing in '[ \"x\"]'"},
      {"[Event \"x]\n", "line 1: tag: expected [Name \"value\"], the closing '\"' of the value is missing in '[Event \"x]'"},
      {"\n1. 65 {oops\n87 *", "line 2: comment: '{' is never closed by '}'"},
      {"1. 65\n\n(10\n87", "line 3: '(' is never closed by ')'"},
      {"1. 65 87 1-0 0-1", "line 1: a second result '0-1' after '1-0' (expected a tag line starting the next game)"},
  };
  for (const auto& [text, message] : cases) {
    try {
      read_records(text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const ParseError& e) {
      EXPECT_EQ(std::string(e.what()), message);
    }
  }
}

struct ReplayCase {
  const char* text;
  int ply, line;
  const char* token;
  const char* message;
};

TEST(ParserErrors, ReplayNamesPlyLineTokenAndReason) {
  const ReplayCase cases[] = {
      {"1. 64 *", 1, 1, "64", "last stone falls in hole 5, not 4 (expected 65 (10))"},
      {"1. 65(11) *", 1, 1, "65(11)", "the mover's kazna is 10 after the move, not 11 (expected 65 (10))"},
      {"1. 65 87\n2. 55 99X *", 4, 2, "99X", "the move makes no tuz, but it is marked (expected 99 (12))"},
      {"1. 65 87 2. 55 99 (13) *", 4, 1, "99 (13)", "the mover's kazna is 12 after the move, not 13 (expected 99 (12))"},
      {"1. 65 87 2. 0 *", 3, 1, "0",
       "not a move: expected a move: a hole digit 1-9, then optionally the landing hole, X/x, (n)"},
      {"[FEN \"0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,0 80 79 w 40\"]\n\n40. 9 1 *", 2, 3, "1",
       "move after the end of the game (decided after ply 1)"},
      {"[FEN \"0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,0 80 79 w 40\"]\n\n40. 1 *", 1, 3, "1",
       "illegal move: hole 1 is empty"},
      {"[FEN \"0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,0 80 79 w 40\"]\n\n40. 91(82) 0-1", 0, 3, "0-1",
       "the recorded result 0-1 contradicts the end of the game: decided, 82-79, so 1-0"},
      {"1. 65(10) 87 2. 55 99(12) 0-1 {zero}", 0, 1, "{zero}",
       "{zero} says the side to move had no stones left, but the game is not over"},
      {"[Result \"1-0\"]\n1. 65 87 0-1", 0, 2, "0-1", "the moves end with 0-1 but the Result tag says 1-0"},
      {"[Result \"2-0\"]\n1. 65", 0, 1, "2-0", "Result tag: expected 1-0, 0-1, 1/2-1/2 or *, got '2-0'"},
      {"[Variant \"big\"]\n1. 65 *", 0, 1, "", "Variant tag: expected standard, kozdatu or bestemshi, got 'big'"},
      {"[Rules \"fast\"]\n1. 65 *", 0, 1, "", "Rules tag: expected comma-separated options play-out, tuz, no-tuz; got 'fast'"},
      {"[FEN \"9,9/9,9 0 0 w\"]\n1. 65 *", 0, 1, "",
       "FEN tag: White holes: expected 9, 7 or 5 comma-separated counts, got 2"},
      {"[Variant \"kozdatu\"]\n[FEN \"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1\"]\n1. 65 *", 0, 1, "",
       "FEN tag: variant kozdatu has rows of 7 holes, the position has 9"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    auto records = read_records(c.text);
    ASSERT_EQ(records.size(), 1u);
    Replayed r = replay_record(records[0]);
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->ply, c.ply);
    EXPECT_EQ(r.error->line, c.line);
    EXPECT_EQ(r.error->token, c.token);
    EXPECT_EQ(r.error->message, c.message);
    // The game stops before the bad token.
    if (c.ply > 0) {
      EXPECT_EQ(r.game.ply_count(), c.ply - 1);
    }
  }
}

}  // namespace
}  // namespace toguz
