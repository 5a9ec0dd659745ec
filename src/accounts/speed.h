// Speed categories: a game's category, and so the rating it counts for, from its clock alone
// (docs/ratings.md). The estimate is the time one player may use in a typical game.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace toguz::accounts {

enum class Speed { bullet, blitz, rapid, classical, correspondence };
inline constexpr Speed kSpeeds[] = {Speed::bullet, Speed::blitz, Speed::rapid, Speed::classical,
                                    Speed::correspondence};

struct TimeControl {
  int64_t initial_ms = 0;
  int64_t increment_ms = 0;
  int days_per_move = 0;  // > 0: correspondence (a number of days for each move, no clock)
};

// The moves per player of a typical game: the median over the real records in ../shared/corpus
// is 43 (PlayOK online games 54.5, federation games 36.5; mean of all 47.6), so 50.
inline constexpr int kEstimatedMoves = 50;

// Upper bounds (exclusive) of the estimated time, in seconds: the same bands as lichess's, so a
// category means the same time spent at the board as it does there.
inline constexpr int64_t kBulletBelow = 180, kBlitzBelow = 480, kRapidBelow = 1500;

// initial + kEstimatedMoves × increment, in milliseconds. Throws std::invalid_argument on a
// negative time.
int64_t estimated_ms(const TimeControl& tc);

// The category; none for a game without a clock (such games cannot be rated). Throws
// std::invalid_argument on a negative time or days per move.
std::optional<Speed> speed_of(const TimeControl& tc);

std::string_view name(Speed speed);  // "bullet", "blitz", ...
std::optional<Speed> parse_speed(std::string_view name);

}  // namespace toguz::accounts
