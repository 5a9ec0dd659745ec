// The static evaluation: what a position is worth to the side to move, in centi-stones.
// It is a weighted sum of integer features (EvalFeatures), so `toguz tune` can fit the weights
// on exactly what the search evaluates.
#pragma once

#include <array>

#include "rules/position.h"

namespace toguz::search {

// The features, each "side to move minus opponent".
enum EvalFeature : int {
  kFeatKazna,     // stones in the kazna
  kFeatRow,       // stones on one's own row
  kFeatTuz,       // owning a tuz (0/1)
  kFeatMobility,  // non-empty holes on one's own row (moves available)
  kFeatOddHoles,  // the opponent's odd holes minus one's own (an odd hole becomes even, so
                  // capturable, with one more stone); tuz holes not counted
  kFeatRowLate,   // stones on row scaled by how far the game is: row * kaznas / total stones
  kNumFeatures
};
using EvalFeatures = std::array<int, kNumFeatures>;
const char* eval_feature_name(int feature);

// Weights in centi-stones per feature unit (kazna fixed at 100: the score is an expected
// margin in hundredths of a stone). How they were made: docs/engine.md "Evaluation".
constexpr EvalFeatures kEvalWeights = {100, -28, 1111, 91, 33, 72};

// Before: the game is not over at `pos`.
inline EvalFeatures eval_features(const Position& pos) {
  const Side us = pos.side_to_move(), them = opposite(us);
  EvalFeatures f{};
  const int row_us = pos.stones_on_row(us), row_them = pos.stones_on_row(them);
  f[kFeatKazna] = pos.kazna(us) - pos.kazna(them);
  f[kFeatRow] = row_us - row_them;
  f[kFeatTuz] = (pos.tuz(us) != 0) - (pos.tuz(them) != 0);
  int mob = 0, odd = 0;
  const int n = pos.n();
  const int tuz_on_us = pos.tuz(them), tuz_on_them = pos.tuz(us);  // a tuz lies on the other row
  for (int h = 1; h <= n; ++h) {
    const int a = pos.stones(us, h), b = pos.stones(them, h);
    mob += (a != 0) - (b != 0);
    odd += (h != tuz_on_them && (b & 1)) - (h != tuz_on_us && (a & 1));
  }
  f[kFeatMobility] = mob;
  f[kFeatOddHoles] = odd;
  f[kFeatRowLate] = f[kFeatRow] * (pos.kazna(us) + pos.kazna(them)) / pos.rules().total_stones();
  return f;
}

// The weighted sum with `weights` (tuning, experiments).
inline int evaluate_with(const Position& pos, const EvalFeatures& weights) {
  const EvalFeatures f = eval_features(pos);
  int v = 0;
  for (int i = 0; i < kNumFeatures; ++i) v += weights[i] * f[i];
  return v;
}

// Before: the game is not over at `pos`. After: |value| < 20000, far below proven values.
int evaluate(const Position& pos);

}  // namespace toguz::search
