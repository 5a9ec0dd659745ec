// Game records: the reader's tolerance for real habits, the Variant/Rules/FEN tags, the writer's
// three styles and round trips.
#include "rules/record.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "test_util.h"

namespace toguz {
namespace {

std::vector<std::string> tokens_of(const Record& r) {
  std::vector<std::string> out;
  for (const auto& p : r.plies) out.push_back(p.token);
  return out;
}

TEST(RecordReader, PlayOkFileWithBomCrlfWrappedNumbersAndZero) {
  const std::string text =
      "\xEF\xBB\xBF[Event \"?\"]\r\n[White \"korgol\"]\r\n[Black \"\xD0\x9A\xD0\xB0\xD0\xB6\"]\r\n"
      "[Result \"1-0\"]\r\n\r\n1. 65(10) 98 2. 55 56 3.\r\n11(22) 45X 1-0\r\n\r\n"
      "[Event \"?\"]\r\n[Result \"0-1\"]\r\n\r\n1. 76 0-1 {zero}\r\n";
  auto records = read_records(text);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].tag("Event"), "?");  // the BOM is not part of the first tag
  EXPECT_EQ(records[0].tag("Black"), "\xD0\x9A\xD0\xB0\xD0\xB6");
  EXPECT_EQ(tokens_of(records[0]),
            (std::vector<std::string>{"65(10)", "98", "55", "56", "11(22)", "45X"}));
  EXPECT_EQ(records[0].plies[4].line, 7);  // "3." ends line 6, its move is on line 7
  EXPECT_EQ(records[0].result_token, "1-0");
  EXPECT_FALSE(records[0].zero);
  EXPECT_EQ(records[0].first_line, 1);
  EXPECT_EQ(records[1].first_line, 9);
  EXPECT_EQ(records[1].result_token, "0-1");
  EXPECT_TRUE(records[1].zero);
  EXPECT_EQ(records[1].result_line, 12);
}

TEST(RecordReader, TgkOneMovePerLineWithoutResult) {
  const std::string text =
      "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. 76 98\n2. 66 87\n3. 12\n\n"
      "[White \"C\"]\n[Black \"D\"]\n\n1. 76 98\n";
  auto records = read_records(text);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(tokens_of(records[0]), (std::vector<std::string>{"76", "98", "66", "87", "12"}));
  EXPECT_EQ(records[0].result_token, "");
  EXPECT_EQ(records[0].plies[2].line, 6);
  EXPECT_EQ(records[1].tag("White"), "C");
  EXPECT_EQ(records[1].plies.size(), 2u);
}

TEST(RecordReader, BookHabitsCommentsMarksCommasAndWords) {
  const std::string text =
      "[Result \"*\"]\n{a comment\nover two lines}\n1. 65 (10), 87 2. 55! 99 (12)?! 3...\n"
      "34(22) (forced) 4. 35 {good} (16) 6 1.98 , ?? *\n";
  auto records = read_records(text);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(tokens_of(records[0]), (std::vector<std::string>{"65 (10)", "87", "55!", "99 (12)",
                                                             "34(22)", "35 (16)", "6", "98"}));
  EXPECT_EQ(records[0].comments, (std::vector<std::string>{"a comment\nover two lines", "good"}));
  EXPECT_EQ(records[0].plies[0].line, 4);
  EXPECT_EQ(records[0].result_token, "*");
}

// PGN variations (RAV, as the game page exports them) are skipped, nested or over lines: the
// record is its main line; a count in parentheses after a move is still the move's.
TEST(RecordReader, VariationsInParenthesesAreSkipped) {
  const std::string text =
      "[Result \"*\"]\n\n1. 76(10) 22(10) (1... 98 2. 65(10)\n(2. 11 (2. 34)) 2... 87) 2. 54 (22) "
      "*\n";
  auto records = read_records(text);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(tokens_of(records[0]), (std::vector<std::string>{"76(10)", "22(10)", "54 (22)"}));
  EXPECT_EQ(records[0].result_token, "*");
}

