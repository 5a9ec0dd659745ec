#include "search/timeman.h"

#include <algorithm>
#include <cstdint>

namespace toguz::search {

TimePlan plan_time(const Limits& limits, Side us) {
  TimePlan plan;
  if (limits.infinite) return plan;
  // 64-bit arithmetic: every int clock and increment (up to INT_MAX each) fits with room, and
  // the results are clamped to the clock, so they fit an int again.
  const int64_t left = limits.time_ms[index(us)];
  const int64_t inc = std::max(0, limits.inc_ms[index(us)]);
  if (left >= 0) {
    // The most this move may take: 25% of the clock, and the clock less the overhead.
    // Games last about 30-60 more moves per side: 1/40 of the clock keeps a reserve that
    // a slow move (a loaded machine) cannot exhaust (1/30 with the scaling below ran the
    // clock down to 0.1 s by move 30 at 5+0.05).
    const int64_t cap = std::max<int64_t>(1, std::min(left / 4, left - kMoveOverhead));
    const int64_t base = left / 40 + inc * 3 / 4;
    plan.soft_ms = int(std::clamp<int64_t>(base, 1, cap));
    // Short of time (under a second), at most twice the soft budget: a long move then costs
    // clock that the increment cannot give back.
    plan.hard_ms = int(std::clamp<int64_t>(base * (left < 1000 ? 2 : 3), 1, cap));
  }
  if (limits.movetime_ms > 0) {
    const int mt = limits.movetime_ms;
    plan.hard_ms = plan.hard_ms ? std::min(plan.hard_ms, mt) : mt;
    // A fixed time per move is used in full: no early stop unless a clock asks for one.
    if (plan.soft_ms) plan.soft_ms = std::min(plan.soft_ms, mt);
  }
  return plan;
}

}  // namespace toguz::search
