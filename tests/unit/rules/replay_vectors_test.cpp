// The shared vectors replayed through the record reader: the master game ply by ply, the 100
// random games (standard and play-out), the repetition game and the end cases; every field.
#include <gtest/gtest.h>

#include "rules/record.h"
#include "test_util.h"

namespace toguz {
namespace {

namespace json = boost::json;

// A record whose plies are the bare holes of a vector's "moves".
Record bare_record(const std::string& moves) {
  Record r;
  for (int h : test::holes_of(moves)) r.plies.push_back(Record::Ply{std::to_string(h), 1});
  return r;
}

json::value end_json(const Game& g) {
  if (g.outcome() == Outcome::Ongoing) return nullptr;
  return json::string(end_reason_name(g.end_reason()));
}

// Compares plies, end, score, result and position of the replayed game with the vector.
void expect_matches(const Game& g, const json::object& v) {
  EXPECT_EQ(g.ply_count(), v.at("plies").as_int64());
  EXPECT_EQ(end_json(g), v.at("end"));
  auto score = g.score();
  EXPECT_EQ(score[0], v.at("score").as_array()[0].as_int64());
  EXPECT_EQ(score[1], v.at("score").as_array()[1].as_int64());
  EXPECT_EQ(result_text(g.result()), v.at("result").as_string());
  EXPECT_EQ(format_position(g.position()), v.at("position").as_string());
}

TEST(ReplayVectors, MasterGamePlyByPly) {
  json::object v = test::read_json("master-game.json").as_object();
  const json::array& moves = v.at("moves").as_array();
  const json::array& positions = v.at("positions_after_each_ply").as_array();
  ASSERT_EQ(positions.size(), moves.size() + 1);
  Game g;
  EXPECT_EQ(format_position(g.position()), positions[0].as_string());
  for (size_t i = 0; i < moves.size(); ++i) {
    std::string token(moves[i].as_string());
    SCOPED_TRACE("ply " + std::to_string(i + 1) + " " + token);
    MoveToken t;
    std::string why;
    ASSERT_TRUE(parse_move_token(token, &t, &why)) << why;
    MoveInfo info;
    ASSERT_TRUE(g.play(t.hole, &why, &info)) << why;
    EXPECT_EQ(check_move_token(t, info), "");
    // PlayOK writes (n) after captures only: the token comes back exactly as recorded.
    EXPECT_EQ(format_move(info, MoveStyle::PlayOK), token);
    if (t.kazna >= 0) {
      EXPECT_EQ(info.kazna_after, t.kazna);
    }
    EXPECT_EQ(format_position(g.position()), positions[i + 1].as_string());
  }
}

TEST(ReplayVectors, MasterGameRecordKeepsTheResignation) {
  auto records = read_records(test::read_file(test::data_path("master-game.pgn")));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].tag("White"), "Eleusiz, Nurlan");
  EXPECT_EQ(records[0].plies.size(), 17u);
  EXPECT_EQ(records[0].result_token, "1-0");
  Replayed r = replay_record(records[0]);
  ASSERT_FALSE(r.error) << r.error->message;
  json::object v = test::read_json("master-game.json").as_object();
  EXPECT_EQ(format_position(r.game.position()),
            v.at("positions_after_each_ply").as_array().back().as_string());
  EXPECT_EQ(r.game.outcome(), Outcome::Ongoing);  // Black resigned: the board did not end it
  EXPECT_EQ(r.game.result(), Result::WhiteWins);
  EXPECT_EQ(r.game.end_reason(), EndReason::Resignation);
  EXPECT_EQ(r.game.score(), (std::array<int, 2>{56, 32}));
}

TEST(ReplayVectors, RandomGamesStandardAndPlayOut) {
  auto games = test::read_jsonl("random-games.jsonl");
  ASSERT_EQ(games.size(), 100u);
  for (size_t i = 0; i < games.size(); ++i) {
    SCOPED_TRACE("game " + std::to_string(i + 1));
    const json::object& v = games[i].as_object();
    Replayed std_game = replay_record(bare_record(std::string(v.at("moves").as_string())));
    ASSERT_FALSE(std_game.error) << std_game.error->message;
    expect_matches(std_game.game, v);
    const json::object& po = v.at("play_out").as_object();
    RuleOptions play_out;
    play_out.play_out = true;
    Replayed po_game =
        replay_record(bare_record(std::string(po.at("moves").as_string())), play_out);
    ASSERT_FALSE(po_game.error) << po_game.error->message;
    EXPECT_TRUE(po_game.game.rules().play_out);
    expect_matches(po_game.game, po);
  }
}

TEST(ReplayVectors, RepetitionGame) {
  json::object v = test::read_json("repetition-game.json").as_object();
  Replayed r = replay_record(bare_record(std::string(v.at("moves").as_string())));
  ASSERT_FALSE(r.error) << r.error->message;
  expect_matches(r.game, v);
  EXPECT_EQ(r.game.repetition_count(), 3);
}

TEST(ReplayVectors, EndCases) {
  auto cases = test::read_jsonl("end-cases.jsonl");
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    const json::object& v = c.as_object();
    SCOPED_TRACE(std::string(v.at("case").as_string()));
    Replayed r = replay_record(bare_record(std::string(v.at("moves").as_string())));
    ASSERT_FALSE(r.error) << r.error->message;
    expect_matches(r.game, v);
  }
}

TEST(ReplayVectors, MoveAfterTheEndIsRejected) {
  auto cases = test::read_jsonl("end-cases.jsonl");
  const json::object& v = cases[0].as_object();
  Record rec = bare_record(std::string(v.at("moves").as_string()));
  const Position last = replay_record(rec).game.position();
  // Any move of the side to move (or even an empty hole) after a decided end is refused.
  int hole = 1;
  while (hole < 9 && !last.stones(last.side_to_move(), hole)) ++hole;
  rec.plies.push_back(Record::Ply{std::to_string(hole), 7});
  Replayed r = replay_record(rec);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->ply, int(rec.plies.size()));
  EXPECT_EQ(r.error->line, 7);
  EXPECT_EQ(r.error->message, "move after the end of the game (decided after ply 193)");
  EXPECT_EQ(r.game.ply_count(), 193);
}

}  // namespace
}  // namespace toguz
