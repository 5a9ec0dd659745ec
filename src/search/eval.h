// The static evaluation: what a position is worth to the side to move, in centi-stones.
#pragma once

#include "rules/position.h"

namespace toguz::search {

// Weights (hand-set for the baseline engine; issue 4 tunes them on self-play data).
constexpr int kStoneInKazna = 100;  // a stone already won
constexpr int kStoneOnRow = 6;      // a stone on one's own row: mobility, and the stones a
                                    // starved opponent leaves to us at the end
constexpr int kTuzOwned = 1000;     // a tuz collects stones for the rest of the game

// Before: the game is not over at `pos`. After: |value| < 20000, far below proven values.
int evaluate(const Position& pos);

}  // namespace toguz::search
