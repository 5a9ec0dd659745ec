// The opening explorer's index: its counts equal those of a plain replay of the same records
// (a hand-made record and ../shared/corpus), its filters, and bad index files.
#include "explorer/explorer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <tuple>

#include "rules/notation.h"
#include "rules/record.h"
#include "test_util.h"

namespace toguz {
namespace {

namespace fs = std::filesystem;
using explorer::Filter;
using explorer::Index;
using explorer::IndexBuilder;
using explorer::IndexError;
using explorer::MoveStats;

// A file name in the test's temporary folder, removed at the end.
using test::TempFile;

std::vector<Record> records_of(const std::vector<fs::path>& files) {
  std::vector<Record> all;
  for (const auto& f : files)
    for (Record& r : read_records(test::read_file(f.string()))) all.push_back(std::move(r));
  return all;
}

// The plain replay: every (position key, hole) a game passes, counted once per game, summed
// over the games the filter keeps. Written from the records, without the index code.
struct Counts {
  uint64_t games = 0, white_wins = 0, draws = 0, black_wins = 0, rated = 0, rating_sum = 0;
  bool operator==(const Counts&) const = default;
};
using Tally = std::map<std::pair<uint64_t, int>, Counts>;

Tally plain_replay(const std::vector<Record>& records, int min_rating, int from_year) {
  Tally tally;
  for (const Record& rec : records) {
    Replayed r = replay_record(rec);
    if (r.error) continue;
    int rated = 0, sum = 0;
    for (const char* tag : {"WhiteElo", "BlackElo"}) {
      auto v = rec.tag(tag);
      if (v && !v->empty() && v->size() <= 4 &&
          v->find_first_not_of("0123456789") == std::string::npos && std::stoi(*v) > 0)
        ++rated, sum += std::stoi(*v);
    }
    if (min_rating > 0 && (rated == 0 || sum / rated < min_rating)) continue;
    auto date = rec.tag("Date");
    const int year = date && date->size() >= 4 &&
                             date->substr(0, 4).find_first_not_of("0123456789") == std::string::npos
                         ? std::stoi(date->substr(0, 4))
                         : 0;
    if (from_year > 0 && year < from_year) continue;
    const Result result = r.game.result();
    std::set<std::pair<uint64_t, int>> seen;
    for (int ply = 0; ply < r.game.ply_count(); ++ply) {
      auto at = std::make_pair(r.game.position_at(ply).key(), int(r.game.moves()[ply].hole));
      if (!seen.insert(at).second) continue;
      Counts& c = tally[at];
      ++c.games;
      c.white_wins += result == Result::WhiteWins;
      c.draws += result == Result::Draw;
      c.black_wins += result == Result::BlackWins;
      c.rated += rated;
      c.rating_sum += sum;
    }
  }
  return tally;
}

// Every position of the tally asked of the index: the same moves with the same counts, and
// the index holds no position the tally lacks.
void expect_index_matches(const Index& index, const Tally& tally, const Filter& filter) {
  std::map<uint64_t, std::map<int, Counts>> by_key;
  for (const auto& [at, c] : tally) by_key[at.first][at.second] = c;
  for (const auto& [key, moves] : by_key) {
    std::map<int, Counts> got;
    for (const explorer::Entry& e : index.find(key)) {
      if (!filter.accepts(e)) continue;
      Counts& c = got[e.hole];
      c.games += e.games, c.white_wins += e.white_wins, c.draws += e.draws;
      c.black_wins += e.black_wins, c.rated += e.rated, c.rating_sum += e.rating_sum;
    }
    ASSERT_EQ(got, moves) << "position key " << key;
  }
  uint64_t keys_with_games = 0, last = 0;
  bool first = true;
  for (const explorer::Entry& e : index.entries()) {
    if (!filter.accepts(e)) continue;
    if (first || e.key != last) ++keys_with_games;
    first = false;
    last = e.key;
  }
  EXPECT_EQ(keys_with_games, by_key.size());
}

std::unique_ptr<Index> build(const std::vector<Record>& records, const TempFile& file,
                             int* skipped = nullptr) {
  IndexBuilder builder;
  int bad = 0;
  for (const Record& r : records) bad += builder.add_record(r).has_value();
  if (skipped) *skipped = bad;
  builder.write(file.path.string());
  return std::make_unique<Index>(file.path.string());
}

TEST(Explorer, HandMadeRecordCountsByHand) {
  auto records = records_of({test::data_path("explorer/small.pgn")});
  ASSERT_EQ(records.size(), 5u);
  TempFile file("small.idx");
  int skipped = 0;
  auto index = build(records, file, &skipped);
  EXPECT_EQ(skipped, 1);  // game 5: a wrong kazna count
  EXPECT_EQ(index->games(), 4u);
  EXPECT_EQ(index->year_min(), 2024);
  EXPECT_EQ(index->year_max(), 2025);

  // From the start: 7 by games 1, 2 and 4 (1-0, 0-1, *), 4 by game 3 (a draw, unrated).
  auto moves = index->query(Position::start());
  ASSERT_EQ(moves.size(), 2u);
  EXPECT_EQ(moves[0].hole, 7);
  EXPECT_EQ(moves[0].games, 3u);
  EXPECT_EQ(moves[0].white_wins, 1u);
  EXPECT_EQ(moves[0].draws, 0u);
  EXPECT_EQ(moves[0].black_wins, 1u);
  EXPECT_DOUBLE_EQ(*moves[0].average_rating(), (1500 + 1700 + 1600 + 2100 + 2100) / 5.0);
  EXPECT_EQ(moves[1].hole, 4);
  EXPECT_EQ(moves[1].draws, 1u);
  EXPECT_FALSE(moves[1].average_rating());

  // Game 4 alone has a rating band reaching 1700 (games 1 and 2 are in the 1600 band).
  Filter strong;
  strong.min_rating = 1700;
  moves = index->query(Position::start(), strong);
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0].games, 1u);
  EXPECT_EQ(moves[0].white_wins + moves[0].draws + moves[0].black_wins, 0u);
  Filter band;
  band.min_rating = 1650;
  band.max_rating = 1650;  // the band 1600-1699 meets it: games 1 and 2
  EXPECT_EQ(index->query(Position::start(), band).at(0).games, 2u);

