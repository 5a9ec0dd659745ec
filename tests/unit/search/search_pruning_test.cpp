// The selective search (reductions and pruning, src/search/search.cpp) never claims a proven
// result that is not one: on small endgames every proven line of a multi-PV search agrees
// with the exact solver (src/tables/solver.h). (Weak against late move pruning: the few
// moves of these endgames rarely reach it.)
#include <gtest/gtest.h>

#include <bit>

#include "rules/game.h"
#include "rules/random.h"
#include "search/engine.h"
#include "tables/solver.h"

namespace toguz::search {
namespace {

// Plays seeded random moves from the start until at most `board_stones` stones are left on
// the board with at least one tuz (so no repetition is possible and the solver and the
// engine apply the same rules). Returns false when the game ends first.
bool random_endgame(uint64_t seed, int board_stones, Position* out) {
  Position pos = Position::start();
  uint64_t state = seed;
  while (pos.outcome() == Outcome::Ongoing) {
    const int left = Position::kMaxStones - pos.kazna(Side::White) - pos.kazna(Side::Black);
    if (left <= board_stones && pos.any_tuz()) {
      *out = pos;
      return true;
    }
    const uint32_t mask = pos.legal_mask();
    int pick = int(splitmix64(state) % uint64_t(std::popcount(mask)));
    uint32_t m = mask;
    while (pick--) m &= m - 1;
    pos.play(std::countr_zero(m) + 1);
  }
  return false;
}

TEST(SearchPruning, ProvenLinesAgreeWithTheSolver) {
  int checked = 0, positions = 0;
  for (uint64_t seed = 1; seed <= 200 && positions < 24; ++seed) {
    Position pos;
    if (!random_endgame(seed, 14, &pos)) continue;
    ++positions;
    Engine engine;
    Options options;
    options.multipv = 9;
    engine.set_options(options);
    engine.set_position(Game(pos));
    Limits limits;
    limits.depth = 10;
    const SearchResult r = engine.search(limits);
    for (const Info& line : r.lines) {
      if (!line.score.proven || line.pv.empty()) continue;
      const Position child = pos.after(line.pv[0]);
      tables::SolveOptions opt;
      opt.want_margin = false;
      opt.max_nodes = 1'000'000;
      opt.hash_log2 = 18;
      const tables::Solution s = tables::solve(child, opt);
      if (!s.proven) continue;
      ++checked;
      // The solver scores the child for its side to move, the opponent of the root's.
      EXPECT_EQ(line.score.result, -s.result) << "seed " << seed << " move " << int(line.pv[0])
                                              << " claimed proven " << line.score.result;
    }
  }
  EXPECT_GE(positions, 10);
  EXPECT_GE(checked, 20) << "too few proven lines to check";
}

}  // namespace
}  // namespace toguz::search
