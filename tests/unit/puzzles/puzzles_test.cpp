// Puzzles mined from real games: every solution move is again the unique best by the margin at a
// deeper search, every proven one is proven again, duplicates are dropped, and a build stopped and
// resumed writes the same file as one build. Small depths and node limits: it runs under ASan.
#include "puzzles/puzzles.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "rules/notation.h"
#include "rules/record.h"
#include "test_util.h"

namespace toguz {
namespace {

namespace fs = std::filesystem;

puzzles::MineOptions small_options() {
  puzzles::MineOptions o;
  o.depth = 3;
  o.confirm_depth = 5;
  o.margin_cp = 500;
  o.max_line = 5;
  o.prove_stones = 16;
  o.solver_nodes = 20000;
  o.hash_mb = 1;
  return o;
}

// The first `games` games of a corpus file, written to a temporary record file (the corpus
// itself is not copied into the repository). "" when the corpus is absent.
std::string corpus_sample(const std::string& name, int games, const fs::path& dir) {
  const std::string path = test::shared_path("corpus/playok/" + name);
  if (!fs::exists(path)) return "";
  const std::vector<Record> records = read_records(test::read_file(path));
  std::ofstream out(dir / name, std::ios::binary);
  for (int i = 0; i < games && i < int(records.size()); ++i) {
    const Replayed r = replay_record(records[i]);
    out << write_record(r.game, records[i].tags) << "\n";
  }
  return (dir / name).string();
}

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("toguz-puzzles-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

std::vector<std::string> lines_of(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

TEST(Puzzles, CorpusPuzzlesHoldAtADeeperSearch) {
  TempDir dir;
  const std::string sample = corpus_sample("argenby.pgn", 3, dir.path);
  if (sample.empty())
    GTEST_SKIP() << "no PlayOK corpus at " << test::shared_path("corpus/playok")
                 << " (set TOGUZ_SHARED_DIR)";
  const puzzles::MineOptions o = small_options();
  const std::vector<Record> records = read_records(test::read_file(sample));
  int mined = 0, proven = 0;
  for (const Record& record : records) {
    const Replayed r = replay_record(record);
    ASSERT_FALSE(r.error);
    puzzles::Source source;
    source.file = sample;
    source.game = record.number;
    for (const puzzles::Puzzle& p : puzzles::mine_game(r.game, source, o)) {
      ++mined;
      SCOPED_TRACE(p.position);
      std::string why;
      EXPECT_TRUE(puzzles::recheck_puzzle(p, o.confirm_depth + 1, o.margin_cp, &why)) << why;
      if (p.proven) {
        ++proven;
        EXPECT_TRUE(puzzles::reprove_puzzle(p, o.margin_cp, o.solver_nodes, &why)) << why;
      }
      // The line is legal from the position and the source points at it.
      Position pos = parse_position(p.position);
      EXPECT_EQ(pos.key(), p.key);
      EXPECT_EQ(r.game.position_at(p.source.ply).key(), p.key);
      for (int hole : p.line) {
        ASSERT_TRUE(pos.is_legal(hole));
        pos.play(hole);
      }
      EXPECT_EQ(p.line.size() % 2, 1u);  // it ends with a move of the solver's side
      EXPECT_GE(p.difficulty, 1);
      EXPECT_LE(p.difficulty, 10);
    }
  }
  EXPECT_GT(mined, 0) << "no puzzle in the sample: the test checks nothing";
  std::printf("[          ] %d puzzles re-checked at depth %d, %d proven again\n", mined,
              o.confirm_depth + 1, proven);
}

// An endgame with 12 stones on the board (from a PlayOK game), in reach of the solver: the
// puzzle mined there is proven, and proven again.
TEST(Puzzles, EndgamePuzzlesAreProven) {
  Game game(parse_position("1,1,2,1,2,x,1,1,1/x,0,0,0,0,0,0,1,1 70 80 w 60"));
  ASSERT_TRUE(game.play(1));  // a game of one ply: the position before it is mined
  puzzles::MineOptions o = small_options();
  o.skip_plies = 0;
  o.prove_stones = 24;
  o.solver_nodes = 30000;
  const std::vector<puzzles::Puzzle> mined = puzzles::mine_game(game, {}, o);
  ASSERT_EQ(mined.size(), 1u);
  const puzzles::Puzzle& p = mined[0];
  EXPECT_TRUE(p.proven);
  EXPECT_EQ(p.proven_result, 1);
  EXPECT_EQ(p.line[0], 1);
  std::string why;
  EXPECT_TRUE(puzzles::reprove_puzzle(p, o.margin_cp, o.solver_nodes, &why)) << why;
  EXPECT_TRUE(std::count(p.themes.begin(), p.themes.end(), "endgame"));
  // A position with 21 stones, above the stone limit for proofs: the puzzle stays, unproven.
  Game bigger(parse_position("0,1,0,1,2,3,2,2,6/2,x,0,0,0,0,0,0,3 60 80 w 43"));
  ASSERT_TRUE(bigger.play(2));
  o.prove_stones = 20;
  const std::vector<puzzles::Puzzle> cut = puzzles::mine_game(bigger, {}, o);
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_FALSE(cut[0].proven);
}

TEST(Puzzles, DuplicatesAreDropped) {
  puzzles::Puzzle p;
  p.key = 1, p.board_key = 100, p.line = {3};
  puzzles::Deduper d;
  EXPECT_TRUE(d.add(p));
  EXPECT_FALSE(d.add(p));  // the same position
  puzzles::Puzzle q = p;
  q.key = 2;  // other kaznas, same board, same first move: a near-duplicate
  EXPECT_FALSE(d.add(q));
  q.line = {4};  // the same board with another solution is another puzzle
  q.key = 3;
  EXPECT_TRUE(d.add(q));
  EXPECT_EQ(d.size(), 2u);
  // A written line reads back as the puzzle written.
  p.key = 0xF123456789ABCDEFull;
  p.position = "0,1,0,1,2,3,2,2,6/2,x,0,0,0,0,0,0,3 60 80 w 43";
  p.line = {2};
  p.proven = true, p.proven_result = -1, p.proven_margin = -4;
  p.themes = {"tuz"};
  p.source.tags = {{"White", "A \"B\""}};
  puzzles::Puzzle back;
  std::string why;
  ASSERT_TRUE(puzzles::read_puzzle(puzzles::puzzle_json(p), &back, &why)) << why;
  EXPECT_EQ(puzzles::puzzle_json(back), puzzles::puzzle_json(p));
  EXPECT_EQ(back.key, p.key);
  EXPECT_EQ(back.board_key, 100u);
  EXPECT_FALSE(puzzles::read_puzzle("{\"key\":1}", &back, &why));
  EXPECT_NE(why.find("no \"position\" member"), std::string::npos) << why;
  p.line = {1};  // hole 1 is empty there
  EXPECT_FALSE(puzzles::read_puzzle(puzzles::puzzle_json(p), &back, &why));
  EXPECT_NE(why.find("move 1 is not legal"), std::string::npos) << why;
}

TEST(Puzzles, ResumedBuildEqualsOneBuild) {
  TempDir dir;
  const std::string sample = corpus_sample("darru.pgn", 3, dir.path);
  if (sample.empty())
    GTEST_SKIP() << "no PlayOK corpus at " << test::shared_path("corpus/playok")
                 << " (set TOGUZ_SHARED_DIR)";
  puzzles::BuildOptions o;
  o.mine = small_options();
  // The same sample twice.
  const std::vector<std::string> inputs = {sample, sample};
  const std::string one = (dir.path / "one.jsonl").string();
  const puzzles::BuildProgress single = puzzles::build_puzzle_file({sample}, one, o);
  fs::remove(one), fs::remove(one + ".state");
  const puzzles::BuildProgress whole = puzzles::build_puzzle_file(inputs, one, o);
  EXPECT_EQ(whole.games_done, 6);
  EXPECT_GT(whole.puzzles, 0);
  EXPECT_EQ(whole.puzzles, single.puzzles);
  // The second copy's puzzles are all duplicates: those kept and those dropped the first time.
  EXPECT_EQ(whole.duplicates, 2 * single.duplicates + single.puzzles);

  const std::string two = (dir.path / "two.jsonl").string();
  o.stop_after = 2;
  const puzzles::BuildProgress part = puzzles::build_puzzle_file(inputs, two, o);
  EXPECT_EQ(part.games_done, 2);
  {  // A build killed after writing puzzles but before its state: the resume drops them.
    std::ofstream(two, std::ios::app) << "{\"partial\":\n";
  }
  o.stop_after = 0;
  const puzzles::BuildProgress rest = puzzles::build_puzzle_file(inputs, two, o);
  EXPECT_EQ(rest.games_done, 6);
  EXPECT_EQ(test::read_file(one), test::read_file(two));
  // Once done, a build again changes nothing.
  puzzles::build_puzzle_file(inputs, two, o);
  EXPECT_EQ(test::read_file(one), test::read_file(two));

  std::set<std::string> keys;
  for (const std::string& line : lines_of(one)) {
    const auto v = boost::json::parse(line).as_object();
    EXPECT_TRUE(keys.insert(std::string(v.at("key").as_string())).second) << line;
  }
  // Other options with the same output: a clear error, not a mixed file.
  o.mine.depth = 4;
  try {
    puzzles::build_puzzle_file(inputs, two, o);
    FAIL() << "a build with other options resumed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("made from other records or options"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace toguz
