#include "accounts/speed.h"

#include <stdexcept>

namespace toguz::accounts {

int64_t estimated_ms(const TimeControl& tc) {
  if (tc.initial_ms < 0 || tc.increment_ms < 0)
    throw std::invalid_argument("time control: initial time and increment must be >= 0 ms");
  return tc.initial_ms + kEstimatedMoves * tc.increment_ms;
}

std::optional<Speed> speed_of(const TimeControl& tc) {
  if (tc.days_per_move < 0) throw std::invalid_argument("time control: days per move must be >= 0");
  const int64_t est = estimated_ms(tc);
  if (tc.days_per_move > 0) return Speed::correspondence;
  if (est == 0) return std::nullopt;
  if (est < kBulletBelow * 1000) return Speed::bullet;
  if (est < kBlitzBelow * 1000) return Speed::blitz;
  if (est < kRapidBelow * 1000) return Speed::rapid;
  return Speed::classical;
}

std::string_view name(Speed speed) {
  switch (speed) {
    case Speed::bullet:
      return "bullet";
    case Speed::blitz:
      return "blitz";
    case Speed::rapid:
      return "rapid";
    case Speed::classical:
      return "classical";
    case Speed::correspondence:
      return "correspondence";
  }
  return "?";
}

std::optional<Speed> parse_speed(std::string_view text) {
  for (Speed s : kSpeeds)
    if (name(s) == text) return s;
  return std::nullopt;
}

}  // namespace toguz::accounts
