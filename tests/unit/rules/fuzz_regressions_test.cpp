// Replays every input that ever made a fuzz target fail (fuzz/regressions/<target>/), and the
// seed inputs (fuzz/corpus/<target>/), through the targets' own entry functions.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "../../fuzz/fuzz_entries.h"
#include "test_util.h"

namespace toguz {
namespace {

namespace fs = std::filesystem;

using Entry = std::string (*)(const uint8_t*, size_t);

// Runs `entry` on every file under `dir`; returns how many there were.
int replay_folder(const fs::path& dir, Entry entry) {
  if (!fs::is_directory(dir)) return 0;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename().string()[0] != '.') files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::string bytes = test::read_file(f.string());
    EXPECT_EQ(entry(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), "") << f;
  }
  return int(files.size());
}

void replay_target(const std::string& target, Entry entry) {
  const fs::path regressions = fs::path(TOGUZ_FUZZ_REGRESSIONS) / target;
  const fs::path seeds = fs::path(TOGUZ_FUZZ_REGRESSIONS).parent_path() / "corpus" / target;
  int found = replay_folder(regressions, entry);
  int seeded = replay_folder(seeds, entry);
  EXPECT_GT(seeded, 0) << "no seed inputs in " << seeds;
  std::printf("[          ] %s: %d regression inputs, %d seeds\n", target.c_str(), found, seeded);
}

TEST(FuzzRegressions, PositionString) {
  replay_target("position_fuzz", fuzz::position_entry);
}
TEST(FuzzRegressions, MoveToken) {
  replay_target("move_token_fuzz", fuzz::move_token_entry);
}
TEST(FuzzRegressions, Record) {
  replay_target("record_fuzz", fuzz::record_entry);
}
TEST(FuzzRegressions, TgkRoundTrip) {
  replay_target("tgk_round_trip_fuzz", fuzz::tgk_round_trip_entry);
}

TEST(FuzzRegressions, StaticPath) {
  replay_target("path_fuzz", fuzz::path_entry);
}
TEST(FuzzRegressions, FederationFiles) {
  replay_target("federation_fuzz", fuzz::federation_entry);
}

// The entries do detect a broken invariant: a sanity check that they are not vacuous.
TEST(FuzzRegressions, EntriesAcceptValidInputs) {
  const std::string pos = "0,1,1,2,11,x,2,1,20/3,5,18,0,1,20,0,11,1 26 39 w 16";
  EXPECT_EQ(fuzz::position_entry(reinterpret_cast<const uint8_t*>(pos.data()), pos.size()), "");
  Position p = parse_position(pos);
  EXPECT_EQ(fuzz::check_position(p, RuleOptions{}), "");
  RuleOptions no_tuz;
  no_tuz.tuz = false;
  EXPECT_NE(fuzz::check_position(p, no_tuz), "");  // its tuz cannot be re-read without tuz
}

}  // namespace
}  // namespace toguz
