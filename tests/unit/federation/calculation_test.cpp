// The rating calculation of docs/ratings-federation.md: seasons computed by hand (every
// figure written out below), and the properties every season keeps (each game's two expected
// scores sum to 1, with equal K an event's changes sum to zero, the 400-point rule, the floor).
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "federation/season.h"
#include "rules/random.h"

namespace toguz::federation {
namespace {

ListEntry listed(std::string name, int rating, int games) {
  ListEntry e;
  e.name = std::move(name);
  e.after = rating;
  e.games = games;
  return e;
}

SeasonGame game(std::string event, std::string date, std::string white, std::string black,
                int white_half_points) {
  SeasonGame g;
  g.event = std::move(event);
  parse_date(date, &g.date);
  g.white.name = std::move(white);
  g.black.name = std::move(black);
  g.white_half_points = white_half_points;
  g.source = "test";
  static int round = 0;
  g.round = std::to_string(++round);  // each game its own round: none is a duplicate
  return g;
}

const SeasonPlayer& player(const SeasonResult& s, const std::string& name) {
  for (const SeasonPlayer& p : s.players)
    if (p.ref.name == name) return p;
  throw std::runtime_error("no player " + name);
}

TEST(FederationCalculation, ExpectedScoreByHand) {
  // 1 / (1 + 10^(-100/400)) = 1 / (1 + 0.562341) = 0.640065
  EXPECT_NEAR(expected_score(2000, 1900, 400), 0.640065, 1e-6);
  EXPECT_NEAR(expected_score(1900, 2000, 400), 0.359935, 1e-6);
  // The 400-point rule: 650 points count as 400, 1 / (1 + 10^-1) = 0.909091.
  EXPECT_NEAR(expected_score(2450, 1800, 400), 0.909091, 1e-6);
  EXPECT_DOUBLE_EQ(expected_score(2450, 1800, 400), expected_score(2200, 1800, 400));
  EXPECT_DOUBLE_EQ(expected_score(1500, 1500, 400), 0.5);
}

TEST(FederationCalculation, KFactor) {
  Profile p;
  EXPECT_EQ(k_factor(p, 0, false), 40);
  EXPECT_EQ(k_factor(p, 29, true), 40);  // new first: 30 games before anything else
  EXPECT_EQ(k_factor(p, 30, false), 20);
  EXPECT_EQ(k_factor(p, 30, true), 10);
}

// Two monthly periods. The list: A 2000 and B 1900 (50 games, K 20), C 1800 (10 games, K 40),
// D 2450 (100 games, has reached 2400: K 10); N is new. The profile gives a first rating after
// 2 games.
TEST(FederationCalculation, TwoPeriodsByHand) {
  std::vector<ListEntry> list = {listed("A", 2000, 50), listed("B", 1900, 50),
                                 listed("C", 1800, 10), listed("D", 2450, 100)};
  std::vector<SeasonGame> games = {
      game("Cup", "2026.01.10", "A", "B", 2),  game("Cup", "2026.01.11", "A", "C", 1),
      game("Cup", "2026.01.12", "B", "C", 0),  game("Open", "2026.02.05", "D", "C", 0),
      game("Open", "2026.02.06", "N", "A", 2), game("Open", "2026.02.07", "B", "N", 1)};
  Profile profile;
  profile.initial_games = 2;
  const SeasonResult s = compute_season(list, games, profile, {});
  ASSERT_EQ(s.periods.size(), 2u);
  EXPECT_EQ(s.periods[0].period, "2026-01");
  // January. A-B 1-0: E(A) = 0.640065, A +20 * 0.359935 = +7.1987, B -7.1987.
  // A-C 1/2: E(A) = 1 / (1 + 10^-0.5) = 0.759747: A 20 * (0.5 - 0.759747) = -5.1949,
  //   C 40 * (0.5 - 0.240253) = +10.3899.
  // B-C 0-1: E(B) = 0.640065: B 20 * -0.640065 = -12.8013, C 40 * 0.640065 = +25.6026.
  // A: +2.0038 -> +2 = 2002; B: -20.0000 -> 1880; C: +35.9925 -> +36 = 1836.
  const EventReport& cup = s.events[0];
  ASSERT_EQ(cup.lines.size(), 3u);
  EXPECT_NEAR(cup.lines[0].change, 2.0038, 1e-4);
  EXPECT_NEAR(cup.lines[1].change, -20.0, 1e-4);
  EXPECT_NEAR(cup.lines[2].change, 35.9925, 1e-4);
  EXPECT_EQ(cup.lines[2].k, 40);
  EXPECT_NEAR(cup.lines[2].expected, 0.240253 + 0.359935, 1e-6);
  // February, at the ratings of February's start. D-C 0-1: 2450 - 1836 = 614 counts as 400:
  //   E(D) = 0.909091, D 10 * -0.909091 = -9.0909 -> 2441; C 40 * 0.909091 = +36.3636 -> 1872.
  // N-A 1-0 and B-N 1/2: A and B play an unrated player, nothing changes for them. N has 2
  //   games against rated players: Ra = (2002 + 1880) / 2 = 1941, p = 1.5 / 2 = 0.75,
  //   dp = 400 log10(0.75 / 0.25) = 190.85, Ru = 2131.85 -> 2132.
  EXPECT_EQ(player(s, "A").after, 2002);
  EXPECT_EQ(player(s, "B").after, 1880);
  EXPECT_EQ(player(s, "C").after, 1872);
  EXPECT_EQ(player(s, "D").after, 2441);
  EXPECT_EQ(player(s, "N").after, 2132);
  EXPECT_EQ(player(s, "N").games, 2);
  EXPECT_EQ(player(s, "C").games, 13);
  EXPECT_EQ(player(s, "A").history.size(), 3u);
  EXPECT_EQ(player(s, "A").history[2].use, GameUse::Unrated);
  EXPECT_EQ(player(s, "N").history[0].use, GameUse::Initial);
  EXPECT_EQ(s.periods[1].new_ratings, 1);

  const std::vector<ListEntry> out = new_list(s);
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].name, "D");
  EXPECT_EQ(out[0].change, -9);
  EXPECT_EQ(out[1].name, "N");
  EXPECT_FALSE(out[1].before.has_value());
  EXPECT_EQ(out[3].name, "B");
  EXPECT_EQ(out[4].name, "C");
  EXPECT_EQ(out[4].number, 5);
  EXPECT_EQ(out[4].change, 72);
}

