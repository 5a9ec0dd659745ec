// Glicko-2 ratings exactly as Mark Glickman's paper "Example of the Glicko-2 system" describes
// them, with the site's bounds around it (docs/ratings.md). Pure arithmetic: no clock, no storage.
#pragma once

#include <span>
#include <string>
#include <utility>

namespace toguz::accounts {

// The paper's constant between the Glicko scale (rating points) and the Glicko-2 scale.
inline constexpr double kGlicko2Scale = 173.7178;

struct Glicko2Config {
  // The system constant: how much the volatility may change. The paper uses 0.5 for its example
  // and suggests 0.3 to 1.2; the site uses 0.75, as lichess (and PlayStrategy's Togyz) do, so
  // a player who improves quickly sees it within a few dozen games.
  double tau = 0.75;
  // Bounds on the deviation, in rating points: a new player starts at max_rd; min_rd keeps an
  // established rating moving (lichess uses 45 too).
  double min_rd = 45.0;
  double max_rd = 350.0;
  double max_volatility = 0.1;  // a cap against runaway volatility after freak results
  // Rating periods per day of inactivity, for the growth of the deviation between games: with
  // the default volatility 0.06, RD 60 grows back to the provisional 110 after one year
  // ((110² - 60²) / (0.06 · 173.7178)² / 365 = 0.21436).
  double periods_per_day = 0.21436;
  double epsilon = 1e-6;  // the paper's convergence tolerance for the volatility
};

// The paper's settings, without the site's bounds: for checking against the paper.
inline Glicko2Config paper_config() {
  return {.tau = 0.5, .min_rd = 0.0, .max_rd = 1e9, .max_volatility = 1e9};
}

struct Rating {
  double rating = 1500.0;    // r
  double rd = 350.0;         // RD, rating points
  double volatility = 0.06;  // σ
  int games = 0;             // rated games counted so far
};

// One game of a rating period, from the player's side: the opponent's rating and deviation
// before the period, and the player's score (1 a win, 0.5 a draw, 0 a loss).
struct Outcome {
  double rating = 1500.0;
  double rd = 350.0;
  double score = 0.0;
};

// The rating after one rating period with these games (steps 1-8 of the paper). `periods` is how
// many rating periods the deviation grows by in step 6 (the paper: 1; the site: the time since
// the player's last game in periods, see periods_between). With no games only the deviation
// grows (the paper's rule for a player who did not compete). The deviation is kept within
// [min_rd, max_rd] and the volatility under max_volatility. Throws std::invalid_argument on a
// score outside [0, 1] or a negative deviation.
Rating update(const Rating& player, std::span<const Outcome> games, const Glicko2Config& config,
              double periods = 1.0);

// The deviation shown after `days` without a rated game (grows as in step 6, up to max_rd).
double rd_after(const Rating& player, double days, const Glicko2Config& config);

// The rating periods in `days` without a game (the site rates each game as its own period).
inline double periods_between(double days, const Glicko2Config& config) {
  return days > 0 ? days * config.periods_per_day : 0.0;
}

// Both players' ratings after one game between them, each against the other's rating before the
// game (a rating period is one game, as on lichess). `white_score` is 1, 0.5 or 0; the periods
// are each player's time since his last rated game, in rating periods.
std::pair<Rating, Rating> rate_game(const Rating& white, const Rating& black, double white_score,
                                    const Glicko2Config& config, double white_periods,
                                    double black_periods);

// A deviation above this marks a rating as provisional (lichess's threshold).
inline constexpr double kProvisionalRd = 110.0;
inline bool provisional(const Rating& r) {
  return r.rd > kProvisionalRd;
}

// The rating as shown: rounded to a whole number, with '?' when provisional ("1500?").
std::string display(const Rating& r);

}  // namespace toguz::accounts
