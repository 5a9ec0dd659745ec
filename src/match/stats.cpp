#include "match/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace toguz::match {

double elo_from_score(double s) {
  if (s <= 0) return -std::numeric_limits<double>::infinity();
  if (s >= 1) return std::numeric_limits<double>::infinity();
  return -400.0 * std::log10(1.0 / s - 1.0);
}

double score_from_elo(double elo) {
  return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

double normal_cdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

double normal_quantile(double p) {
  // Bisection on the monotone cdf: plenty fast for a handful of calls per report.
  double lo = -40, hi = 40;
  for (int i = 0; i < 200; ++i) {
    double mid = 0.5 * (lo + hi);
    (normal_cdf(mid) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

MeanVar pentanomial_mean_var(const Pentanomial& p) {
  double n = 0, sum = 0;
  for (int i = 0; i < 5; ++i) {
    n += double(p[i]);
    sum += double(p[i]) * i / 4.0;
  }
  if (n == 0) return {};
  MeanVar mv;
  mv.mean = sum / n;
  for (int i = 0; i < 5; ++i) mv.var += double(p[i]) * std::pow(i / 4.0 - mv.mean, 2);
  mv.var /= n;
  return mv;
}

Estimate estimate(const Pentanomial& p) {
  Estimate e;
  for (uint64_t c : p) e.pairs += c;
  if (e.pairs == 0) return e;
  MeanVar mv = pentanomial_mean_var(p);
  double n = double(e.pairs);
  double se = std::sqrt(mv.var / n);  // standard error of the mean pair score
  double z = normal_quantile(0.975);
  e.score = mv.mean;
  e.elo = elo_from_score(mv.mean);
  e.elo_lo = elo_from_score(mv.mean - z * se);
  e.elo_hi = elo_from_score(mv.mean + z * se);
  // An interval reaching a 0% or 100% score has no finite width.
  e.elo_ci95 = std::isfinite(e.elo_lo) && std::isfinite(e.elo_hi)
                   ? (e.elo_hi - e.elo_lo) / 2
                   : std::numeric_limits<double>::infinity();
  if (se > 0) {
    e.los = normal_cdf((mv.mean - 0.5) / se);
    // Normalised Elo: (mean - 1/2) / per-game standard deviation, scaled so that a small
    // difference in nElo matches logistic Elo near a 50% score with 1/2 variance per game.
    // A pair's score is the mean of two games, so the per-game deviation is sqrt(2 var).
    double sigma_game = std::sqrt(2 * mv.var);
    double k = 800.0 / std::log(10.0);
    e.nelo = (mv.mean - 0.5) / sigma_game * k;
    e.nelo_ci95 = z * se / sigma_game * k;
  } else {
    // Every pair scored the same: no spread to normalise by.
    e.los = mv.mean > 0.5 ? 1.0 : mv.mean < 0.5 ? 0.0 : 0.5;
    double inf = std::numeric_limits<double>::infinity();
    e.nelo = mv.mean > 0.5 ? inf : mv.mean < 0.5 ? -inf : 0.0;
  }
  return e;
}

namespace {

// The distribution of maximum likelihood for frequencies `f` over scores a_i = i / 4 whose
// mean is `mu`: p_i = f_i / (1 + lambda (a_i - mu)), lambda the root of
// sum f_i (a_i - mu) / (1 + lambda (a_i - mu)) = 0, which decreases in lambda on the interval
// where every denominator is positive. Before: mu strictly inside (0, 1), every f_i > 0.
std::array<double, 5> mle_with_mean(const std::array<double, 5>& f, double mu) {
  double lo = -1.0 / (1.0 - mu), hi = 1.0 / mu;  // denominators vanish at a = 1 and a = 0
  auto g = [&](double lambda) {
    double s = 0;
    for (int i = 0; i < 5; ++i) {
      double d = i / 4.0 - mu;
      s += f[i] * d / (1 + lambda * d);
    }
    return s;
  };
  for (int it = 0; it < 200; ++it) {
    double mid = 0.5 * (lo + hi);
    (g(mid) > 0 ? lo : hi) = mid;
  }
  double lambda = 0.5 * (lo + hi);
  std::array<double, 5> out;
  for (int i = 0; i < 5; ++i) out[i] = f[i] / (1 + lambda * (i / 4.0 - mu));
  return out;
}

}  // namespace

double llr_pentanomial(const Pentanomial& p, double elo0, double elo1) {
  std::array<double, 5> counts;
  double n = 0;
  uint64_t real = 0;
  for (int i = 0; i < 5; ++i) {
    counts[i] = p[i] == 0 ? 1e-3 : double(p[i]);
    n += counts[i];
    real += p[i];
  }
  if (real == 0) return 0;
  std::array<double, 5> f;
  for (int i = 0; i < 5; ++i) f[i] = counts[i] / n;
  auto p0 = mle_with_mean(f, score_from_elo(elo0));
  auto p1 = mle_with_mean(f, score_from_elo(elo1));
  double llr = 0;
  for (int i = 0; i < 5; ++i) llr += counts[i] * std::log(p1[i] / p0[i]);
  return llr;
}

std::string_view sprt_state_name(SprtState s) {
  switch (s) {
    case SprtState::AcceptH0:
      return "H0";
    case SprtState::AcceptH1:
      return "H1";
    default:
      return "continue";
  }
}

double SprtParams::lower() const {
  return std::log(beta / (1 - alpha));
}
double SprtParams::upper() const {
  return std::log((1 - beta) / alpha);
}

SprtState SprtParams::decide(double llr) const {
  if (llr >= upper()) return SprtState::AcceptH1;
  if (llr <= lower()) return SprtState::AcceptH0;
  return SprtState::Continue;
}

}  // namespace toguz::match