TEST(RecordReader, RecordsWithoutTagsAreSplitAtTheResult) {
  auto records = read_records("1. 65 87 1-0\n1. 76 98 *\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(tokens_of(records[1]), (std::vector<std::string>{"76", "98"}));
  EXPECT_THROW(read_records("  \r\n\n"), ParseError);  // empty input: one clear message
}

// A tag block with no moves under it (a forfeit before the first move) is a game of its own,
// whether another tag block or moves follow, or its next game's tags follow on the next line.
TEST(RecordReader, EveryTagBlockStartsAGame) {
  const std::string text =
      "[Event \"forfeit\"]\n[Result \"1-0\"]\n\n"
      "[Event \"forfeit too\"]\n[Result \"0-1\"]\n"
      "[Event \"played\"]\n[Result \"*\"]\n\n1. 65 87\n"
      "[Event \"federation\"]\n[Result \"0-1\"]\n1. 76 98\n";
  auto records = read_records(text);
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[0].tag("Event"), "forfeit");
  EXPECT_TRUE(records[0].plies.empty());
  EXPECT_EQ(records[1].tag("Event"), "forfeit too");  // ends where a second Event tag comes
  EXPECT_EQ(records[1].tags.size(), 2u);
  EXPECT_TRUE(records[1].plies.empty());
  EXPECT_EQ(records[2].tag("Event"), "played");
  EXPECT_EQ(records[2].plies.size(), 2u);
  EXPECT_EQ(records[3].tag("Event"), "federation");
  EXPECT_EQ(records[3].plies.size(), 2u);
  EXPECT_EQ(records[3].first_line, 10);
  EXPECT_EQ(records[3].tag_line("Result"), 11);
  for (size_t k = 0; k < records.size(); ++k) EXPECT_EQ(records[k].number, int(k) + 1);
}

// Zero-move games survive both writers: PlayOK writes the result alone as the movetext, TGK
// too (its only result in the moves), so the game reads back with its own tags and result.
TEST(RecordWriter, ZeroMoveGamesReadBackAsTheirOwnGames) {
  const std::string text =
      "[Event \"a\"]\n[White \"w1\"]\n[Result \"1-0\"]\n\n1-0\n\n"
      "[Event \"b\"]\n[White \"w2\"]\n[Result \"0-1\"]\n\n"
      "[Event \"c\"]\n[White \"w3\"]\n[Result \"1-0\"]\n\n1. 65(10) 87 1-0\n";
  auto records = read_records(text);
  ASSERT_EQ(records.size(), 3u);
  for (RecordStyle style : {RecordStyle::Tgk, RecordStyle::PlayOK}) {
    std::string written;
    for (const Record& r : records) {
      Replayed g = replay_record(r);
      ASSERT_FALSE(g.error) << g.error->message;
      written += (written.empty() ? "" : "\n") + write_record(g.game, r.tags, style);
    }
    auto back = read_records(written);
    ASSERT_EQ(back.size(), 3u) << written;
    for (size_t k = 0; k < 3; ++k) {
      EXPECT_EQ(back[k].tags, records[k].tags) << written;
      Replayed a = replay_record(records[k]), b = replay_record(back[k]);
      EXPECT_EQ(b.game.ply_count(), a.game.ply_count());
      EXPECT_EQ(b.game.result(), a.game.result());
    }
  }
  Game forfeit;
  forfeit.set_recorded_result(Result::WhiteWins, EndReason::Resignation);
  EXPECT_EQ(write_record(forfeit, {{"Event", "a"}}, RecordStyle::Tgk),
            "[Event \"a\"]\n[Result \"1-0\"]\n\n1-0\n");
}

TEST(RecordReader, ReplayChecksBookAndPlayOkTokens) {
  auto records = read_records("1. 65 (10), 87 2. 55 99(12) 3. 34 (22) 35 (16) *");
  ASSERT_EQ(records.size(), 1u);
  Replayed r = replay_record(records[0]);
  ASSERT_FALSE(r.error) << r.error->message;
  EXPECT_EQ(format_position(r.game.position()),
            "12,12,2,13,0,5,14,13,1/12,12,1,1,2,10,10,2,2 22 16 w 4");
  EXPECT_EQ(r.game.result(), Result::None);
}

