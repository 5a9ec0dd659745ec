// The exact solver (src/tables/solver.h): the composed studies, lines that really end the game
// with the claimed result, and agreement with the endgame tables on small positions.
#include "tables/solver.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "rules/game.h"
#include "rules/notation.h"
#include "tables/tablebase.h"
#include "test_util.h"

namespace toguz {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

// Replays `line` from `pos` with the referee; the game must end there with `result` for the
// side to move at `pos`.
void expect_line_ends_with(const Position& pos, const std::vector<int>& line, int result) {
  Game g(pos);
  for (size_t i = 0; i < line.size(); ++i) {
    std::string why;
    ASSERT_FALSE(g.over()) << "the game ended before move " << i + 1 << " of the line";
    ASSERT_TRUE(g.play(line[i], &why)) << "move " << i + 1 << " (hole " << line[i] << "): " << why;
  }
  ASSERT_TRUE(g.over()) << "the line does not end the game";
  Result r = g.result();
  Result want = result == 0 ? Result::Draw
                : (result > 0) == (pos.side_to_move() == Side::White) ? Result::WhiteWins
                                                                      : Result::BlackWins;
  EXPECT_EQ(result_text(r), result_text(want));
}

// Studies the proof search proves within 10 s on the Release build, with their solve time
// there in ms (docs/tables.md); the others are skipped with a message until it does.
struct StudyBudget {
  int study;
  int release_ms;
};
constexpr StudyBudget kProvenStudies[] = {{1, 200}, {2, 200}, {4, 300}};

class Studies : public ::testing::TestWithParam<int> {};

TEST_P(Studies, ProvesTheKnownResultWithALineToTheEnd) {
  int n = GetParam();
  auto doc = test::read_json("etudes.json");
  const auto& st = doc.at("studies").as_array().at(size_t(n - 1)).as_object();
  ASSERT_EQ(st.at("study").as_int64(), n);
  const StudyBudget* budget = nullptr;
  for (const auto& b : kProvenStudies)
    if (b.study == n) budget = &b;
  if (!budget) GTEST_SKIP() << "study " << n << " is not yet proven within 10 s by the proof search (docs/tables.md)";
  if (kSanitized && budget->release_ms > 500) GTEST_SKIP() << "study " << n << " takes too long under ASan";
  Position pos = parse_position(std::string(st.at("position").as_string()));
  std::string want(st.at("result_for_white").as_string());
  tables::SolveOptions opt;
  opt.time_ms = 10000;
  opt.want_margin = false;
  tables::Solution s = tables::solve(pos, opt);
  ASSERT_TRUE(s.proven) << "not proven in 10 s";
  EXPECT_EQ(s.result, want == "win" ? 1 : want == "loss" ? -1 : 0) << "study " << n;
  expect_line_ends_with(pos, s.line, s.result);
}

INSTANTIATE_TEST_SUITE_P(Etudes, Studies, ::testing::Range(1, 9));

TEST(Solver, FinishedPositionIsItsOwnResult) {
  // White has no stones: Black takes the rest (2) and wins 82-80.
  Position pos = parse_position("0,0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0,0 80 80 w");
  tables::SolveOptions opt;
  opt.hash_log2 = 12;
  tables::Solution s = tables::solve(pos, opt);
  ASSERT_TRUE(s.proven);
  EXPECT_EQ(s.result, -1);
  ASSERT_TRUE(s.margin.has_value());
  EXPECT_EQ(*s.margin, -2);
  EXPECT_TRUE(s.line.empty());
}

TEST(Solver, MarginLineEndsTheGameAndMatchesTheResult) {
  // Study 1 (12 stones): the margin search takes about 0.2 s in Release; the line follows it.
  Position pos = parse_position("0,0,0,1,x,1,3,2,1/0,0,2,2,0,0,0,0,0 78 72 w 40");
  tables::Solution s = tables::solve(pos);
  ASSERT_TRUE(s.proven);
  EXPECT_EQ(s.result, 1);
  ASSERT_TRUE(s.margin.has_value());
  EXPECT_GT(*s.margin, 0);
  expect_line_ends_with(pos, s.line, s.result);
}

TEST(Solver, TimeLimitLeavesItUnproven) {
  // 41 stones on the board: far beyond 1 ms.
  Position pos = parse_position("x,0,2,3,4,8,0,0,2/0,9,0,0,1,5,2,3,2 66 55 w 40");
  tables::SolveOptions opt;
  opt.time_ms = 1;
  opt.hash_log2 = 12;
  tables::Solution s = tables::solve(pos, opt);
  EXPECT_FALSE(s.proven);
}

TEST(Solver, RepetitionInTheHistoryIsADraw) {
  // Bestemshi without tuz, one stone each: the stones chase each other round the board.
  // With the current position already seen twice before, the game is a draw by repetition
  // whatever the kaznas (the solver scores a repeat of the history as a draw).
  Position pos = parse_position("0,0,0,0,1/0,0,0,0,1 24 24 w");
  tables::SolveOptions opt;
  opt.hash_log2 = 16;
  tables::Solution plain = tables::solve(pos, opt);
  ASSERT_TRUE(plain.proven);
  // Every White move leads somewhere; marking every child as already seen makes each a draw.
  for (int h = 1; h <= 5; ++h)
    if (pos.is_legal(h)) opt.history.push_back(pos.after(h).key());
  tables::Solution rep = tables::solve(pos, opt);
  ASSERT_TRUE(rep.proven);
  EXPECT_EQ(rep.result, 0);
  EXPECT_FALSE(rep.margin.has_value());
  EXPECT_TRUE(rep.margin_needs_repetition);
}

// A position with the board of `base` (White to move) and kaznas split as given.
Position with_kaznas(const Position& base, int white, int black, Side to_move) {
  int holes[2][Position::kMaxN] = {};
  for (int s = 0; s < 2; ++s)
    for (int h = 1; h <= 9; ++h) holes[s][h - 1] = base.stones(Side(s), h);
  int tuz[2] = {base.tuz(Side::White), base.tuz(Side::Black)};
  Position p;
  std::string why;
  EXPECT_TRUE(Position::from_parts(Rules{}, holes, white, black, tuz, to_move, 1, &p, &why)) << why;
  return p;
}

class SmallTables : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = (std::filesystem::temp_directory_path() / ("toguz_tables_test_" + std::to_string(::getpid()))).string();
    std::filesystem::remove_all(dir_);
    tb_ = new tables::Tablebase(dir_, kK);
    tb_->build(tables::all_configs());
  }
  static void TearDownTestSuite() {
    delete tb_;
    std::filesystem::remove_all(dir_);
  }
  static constexpr int kK = kSanitized ? 4 : 5;  // build + verify: 1 s in Release, 8 s under ASan at 5
  static inline std::string dir_;
  static inline tables::Tablebase* tb_ = nullptr;
};

