// The learning pages on a real server (127.0.0.1, a free port): the explorer's engine column
// (GET /api/explorer/eval) searched on the worker pool and remembered, and the site's finished
// games mined for puzzles (the miner alone over a worker pool, then a game played to its end on
// a server), kept in a file that a restart reads back.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <fstream>
#include <set>
#include <thread>

#include "rules/notation.h"
#include "rules/record.h"
#include "server_client.h"
#include "site/learn/learn_api.h"
#include "site/learn/puzzle_miner.h"
#include "test_util.h"

namespace toguz::test {
namespace {

TEST(LearnServer, ExplorerEvalScoresEveryLegalMoveBestFirst) {
  TempDir dir;
  server::Config cfg;
  cfg.explorer_eval_depth = 6;
  TestServer srv((dir.path / "t.db").string(), cfg);
  // Black to move after 76: every legal move scored, the best for Black first
  const Position pos = parse_position("9,9,9,9,9,9,1,10,10/10,10,10,10,10,0,9,9,9 10 0 b 1");
  const std::string target =
      "/api/explorer/eval?position=9,9,9,9,9,9,1,10,10/10,10,10,10,10,0,9,9,9%2010%200%20b%201";
  HttpResult r = http_get(srv.port, target);
  ASSERT_EQ(r.status, 200) << r.body;
  json::object o = r.json().as_object();
  EXPECT_EQ(o.at("position").as_string(), format_position(pos));
  EXPECT_EQ(o.at("depth").as_int64(), 6);
  const json::array& moves = o.at("moves").as_array();
  ASSERT_EQ(int(moves.size()), std::popcount(pos.legal_mask()));
  std::set<int> holes;
  int64_t last = INT64_MAX;
  for (const json::value& v : moves) {
    const json::object& m = v.as_object();
    const int hole = int(m.at("hole").as_int64());
    EXPECT_TRUE(pos.is_legal(hole));
    holes.insert(hole);
    Position after = pos;
    EXPECT_EQ(m.at("move").as_string(), format_move(after.play(hole)));
    EXPECT_EQ(m.at("after").as_string(), format_position(after));
    const json::object& score = m.at("score").as_object();
    const int64_t cp = score.at("cp").as_int64();
    EXPECT_EQ(score.at("white_cp").as_int64(), -cp) << "Black's view, White's alongside";
    EXPECT_LE(cp, last) << "best first for the side to move";
    last = cp;
    EXPECT_FALSE(m.at("pv_notation").as_array().empty());
  }
  EXPECT_EQ(holes.size(), moves.size());
  // asked again: the remembered answer, the same body
  HttpResult again = http_get(srv.port, target);
  EXPECT_EQ(again.status, 200);
  EXPECT_EQ(again.body, r.body);
}

TEST(LearnServer, ExplorerEvalRefusesBadRequests) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  HttpResult bad = http_get(srv.port, "/api/explorer/eval?position=1,2,3");
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.body.find("position"), std::string::npos) << bad.body;
  HttpResult post = http_post(srv.port, "/api/explorer/eval", json::object{});
  EXPECT_EQ(post.status, 405);
  EXPECT_EQ(post.headers[http::field::allow], "GET, HEAD");
  // a finished game: no move to score
  HttpResult over = http_get(
      srv.port,
      "/api/explorer/eval?position=0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0%2082%2080%20w%2050");
  ASSERT_EQ(over.status, 200) << over.body;
  EXPECT_TRUE(over.json().as_object().at("moves").as_array().empty());
}

// The first game of tests/data/puzzles/tiny.pgn, replayed.
Game tiny_game() {
  const auto records = read_records(read_file(data_path("puzzles/tiny.pgn")));
  Replayed r = replay_record(records.at(0));
  EXPECT_FALSE(r.error);
  return r.game;
}

