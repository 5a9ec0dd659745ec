#include "search/eval.h"

#include "search/types.h"

namespace toguz::search {

const char* eval_feature_name(int feature) {
  static const char* const names[kNumFeatures] = {"kazna",    "row",       "tuz",
                                                  "mobility", "odd_holes", "row_late"};
  return feature >= 0 && feature < kNumFeatures ? names[feature] : "?";
}

const char* eval_kind_name(EvalKind kind) {
  return kind == EvalKind::Nnue ? "nnue" : "classic";
}

bool parse_eval_kind(const std::string& s, EvalKind* out) {
  if (s == "classic")
    *out = EvalKind::Classic;
  else if (s == "nnue")
    *out = EvalKind::Nnue;
  else
    return false;
  return true;
}

int evaluate(const Position& pos) {
  return evaluate_with(pos, kEvalWeights);
}

}  // namespace toguz::search
