// The exact solver (src/tables/solver.h): the composed studies, lines that really end the game
// with the claimed result, and agreement with the endgame tables on small positions.
#include "tables/solver.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <random>

#include "protocol/ugi.h"
#include "rules/game.h"
#include "rules/notation.h"
#include "search/engine.h"
#include "tables/endgames.h"
#include "tables/probe.h"
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
  Result want = result == 0                                           ? Result::Draw
                : (result > 0) == (pos.side_to_move() == Side::White) ? Result::WhiteWins
                                                                      : Result::BlackWins;
  EXPECT_EQ(result_text(r), result_text(want));
}

// The eight studies (etudes.json), proof search alone (no tables), result only. Each run is
// node-limited, not timed: the budget is 3-7x the nodes the proof took (docs/tables.md,
// "Studies"), so a weaker search fails the test, while the machine's speed does not matter.
// Studies 3 and 8 are not proven (not in 30 M nodes; docs/tables.md): skipped with a
// message. Study 5 (no tuz) takes 1.2 M nodes: its tuz-free play is deepened by 2 plies with a
// draw guessed at the horizon and a cut for a side whose kazna plus the board cannot pass N*N,
// and every position with a tuz below is proven in full. Study 7: etudes.json says draw; our
// rules and solver prove a White win (see Study7ProvenWhiteWinNotTheVectorsDraw), 7.4 M nodes.
struct StudyBudget {
  int study;
  uint64_t max_nodes;  // 0: not proven within 120 s
  bool heavy;          // more than a few seconds in Release: skipped under sanitizers
};
constexpr StudyBudget kStudyBudgets[] = {
    {1, 50'000, false},    {2, 5'000, false},     {3, 0, true},          {4, 150'000, false},
    {5, 5'000'000, false}, {6, 2'000'000, false}, {7, 25'000'000, true}, {8, 0, true},
};

class Studies : public ::testing::TestWithParam<int> {};

TEST_P(Studies, ProvesTheKnownResultWithALineToTheEnd) {
  int n = GetParam();
  auto doc = test::read_json("etudes.json");
  const auto& st = doc.at("studies").as_array().at(size_t(n - 1)).as_object();
  ASSERT_EQ(st.at("study").as_int64(), n);
  const StudyBudget& budget = kStudyBudgets[n - 1];
  ASSERT_EQ(budget.study, n);
  if (!budget.max_nodes)
    GTEST_SKIP() << "study " << n
                 << " is not proven by the proof search alone even in 120 s (docs/tables.md)";
  if (kSanitized && budget.heavy) GTEST_SKIP() << "study " << n << " takes too long under ASan";
  Position pos = parse_position(std::string(st.at("position").as_string()));
  std::string want(st.at("result_for_white").as_string());
  // Study 7: etudes.json says "draw", but White wins under rules.md (docs/tables.md, "Study 7").
  if (n == 7) want = "win";
  tables::SolveOptions opt;
  opt.max_nodes = budget.max_nodes;
  opt.want_margin = false;
  opt.hash_log2 = budget.heavy ? 25 : 22;
  tables::Solution s = tables::solve(pos, opt);
  ASSERT_TRUE(s.proven) << "study " << n << " not proven within " << budget.max_nodes << " nodes";
  EXPECT_EQ(s.result, want == "win" ? 1 : want == "loss" ? -1 : 0) << "study " << n;
  EXPECT_FALSE(s.line_cut);
  expect_line_ends_with(pos, s.line, s.result);
}

INSTANTIATE_TEST_SUITE_P(Etudes, Studies, ::testing::Range(1, 9));

// Study 7 (etudes.json: "draw"): under rules.md White wins. Our line, checked move by move
// by the referee, ends "decided 83-68"; and from the position after its first six plies
// (Black's replies there are the ones the full proof found best) the solver proves the win
// with a line to the end. The full proof from the study is the heavy Studies/7 test.
TEST(Solver, Study7ProvenWhiteWinNotTheVectorsDraw) {
  auto doc = test::read_json("etudes.json");
  const auto& st = doc.at("studies").as_array().at(6).as_object();
  ASSERT_EQ(std::string(st.at("result_for_white").as_string()), "draw");  // the vector's claim
  Position pos = parse_position(std::string(st.at("position").as_string()));
  const std::vector<int> line = {6, 2, 9, 1, 8, 1, 5, 2, 5, 2, 6, 3, 8,
                                 1, 9, 1, 6, 2, 7, 1, 7, 2, 8, 1, 9};
  Game g(pos);
  for (int h : line) {
    std::string why;
    ASSERT_FALSE(g.over());
    ASSERT_TRUE(g.play(h, &why)) << why;
  }
  ASSERT_TRUE(g.over());
  EXPECT_EQ(result_text(g.result()), result_text(Result::WhiteWins));
  EXPECT_EQ(g.position().kazna(Side::White), 83);
  EXPECT_EQ(g.position().kazna(Side::Black), 68);
  if (kSanitized) GTEST_SKIP() << "the proof after six plies takes too long under ASan";
  Position after6 = pos;
  for (int i = 0; i < 6; ++i) after6.play(line[size_t(i)]);
  EXPECT_EQ(format_position(after6), "x,0,0,0,5,1,2,1,2/0,3,1,x,3,2,0,0,0 74 68 w 43");
  tables::SolveOptions opt;
  opt.max_nodes = 5'000'000;  // the proof took 1.1 M (3.0 M before the mobility guess)
  opt.want_margin = false;
  tables::Solution s = tables::solve(after6, opt);
  ASSERT_TRUE(s.proven);
  EXPECT_EQ(s.result, 1);
  expect_line_ends_with(after6, s.line, s.result);
}

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

// Two threads over the shared table (SolveOptions::threads) prove what one thread proves: the
// same result and margin, with a line the referee accepts (the lines and node counts of two
// threads vary from run to run; one thread's are deterministic). Studies 1, 2 (a draw) and 4
// with the margin, 5 (no tuz: repetitions, result mode) for the result only.
TEST(Solver, TwoThreadsProveWhatOneThreadProves) {
  auto doc = test::read_json("etudes.json");
  for (int n : {1, 2, 4, 5}) {
    SCOPED_TRACE("study " + std::to_string(n));
    const auto& st = doc.at("studies").as_array().at(size_t(n - 1)).as_object();
    Position pos = parse_position(std::string(st.at("position").as_string()));
    tables::SolveOptions opt;
    opt.hash_log2 = 20;
    opt.max_nodes = 20'000'000;
    opt.want_margin = n != 5;
    tables::Solution one = tables::solve(pos, opt);
    opt.threads = 2;
    tables::Solution two = tables::solve(pos, opt);
    ASSERT_TRUE(one.proven);
    ASSERT_TRUE(two.proven);
    EXPECT_EQ(two.result, one.result);
    EXPECT_EQ(two.margin.has_value(), n != 5);
    EXPECT_EQ(two.margin, one.margin);
    expect_line_ends_with(pos, two.line, two.result);
  }
}

TEST(Solver, TimeLimitLeavesItUnproven) {
  // 41 stones on the board: far beyond 1 ms.
  Position pos = parse_position("x,0,2,3,4,8,0,0,2/0,9,0,0,1,5,2,3,2 66 55 w 40");
  tables::SolveOptions opt;
  opt.time_ms = 1;
  opt.hash_log2 = 12;
  tables::Solution s = tables::solve(pos, opt);
  EXPECT_FALSE(s.proven);
  opt.threads = 2;  // every thread stops at the limit
  EXPECT_FALSE(tables::solve(pos, opt).proven);
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
    dir_ = (std::filesystem::temp_directory_path() /
            ("toguz_tables_test_" + std::to_string(::getpid())))
               .string();
    std::filesystem::remove_all(dir_);
    tb_ = new tables::Tablebase(dir_, kK);
    tb_->build(tables::all_configs());
  }
  static void TearDownTestSuite() {
    delete tb_;
    std::filesystem::remove_all(dir_);
  }
  static constexpr int kK =
      kSanitized ? 4 : 5;  // build + verify: 1 s in Release, 8 s under ASan at 5
  static inline std::string dir_;
  static inline tables::Tablebase* tb_ = nullptr;
};

