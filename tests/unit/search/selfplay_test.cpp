// Self-play data (search/selfplay.h) and the weight fit (search/tune.h): records round-trip
// through the 48-byte encoding, a run is the same file at any concurrency, each record holds
// the position its game reached, results agree with the margin, bad files are named errors,
// and the fit does at least as well as the current weights on the data.
#include "search/selfplay.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>

#include "rules/game.h"
#include "rules/notation.h"
#include "search/tune.h"
#include "test_util.h"

namespace toguz::search {
namespace {

std::string temp_path(const char* name) {
  return ::testing::TempDir() + name;
}

TEST(Selfplay, RecordRoundTrip) {
  SelfplayRecord r;
  for (int i = 0; i < 18; ++i) r.holes[i] = uint8_t(i * 7);
  r.kazna = {81, 3};
  r.tuz = {4, 0};
  r.side = 1, r.n = 9, r.rules = 3, r.result = -1, r.proven = 1, r.best_move = 7;
  r.score = -30990, r.ply = 300, r.move_number = 151, r.final_margin = -12, r.game = 70000;
  r.game_plies = 401, r.nodes = 123456789;
  uint8_t bytes[kSelfplayRecordSize];
  encode_record(r, bytes);
  EXPECT_EQ(bytes[28] | bytes[29] << 8, uint16_t(int16_t(-30990)));  // little-endian
  EXPECT_EQ(bytes[36] | bytes[37] << 8 | bytes[38] << 16, 70000);
  const SelfplayRecord d = decode_record(bytes);
  EXPECT_EQ(d.holes, r.holes);
  EXPECT_EQ(d.kazna, r.kazna);
  EXPECT_EQ(d.tuz, r.tuz);
  EXPECT_EQ(d.side, 1);
  EXPECT_EQ(d.rules, 3);
  EXPECT_EQ(d.result, -1);
  EXPECT_EQ(d.score, -30990);
  EXPECT_EQ(d.ply, 300);
  EXPECT_EQ(d.move_number, 151);
  EXPECT_EQ(d.final_margin, -12);
  EXPECT_EQ(d.game, 70000u);
  EXPECT_EQ(d.game_plies, 401);
  EXPECT_EQ(d.nodes, 123456789u);
  EXPECT_EQ(d.best_move, 7);
}

TEST(Selfplay, RunIsReproducibleAndConsistent) {
  SelfplaySettings st;
  st.games = 4;
  st.nodes = 300;
  st.seed = 5;
  const std::string a = temp_path("sp_a.bin"), b = temp_path("sp_b.bin");
  const uint64_t n = run_selfplay(st, a);
  st.concurrency = 3;
  EXPECT_EQ(run_selfplay(st, b), n);
  const std::string bytes = test::read_file(a);
  EXPECT_EQ(bytes, test::read_file(b));
  ASSERT_EQ(bytes.size(), kSelfplayHeaderSize + n * kSelfplayRecordSize);
  EXPECT_EQ(bytes.substr(0, 8), "TGZSELFP");

  const auto recs = read_selfplay(a);
  ASSERT_EQ(recs.size(), n);
  std::set<uint32_t> games;
  for (size_t i = 0; i < recs.size(); ++i) {
    const SelfplayRecord& r = recs[i];
    games.insert(r.game);
    const Position pos = r.position();
    EXPECT_EQ(pos.outcome(), Outcome::Ongoing);
    EXPECT_TRUE(pos.is_legal(r.best_move));
    EXPECT_EQ(r.result, r.final_margin > 0 ? 1 : r.final_margin < 0 ? -1 : 0);
    EXPECT_EQ(r.ply, i == 0 || recs[i - 1].game != r.game ? st.random_plies : recs[i - 1].ply + 1);
    // The next record of the same game is this position after the chosen move.
    if (i + 1 < recs.size() && recs[i + 1].game == r.game)
      EXPECT_EQ(format_position(pos.after(r.best_move)), format_position(recs[i + 1].position()));
    else
      EXPECT_EQ(r.game_plies, r.ply + 1);  // the move ended the game
  }
  EXPECT_EQ(games.size(), 4u);

  // The fit includes the current weights' direction, so it can only do as well or better.
  const TuneResult t = tune_weights(recs, TuneSettings{});
  EXPECT_EQ(t.weights[kFeatKazna], 100);
  EXPECT_GT(t.positions, 0u);
  EXPECT_GT(t.scale, 0);
  EXPECT_LE(t.loss_fitted, t.loss_current + 1e-3);
  TuneSettings only;
  only.features = {kFeatKazna, kFeatTuz};
  const TuneResult t2 = tune_weights(recs, only);
  EXPECT_EQ(t2.weights[kFeatRow], 0);
  EXPECT_EQ(t2.weights[kFeatMobility], 0);
  only.features = {kFeatRow};
  EXPECT_THROW(tune_weights(recs, only), std::runtime_error);
}

TEST(Selfplay, BadFilesAreNamed) {
  auto write = [](const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
  };
  auto message = [](const std::string& path) {
    try {
      read_selfplay(path);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string p = temp_path("sp_bad.bin");
  write(p, "hello world, this is not it");
  EXPECT_NE(message(p).find("not a toguz self-play file"), std::string::npos) << message(p);
  std::string h = selfplay_header();
  h[8] = 2;
  write(p, h);
  EXPECT_NE(message(p).find("version 2, expected 1"), std::string::npos) << message(p);
  write(p, selfplay_header() + std::string(50, '\0'));
  EXPECT_NE(message(p).find("truncated: 2 bytes"), std::string::npos) << message(p);
  EXPECT_NE(message(temp_path("sp_missing.bin")).find("cannot open"), std::string::npos);
  write(p, selfplay_header());
  EXPECT_TRUE(read_selfplay(p).empty());
}

}  // namespace
}  // namespace toguz::search
