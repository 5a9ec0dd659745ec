// Every real game in ../shared/corpus (PlayOK PGN, federation TGK) replays with every token
// checked, and our writer reproduces each file's movetext byte for byte (CR removed).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "rules/record.h"
#include "test_util.h"

namespace toguz {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> corpus_files(const std::string& folder, const std::string& ext) {
  std::vector<fs::path> out;
  fs::path dir = test::shared_path("corpus/" + folder);
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string without_cr(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '\r'), s.end());
  return s;
}

// Replays every record of every file; the writer's output, records joined by blank lines,
// must equal the file. Returns the number of games.
int replay_corpus(const std::string& folder, const std::string& ext, RecordStyle style) {
  int games = 0;
  for (const auto& path : corpus_files(folder, ext)) {
    SCOPED_TRACE(path.string());
    std::string text = test::read_file(path.string());
    std::vector<Record> records = read_records(text);
    EXPECT_FALSE(records.empty());
    std::string written;
    for (const Record& r : records) {
      Replayed g = replay_record(r);
      EXPECT_FALSE(g.error) << "game at line " << r.first_line << ": ply " << g.error->ply << " line "
                            << g.error->line << " '" << g.error->token << "': " << g.error->message;
      if (g.error) continue;
      EXPECT_EQ(g.game.ply_count(), int(r.plies.size()));
      if (!written.empty()) written += '\n';
      written += write_record(g.game, r.tags, style);
      ++games;
    }
    std::string expected = without_cr(text);
    while (!expected.empty() && expected.back() == '\n') expected.pop_back();
    while (!written.empty() && written.back() == '\n') written.pop_back();
    EXPECT_EQ(written, expected);
  }
  return games;
}

TEST(Corpus, PlayOkGamesReplayAndWriteBackIdentically) {
  if (corpus_files("playok", ".pgn").empty())
    GTEST_SKIP() << "no PlayOK corpus at " << test::shared_path("corpus/playok") << " (set TOGUZ_SHARED_DIR)";
  int games = replay_corpus("playok", ".pgn", RecordStyle::PlayOK);
  EXPECT_GT(games, 0);
  std::printf("[          ] %d PlayOK games replayed\n", games);
}

TEST(Corpus, FederationGamesReplayAndWriteBackIdentically) {
  if (corpus_files("federation", ".tgk").empty())
    GTEST_SKIP() << "no federation corpus at " << test::shared_path("corpus/federation") << " (set TOGUZ_SHARED_DIR)";
  int games = replay_corpus("federation", ".tgk", RecordStyle::Tgk);
  EXPECT_GT(games, 0);
  std::printf("[          ] %d federation games replayed\n", games);
}

}  // namespace
}  // namespace toguz