TEST_F(SmallTables, EveryEntryAgreesWithItsChildren) {
  EXPECT_EQ(tb_->verify(tables::all_configs()), 0u);
}

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
      for (int h = 1; h <= 9; ++h)
        holes[1][h - 1] = base.stones(Side::White, h),
                     holes[0][h - 1] = base.stones(Side::Black, h);
      int tuz[2] = {base.tuz(Side::Black), base.tuz(Side::White)};
      std::string why;
      ASSERT_TRUE(
          Position::from_parts(Rules{}, holes, white, 162 - s - white, tuz, side, 1, &p, &why))
          << why;
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

TEST_F(SmallTables, EngineProbesThemThroughTheTableProbe) {
  // The engine (src/search) with Options::tables: every root child is answered by the tables,
  // so the score is +-(20000 + margin) with the proven margin of the root (0 for a draw).
  std::shared_ptr<const tables::Tablebase> shared(tb_, [](const tables::Tablebase*) {});
  search::Options opt;
  opt.tables = std::make_shared<tables::TablesProbe>(shared);
  search::Engine engine;
  engine.set_options(opt);
  std::mt19937_64 rng(5);
  auto configs = tables::all_configs();
  int checked = 0;
  for (int i = 0; i < 200 && checked < 20; ++i) {
    const auto& c = configs[rng() % configs.size()];
    Position base = tb_->position_of(c, rng() % tables::table_entries(c, kK));
    int s = 162 - base.kazna(Side::White);
    int white = 70 + int(rng() % 12);
    Position p = with_kaznas(base, std::min(white, 162 - s), 162 - s - std::min(white, 162 - s),
                             Side::White);
    if (p.outcome() != Outcome::Ongoing) continue;
    bool child_ends = false;
    for (uint32_t m = p.legal_mask(); m; m &= m - 1)
      child_ends |= p.after(__builtin_ctz(m) + 1).outcome() != Outcome::Ongoing;
    if (child_ends) continue;  // a finished child scores as proven, not from the tables
    tables::SolveOptions so;
    so.hash_log2 = 16;
    tables::Solution sol = tables::solve(p, so);
    ASSERT_TRUE(sol.proven && sol.margin.has_value());
    engine.set_position(Game(p));
    search::Limits lim;
    lim.depth = 1;
    search::SearchResult r = engine.search(lim);
    ASSERT_FALSE(r.lines.empty());
    int m = *sol.margin;
    EXPECT_EQ(r.lines[0].score.cp, m > 0   ? 20000 + m
                                   : m < 0 ? -20000 + m
                                           : 0)
        << format_position(p);
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

TEST_F(SmallTables, ConfigsForAPositionIncludeWhatItCanReach) {
  // White owns a tuz on Black's 2; Black has none: Black may still make one on 1, 3..8.
  Position p = parse_position("0,0,0,0,0,0,0,0,1/0,x,0,0,0,0,0,0,1 80 80 w");
  auto cs = tables::configs_for(p);
  EXPECT_EQ(cs.size(), 2u + 2u * 7u);
}

// The endgame sets (tests/data/endgames-*.jsonl, docs/tables.md "Endgame sets"): positions
// from seeded random games with their proven results and margins.
struct SetEntry {
  Position pos;
  int result;
  std::optional<int> margin;
};
struct EndgameSet {
  tables::EndgameRecipe recipe;
  std::vector<SetEntry> entries;
};

// Reads a set: the recipe from its "# toguz solve --generate N --seed S --stones A-B" line,
// then one JSON line per position.
EndgameSet read_set(const std::string& name) {
  EndgameSet set;
  std::istringstream in(test::read_file(test::data_path(name)));
  std::string line;
  bool recipe = false;
  while (std::getline(in, line)) {
    if (line.rfind("# toguz solve --generate ", 0) == 0) {
      char dash = 0;
      std::istringstream r(line.substr(25));
      std::string seed, stones;
      r >> set.recipe.count >> seed >> set.recipe.seed >> stones >> set.recipe.min_stones >> dash >>
          set.recipe.max_stones;
      recipe = seed == "--seed" && stones == "--stones" && dash == '-';
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    auto v = boost::json::parse(line).as_object();
    std::string r(v.at("result").as_string());
    SetEntry e{parse_position(std::string(v.at("position").as_string())),
               r == "win"    ? 1
               : r == "loss" ? -1
                             : 0,
               std::nullopt};
    if (v.at("margin").is_int64()) e.margin = int(v.at("margin").as_int64());
    set.entries.push_back(e);
  }
  EXPECT_TRUE(recipe) << name << ": no recipe line";
  return set;
}

class EndgameSets : public ::testing::TestWithParam<const char*> {};

TEST_P(EndgameSets, RecipeReproducesThePositions) {
  EndgameSet set = read_set(GetParam());
  ASSERT_EQ(int(set.entries.size()), set.recipe.count);
  std::vector<Position> again = tables::random_endgames(set.recipe);
  ASSERT_EQ(again.size(), set.entries.size());
  int kinds[3] = {};
  for (size_t i = 0; i < again.size(); ++i) {
    EXPECT_EQ(format_position(again[i]), format_position(set.entries[i].pos)) << "line " << i + 1;
    ++kinds[set.entries[i].result + 1];
  }
  EXPECT_GT(kinds[0], 0) << "no loss";
  EXPECT_GT(kinds[1], 0) << "no draw";
  EXPECT_GT(kinds[2], 0) << "no win";
}

// A sample of each set (every tenth position) is proven again within a node budget (3-5x
// what the sample's hardest position takes, docs/tables.md), with the stored result, a line
// the referee ends with that result, and (6-11 stones) the stored margin.
TEST_P(EndgameSets, SampleIsProvenWithinANodeBudget) {
  EndgameSet set = read_set(GetParam());
  bool large = set.recipe.max_stones > 11;
  for (size_t i = 0; i < set.entries.size(); i += 10) {
    const SetEntry& e = set.entries[i];
    SCOPED_TRACE(format_position(e.pos));
    tables::SolveOptions opt;
    opt.hash_log2 = 22;
    opt.max_nodes = large ? 8'000'000 : 100'000;
    opt.want_margin = !large;
    tables::Solution s = tables::solve(e.pos, opt);
    ASSERT_TRUE(s.proven);
    EXPECT_EQ(s.result, e.result);
    if (!large) {
      ASSERT_TRUE(e.margin.has_value());
      EXPECT_EQ(s.margin, e.margin);
    }
    expect_line_ends_with(e.pos, s.line, s.result);
  }
}

INSTANTIATE_TEST_SUITE_P(Data, EndgameSets,
                         ::testing::Values("endgames-6-11.jsonl", "endgames-12-18.jsonl"));

// The engine's endgame (Options::tables with the solver, search/engine.cpp) on a sample of the
// 12-18-stone set (every 20th position and two draws): under a node limit (4x what the
// sample's hardest result takes) the answer is the stored result, proven, with a line the
// referee ends with it whose first move is the move played; a margin, when the budget proved
// it too, is the stored one.
std::vector<SetEntry> engine_sample() {
  EndgameSet set = read_set("endgames-12-18.jsonl");
  std::vector<SetEntry> out;
  for (size_t i = 0; i < set.entries.size(); ++i)
    if (i % 20 == 0 || i == 1 || i == 125) out.push_back(set.entries[i]);
  return out;
}
constexpr uint64_t kEngineProofNodes = 600'000;

TEST(EngineEndgame, ProvesTheSetsResultsWithinANodeBudget) {
  search::Options opt;
  opt.tables = std::make_shared<tables::TablesProbe>(nullptr);
  search::Engine engine;
  engine.set_options(opt);
  int kinds[3] = {}, margins = 0;
  for (const SetEntry& e : engine_sample()) {
    SCOPED_TRACE(format_position(e.pos));
    engine.set_position(Game(e.pos));
    search::Limits lim;
    lim.nodes = kEngineProofNodes;
    const search::SearchResult r = engine.search(lim);
    ASSERT_EQ(r.lines.size(), 1u);
    const search::Info& top = r.lines[0];
    ASSERT_TRUE(top.score.proven);
    EXPECT_EQ(top.score.result, e.result);
    ASSERT_FALSE(top.pv.empty());
    EXPECT_EQ(r.best_move, top.pv[0]);
    EXPECT_EQ(top.score.plies, int(top.pv.size()));
    expect_line_ends_with(e.pos, top.pv, e.result);
    if (top.score.has_margin) {
      EXPECT_EQ(top.score.margin, e.margin);
      ++margins;
    }
    ++kinds[e.result + 1];
  }
  EXPECT_GT(kinds[0] * kinds[1] * kinds[2], 0) << "every result occurs in the sample";
  EXPECT_GT(margins, 0);
}

// UGI (`toguz ugi` hands the session this opener): "score mate" for the first win and loss
// of the sample, a proven draw's "wdl 0 1000 0" for its first draw.
TEST(EngineEndgame, UgiReportsTheProvenResult) {
  bool seen[3] = {};
  for (const SetEntry& e : engine_sample()) {
    if (seen[e.result + 1]) continue;
    seen[e.result + 1] = true;
    SCOPED_TRACE(format_position(e.pos));
    std::istringstream in("position fen " + format_position(e.pos) + "\ngo nodes " +
                          std::to_string(kEngineProofNodes) + "\n");
    std::ostringstream out;
    {
      protocol::UgiSession s(in, out);
      s.set_tables_opener([](const std::string&, std::string*) {
        return std::make_shared<tables::TablesProbe>(nullptr);
      });
      s.run();
    }
    const std::string text = out.str();
    const std::string want = e.result > 0   ? " score mate "
                             : e.result < 0 ? " score mate -"
                                            : " score cp 0 wdl 0 1000 0 ";
    EXPECT_NE(text.find(want), std::string::npos) << text;
    EXPECT_NE(text.find("bestmove "), std::string::npos) << text;
  }
}

// A depth limit alone gives the solver no time: the search is the one without it (the same
// nodes, move and score), so fixed-depth searches (toguz bench) are unchanged.
TEST(EngineEndgame, DepthLimitAloneSearchesAsWithoutTheSolver) {
  const SetEntry e = engine_sample()[1];
  search::Limits lim;
  lim.depth = 7;
  search::SearchResult r[2];
  for (int with = 0; with < 2; ++with) {
    search::Options opt;
    if (with) opt.tables = std::make_shared<tables::TablesProbe>(nullptr);
    search::Engine engine;
    engine.set_options(opt);
    engine.set_position(Game(e.pos));
    r[with] = engine.search(lim);
  }
  EXPECT_EQ(r[0].nodes, r[1].nodes);
  EXPECT_EQ(r[0].best_move, r[1].best_move);
  EXPECT_EQ(r[0].lines[0].score.cp, r[1].lines[0].score.cp);
}

// The second method: plain memoised minimax (tables::plain_margin) gives the stored margins of
// the 6-11-stone set's positions with at most 10 stones whose play reaches at most 200 k boards
// (all 200 of the set: `toguz solve --positions tests/data/endgames-6-11.jsonl --plain`,
// docs/tables.md).
TEST(EndgameSetsPlain, PlainMinimaxGivesTheStoredMargins) {
  EndgameSet set = read_set("endgames-6-11.jsonl");
  int checked = 0;
  for (const SetEntry& e : set.entries) {
    if (162 - e.pos.kazna(Side::White) - e.pos.kazna(Side::Black) > 10) continue;
    std::optional<int> m = tables::plain_margin(e.pos, 200'000);
    if (!m) continue;
    EXPECT_EQ(m, e.margin) << format_position(e.pos);
    EXPECT_EQ((*m > 0) - (*m < 0), e.result) << format_position(e.pos);
    ++checked;
  }
  EXPECT_GE(checked, 15);
}

}  // namespace
}  // namespace toguz
