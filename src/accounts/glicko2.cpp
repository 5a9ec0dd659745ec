#include "accounts/glicko2.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace toguz::accounts {
namespace {

double g(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double expected(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j)));
}

void check(const Rating& r) {
  if (!(r.rd >= 0) || !(r.volatility > 0) || !std::isfinite(r.rating))
    throw std::invalid_argument("glicko2: a rating needs a finite r, RD >= 0 and volatility > 0");
}

// Step 5: the new volatility, by the Illinois algorithm on f(x) as the paper gives it.
double new_volatility(double phi, double sigma, double v, double delta, const Glicko2Config& c) {
  const double a = std::log(sigma * sigma);
  const double tau2 = c.tau * c.tau;
  auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / tau2;
  };
  double A = a, B;
  if (delta * delta > phi * phi + v) {
    B = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * c.tau) < 0) ++k;
    B = a - k * c.tau;
  }
  double fA = f(A), fB = f(B);
  while (std::abs(B - A) > c.epsilon) {
    const double C = A + (A - B) * fA / (fB - fA);
    const double fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2.0;
    }
    B = C;
    fB = fC;
  }
  return std::exp(A / 2.0);
}

}  // namespace

Rating update(const Rating& player, std::span<const Outcome> games, const Glicko2Config& config,
              double periods) {
  check(player);
  // Step 2: to the Glicko-2 scale.
  const double mu = (player.rating - 1500.0) / kGlicko2Scale;
  const double phi = player.rd / kGlicko2Scale;
  const double sigma = player.volatility;
  const double max_phi = config.max_rd / kGlicko2Scale, min_phi = config.min_rd / kGlicko2Scale;
  Rating out = player;
  if (games.empty()) {
    out.rd = std::min(std::sqrt(phi * phi + std::max(periods, 0.0) * sigma * sigma), max_phi) *
             kGlicko2Scale;
    return out;
  }
  // Steps 3 and 4: the estimated variance v and the improvement Δ.
  double inv_v = 0, sum = 0;
  for (const Outcome& o : games) {
    if (!(o.score >= 0 && o.score <= 1))
      throw std::invalid_argument("glicko2: a score must be between 0 and 1");
    if (!(o.rd >= 0) || !std::isfinite(o.rating))
      throw std::invalid_argument("glicko2: an opponent needs a finite r and RD >= 0");
    const double mu_j = (o.rating - 1500.0) / kGlicko2Scale, phi_j = o.rd / kGlicko2Scale;
    const double e = expected(mu, mu_j, phi_j), gj = g(phi_j);
    inv_v += gj * gj * e * (1.0 - e);
    sum += gj * (o.score - e);
  }
  if (!(inv_v > 0)) {
    // Opponents so far away that every result was certain (E = 0 or 1 in doubles): the games
    // tell nothing, as a period without games.
    out = update(player, {}, config, periods);
    out.games = player.games + static_cast<int>(games.size());
    return out;
  }
  const double v = 1.0 / inv_v;
  const double delta = v * sum;
  // Step 5.
  const double sigma2 =
      std::min(new_volatility(phi, sigma, v, delta, config), config.max_volatility);
  // Steps 6 and 7.
  const double phi_star = std::sqrt(phi * phi + std::max(periods, 0.0) * sigma2 * sigma2);
  const double phi2 =
      std::clamp(1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v), min_phi, max_phi);
  const double mu2 = mu + phi2 * phi2 * sum;
  // Step 8: back to the Glicko scale.
  out.rating = kGlicko2Scale * mu2 + 1500.0;
  out.rd = kGlicko2Scale * phi2;
  out.volatility = sigma2;
  out.games = player.games + static_cast<int>(games.size());
  return out;
}

double rd_after(const Rating& player, double days, const Glicko2Config& config) {
  return update(player, {}, config, periods_between(days, config)).rd;
}

std::pair<Rating, Rating> rate_game(const Rating& white, const Rating& black, double white_score,
                                    const Glicko2Config& config, double white_periods,
                                    double black_periods) {
  const Outcome for_white{black.rating, black.rd, white_score};
  const Outcome for_black{white.rating, white.rd, 1.0 - white_score};
  return {update(white, std::span(&for_white, 1), config, white_periods),
          update(black, std::span(&for_black, 1), config, black_periods)};
}

std::string display(const Rating& r) {
  return std::to_string(static_cast<long>(std::lround(r.rating))) + (provisional(r) ? "?" : "");
}

}  // namespace toguz::accounts
