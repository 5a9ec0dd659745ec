// Fitting the evaluation weights on self-play data (`toguz tune`).
#pragma once

#include <string>
#include <vector>

#include "search/eval.h"
#include "search/selfplay.h"

namespace toguz::search {

struct TuneSettings {
  double result_weight = 0.5;  // target = r * result + (1 - r) * sigmoid(score / scale)
  std::vector<int> features;   // the features fitted (others stay 0); empty = all
  int skip_plies = 0;          // ignore positions earlier than this ply of their game
  double ridge = 1e-3;         // L2 penalty per position, keeps the Newton steps defined
};

struct TuneResult {
  EvalFeatures weights{};   // centi-stones, kazna = 100
  double scale = 0;         // centi-stones per logit unit (the score -> probability scale)
  size_t positions = 0;     // positions used (not proven, not skipped)
  double loss_fitted = 0;   // mean cross-entropy with the fitted weights
  double loss_current = 0;  // with kEvalWeights (their best scale fitted alike)
  int iterations = 0;
};

// Logistic regression by Newton's method of P(side to move wins) = sigmoid(w . features) on
// the target blend, the features exactly eval_features(). The scale is fitted first on the
// results alone; the weights are then given in centi-stones with the kazna weight at 100.
// Before: `records` holds at least one usable position and the kazna feature is fitted.
TuneResult tune_weights(const std::vector<SelfplayRecord>& records, const TuneSettings& settings);

}  // namespace toguz::search
