#include "search/eval.h"

namespace toguz::search {

const char* eval_feature_name(int feature) {
  static const char* const names[kNumFeatures] = {"kazna",    "row",       "tuz",
                                                  "mobility", "odd_holes", "row_late"};
  return feature >= 0 && feature < kNumFeatures ? names[feature] : "?";
}

int evaluate(const Position& pos) {
  return evaluate_with(pos, kEvalWeights);
}

}  // namespace toguz::search
