#include "search/tune.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace toguz::search {

namespace {

struct Sample {
  EvalFeatures f;
  double result;  // 1 / 0.5 / 0 for the side to move
  double score;   // search score, centi-stones, side to move
};

double sigmoid(double x) {
  return 1 / (1 + std::exp(-x));
}

double cross_entropy(double t, double p) {
  p = std::clamp(p, 1e-12, 1 - 1e-12);
  return -(t * std::log(p) + (1 - t) * std::log(1 - p));
}

// Solves a x = b (k x k, Gaussian elimination with partial pivoting). False when singular.
bool solve(std::vector<double> a, std::vector<double> b, int k, std::vector<double>* x) {
  for (int c = 0; c < k; ++c) {
    int piv = c;
    for (int r = c + 1; r < k; ++r)
      if (std::fabs(a[r * k + c]) > std::fabs(a[piv * k + c])) piv = r;
    if (std::fabs(a[piv * k + c]) < 1e-300) return false;
    for (int j = 0; j < k; ++j) std::swap(a[c * k + j], a[piv * k + j]);
    std::swap(b[c], b[piv]);
    for (int r = c + 1; r < k; ++r) {
      const double m = a[r * k + c] / a[c * k + c];
      for (int j = c; j < k; ++j) a[r * k + j] -= m * a[c * k + j];
      b[r] -= m * b[c];
    }
  }
  x->assign(k, 0);
  for (int r = k - 1; r >= 0; --r) {
    double s = b[r];
    for (int j = r + 1; j < k; ++j) s -= a[r * k + j] * (*x)[j];
    (*x)[r] = s / a[r * k + r];
  }
  return true;
}

// Fits logit weights for `used` features on targets t; returns the weights (0 for unused).
std::vector<double> fit(const std::vector<Sample>& s, const std::vector<double>& t,
                        const std::vector<int>& used, double ridge, int* iterations) {
  const int k = int(used.size());
  std::vector<double> w(k, 0), grad(k), hess(size_t(k) * k), step;
  const double n = double(s.size());
  for (int it = 0; it < 50; ++it) {
    std::fill(grad.begin(), grad.end(), 0);
    std::fill(hess.begin(), hess.end(), 0);
    for (size_t i = 0; i < s.size(); ++i) {
      double z = 0;
      for (int a = 0; a < k; ++a) z += w[a] * s[i].f[used[a]];
      const double p = sigmoid(z), d = p - t[i], h = p * (1 - p);
      for (int a = 0; a < k; ++a) {
        const double fa = s[i].f[used[a]];
        grad[a] += d * fa;
        for (int b = 0; b <= a; ++b) hess[a * k + b] += h * fa * s[i].f[used[b]];
      }
    }
    for (int a = 0; a < k; ++a) {
      grad[a] = grad[a] / n + ridge * w[a];
      for (int b = 0; b <= a; ++b)
        hess[b * k + a] = hess[a * k + b] = hess[a * k + b] / n + (a == b ? ridge : 0);
    }
    if (!solve(hess, grad, k, &step))
      throw std::runtime_error("tune: the features are linearly dependent on this data");
    double biggest = 0;
    for (int a = 0; a < k; ++a) w[a] -= step[a], biggest = std::max(biggest, std::fabs(step[a]));
    *iterations = it + 1;
    if (biggest < 1e-9) break;
  }
  std::vector<double> full(kNumFeatures, 0);
  for (int a = 0; a < k; ++a) full[used[a]] = w[a];
  return full;
}

double mean_loss(const std::vector<Sample>& s, const std::vector<double>& t,
                 const std::vector<double>& w) {
  double sum = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    double z = 0;
    for (int a = 0; a < kNumFeatures; ++a) z += w[a] * s[i].f[a];
    sum += cross_entropy(t[i], sigmoid(z));
  }
  return sum / double(s.size());
}

}  // namespace

TuneResult tune_weights(const std::vector<SelfplayRecord>& records, const TuneSettings& st) {
  std::vector<Sample> samples;
  for (const SelfplayRecord& r : records) {
    if (r.proven || r.ply < st.skip_plies) continue;
    const Position pos = r.position();
    const double white = r.result > 0 ? 1 : r.result < 0 ? 0 : 0.5;
    samples.push_back({eval_features(pos), r.side == 0 ? white : 1 - white, double(r.score)});
  }
  if (samples.empty()) throw std::runtime_error("tune: no usable position (all proven or skipped)");
  std::vector<int> used = st.features;
  if (used.empty())
    for (int i = 0; i < kNumFeatures; ++i) used.push_back(i);
  if (std::find(used.begin(), used.end(), int(kFeatKazna)) == used.end())
    throw std::runtime_error("tune: the kazna feature must be fitted (it fixes the scale)");

  TuneResult out;
  out.positions = samples.size();
  // 1. The scale: results only, fitted weights, kazna weight -> centi-stones per logit.
  std::vector<double> t(samples.size());
  for (size_t i = 0; i < samples.size(); ++i) t[i] = samples[i].result;
  int iters = 0;
  const std::vector<double> w0 = fit(samples, t, used, st.ridge, &iters);
  if (w0[kFeatKazna] <= 0)
    throw std::runtime_error("tune: a kazna stone does not help win on this data");
  out.scale = 100.0 / w0[kFeatKazna];
  // 2. The blend target and the final fit.
  for (size_t i = 0; i < samples.size(); ++i)
    t[i] = st.result_weight * samples[i].result +
           (1 - st.result_weight) * sigmoid(samples[i].score / out.scale);
  const std::vector<double> w = fit(samples, t, used, st.ridge, &out.iterations);
  out.loss_fitted = mean_loss(samples, t, w);
  const double per_cp = w[kFeatKazna] / 100.0;  // logit per centi-stone
  for (int a = 0; a < kNumFeatures; ++a) out.weights[a] = int(std::lround(w[a] / per_cp));
  // The current weights on the same targets, at their best scale (one-dimensional fit).
  std::vector<Sample> cur(samples.size());
  for (size_t i = 0; i < samples.size(); ++i) {
    cur[i] = samples[i];
    cur[i].f.fill(0);
    int v = 0;
    for (int a = 0; a < kNumFeatures; ++a) v += kEvalWeights[a] * samples[i].f[a];
    cur[i].f[0] = v;
  }
  int cur_iters = 0;
  const std::vector<double> wc = fit(cur, t, {0}, 0, &cur_iters);
  out.loss_current = mean_loss(cur, t, wc);
  return out;
}

}  // namespace toguz::search
