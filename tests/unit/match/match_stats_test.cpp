// The match statistics against values computed by hand (and by an independent script for the
// GSPRT): Elo of a score, LOS, the pentanomial mean and variance, nElo, LLR sign and size.
#include <gtest/gtest.h>

#include <cmath>

#include "match/stats.h"

using namespace toguz::match;

TEST(MatchStats, EloOfScore) {
  // 60%: -400 log10(1/0.6 - 1) = 400 log10(1.5) = 70.4365
  EXPECT_NEAR(elo_from_score(0.6), 70.4365, 1e-4);
  EXPECT_NEAR(elo_from_score(0.5), 0.0, 1e-12);
  EXPECT_NEAR(elo_from_score(0.4), -70.4365, 1e-4);
  EXPECT_NEAR(score_from_elo(70.4365036), 0.6, 1e-9);
  EXPECT_NEAR(score_from_elo(0), 0.5, 1e-12);
  EXPECT_TRUE(std::isinf(elo_from_score(1.0)) && elo_from_score(1.0) > 0);
  EXPECT_TRUE(std::isinf(elo_from_score(0.0)) && elo_from_score(0.0) < 0);
}

TEST(MatchStats, Normal) {
  EXPECT_NEAR(normal_cdf(0), 0.5, 1e-12);
  EXPECT_NEAR(normal_cdf(1.959963985), 0.975, 1e-9);
  EXPECT_NEAR(normal_quantile(0.975), 1.959963985, 1e-8);
  EXPECT_NEAR(normal_quantile(0.5), 0.0, 1e-9);
}

TEST(MatchStats, PentanomialMeanAndVariance) {
  // Symmetric counts 1,2,3,2,1 over scores 0, 1/4, 1/2, 3/4, 1: mean 1/2,
  // variance (2 * 1/4 + 4 * 1/16) / 9 = 0.75 / 9.
  MeanVar mv = pentanomial_mean_var({1, 2, 3, 2, 1});
  EXPECT_NEAR(mv.mean, 0.5, 1e-12);
  EXPECT_NEAR(mv.var, 0.75 / 9, 1e-12);
  MeanVar none = pentanomial_mean_var({0, 0, 0, 0, 0});
  EXPECT_EQ(none.mean, 0);
  EXPECT_EQ(none.var, 0);
}

TEST(MatchStats, EstimateByHand) {
  // Pairs 2,3,5,4,6 (N = 20): mean 12.25 / 20 = 0.6125, variance 2.184375 / 20 = 0.10921875,
  // standard error sqrt(0.10921875 / 20) = 0.0738982.
  Estimate e = estimate({2, 3, 5, 4, 6});
  EXPECT_EQ(e.pairs, 20u);
  EXPECT_NEAR(e.score, 0.6125, 1e-12);
  EXPECT_NEAR(e.elo, 79.5338, 1e-3);
  EXPECT_NEAR(e.elo_lo, -22.5020, 1e-3);  // Elo(0.6125 - 1.96 se)
  EXPECT_NEAR(e.elo_hi, 197.7149, 1e-3);  // Elo(0.6125 + 1.96 se)
  EXPECT_NEAR(e.elo_ci95, (197.7149 + 22.5020) / 2, 1e-3);
  EXPECT_NEAR(e.los, 0.936041, 1e-5);  // Phi(0.1125 / se)
  // nElo = (mean - 1/2) / sqrt(2 var) * 800 / ln 10
  EXPECT_NEAR(e.nelo, 83.6302, 1e-3);
  EXPECT_NEAR(e.nelo_ci95, 107.6694, 1e-3);
}

TEST(MatchStats, EstimateEdges) {
  Estimate even = estimate({0, 0, 7, 0, 0});  // every pair split: no spread
  EXPECT_NEAR(even.elo, 0, 1e-12);
  EXPECT_EQ(even.los, 0.5);
  Estimate all = estimate({0, 0, 0, 0, 5});  // won everything
  EXPECT_TRUE(std::isinf(all.elo) && all.elo > 0);
  EXPECT_EQ(all.los, 1.0);
  EXPECT_TRUE(std::isinf(all.elo_ci95));
  Estimate none = estimate({0, 0, 0, 0, 0});
  EXPECT_EQ(none.pairs, 0u);
  EXPECT_EQ(none.los, 0.5);
}

TEST(MatchStats, LlrSignAndValue) {
  // Values from an independent Newton solution of the same constrained maximum likelihood.
  EXPECT_NEAR(llr_pentanomial({2, 3, 5, 4, 6}, 0, 5), 0.130474, 1e-4);
  EXPECT_NEAR(llr_pentanomial({6, 4, 5, 3, 2}, 0, 5), -0.138419, 1e-4);
  double big = llr_pentanomial({100, 200, 300, 250, 150}, 0, 10);
  EXPECT_NEAR(big, 4.822862, 1e-4);
  // Close to the normal approximation N (mu1 - mu0)(2 mu - mu0 - mu1) / (2 var) = 4.887.
  EXPECT_NEAR(big, 4.887, 0.1);
  // Symmetric data, symmetric hypotheses: no evidence either way.
  EXPECT_NEAR(llr_pentanomial({3, 5, 8, 5, 3}, -5, 5), 0.0, 1e-9);
  EXPECT_EQ(llr_pentanomial({0, 0, 0, 0, 0}, 0, 5), 0.0);
  // One-sided data is handled (empty bins get a tiny count) and points the right way.
  EXPECT_GT(llr_pentanomial({0, 0, 0, 0, 40}, 0, 5), 0);
  EXPECT_LT(llr_pentanomial({40, 0, 0, 0, 0}, 0, 5), 0);
}

TEST(MatchStats, SprtBounds) {
  SprtParams p;  // elo0 0, elo1 5, alpha = beta = 0.05
  EXPECT_NEAR(p.lower(), std::log(0.05 / 0.95), 1e-12);
  EXPECT_NEAR(p.upper(), 2.944439, 1e-6);
  EXPECT_EQ(p.decide(0.0), SprtState::Continue);
  EXPECT_EQ(p.decide(3.0), SprtState::AcceptH1);
  EXPECT_EQ(p.decide(-3.0), SprtState::AcceptH0);
  EXPECT_EQ(sprt_state_name(SprtState::AcceptH1), "H1");
}