  // 2025 on: games 2 and 3 (game 4 has no year).
  Filter recent;
  recent.from_year = 2025;
  moves = index->query(Position::start(), recent);
  ASSERT_EQ(moves.size(), 2u);
  EXPECT_EQ(moves[0].games + moves[1].games, 2u);

  // After 7 8: 9 (game 1) and 6 (game 2).
  Position p = Position::start().after(7).after(8);
  moves = index->query(p);
  ASSERT_EQ(moves.size(), 2u);
  EXPECT_EQ(moves[0].hole, 6);  // equal games: by hole
  EXPECT_EQ(moves[1].hole, 9);

  expect_index_matches(*index, plain_replay(records, 0, 0), {});
}

TEST(Explorer, RatingTagsOutsideOneTo9999AreIgnored) {
  auto records = read_records(
      "[WhiteElo \"3000000000\"]\n[BlackElo \"1500\"]\n[Date \"2025.01.01\"]\n\n1. 7 *\n\n"
      "[WhiteElo \"?\"]\n[BlackElo \"0\"]\n\n1. 7 *\n");
  ASSERT_EQ(records.size(), 2u);
  const explorer::GameFacts one = explorer::game_facts(records[0], Game());
  EXPECT_EQ(one.rated, 1);
  EXPECT_EQ(one.rating_sum, 1500);
  EXPECT_EQ(one.band, 16);
  EXPECT_EQ(one.year, 2025);
  const explorer::GameFacts two = explorer::game_facts(records[1], Game());
  EXPECT_EQ(two.rated, 0);
  EXPECT_EQ(two.band, 0);
  EXPECT_EQ(two.year, 0);
}

