// A token bucket for the server's per-client limits (game creation, challenges, entry codes,
// analyses): at most `burst` actions at once, refilled at `per_minute`. Times are ms on any
// clock the caller keeps (only differences matter), so the lobby's fake clock drives it too.
#pragma once

#include <algorithm>
#include <cstdint>

namespace toguz::site {

struct RateBucket {
  double tokens = -1;  // -1: full, never used
  int64_t refilled_ms = 0;

  // Refills the bucket to `now_ms`; true when a whole token is there (then spent when `spend`).
  bool take(int64_t now_ms, double burst, double per_minute, bool spend = true) {
    if (tokens < 0)
      tokens = burst;
    else
      tokens = std::min(burst, tokens + double(now_ms - refilled_ms) * per_minute / 60000.0);
    refilled_ms = now_ms;
    if (tokens < 1) return false;
    if (spend) tokens -= 1;
    return true;
  }
  // Minutes until a token is back (0 when one is there), as of the last take().
  int64_t minutes_to_wait(double per_minute) const {
    if (tokens >= 1 || per_minute <= 0) return 0;
    return int64_t((1 - tokens) / per_minute) + 1;
  }
};

}  // namespace toguz::site
