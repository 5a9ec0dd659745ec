// Ratings: Glicko-2 against the worked example of Glickman's paper, the site's bounds and growth of
// the deviation, the provisional mark, and the speed categories at their boundaries.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "accounts/glicko2.h"
#include "accounts/speed.h"

namespace toguz::accounts {
namespace {

const std::vector<Outcome> kPaperGames = {{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}};

// "Example of the Glicko-2 system": r' = 1464.06, RD' = 151.52, σ' = 0.05999. The paper rounds
// its intermediate values to four decimals (μ' = -0.2069 gives 1464.06); unrounded, the same
// steps give 1464.0507, 151.5165 and 0.059996, which the second set of checks holds to.
TEST(Glicko2, PaperExample) {
  const Rating player{1500, 200, 0.06, 0};
  const Rating after = update(player, kPaperGames, paper_config());
  EXPECT_NEAR(after.rating, 1464.06, 0.01);
  EXPECT_NEAR(after.rd, 151.52, 0.01);
  EXPECT_NEAR(after.volatility, 0.05999, 0.00001);
  EXPECT_NEAR(after.rating, 1464.0507, 0.0001);
  EXPECT_NEAR(after.rd, 151.5165, 0.0001);
  EXPECT_NEAR(after.volatility, 0.059996, 0.000001);
  EXPECT_EQ(after.games, 3);
}

TEST(Glicko2, PaperExampleWithinTheSiteBounds) {
  // The site's bounds do not touch the example: the same figures with τ = 0.5.
  Glicko2Config config;
  config.tau = 0.5;
  const Rating after = update({1500, 200, 0.06, 0}, kPaperGames, config);
  EXPECT_NEAR(after.rating, 1464.0507, 0.0001);
  EXPECT_NEAR(after.rd, 151.5165, 0.0001);
}

TEST(Glicko2, TauChangesOnlyTheVolatilityStep) {
  // A larger τ lets the volatility move more after a surprising result.
  const Rating player{1500, 80, 0.06, 30};
  const std::vector<Outcome> upset = {{2100, 60, 1}};
  Glicko2Config low, high;
  low.tau = 0.3;
  high.tau = 1.2;
  const double d_low = update(player, upset, low).volatility - 0.06;
  const double d_high = update(player, upset, high).volatility - 0.06;
  EXPECT_GT(d_low, 0);
  EXPECT_GT(d_high, d_low);
}

TEST(Glicko2, NoGamesGrowsOnlyTheDeviation) {
  // The paper: φ' = sqrt(φ² + σ²) for one period without games; r and σ stay.
  const Rating player{1600, 100, 0.06, 10};
  const Rating after = update(player, {}, paper_config());
  EXPECT_DOUBLE_EQ(after.rating, 1600);
  EXPECT_DOUBLE_EQ(after.volatility, 0.06);
  EXPECT_NEAR(after.rd, std::sqrt(100.0 * 100 + std::pow(0.06 * kGlicko2Scale, 2)), 1e-9);
  EXPECT_EQ(after.games, 10);
}

TEST(Glicko2, InactivityMakesAnEstablishedRatingProvisionalAfterAYear) {
  const Glicko2Config config;
  const Rating established{1700, 60, 0.06, 200};
  EXPECT_FALSE(provisional(established));
  EXPECT_NEAR(rd_after(established, 365, config), 110.0, 0.05);
  EXPECT_LT(rd_after(established, 300, config), kProvisionalRd);
  EXPECT_GT(rd_after(established, 400, config), kProvisionalRd);
  EXPECT_DOUBLE_EQ(rd_after(established, 0, config), 60);
  EXPECT_DOUBLE_EQ(rd_after(established, -5, config), 60);  // a clock going back changes nothing
  EXPECT_DOUBLE_EQ(rd_after(established, 1e6, config), config.max_rd);
}

TEST(Glicko2, DeviationStaysWithinBounds) {
  const Glicko2Config config;
  Rating r{1500, 46, 0.06, 500};
  const std::vector<Outcome> steady = {{1500, 45, 0.5}};
  for (int i = 0; i < 50; ++i) r = update(r, steady, config, 0.0);
  EXPECT_DOUBLE_EQ(r.rd, config.min_rd);
  EXPECT_NEAR(r.rating, 1500, 1e-9);  // draws between equals move nothing
  const Rating fresh{1500, 350, 0.06, 0};
  EXPECT_LE(update(fresh, {}, config, 10).rd, config.max_rd);
}

TEST(Glicko2, VolatilityIsCapped) {
  Glicko2Config config;
  const Rating r{1500, 50, 0.06, 100};
  const std::vector<Outcome> upset = {{2300, 50, 1}};
  ASSERT_GT(update(r, upset, config).volatility, 0.06);
  config.max_volatility = 0.06;
  EXPECT_DOUBLE_EQ(update(r, upset, config).volatility, 0.06);
}

TEST(Glicko2, OneGameRatesBothPlayers) {
  const Glicko2Config config;
  const Rating a{1500, 350, 0.06, 0}, b{1500, 350, 0.06, 0};
  const auto [w, l] = rate_game(a, b, 1.0, config, 0, 0);
  EXPECT_GT(w.rating, 1500);
  EXPECT_LT(l.rating, 1500);
  EXPECT_NEAR(w.rating - 1500, 1500 - l.rating, 1e-9);  // equal players: equal and opposite
  EXPECT_NEAR(w.rating, 1662.2, 0.05);                  // the figure docs/ratings.md gives
  EXPECT_NEAR(w.rd, 290.2, 0.05);
  EXPECT_EQ(w.games, 1);
  EXPECT_EQ(l.games, 1);
  // Each against the other's rating before the game: the order of the two updates is immaterial.
  const auto [l2, w2] = rate_game(b, a, 0.0, config, 0, 0);
  EXPECT_DOUBLE_EQ(w2.rating, w.rating);
  EXPECT_DOUBLE_EQ(l2.rating, l.rating);
  // A draw against a much stronger player gains.
  const auto [weak, strong] =
      rate_game({1300, 80, 0.06, 50}, {1900, 80, 0.06, 50}, 0.5, config, 0, 0);
  EXPECT_GT(weak.rating, 1300);
  EXPECT_LT(strong.rating, 1900);
}

TEST(Glicko2, TenGamesAgainstEstablishedPlayersEndTheProvisionalMark) {
  // docs/ratings.md: a new player winning and losing in turn against established 1500s.
  const Glicko2Config config;
  const Rating established{1500, 60, 0.06, 100};
  Rating r;
  int games = 0;
  while (provisional(r) && games < 100)
    r = rate_game(r, established, games % 2 ? 1.0 : 0.0, config, 0.01, 0.01).first, ++games;
  EXPECT_EQ(games, 10);
}

TEST(Glicko2, BadInputIsRefused) {
  const Glicko2Config config;
  const std::vector<Outcome> bad_score = {{1500, 100, 1.5}};
  EXPECT_THROW(update({}, bad_score, config), std::invalid_argument);
  const std::vector<Outcome> bad_rd = {{1500, -1, 1}};
  EXPECT_THROW(update({}, bad_rd, config), std::invalid_argument);
  const std::vector<Outcome> nan_score = {{1500, 100, std::nan("")}};
  EXPECT_THROW(update({}, nan_score, config), std::invalid_argument);
  EXPECT_THROW(update({1500, 100, 0, 0}, {}, config), std::invalid_argument);
}

TEST(Glicko2, FarAwayOpponentsStayFinite) {
  const Glicko2Config config;
  for (double opponent : {5000.0, -20000.0, 1e6, -1e6}) {
    for (double score : {0.0, 0.5, 1.0}) {
      const std::vector<Outcome> game = {{opponent, 30, score}};
      const Rating r = update({1500, 45, 0.06, 10}, game, config, 0.0);
      EXPECT_TRUE(std::isfinite(r.rating) && std::isfinite(r.rd) && std::isfinite(r.volatility))
          << opponent << " " << score;
      EXPECT_LE(std::abs(r.rating - 1500), 50) << opponent << " " << score;
      EXPECT_EQ(r.games, 11);
    }
  }
}

TEST(Glicko2, ProvisionalAndDisplay) {
  EXPECT_EQ(display({1500, 350, 0.06, 0}), "1500?");
  EXPECT_EQ(display({1723.4, 110, 0.06, 40}), "1723");  // exactly 110 is established
  EXPECT_EQ(display({1723.5, 110.01, 0.06, 40}), "1724?");
  EXPECT_TRUE(provisional({1500, 110.01, 0.06, 0}));
  EXPECT_FALSE(provisional({1500, 110, 0.06, 0}));
}

TimeControl clock(int64_t initial_s, int64_t increment_s) {
  return {initial_s * 1000, increment_s * 1000, 0};
}

TEST(Speed, EstimateIsInitialPlusFiftyIncrements) {
  EXPECT_EQ(kEstimatedMoves, 50);
  EXPECT_EQ(estimated_ms(clock(300, 5)), 300'000 + 50 * 5'000);
  EXPECT_THROW(estimated_ms(clock(-1, 0)), std::invalid_argument);
  EXPECT_THROW(speed_of(clock(60, -1)), std::invalid_argument);
  EXPECT_THROW(speed_of({0, 0, -1}), std::invalid_argument);
}

TEST(Speed, Boundaries) {
  // Bullet below 3 minutes estimated, blitz below 8, rapid below 25, classical from 25.
  EXPECT_EQ(speed_of(clock(1, 0)), Speed::bullet);
  EXPECT_EQ(speed_of({179'999, 0, 0}), Speed::bullet);
  EXPECT_EQ(speed_of(clock(180, 0)), Speed::blitz);
  EXPECT_EQ(speed_of(clock(120, 1)), Speed::bullet);  // 120 + 50 = 170 s
  EXPECT_EQ(speed_of(clock(120, 2)), Speed::blitz);   // 120 + 100 = 220 s
  EXPECT_EQ(speed_of({479'999, 0, 0}), Speed::blitz);
  EXPECT_EQ(speed_of(clock(480, 0)), Speed::rapid);
  EXPECT_EQ(speed_of({1'499'999, 0, 0}), Speed::rapid);
  EXPECT_EQ(speed_of(clock(1500, 0)), Speed::classical);
  EXPECT_EQ(speed_of(clock(3600, 30)), Speed::classical);
  // The increment counts 50 times: 0+3 is 150 s (bullet), 0+4 is 200 s (blitz).
  EXPECT_EQ(speed_of(clock(0, 3)), Speed::bullet);
  EXPECT_EQ(speed_of(clock(0, 4)), Speed::blitz);
  EXPECT_EQ(speed_of(clock(300, 3)), Speed::blitz);  // 300 + 150 = 450 s
  EXPECT_EQ(speed_of(clock(300, 4)), Speed::rapid);  // 300 + 200 = 500 s
  EXPECT_EQ(speed_of({0, 0, 3}), Speed::correspondence);
  EXPECT_EQ(speed_of(clock(0, 0)), std::nullopt);  // no clock: casual only
}

TEST(Speed, Names) {
  for (Speed s : kSpeeds) EXPECT_EQ(parse_speed(name(s)), s);
  EXPECT_EQ(name(Speed::classical), "classical");
  EXPECT_EQ(parse_speed("Blitz"), std::nullopt);
  EXPECT_EQ(parse_speed(""), std::nullopt);
}

}  // namespace
}  // namespace toguz::accounts
