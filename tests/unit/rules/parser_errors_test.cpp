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
       "position string: expected 4 or 5 space-separated fields '<White holes>/<Black holes> "
       "<White "
       "kazna> <Black kazna> <side> [<move number>]', got 3"},
      {"9,9,9,9,9,9,9,9,9 0 0 w 1",
       "holes: expected '<White holes>/<Black holes>' with one '/', got '9,9,9,9,9,9,9,9,9'"},
      {"9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1",
       "White holes: expected 9, 7 or 5 comma-separated counts, got 8"},
      {"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9 0 0 w 1",
       "Black holes: expected 9 counts like White's row, got 7"},
      {"9,9,9,9,a,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1",
       "White holes: hole 5: expected a count or 'x', got 'a'"},
      {"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 z w 1", "Black kazna: expected a number, got 'z'"},
      {"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 white 1", "side: expected 'w' or 'b', got 'white'"},
      {"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 0",
       "move number: expected a number of 1 or more, got '0'"},
      {"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,8 0 0 w 1", "position: stones sum to 161, expected 162"},
      {"9,9,9,9,9,9,9,9,x/9,9,9,9,9,9,9,9,9 0 9 w 1",
       "White holes: 'x' in hole 9 (a tuz cannot be made there)"},
      {"x,9,9,9,9,9,9,9,9/x,9,9,9,9,9,9,9,9 9 9 w 1",
       "holes: both tuzes on hole 1 (they must have different numbers)"},
      {"x,x,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 18 w 1",
       "White holes: more than one 'x' (one tuz per player)"},
      {"7,7,7,7,7,7,x/7,7,7,7,7,7,7 7 0 w 1",
       "White holes: 'x' (a tuz) but tuz is off in kozdatu rules"},
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

// The reader's errors name the game, line and column (in characters: the Cyrillic name
// counts one per letter) and what was expected; the game is returned with the error.
TEST(ParserErrors, RecordReaderNamesGameLineAndColumn) {
  const std::pair<const char*, const char*> cases[] = {
      {"[Event \"x\"]\n[Site \"x\"\n1. 65 *",
       "game 1, line 2, column 10: tag: expected [Name \"value\"], the closing ']' is missing in "
       "'[Site \"x\"'"},
      {"[Event x]\n",
       "game 1, line 1, column 8: tag: expected [Name \"value\"], the opening '\"' of the value is "
       "missing in "
       "'[Event x]'"},
      {"[ \"x\"]\n",
       "game 1, line 1, column 3: tag: expected [Name \"value\"], the name is missing in '[ "
       "\"x\"]'"},
      {"[Event \"x]\n",
       "game 1, line 1, column 8: tag: expected [Name \"value\"], the closing '\"' of the value is "
       "missing in "
       "'[Event \"x]'"},
      {"[Event \"\xD0\x9A\xD0\xB0\"] {oops\n1. 65\n",
       "game 1, line 1, column 14: comment: '{' is never closed: expected '}'"},
      {"\n1. 65 {oops\n87 *",
       "game 1, line 2, column 7: comment: '{' is never closed: expected '}'"},
      {"1. 65\n\n(10\n87",
       "game 1, line 3, column 1: parenthesis: '(' is never closed: expected ')'"},
      {"1. 65 87 1-0 0-1",
       "game 1, line 1, column 14: a second result '0-1' after '1-0' (expected a tag line starting "
       "the next game)"},
  };
  for (const auto& [text, message] : cases) {
    SCOPED_TRACE(text);
    auto records = read_records(text);
    ASSERT_EQ(records.size(), 1u);
    ASSERT_TRUE(records[0].read_error);
    EXPECT_EQ(describe(*records[0].read_error), message);
    // replay_record() reports the same error.
    Replayed r = replay_record(records[0]);
    ASSERT_TRUE(r.error);
    EXPECT_EQ(describe(*r.error), message);
  }
}