// K 40 while fewer than 30 games at the period's start, then 20; K 10 once 2400 is reached,
// even after falling below it.
TEST(FederationCalculation, DevelopmentCoefficients) {
  std::vector<ListEntry> list = {listed("Young", 2390, 29), listed("Old", 2390, 29)};
  std::vector<SeasonGame> games = {game("E", "2026.01.01", "Young", "Old", 2),
                                   game("E", "2026.02.01", "Young", "Old", 0),
                                   game("E", "2026.03.01", "Young", "Old", 2)};
  const SeasonResult s = compute_season(list, games, Profile{}, {});
  const auto& h = player(s, "Young").history;
  // January: equal ratings, K 40: +20 -> 2410 (reached 2400); Old -20 -> 2370.
  EXPECT_EQ(h[0].k, 40);
  EXPECT_NEAR(h[0].change, 20, 1e-9);
  // February: both have 30 games; Young has reached 2400 (K 10), Old has not (K 20).
  // E(Young) = 1 / (1 + 10^(-40/400)) = 0.557312; Young 10 * -0.557312 = -5.57 -> 2404.
  EXPECT_EQ(h[1].k, 10);
  EXPECT_NEAR(h[1].change, -5.57312, 1e-5);
  EXPECT_EQ(player(s, "Old").history[1].k, 20);
  // March: still K 10 at 2404.
  EXPECT_EQ(h[2].k, 10);
}

TEST(FederationCalculation, FloorAndPeriods) {
  Profile profile;
  profile.floor = 1395;
  profile.period = Period::Year;
  std::vector<ListEntry> list = {listed("Low", 1400, 40), listed("High", 1800, 40)};
  std::vector<SeasonGame> games = {game("E", "2026.01.01", "Low", "High", 0),
                                   game("E", "2026.11.01", "Low", "High", 0)};
  const SeasonResult s = compute_season(list, games, profile, {});
  // One yearly period: 2 * 20 * -0.090909 = -3.64 -> -4 = 1396; a second loss would go under.
  ASSERT_EQ(s.periods.size(), 1u);
  EXPECT_EQ(player(s, "Low").after, 1396);
  profile.period = Period::Month;
  const SeasonResult m = compute_season(list, games, profile, {});
  // January: -1.82 -> -2 = 1398; November: -1.82 -> 1396.
  EXPECT_EQ(player(m, "Low").after, 1396);
  profile.floor = 1397;
  EXPECT_EQ(player(compute_season(list, games, profile, {}), "Low").after, 1397);
}

