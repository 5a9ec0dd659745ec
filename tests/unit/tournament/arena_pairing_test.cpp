// The arena's pairing over whole simulated arenas (3 minutes, games of varied lengths, a pairing
// at every game's end and every second, as the site does): the first players to finish do not
// meet again at once while others still play, everyone meets more opponents, and a rematch that
// is the only option waits no longer than kRematchWaitMs and a tick.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "tournament/arena.h"

namespace toguz::tournament {
namespace {

constexpr int64_t kTick = 1000, kLength = 180000;

struct Outcome {
  int games = 0;
  std::set<std::pair<int, int>> met;  // (lower index, higher)
  int rematches_beside_others = 0;    // with another player waiting at the pairing
  int early_rematches = 0;   // while another game ran, neither having waited kRematchWaitMs
  int64_t longest_held = 0;  // the longest wait of a player left waiting beside another
};

// Plays an arena of `n` players with `rematch_wait` (0: the first rule); game lengths 4-40 s.
Outcome simulate(int n, uint32_t seed, int64_t rematch_wait) {
  Arena arena(0, kLength, rematch_wait);
  for (int i = 0; i < n; ++i) arena.join({"P" + std::to_string(i), 1500 + 10 * i, ""});
  std::mt19937 rng(seed);
  std::multimap<int64_t, int> ends;  // end time -> game
  std::vector<int64_t> free_since(n, 0);
  Outcome run;
  auto pair_at = [&](int64_t now) {
    std::vector<int> waiting;
    for (int p = 0; p < n; ++p)
      if (!arena.entries()[p].playing) waiting.push_back(p);
    bool busy = int(waiting.size()) < n;
    std::vector<int> last(n);
    for (int p = 0; p < n; ++p) last[p] = arena.entries()[p].last_opponent;
    for (int g : arena.pair(now)) {
      const int a = arena.games()[g].white, b = arena.games()[g].black;
      ++run.games;
      run.met.insert({std::min(a, b), std::max(a, b)});
      ends.insert({now + std::uniform_int_distribution<int64_t>(4000, 40000)(rng), g});
      if (last[a] != b && last[b] != a) continue;
      if (waiting.size() > 2) ++run.rematches_beside_others;
      if (busy && now - std::min(free_since[a], free_since[b]) < kRematchWaitMs)
        ++run.early_rematches;
    }
    std::vector<int> left;
    for (int p = 0; p < n; ++p)
      if (!arena.entries()[p].playing) left.push_back(p);
    if (left.size() >= 2)
      for (int p : left) run.longest_held = std::max(run.longest_held, now - free_since[p]);
  };
  for (int64_t now = 0; now < kLength; now += kTick) {
    while (!ends.empty() && ends.begin()->first <= now) {
      const auto [at, g] = *ends.begin();
      ends.erase(ends.begin());
      const BoardResult r[] = {BoardResult::WhiteWins, BoardResult::BlackWins, BoardResult::Draw};
      arena.finish(g, r[rng() % 3]);
      free_since[arena.games()[g].white] = free_since[arena.games()[g].black] = at;
      pair_at(at);
    }
    pair_at(now);
  }
  return run;
}

// The sizes checked, with the fewest pairs of opponents that must meet: every pair with 4 (the
// first rule: 2, the same two games again and again), 9 of 10 with 5, 16 of 28 with 8 (the first
// rule: 4).
struct Case {
  int players;
  size_t min_pairs;
};
const Case kCases[] = {{4, 6}, {5, 9}, {8, 16}};
const uint32_t kSeeds[] = {1, 2, 3, 4, 5, 6, 7, 8};

TEST(ArenaPairing, FirstToFinishWaitForOthersAndEveryoneMeetsMore) {
  for (const Case& c : kCases)
    for (uint32_t seed : kSeeds) {
      const Outcome run = simulate(c.players, seed, kRematchWaitMs);
      SCOPED_TRACE(std::to_string(c.players) + " players, seed " + std::to_string(seed));
      EXPECT_GE(run.met.size(), c.min_pairs) << run.games << " games";
      EXPECT_EQ(run.rematches_beside_others, 0);
      EXPECT_EQ(run.early_rematches, 0);
      EXPECT_LE(run.longest_held, kRematchWaitMs + kTick);
      EXPECT_GE(run.games, 2 * c.players) << "the waits leave time to play";
    }
}

// 0 is the first rule, which the arenas logged before the wait replay with: the first two to
// finish meet again at once, whoever else still plays.
TEST(ArenaPairing, NoWaitIsTheFirstRule) {
  const Outcome run = simulate(4, 1, 0);
  EXPECT_EQ(run.met.size(), 2u);
  EXPECT_GT(run.early_rematches, 0);
}

}  // namespace
}  // namespace toguz::tournament