// One bad game does not take the rest of the file: the reader goes on at the next tag block.
TEST(ParserErrors, ReaderGoesOnAtTheNextTagBlock) {
  const std::string text =
      "[Event \"1\"]\n[Result \"1-0\"]\n\n1. 65 87 1-0\n\n"
      "[Event \"2\"]\n[White \"bad]\n[Black \"skipped\"]\n\n1. 65 87 1-0\n\n"
      "[Event \"3\"]\n[Result \"*\"]\n\n1. 65 {never closed\n\n"
      "[Event \"4\"]\n[Result \"*\"]\n1. 65 (unclosed\n"
      "[Event \"5\"]\n[Result \"0-1\"]\n\n1. 76 98 0-1\n";
  auto records = read_records(text);
  ASSERT_EQ(records.size(), 5u);
  const char* errors[] = {nullptr,
                          "game 2, line 7, column 8: tag: expected [Name \"value\"], the closing "
                          "'\"' of the value is missing in "
                          "'[White \"bad]'",
                          "game 3, line 15, column 7: comment: '{' is not closed: expected '}' "
                          "before the tag line at line 17",
                          "game 4, line 19, column 7: parenthesis: '(' is not closed: expected ')' "
                          "before the tag line at line 20",
                          nullptr};
  for (size_t k = 0; k < records.size(); ++k) {
    SCOPED_TRACE(k + 1);
    EXPECT_EQ(records[k].number, int(k) + 1);
    EXPECT_EQ(records[k].tag("Event"), std::to_string(k + 1));
    if (errors[k]) {
      ASSERT_TRUE(records[k].read_error);
      EXPECT_EQ(describe(*records[k].read_error), errors[k]);
    } else {
      EXPECT_FALSE(records[k].read_error);
      EXPECT_FALSE(replay_record(records[k]).error);
    }
  }
  EXPECT_EQ(records[4].plies.size(), 2u);
  EXPECT_EQ(records[4].first_line, 20);
}

// Input that is not a record at all: one message each. Windows-1251 is read and said so.
TEST(ParserErrors, InputThatIsNotARecord) {
  const std::pair<std::string, const char*> cases[] = {
      {"",
       "empty input: no game record (expected PGN or TGK text: tag lines such as [Event \"...\"], "
       "then the "
       "moves)"},
      {" \r\n\n\t",
       "empty input: no game record (expected PGN or TGK text: tag lines such as [Event \"...\"], "
       "then the moves)"},
      {std::string("[Event \"x\"]\n\x01\x02\0rest", 17),
       "not a game record: binary data (a NUL byte at line 2, byte 3)"},
      {"\x89PNG\r\n\x1a\n\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f\x10",
       "not a game record: binary data (11 control characters)"},
      {"<!DOCTYPE html>\n<html><body>[Event \"x\"]</body></html>",
       "not a game record: an HTML page; save the PGN or TGK text itself, not the web page around "
       "it"},
      {"[Event \"x\"]\n[White \"\xC3\x28\x98\"]\n",
       "not a game record: the text is neither UTF-8 nor Windows-1251 (byte 0xC3 at line 2, byte "
       "9)"},
  };
  for (const auto& [text, message] : cases) {
    try {
      read_records(text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const ParseError& e) {
      EXPECT_EQ(std::string(e.what()), message);
    }
  }
  // "Қазақ" is not in Windows-1251; "Жанибек Серікұлы" partly: a plain Russian name.
  const std::string cp1251 =
      "[White \"\xC8\xE2\xE0\xED\xEE\xE2 \xA8\xEB\xEA\xE8\xED\"]\n\n1. 65 *\n";
  RecordFile file = read_record_file(cp1251);
  EXPECT_EQ(file.note, "the text is not UTF-8 (byte at line 1, byte 9); read as Windows-1251");
  ASSERT_EQ(file.games.size(), 1u);
  EXPECT_EQ(
      file.games[0].tag("White"),
      "\xD0\x98\xD0\xB2\xD0\xB0\xD0\xBD\xD0\xBE\xD0\xB2 \xD0\x81\xD0\xBB\xD0\xBA\xD0\xB8\xD0\xBD");
  EXPECT_EQ(read_record_file("[White \"\xD0\x98\"]\n1. 65 *").note, "");  // UTF-8 stays as it is
  // A stray control character is text, not binary; the writer writes it as a space.
  auto stray = read_records(
      "[Event \"a\x01"
      "b\"]\n\n1. 65 *\n");
  ASSERT_EQ(stray.size(), 1u);
  EXPECT_EQ(write_record(replay_record(stray[0]).game, stray[0].tags).substr(0, 14),
            "[Event \"a b\"]\n");
}

struct ReplayCase {
  std::string text;
  int ply, line;
  const char* token;
  const char* message;
};

// The one game of c.text replays to c's error; the game stops before the bad token.
void expect_replay_error(const ReplayCase& c) {
  SCOPED_TRACE(c.text);
  auto records = read_records(c.text);
  ASSERT_EQ(records.size(), 1u);
  Replayed r = replay_record(records[0]);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->ply, c.ply);
  EXPECT_EQ(r.error->line, c.line);
  EXPECT_EQ(r.error->token, c.token);
  EXPECT_EQ(r.error->message, c.message);
  if (c.ply > 0) {
    EXPECT_EQ(r.game.ply_count(), c.ply - 1);
  }
}