TEST(FederationCalculation, InitialRatingNeedsGamesAndAPoint) {
  Profile profile;  // 5 games
  std::vector<ListEntry> list = {listed("R", 1600, 40)};
  std::vector<SeasonGame> games;
  for (int i = 0; i < 4; ++i) games.push_back(game("E", "2026.01.01", "New", "R", 2));
  SeasonResult s = compute_season(list, games, profile, {});
  EXPECT_FALSE(player(s, "New").after.has_value());  // 4 games: not yet
  games.push_back(game("F", "2026.02.01", "R", "New", 2));
  s = compute_season(list, games, profile, {});
  // 5 games, 4 points: Ra 1600, p 0.8, dp = 400 log10(4) = 240.82 -> 1841.
  EXPECT_EQ(player(s, "New").after, 1841);
  EXPECT_EQ(player(s, "R").after, 1600);  // against an unrated player nothing moves
  std::vector<SeasonGame> zero(5, game("E", "2026.01.01", "Zero", "R", 0));
  EXPECT_FALSE(player(compute_season(list, zero, profile, {}), "Zero").after.has_value());
  EXPECT_NEAR(performance_adjustment(0.5), 0, 1e-12);
  EXPECT_EQ(performance_adjustment(1.0), 800);
  EXPECT_EQ(performance_adjustment(0.0), -800);
}

struct Rng {
  uint64_t state;
  uint64_t below(uint64_t n) { return splitmix64(state) % n; }
};

// Random seasons: the properties of the calculation.
TEST(FederationCalculation, Properties) {
  Rng rng{20261205};
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<ListEntry> list;
    const int n = 2 + int(rng.below(10));
    for (int i = 0; i < n; ++i)
      list.push_back(listed("P" + std::to_string(i), 1000 + int(rng.below(1800)), 40));
    std::vector<SeasonGame> games;
    const int g = 1 + int(rng.below(30));
    for (int i = 0; i < g; ++i) {
      int w = int(rng.below(n)), b = int(rng.below(n - 1));
      if (b >= w) ++b;
      games.push_back(game("E" + std::to_string(rng.below(3)),
                           "2026.0" + std::to_string(1 + rng.below(3)) + ".01",
                           "P" + std::to_string(w), "P" + std::to_string(b), int(rng.below(3))));
    }
    Profile profile;
    profile.k_high_rating = 10000;  // equal K for everyone
    const SeasonResult s = compute_season(list, games, profile, {});
    ASSERT_EQ(s.games_rated, g);
    size_t sides = 0;
    for (const SeasonPlayer& p : s.players) {
      sides += p.history.size();
      for (const HistoryEntry& h : p.history) {
        const HistoryEntry* other = nullptr;
        for (const HistoryEntry& o : s.players[h.opponent].history)
          if (o.event == h.event && o.date == h.date && o.score == 1 - h.score &&
              std::abs(o.expected + h.expected - 1) < 1e-12)
            other = &o;
        EXPECT_NE(other, nullptr) << "the two expected scores sum to 1";
        EXPECT_LE(std::abs(h.change), h.k) << "a game moves a rating by at most K";
        // The 400-point rule: no expected score beyond the capped difference's.
        EXPECT_LE(h.expected, expected_score(400, 0, 400) + 1e-12);
      }
    }
    EXPECT_EQ(sides, 2u * g) << "every game counted once for each player";
    for (const EventReport& e : s.events) {
      double sum = 0;
      for (const EventLine& l : e.lines) sum += l.change;
      EXPECT_NEAR(sum, 0, 1e-9) << "with equal K an event's changes sum to zero";
    }
    for (const SeasonPlayer& p : s.players) EXPECT_GE(*p.after, profile.floor);
  }
}

}  // namespace
}  // namespace toguz::federation
