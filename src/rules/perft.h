// Perft: leaves of the legal-move tree (docs/rules.md: a finished position is one leaf).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "rules/position.h"

namespace toguz {

constexpr int kMaxPerftDepth = 64;

// Leaves below `pos` at `depth` (0..kMaxPerftDepth). A position whose game has ended (decided, no
// move, or a threefold repetition along the path from `pos`) is one leaf and is not expanded.
uint64_t perft(const Position& pos, int depth);
// The same per root move: (hole, leaves) in hole order.
std::vector<std::pair<int, uint64_t>> perft_divide(const Position& pos, int depth);

}  // namespace toguz
