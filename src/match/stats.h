// Match statistics: Elo from a score, the pentanomial model of game pairs, LOS, normalised
// Elo and the generalised SPRT (GSPRT). Pure functions; no I/O. Formulas are written out in
// docs/strength.md.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace toguz::match {

// Counts of pair outcomes for the first engine, indexed by its points in the pair counted in
// half points: 0 = lost both, 1 = a loss and a draw, 2 = a win and a loss or two draws,
// 3 = a win and a draw, 4 = won both.
using Pentanomial = std::array<uint64_t, 5>;

struct Wdl {
  uint64_t wins = 0, draws = 0, losses = 0;
  uint64_t games() const { return wins + draws + losses; }
};

// Logistic Elo of an expected score s in (0, 1): -400 log10(1/s - 1). Returns -inf / +inf at
// 0 / 1.
double elo_from_score(double s);
// Expected score of an Elo difference: 1 / (1 + 10^(-elo/400)).
double score_from_elo(double elo);
// Standard normal distribution function and its inverse (p in (0, 1)).
double normal_cdf(double x);
double normal_quantile(double p);

// Mean and variance of the per-pair score (points / 2, in [0, 1]) under the empirical
// pentanomial distribution. Both 0 when there are no pairs.
struct MeanVar {
  double mean = 0, var = 0;
};
MeanVar pentanomial_mean_var(const Pentanomial& p);

// Everything reported at the end of a match, from the first engine's point of view.
// Intervals are 95% (mean +- 1.96 standard errors of the pair score, mapped to Elo).
struct Estimate {
  uint64_t pairs = 0;
  double score = 0.5;  // mean score per game
  double elo = 0;      // may be +-inf at a 0% / 100% score
  double elo_lo = 0, elo_hi = 0;
  double elo_ci95 = 0;  // half width: (elo_hi - elo_lo) / 2
  double nelo = 0;      // normalised Elo (see docs/strength.md)
  double nelo_ci95 = 0;
  double los = 0.5;  // likelihood of superiority, P(true score > 0.5)
};
Estimate estimate(const Pentanomial& p);

// Log-likelihood ratio of H1: elo = elo1 against H0: elo = elo0 (logistic Elo) for pentanomial
// data, each hypothesis taking the maximum-likelihood distribution whose mean is the
// hypothesis' score (Van den Bergh's GSPRT, as fishtest computes it). Empty bins are given a
// count of 1e-3 so the constrained maximum exists. 0 when there are no pairs.
double llr_pentanomial(const Pentanomial& p, double elo0, double elo1);

enum class SprtState { Continue, AcceptH0, AcceptH1 };
std::string_view sprt_state_name(SprtState s);  // "continue", "H0", "H1"

struct SprtParams {
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
  // Wald's bounds: lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha).
  double lower() const;
  double upper() const;
  SprtState decide(double llr) const;
};

}  // namespace toguz::match
