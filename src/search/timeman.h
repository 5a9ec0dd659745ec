// Time management: how long one move may take under the limits of types.h.
#pragma once

#include "rules/position.h"
#include "search/types.h"

namespace toguz::search {

struct TimePlan {
  int soft_ms = 0;  // no new iteration starts after about this much (0 = no time limit)
  int hard_ms = 0;  // the search stops at this time whatever it is doing (0 = none)
};

// Milliseconds kept back from the clock for the protocol and process overhead.
constexpr int kMoveOverhead = 50;  // 30 lost 2 games of 60 on time at 1+0.01 on a loaded machine

// The plan for the side `us` to move. movetime is used as a hard limit (less the overhead
// when a clock also runs). With a clock: about 1/40 of what is left plus most of the
// increment, never more than 25% of the clock, and always leaving kMoveOverhead, so the
// engine never loses on time while its moves are answered promptly. Defined for every int
// clock, increment and movetime (no overflow; a negative clock plans nothing, a negative
// increment counts as 0); both times are at most max(1, the clock / 4) when a clock is given.
TimePlan plan_time(const Limits& limits, Side us);

}  // namespace toguz::search