TEST(RecordTags, VariantRulesAndFen) {
  auto records = read_records(
      "[Variant \"Kozdatu\"]\n[Rules \"play-out, tuz\"]\n"
      "[FEN \"7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 0 b 3\"]\n\n3... 1 4. 1 *\n");
  ASSERT_EQ(records.size(), 1u);
  Replayed r = replay_record(records[0]);
  ASSERT_FALSE(r.error) << r.error->message;
  EXPECT_EQ(r.game.rules(), (Rules{7, true, true}));
  EXPECT_EQ(r.game.ply_count(), 2);
  EXPECT_EQ(r.game.start().side_to_move(), Side::Black);
  // Overrides beat the tags.
  RuleOptions no_tuz;
  no_tuz.tuz = false;
  EXPECT_EQ(replay_record(records[0], no_tuz).game.rules(), (Rules{7, false, true}));
}

TEST(RecordWriter, PlayOkStyleGolden) {
  auto records = read_records(test::read_file(test::data_path("master-game.pgn")));
  Replayed r = replay_record(records[0]);
  ASSERT_FALSE(r.error);
  EXPECT_EQ(write_record(r.game, records[0].tags),
            "[Event \"Kazakhstan\"]\n[Site \"Aktau\"]\n[Date \"2006\"]\n"
            "[White \"Eleusiz, Nurlan\"]\n[Black \"Aktayev, Serik\"]\n[Result \"1-0\"]\n\n"
            "1. 65(10) 87 2. 55 99(12) 3. 34(22) 35(16) 4. 34 89 5. 91\n"
            "45 6. 48(24) 92 7. 62(38) 78(32) 8. 91(54) 58 9. 15(56) 1-0\n");
  EXPECT_EQ(
      write_record(r.game, records[0].tags, RecordStyle::Tgk),
      "[Event \"Kazakhstan\"]\n[Site \"Aktau\"]\n[Date \"2006\"]\n"
      "[White \"Eleusiz, Nurlan\"]\n[Black \"Aktayev, Serik\"]\n[Result \"1-0\"]\n\n"
      "1. 65 87\n2. 55 99\n3. 34 35\n4. 34 89\n5. 91 45\n6. 48 92\n7. 62 78\n8. 91 58\n9. 15\n");
}

TEST(RecordWriter, NonStandardGamesCarryTheirTags) {
  Rules rules{5, true, true};
  Game g(Position::start(rules));
  ASSERT_TRUE(g.play(5));
  EXPECT_EQ(write_record(g, {{"White", "a \"quoted\" name"}}),
            "[White \"a \\\"quoted\\\" name\"]\n[Result \"*\"]\n[Variant \"bestemshi\"]\n"
            "[Rules \"play-out,tuz\"]\n\n1. 54(6) *\n");
  Game h(parse_position("9,9,9,9,9,1,10,10,10/10,10,10,10,0,9,9,9,9 10 0 b 1",
                        RuleOptions{{}, false, false}));
  ASSERT_TRUE(h.play(1));
  EXPECT_EQ(write_record(h, {}, RecordStyle::Tgk),
            "[Result \"*\"]\n[Rules \"no-tuz\"]\n"
            "[FEN \"9,9,9,9,9,1,10,10,10/10,10,10,10,0,9,9,9,9 10 0 b 1\"]\n\n1... 11\n");
  // And both read back to the same games.
  for (const Game* game : {&g, &h})
    for (RecordStyle style : {RecordStyle::PlayOK, RecordStyle::Tgk, RecordStyle::Pgn}) {
      auto back = read_records(write_record(*game, {}, style));
      ASSERT_EQ(back.size(), 1u);
      Replayed r = replay_record(back[0]);
      ASSERT_FALSE(r.error) << r.error->message;
      EXPECT_EQ(r.game.start(), game->start());
      EXPECT_EQ(r.game.position(), game->position());
    }
}