TEST_F(SmallTables, EveryEntryAgreesWithItsChildren) { EXPECT_EQ(tb_->verify(tables::all_configs()), 0u); }

TEST_F(SmallTables, IndexRoundTrips) {
  std::mt19937_64 rng(7);
  for (const auto& c : tables::all_configs()) {
    uint64_t n = tables::table_entries(c, kK);
    for (int i = 0; i < 50; ++i) {
      uint64_t idx = rng() % n;
      Position p = tb_->position_of(c, idx);
      tables::Config back;
      ASSERT_EQ(tb_->index_of(p, &back), idx);
      ASSERT_EQ(back.id(), c.id());
    }
  }
}

TEST_F(SmallTables, ValuesMatchTheSolversSearch) {
  // Random positions with at most K stones and a tuz, random kaznas and side: the solver
  // without tables proves margin = kazna difference + table value, and with the tables it
  // agrees (and uses them).
  std::mt19937_64 rng(11);
  auto configs = tables::all_configs();
  int checked = 0;
  for (int i = 0; i < 1000; ++i) {
    const auto& c = configs[rng() % configs.size()];
    Position base = tb_->position_of(c, rng() % tables::table_entries(c, kK));
    int s = 162 - base.kazna(Side::White);
    int white = int(rng() % (162 - s + 1));
    Side side = rng() & 1 ? Side::White : Side::Black;
    // position_of puts the mover on White's row; for Black to move, swap the rows.
    Position p;
    if (side == Side::White) {
      p = with_kaznas(base, white, 162 - s - white, side);
    } else {
      int holes[2][Position::kMaxN] = {};
      for (int h = 1; h <= 9; ++h) holes[1][h - 1] = base.stones(Side::White, h), holes[0][h - 1] = base.stones(Side::Black, h);
      int tuz[2] = {base.tuz(Side::Black), base.tuz(Side::White)};
      std::string why;
      ASSERT_TRUE(Position::from_parts(Rules{}, holes, white, 162 - s - white, tuz, side, 1, &p, &why)) << why;
    }
    int v;
    ASSERT_TRUE(tb_->probe(p, &v));
    Side me = p.side_to_move();
    int kd = p.kazna(me) - p.kazna(opposite(me));
    tables::SolveOptions small;
    small.hash_log2 = 14;
    tables::Solution plain = tables::solve(p, small);
    ASSERT_TRUE(plain.proven && plain.margin.has_value()) << format_position(p);
    EXPECT_EQ(*plain.margin, kd + v) << format_position(p);
    EXPECT_EQ(plain.result, (kd + v > 0) - (kd + v < 0)) << format_position(p);
    if (p.outcome() == Outcome::Ongoing) expect_line_ends_with(p, plain.line, plain.result);
    tables::SolveOptions opt;
    opt.tables = tb_;
    opt.hash_log2 = 12;
    tables::Solution probed = tables::solve(p, opt);
    ASSERT_TRUE(probed.margin.has_value());
    EXPECT_EQ(*probed.margin, *plain.margin) << format_position(p);
    EXPECT_EQ(probed.result, plain.result);
    ++checked;
  }
  EXPECT_EQ(checked, 1000);
}

TEST_F(SmallTables, ConfigsForAPositionIncludeWhatItCanReach) {
  // White owns a tuz on Black's 2; Black has none: Black may still make one on 1, 3..8.
  Position p = parse_position("0,0,0,0,0,0,0,0,1/0,x,0,0,0,0,0,0,1 80 80 w");
  auto cs = tables::configs_for(p);
  EXPECT_EQ(cs.size(), 2u + 2u * 7u);
}

}  // namespace
}  // namespace toguz
