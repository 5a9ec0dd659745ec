// Test positions for the solver and a plain second method to check its answers.
// Depends on the rules only. Never prints.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "rules/position.h"

namespace toguz::tables {

// The recipe of an endgame set (docs/tables.md, "Endgame sets"): game g = 0, 1, ... is a
// uniformly random game from the standard start (SplitMix64 seeded with seed + g, so a seed
// means the same set on every platform); it contributes its first position that has between
// min_stones and max_stones stones on the board, at least one tuz, no kazna above 81, the game
// not over and at least two legal moves (games without one contribute nothing).
struct EndgameRecipe {
  uint64_t seed = 1;
  int count = 100;
  int min_stones = 12;
  int max_stones = 18;
};
std::vector<Position> random_endgames(const EndgameRecipe& recipe);

// The exact play-out margin (rules.md "Values") of a position with a tuz by plain memoised
// minimax over every line to the natural end: no bounds, no pruning, no move ordering, a map
// from the board (kaznas left out: the final totals are the kaznas plus the board's split, and
// the board's play does not depend on the kaznas) to the board's exact value. Its sign is the
// result under the standard rules. Empty when the position has no tuz (repetitions would make
// it path-dependent) or when more than `max_boards` boards would be stored.
std::optional<int> plain_margin(const Position& pos, uint64_t max_boards = 20'000'000);

}  // namespace toguz::tables
