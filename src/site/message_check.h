// The checks every WebSocket message passes before its handler, on a game's socket and on the
// lobby's alike (docs/web-protocol.md): the rate, the size, JSON, an object with a string type.
#pragma once

#include <boost/json.hpp>
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "site/refusal.h"

namespace toguz::site {

constexpr size_t kMaxBody = 64 * 1024;    // HTTP request bodies (413 above)
constexpr size_t kMaxMessage = 4 * 1024;  // WebSocket messages (error above)

// A connection's message rate: the messages in the one-second window that started at
// window_start.
struct MessageRate {
  std::chrono::steady_clock::time_point window_start = std::chrono::steady_clock::now();
  int window_count = 0;
};

// The message as an object (held in *v) whose "type" is a string, or nullptr with the refusal
// in *why. Counts the message against `rate`.
const boost::json::object* check_message(std::string_view text, int max_per_second,
                                         MessageRate& rate, boost::json::value* v, Refused* why);

}  // namespace toguz::site