TEST(ParserErrors, ReplayNamesPlyLineTokenAndReason) {
  const ReplayCase cases[] = {
      {"1. 64 *", 1, 1, "64", "last stone falls in hole 5, not 4 (expected 65 (10))"},
      {"1. 65(11) *", 1, 1, "65(11)",
       "the mover's kazna is 10 after the move, not 11 (expected 65 (10))"},
      {"1. 65 87\n2. 55 99X *", 4, 2, "99X",
       "the move makes no tuz, but it is marked (expected 99 (12))"},
      {"1. 65 87 2. 55 99 (13) *", 4, 1, "99 (13)",
       "the mover's kazna is 12 after the move, not 13 (expected 99 (12))"},
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
      {"[Result \"1-0\"]\n1. 65 87 0-1", 0, 2, "0-1",
       "the moves end with 0-1 but the Result tag (line 1) says 1-0"},
      {"[Result \"2-0\"]\n1. 65", 0, 1, "2-0",
       "Result tag: expected 1-0, 0-1, 1/2-1/2 or *, got '2-0'"},
      {"[Variant \"big\"]\n1. 65 *", 0, 1, "",
       "Variant tag: expected standard, kozdatu or bestemshi, got 'big'"},
      {"[Rules \"fast\"]\n1. 65 *", 0, 1, "",
       "Rules tag: expected comma-separated options play-out, tuz, no-tuz; got 'fast'"},
      {"[FEN \"9,9/9,9 0 0 w\"]\n1. 65 *", 0, 1, "",
       "FEN tag: White holes: expected 9, 7 or 5 comma-separated counts, got 2"},
      {"[Variant \"kozdatu\"]\n[FEN \"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1\"]\n1. 65 *", 0,
       2, "", "FEN tag: variant kozdatu has rows of 7 holes, the position has 9"},
  };
  for (const auto& c : cases) expect_replay_error(c);
}

// Errors about a tag name the tag's own line; the Count tag is checked against the board
// where the board ended the game (the decided game below ends 82-79 after ply 1).
TEST(ParserErrors, TagErrorsNameTheTagsLine) {
  const std::string decided = "[FEN \"0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,0 80 79 w 40\"]\n";
  const ReplayCase cases[] = {
      {"[Event \"x\"]\n[Site \"y\"]\n[Variant \"big\"]\n\n1. 65 *", 0, 3, "",
       "Variant tag: expected standard, kozdatu or bestemshi, got 'big'"},
      {"[Event \"x\"]\n[Rules \"fast\"]\n1. 65 *", 0, 2, "",
       "Rules tag: expected comma-separated options play-out, tuz, no-tuz; got 'fast'"},
      {"[Event \"x\"]\n[Date \"2020\"]\n[FEN \"9,9/9,9 0 0 w\"]\n1. 65 *", 0, 3, "",
       "FEN tag: White holes: expected 9, 7 or 5 comma-separated counts, got 2"},
      {"[Event \"x\"]\n[Result \"2-0\"]\n\n1. 65", 0, 2, "2-0",
       "Result tag: expected 1-0, 0-1, 1/2-1/2 or *, got '2-0'"},
      {"[Event \"x\"]\n[Count \"lots\"]\n\n1. 65 *", 0, 2, "lots",
       "Count tag: expected the final totals '<White>-<Black>', e.g. '82-80', got 'lots'"},
      {"[Event \"x\"]\n" + decided + "[Count \"82-80\"]\n\n40. 91", 0, 3, "82-80",
       "the Count tag says 82-80 but the game ended on the board at 82-79 (decided after ply 1)"},
  };
  for (const auto& c : cases) expect_replay_error(c);
  // A Count that agrees, and one on a game the board did not end (a resignation), are fine.
  for (const std::string& text : {decided + "[Count \"82-79\"]\n\n40. 91",
                                  std::string("[Count \"40-30\"]\n[Result \"1-0\"]\n\n1. 65\n")}) {
    auto records = read_records(text);
    ASSERT_EQ(records.size(), 1u);
    Replayed r = replay_record(records[0]);
    EXPECT_FALSE(r.error) << text << ": " << r.error->message;
  }
}

