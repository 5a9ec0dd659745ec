// The federation's real games (../shared/corpus/federation, 742 games of 2016-2018) imported as
// one season: every game counted once, the sums the calculation keeps, and the names the
// officer must settle reported. Skipped with the reason when the corpus is not there.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "federation/report.h"
#include "federation/season.h"
#include "test_util.h"

namespace toguz::federation {
namespace {

namespace fs = std::filesystem;

bool group_has(const SeasonResult& s, const std::string& a, const std::string& b) {
  for (const AmbiguousGroup& g : s.ambiguous) {
    bool has_a = false, has_b = false;
    for (const NameUse& u : g.names) {
      has_a = has_a || name_key(u.player.name) == name_key(a);
      has_b = has_b || name_key(u.player.name) == name_key(b);
    }
    if (has_a && has_b) return true;
  }
  return false;
}

TEST(FederationCorpus, SeasonInvariants) {
  const fs::path dir = test::shared_path("corpus/federation");
  if (!fs::is_directory(dir)) GTEST_SKIP() << dir << " is not there (the shared corpus)";
  std::vector<SeasonGame> games;
  std::vector<SkippedGame> skipped;
  int records = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".tgk") continue;
    const std::string text = test::read_file(e.path().string());
    for (size_t at = text.find("[White "); at != std::string::npos;
         at = text.find("[White ", at + 1))
      ++records;
    read_season_games(text, e.path().filename().string(), &games, &skipped);
  }
  ASSERT_GT(records, 0);
  Profile profile;
  profile.seed_rating = 1500;  // no list to start from: everyone starts at 1500
  const SeasonResult s = compute_season({}, games, profile, {});
  // Every record is rated or skipped with a reason, once.
  EXPECT_EQ(s.games_rated + int(s.skipped.size()) + int(skipped.size()), records);
  size_t sides = 0;
  for (const SeasonPlayer& p : s.players) {
    sides += p.history.size();
    EXPECT_GE(*p.after, profile.floor);
    for (const HistoryEntry& h : p.history) EXPECT_EQ(h.use, GameUse::Rated);
  }
  EXPECT_EQ(sides, 2u * s.games_rated);
  int event_games = 0;
  for (const EventReport& e : s.events) {
    event_games += e.games;
    double sum = 0;
    for (const EventLine& l : e.lines) sum += l.change;
    EXPECT_NEAR(sum, 0, 1e-9) << e.name << ": everyone has K 40, the changes sum to zero";
  }
  EXPECT_EQ(event_games, s.games_rated);
  // Names written two ways in the federation's own records.
  EXPECT_TRUE(group_has(s, "Ізімгали Еламан", "Ізімғали Еламан"));
  EXPECT_TRUE(group_has(s, "Каракулова М.", "Каракулова Мадина"));
  EXPECT_TRUE(group_has(s, "Далиев Элдияр", "Далиев Эльдияр"));
  EXPECT_TRUE(group_has(s, "Абдимуратов Бауржан", "Абдимуратов Бауыржан"));
  // The new list reads back.
  const std::vector<ListEntry> list = new_list(s);
  EXPECT_EQ(parse_list(list_csv(list)).size(), list.size());
  std::cout << summary_text(s);
}

}  // namespace
}  // namespace toguz::federation
