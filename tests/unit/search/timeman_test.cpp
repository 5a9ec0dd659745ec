// The time manager over every clock a client may send: extreme and random int clocks,
// increments and movetimes keep the plan within the clock, and more time or increment never
// plans a shorter move (an overflow would break both).
#include "search/timeman.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <random>
#include <vector>

namespace toguz::search {
namespace {

const std::vector<int> kEdges = {INT_MIN,   INT_MIN + 1, -1000000,    -1,     0,
                                 1,         2,           49,          50,     51,
                                 999,       1000,        1001,        60000,  715827882,
                                 715827883, 1073741824,  INT_MAX - 1, INT_MAX};

// The plan's bounds for one set of limits (White to move).
void check_plan(int left, int inc, int movetime) {
  Limits l;
  l.time_ms[0] = left;
  l.inc_ms[0] = inc;
  l.movetime_ms = movetime;
  const TimePlan p = plan_time(l, Side::White);
  SCOPED_TRACE(testing::Message() << "clock " << left << " inc " << inc << " movetime "
                                  << movetime);
  if (left >= 0) {
    const int64_t cap =
        std::max<int64_t>(1, std::min<int64_t>(left / 4, int64_t(left) - kMoveOverhead));
    EXPECT_GE(p.soft_ms, 1);
    EXPECT_LE(p.soft_ms, p.hard_ms);
    EXPECT_LE(p.hard_ms, cap);
    if (movetime > 0) {
      EXPECT_LE(p.hard_ms, movetime);
    }
  } else if (movetime > 0) {
    EXPECT_EQ(p.soft_ms, 0);
    EXPECT_EQ(p.hard_ms, movetime);
  } else {
    EXPECT_EQ(p.soft_ms, 0);
    EXPECT_EQ(p.hard_ms, 0);
  }
}

TEST(TimeManager, ExtremeClocksStayWithinTheClock) {
  for (int left : kEdges)
    for (int inc : kEdges)
      for (int movetime : {INT_MIN, -1, 0, 1, 1000, INT_MAX}) check_plan(left, inc, movetime);
  std::mt19937_64 rng(20260101);
  std::uniform_int_distribution<int> any(INT_MIN, INT_MAX);
  for (int i = 0; i < 20000; ++i) check_plan(any(rng), any(rng), i % 3 ? 0 : any(rng));
}

// Soft and hard budgets never shrink when the clock or the increment grows (here one grows,
// the other stays fixed): a wrap-around past INT_MAX would make a huge increment plan 1 ms.
TEST(TimeManager, MoreTimeNeverPlansLess) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> any(0, INT_MAX);
  auto plan = [](int left, int inc) {
    Limits l;
    l.time_ms[1] = left;
    l.inc_ms[1] = inc;
    return plan_time(l, Side::Black);
  };
  for (int i = 0; i < 20000; ++i) {
    int a = any(rng), b = any(rng), fixed = i % 2 ? any(rng) : int(rng() % 100000);
    if (a > b) std::swap(a, b);
    const bool inc_grows = i % 4 < 2;
    const TimePlan lo = inc_grows ? plan(fixed, a) : plan(a, fixed);
    const TimePlan hi = inc_grows ? plan(fixed, b) : plan(b, fixed);
    SCOPED_TRACE(testing::Message()
                 << (inc_grows ? "inc " : "clock ") << a << " -> " << b << ", fixed " << fixed);
    EXPECT_LE(lo.soft_ms, hi.soft_ms);
    EXPECT_LE(lo.hard_ms, hi.hard_ms);
  }
  // One minute and an increment of about 715,827,883 ms or more: the whole 25% cap.
  for (int inc : {715827882, 715827883, 1000000000, INT_MAX}) {
    EXPECT_EQ(plan(60000, inc).soft_ms, 15000) << inc;
    EXPECT_EQ(plan(60000, inc).hard_ms, 15000) << inc;
  }
}

// The figures docs/ugi.md "Time" gives: soft 1/40 of the clock + 3/4 of the increment, hard
// 3x (2x under a second), both at most 25% of the clock and the clock less 50 ms.
TEST(TimeManager, TheDocumentedFigures) {
  auto plan = [](int left, int inc, int movetime = 0) {
    Limits l;
    l.time_ms[0] = left;
    l.inc_ms[0] = inc;
    l.movetime_ms = movetime;
    return plan_time(l, Side::White);
  };
  EXPECT_EQ(plan(40000, 0).soft_ms, 1000);
  EXPECT_EQ(plan(40000, 0).hard_ms, 3000);
  EXPECT_EQ(plan(4000, 400).soft_ms, 100 + 300);
  EXPECT_EQ(plan(4000, 400).hard_ms, 1000) << "3 x 400 capped at 25% of 4000";
  EXPECT_EQ(plan(800, 40).soft_ms, 20 + 30);
  EXPECT_EQ(plan(800, 40).hard_ms, 100) << "2x under a second";
  EXPECT_EQ(plan(60, 1000).hard_ms, 10) << "the clock less 50 ms";
  EXPECT_EQ(plan(40000, 0, 500).soft_ms, 500) << "movetime caps both";
  EXPECT_EQ(plan(40000, 0, 500).hard_ms, 500);
  EXPECT_EQ(kMoveOverhead, 50);
}

}  // namespace
}  // namespace toguz::search
