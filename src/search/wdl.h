// Win chances: a score turned into the probability of a win, a draw and a loss for the side
// to move, in permille. Fitted on the final results of self-play games (train/wdl.py; the
// fit and its calibration error on held-out games: docs/nnue.md, "Win chances").
#pragma once

#include "search/types.h"

namespace toguz::search {

struct Wdl {
  int win = 0, draw = 0, loss = 0;  // permille, summing to 1000
};

// P(win) = sigmoid((cp - A) / B), P(loss) = sigmoid((-cp - A) / B), P(draw) the rest.
constexpr double kWdlDrawBand = 84.0;  // A, centi-stones
constexpr double kWdlScale = 627.0;    // B, centi-stones per logit

// A proven or table result is certain (1000 for its outcome); a heuristic score uses the model.
Wdl wdl_of(const Score& s);

}  // namespace toguz::search