// [FEN "startpos"] (cutegames writes it for games from the start) is the variant's start.
TEST(ParserErrors, FenStartposIsTheStart) {
  for (const char* text : {"[FEN \"startpos\"]\n\n1. 65(10) *",
                           "[Variant \"bestemshi\"]\n[FEN \"StartPos\"]\n\n1. 5 *"}) {
    auto records = read_records(text);
    ASSERT_EQ(records.size(), 1u);
    Replayed r = replay_record(records[0]);
    ASSERT_FALSE(r.error) << r.error->message;
    EXPECT_EQ(r.game.start(), Position::start(r.game.rules()));
    EXPECT_EQ(r.game.ply_count(), 1);
  }
}

// A last game cut off inside its moves is a warning naming it, unless the board ended it.
TEST(ParserErrors, TruncatedLastGameWarns) {
  const std::string first = "[Event \"a\"]\n\n1. 65 87 1-0\n\n";
  const std::string message =
      "the input ends inside the game's moves, with no result token and the game not over on the "
      "board: the "
      "record looks truncated (expected 1-0, 0-1, 1/2-1/2 or * after the moves)";
  // PGN layout (several move numbers on a line) without a result token.
  auto records =
      read_records(first + "[Event \"b\"]\n[Result \"1-0\"]\n\n1. 65(10) 87 2. 55 99(12) 3.\n34\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_FALSE(replay_record(records[0]).warning);
  Replayed r = replay_record(records[1]);
  EXPECT_FALSE(r.error);
  ASSERT_TRUE(r.warning);
  EXPECT_EQ(describe(*r.warning), "game 2, line 9: ply 5, token '34': " + message);
  // TGK layout (one move number per line, no result in the moves) cut in the middle of a line.
  records = read_records("[Event \"b\"]\n\n1. 65 87\n2. 5");
  ASSERT_EQ(records.size(), 1u);
  ASSERT_TRUE(replay_record(records[0]).warning);
  // A cut token is an error that says where the input ended.
  records = read_records("[Event \"b\"]\n\n1. 65(10) 87 1/2");  // cut in "1/2-1/2"
  r = replay_record(records[0]);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(describe(*r.error),
            "game 1, line 3: ply 3, token '1/2': not a move: unexpected '/2' after the move; the "
            "input ends after "
            "this token: the record looks truncated");
  // Not truncated: TGK ending with a line end, and a game with a result token.
  for (const std::string& text : {std::string("[Event \"b\"]\n\n1. 65 87\n2. 55\n"), first}) {
    records = read_records(text);
    EXPECT_FALSE(records.back().unterminated) << text;
    EXPECT_FALSE(replay_record(records.back()).warning) << text;
  }
  // Cut off after the last move, but the board ended the game: no warning.
  records =
      read_records("[FEN \"0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,0 80 79 w 40\"]\n\n40. 91(82) 41.");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_TRUE(records[0].unterminated);
  r = replay_record(records[0]);
  EXPECT_FALSE(r.error);
  EXPECT_FALSE(r.warning);
}

}  // namespace
}  // namespace toguz