TEST(Explorer, GamesThroughTheSameMoveMergeIntoOneEntry) {
  Game g;
  ASSERT_TRUE(g.play(7));
  IndexBuilder builder;
  ASSERT_TRUE(builder.add_game(g, {.result = Result::WhiteWins}));
  ASSERT_TRUE(builder.add_game(g, {.result = Result::BlackWins}));
  ASSERT_EQ(builder.entries().size(), 1u);
  EXPECT_EQ(builder.entries()[0].games, 2u);
  EXPECT_EQ(builder.entries()[0].white_wins, 1u);
  EXPECT_EQ(builder.entries()[0].black_wins, 1u);
  // A game under other rules is refused: the index holds one rule set.
  Game kozdatu(Position::start(Rules::for_variant(Variant::Kozdatu)));
  ASSERT_TRUE(kozdatu.play(1));
  EXPECT_FALSE(builder.add_game(kozdatu, {}));
}

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> files;
  fs::path dir = test::shared_path("corpus");
  if (!fs::exists(dir)) return files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && (e.path().extension() == ".pgn" || e.path().extension() == ".tgk"))
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(Explorer, CorpusCountsEqualAPlainReplay) {
  auto files = corpus_files();
  if (files.empty())
    GTEST_SKIP() << "no corpus at " << test::shared_path("corpus") << " (set TOGUZ_SHARED_DIR)";
  auto records = records_of(files);
  TempFile file("corpus.idx");
  auto index = build(records, file);
  EXPECT_GT(index->games(), 1000u);
  expect_index_matches(*index, plain_replay(records, 0, 0), {});
  // The filters, at band boundaries where the plain replay's plain comparison is exact.
  Filter f;
  f.min_rating = 1600;
  f.from_year = 2025;
  expect_index_matches(*index, plain_replay(records, 1600, 2025), f);
}

// The bytes of a valid index of the hand-made record.
std::string valid_index_bytes() {
  TempFile file("valid.idx");
  build(records_of({test::data_path("explorer/small.pgn")}), file);
  return test::read_file(file.path.string());
}

void expect_open_error(const std::string& bytes, const std::string& expected) {
  TempFile file("bad.idx");
  {
    std::ofstream out(file.path, std::ios::binary);
    out << bytes;
  }
  try {
    Index index(file.path.string());
    FAIL() << "opened a bad index; expected: " << expected;
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(file.path.string()), std::string::npos) << e.what();
  }
}

TEST(Explorer, BadIndexFilesGiveAClearError) {
  const std::string good = valid_index_bytes();
  ASSERT_EQ(good.size(), 64 + 10 * sizeof(explorer::Entry));
  expect_open_error("", "truncated: 0 bytes, an explorer index has a 64-byte header");
  expect_open_error(good.substr(0, 40), "truncated: 40 bytes");
  expect_open_error(good.substr(0, good.size() - 1),
                    "truncated or damaged: the header says 10 entries");
  expect_open_error(good.substr(0, 64), "the file has 64 bytes");
  std::string magic = good;
  magic[0] = 'X';
  expect_open_error(magic, "not an explorer index");
  std::string version = good;
  version[8] = 2;
  expect_open_error(version, "index version 2, this toguz reads version 1");
  std::string count = good;
  count[23] = char(0xff);  // an entry count far past the file
  expect_open_error(count, "truncated or damaged");
  std::string rows = good;
  rows[32] = 8;
  expect_open_error(rows, "row length 8");
  try {
    Index folder(fs::temp_directory_path().string());
    FAIL() << "opened a folder";
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
  try {
    Index missing("/nonexistent/toguz-explorer.idx");
    FAIL() << "opened a missing file";
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace toguz