std::vector<std::string> lines_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(LearnServer, MinerAddsAGamesPuzzlesOnceAndKeepsThem) {
  TempDir dir;
  const auto file = dir.path / "mined.jsonl";
  site::LearnService served(site::LearnOptions{});
  net::io_context ioc;
  engine_work::WorkerPool pool(1);
  engine_work::EngineWork work(ioc, pool);
  puzzles::MineOptions options;  // as tests/data/puzzles/tiny.jsonl was made: --depth 4 --skip 2
  options.depth = 4;
  options.skip_plies = 2;
  site::PuzzleMiner miner(
      work, file.string(), [&](const puzzles::Puzzle& p) { return served.add_puzzle(p); }, options);
  std::vector<std::pair<std::string, int>> mined;
  miner.on_mined = [&](const std::string& id, int n) {
    mined.emplace_back(id, n);
    if (mined.size() == 2) ioc.stop();
  };
  auto guard = net::make_work_guard(ioc);
  miner.finished("g1", tiny_game(), {{"White", "A"}});
  miner.finished("g2", tiny_game(), {});  // the same game again: nothing new
  miner.finished("short", Game(), {});    // too short to hold a puzzle: not queued
  ioc.run_for(std::chrono::seconds(120));
  ASSERT_EQ(mined.size(), 2u);
  EXPECT_EQ(mined[0], std::make_pair(std::string("g1"), 2));
  EXPECT_EQ(mined[1], std::make_pair(std::string("g2"), 0));
  EXPECT_EQ(served.puzzle_count(), 2u);
  // the file holds the puzzles of `toguz puzzles build` with the same options, from the site
  const auto got = lines_of(file);
  const auto golden = lines_of(data_path("puzzles/tiny.jsonl"));
  ASSERT_EQ(got.size(), golden.size());
  for (size_t i = 0; i < got.size(); ++i) {
    puzzles::Puzzle a, b;
    ASSERT_TRUE(puzzles::read_puzzle(got[i], &a, nullptr)) << got[i];
    ASSERT_TRUE(puzzles::read_puzzle(golden[i], &b, nullptr));
    EXPECT_EQ(a.key, b.key);
    EXPECT_EQ(a.line, b.line);
    EXPECT_EQ(a.source.file, "site");
    EXPECT_NE(got[i].find(R"("GameId":"g1")"), std::string::npos) << got[i];
  }
  // a restart reads them back; a line cut short by a crash is skipped, not fatal
  std::ofstream(file, std::ios::app) << R"({"position":"9,9,9)";
  site::LearnOptions again;
  again.mined_path = file.string();
  site::LearnService restarted(again);
  EXPECT_EQ(restarted.puzzle_count(), 2u);
  EXPECT_EQ(restarted.mined_lines_skipped(), 1u);
}

TEST(LearnServer, AFinishedGameIsMinedIntoTheServedPuzzles) {
  TempDir dir;
  server::Config cfg;
  cfg.puzzles_path = data_path("../../web/data/puzzles-default.jsonl");
  cfg.mined_puzzles_path = (dir.path / "mined.jsonl").string();
  TestServer srv((dir.path / "t.db").string(), cfg);
  const int64_t before = jint(http_get(srv.port, "/api/puzzles").json().at("count"));
  HttpResult created =
      http_post(srv.port, "/api/games", json::value(json::object{{"mode", "local"}}));
  ASSERT_EQ(created.status, 200) << created.body;
  const std::string id = jstr(created.json().at("id"));
  WsClient ws(srv.port, id, jstr(created.json().at("token")));
  const Game game = tiny_game();
  for (int ply = 0; ply < game.ply_count(); ++ply) {
    ws.send(json::object{
        {"type", "move"}, {"hole", int(game.moves()[size_t(ply)].hole)}, {"ply", ply}});
    ASSERT_TRUE(ws.read_state([&](const json::object& g) { return jint(g.at("ply")) == ply + 1; }))
        << "ply " << ply + 1;
  }
  // the record ends by resignation: the board has not ended it
  ws.send(json::object{{"type", "resign"}});
  ASSERT_TRUE(ws.read_state([](const json::object& g) { return jstr(g.at("status")) == "over"; }));
  // the miner runs in the background: wait (bounded) for its puzzles to be served
  int64_t count = before;
  for (int i = 0; i < 1200 && count == before; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    count = jint(http_get(srv.port, "/api/puzzles").json().at("count"));
  }
  EXPECT_EQ(count, before + 3) << "the three puzzles of `toguz puzzles build` on that game";
  EXPECT_EQ(lines_of(cfg.mined_puzzles_path).size(), 3u);
}

}  // namespace
}  // namespace toguz::test