// Random games (some unfinished, some ending on the board, some resigned) in every variant
// written in both styles, read back and replayed: the same start, moves, end and result.
TEST(RecordWriter, RoundTripsRandomGames) {
  std::mt19937 rng(20261130);
  for (int i = 0; i < 300; ++i) {
    Rules rules = Rules::for_variant(Variant(i % 3));
    if (i % 5 == 0) rules.play_out = true;
    if (i % 7 == 0) rules.tuz = !rules.tuz;
    Game g(Position::start(rules));
    int length = int(rng() % 250);
    while (!g.over() && g.ply_count() < length) {
      uint32_t mask = g.legal_mask();
      int hole;
      do hole = int(rng() % rules.n) + 1;
      while (!(mask >> (hole - 1) & 1));
      ASSERT_TRUE(g.play(hole));
    }
    if (!g.over() && i % 4 == 0) g.set_recorded_result(Result::BlackWins, EndReason::Resignation);
    for (RecordStyle style : {RecordStyle::PlayOK, RecordStyle::Tgk, RecordStyle::Pgn}) {
      SCOPED_TRACE("game " + std::to_string(i) +
                   (style == RecordStyle::Tgk   ? " tgk"
                    : style == RecordStyle::Pgn ? " pgn"
                                                : " playok"));
      std::string text = write_record(g, {{"Event", "random"}}, style);
      auto back = read_records(text);
      ASSERT_EQ(back.size(), 1u) << text;
      Replayed r = replay_record(back[0]);
      ASSERT_FALSE(r.error) << r.error->message << "\n" << text;
      EXPECT_EQ(r.game.start(), g.start());
      EXPECT_EQ(r.game.ply_count(), g.ply_count());
      EXPECT_EQ(r.game.position(), g.position());
      EXPECT_EQ(r.game.result(), g.result());
      EXPECT_EQ(r.game.end_reason(), g.end_reason());
      EXPECT_EQ(write_record(r.game, back[0].tags, style), text);
    }
  }
}

// The Pgn style keeps each move number on the line of its move, where PlayOK's own style (as
// its files do) lets a line end with "5."; the moves are the same words otherwise.
TEST(RecordWriter, PgnStyleKeepsMoveNumbersWithTheirMoves) {
  std::mt19937 rng(7);
  int playok_breaks = 0;
  for (int i = 0; i < 50; ++i) {
    Game g(Position::start(Rules::for_variant(Variant::Standard)));
    while (!g.over() && g.ply_count() < 120) {
      const uint32_t mask = g.legal_mask();
      int hole;
      do hole = int(rng() % 9) + 1;
      while (!(mask >> (hole - 1) & 1));
      ASSERT_TRUE(g.play(hole));
    }
    auto moves_of = [](const std::string& text) {
      std::string body = text.substr(text.find("\n\n") + 2);
      std::vector<std::string> lines, words;
      std::istringstream in(body);
      for (std::string line; std::getline(in, line);) lines.push_back(line);
      std::istringstream w(body);
      for (std::string word; w >> word;) words.push_back(word);
      return std::make_pair(lines, words);
    };
    const auto [pgn_lines, pgn_words] = moves_of(write_record(g, {}, RecordStyle::Pgn));
    const auto [ok_lines, ok_words] = moves_of(write_record(g, {}, RecordStyle::PlayOK));
    EXPECT_EQ(pgn_words, ok_words);
    for (const std::string& line : pgn_lines) {
      EXPECT_LE(line.size(), 59u) << line;
      EXPECT_NE(line.back(), '.') << "a line ends with a move number: " << line;
    }
    for (const std::string& line : ok_lines) playok_breaks += line.back() == '.';
  }
  EXPECT_GT(playok_breaks, 0);  // the case arises in these games
}

}  // namespace
}  // namespace toguz
