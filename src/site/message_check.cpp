#include "site/message_check.h"

namespace toguz::site {

const boost::json::object* check_message(std::string_view text, int max_per_second,
                                         MessageRate& rate, boost::json::value* v,
                                         std::string* why) {
  const auto now = std::chrono::steady_clock::now();
  if (now - rate.window_start >= std::chrono::seconds(1)) {
    rate.window_start = now;
    rate.window_count = 0;
  }
  if (++rate.window_count > max_per_second) {
    *why = "rate limit: more than " + std::to_string(max_per_second) + " messages per second";
    return nullptr;
  }
  if (text.size() > kMaxMessage) {
    *why = "message over 4 KiB";
    return nullptr;
  }
  boost::json::error_code ec;
  *v = boost::json::parse(text, ec);
  if (ec) {
    *why = "invalid JSON: " + ec.message();
    return nullptr;
  }
  if (!v->is_object()) {
    *why = "expected a JSON object";
    return nullptr;
  }
  const boost::json::value* tv = v->as_object().if_contains("type");
  if (!tv || !tv->is_string()) {
    *why = "type: expected a string";
    return nullptr;
  }
  return &v->as_object();
}

}  // namespace toguz::site
