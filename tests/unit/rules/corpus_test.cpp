// Every real game in ../shared/corpus (PlayOK PGN, federation TGK) replays with every token
// checked, our writer reproduces each file's movetext byte for byte (CR removed), and the
// round trips PGN -> TGK -> PGN and TGK -> PGN -> TGK keep every game (tags, moves, result).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <ostream>

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
      EXPECT_FALSE(g.error) << "game at line " << r.first_line << ": ply " << g.error->ply
                            << " line " << g.error->line << " '" << g.error->token
                            << "': " << g.error->message;
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
    GTEST_SKIP() << "no PlayOK corpus at " << test::shared_path("corpus/playok")
                 << " (set TOGUZ_SHARED_DIR)";
  int games = replay_corpus("playok", ".pgn", RecordStyle::PlayOK);
  EXPECT_GT(games, 0);
  std::printf("[          ] %d PlayOK games replayed\n", games);
}

TEST(Corpus, FederationGamesReplayAndWriteBackIdentically) {
  if (corpus_files("federation", ".tgk").empty())
    GTEST_SKIP() << "no federation corpus at " << test::shared_path("corpus/federation")
                 << " (set TOGUZ_SHARED_DIR)";
  int games = replay_corpus("federation", ".tgk", RecordStyle::Tgk);
  EXPECT_GT(games, 0);
  std::printf("[          ] %d federation games replayed\n", games);
}

// A game as the round trips must keep it: its tags (sorted: the writer puts Variant, Rules and
// FEN after the others), start, moves and result.
struct Kept {
  std::vector<std::pair<std::string, std::string>> tags;
  std::string start;
  std::vector<int> holes;
  std::string result;
  bool operator==(const Kept&) const = default;
};

std::ostream& operator<<(std::ostream& o, const Kept& k) {
  for (const auto& [name, value] : k.tags) o << "[" << name << " \"" << value << "\"] ";
  o << k.start << ":";
  for (int h : k.holes) o << " " << h;
  return o << " " << k.result;
}

// Reads and replays every game of `text` (none may be bad), and writes them all in `style`.
std::vector<Kept> read_all(const std::string& text, RecordStyle style, std::string* written) {
  std::vector<Kept> out;
  written->clear();
  for (const Record& r : read_records(text)) {
    Replayed g = replay_record(r);
    EXPECT_FALSE(g.error) << describe(*g.error);
    if (g.error) continue;
    Kept k{r.tags, format_position(g.game.start()), {}, std::string(result_text(g.game.result()))};
    std::sort(k.tags.begin(), k.tags.end());
    for (const MoveInfo& m : g.game.moves()) k.holes.push_back(m.hole);
    out.push_back(std::move(k));
    if (!written->empty()) *written += '\n';
    *written += write_record(g.game, r.tags, style);
  }
  return out;
}

// text (in `first` style) -> `second` -> `first`: the same games at every step, and the second
// `first` text equals the first one written.
void round_trip(const std::string& text, RecordStyle first, RecordStyle second) {
  std::string a, b, c, d;
  const auto original = read_all(text, first, &a);
  const auto one = read_all(a, second, &b);
  const auto two = read_all(b, first, &c);
  const auto three = read_all(c, first, &d);
  ASSERT_EQ(one.size(), original.size());
  ASSERT_EQ(two.size(), original.size());
  for (size_t k = 0; k < original.size(); ++k) {
    EXPECT_EQ(one[k], original[k]) << "game " << k + 1;
    EXPECT_EQ(two[k], original[k]) << "game " << k + 1;
  }
  EXPECT_EQ(c, a);
  EXPECT_EQ(three, original);
}

TEST(Corpus, RoundTripsKeepEveryGame) {
  int files = 0;
  for (const auto& [folder, ext] : {std::pair{"playok", ".pgn"}, std::pair{"federation", ".tgk"}}) {
    for (const auto& path : corpus_files(folder, ext)) {
      SCOPED_TRACE(path.string());
      const std::string text = test::read_file(path.string());
      round_trip(text, RecordStyle::PlayOK, RecordStyle::Tgk);  // PGN -> TGK -> PGN
      round_trip(text, RecordStyle::Tgk, RecordStyle::PlayOK);  // TGK -> PGN -> TGK
      ++files;
    }
  }
  if (files == 0)
    GTEST_SKIP() << "no corpus at " << test::shared_path("corpus") << " (set TOGUZ_SHARED_DIR)";
  std::printf("[          ] %d corpus files round-tripped both ways\n", files);
}

// Hand-made records with what the corpus lacks: zero-move games (a tag block with nothing
// under it, and one with its result alone), comments, CRLF, federation blocks without blank
// lines, a non-standard start.
TEST(Corpus, RoundTripsKeepZeroMoveGamesCommentsAndCrlf) {
  const std::string text =
      "[Event \"forfeit\"]\r\n[White \"\xD0\x90\xD1\x81\xD0\xB0\xD0\xBD\"]\r\n[Result "
      "\"1-0\"]\r\n\r\n1-0\r\n\r\n"
      "[Event \"empty\"]\r\n[Result \"0-1\"]\r\n\r\n"
      "[Event \"commented\"]\r\n[Result \"1-0\"]\r\n\r\n{before the moves}\r\n1. 65(10) {a "
      "capture} 87\r\n"
      "2. 55 99(12) {multi\r\nline} 3. 34(22) 35(16) 1-0\r\n\r\n"
      "[Event \"no-move\"]\r\n[Result \"*\"]\r\n"
      "[Event \"federation\"]\r\n[Result \"0-1\"]\r\n1. 76 98\r\n2. 66 87\r\n"
      "[Event \"from a position\"]\r\n[Variant \"kozdatu\"]\r\n[FEN \"7,7,7,7,7,7,7/7,7,7,7,7,7,7 "
      "0 0 b 3\"]\r\n"
      "[Result \"*\"]\r\n\r\n3... 1 4. 1 *\r\n";
  ASSERT_EQ(read_records(text).size(), 6u);
  round_trip(text, RecordStyle::PlayOK, RecordStyle::Tgk);
  round_trip(text, RecordStyle::Tgk, RecordStyle::PlayOK);
}

}  // namespace
}  // namespace toguz
