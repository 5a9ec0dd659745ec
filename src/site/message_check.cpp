#include "site/message_check.h"

namespace toguz::site {

const boost::json::object* check_message(std::string_view text, int max_per_second,
                                         MessageRate& rate, boost::json::value* v, Refused* why) {
  const auto now = std::chrono::steady_clock::now();
  if (now - rate.window_start >= std::chrono::seconds(1)) {
    rate.window_start = now;
    rate.window_count = 0;
  }
  if (++rate.window_count > max_per_second) {
    *why = Refusal("rate_limit", {{"n", std::to_string(max_per_second)}});
    return nullptr;
  }
  if (text.size() > kMaxMessage) {
    *why = Refusal("too_long", {}, "message");
    return nullptr;
  }
  boost::json::error_code ec;
  *v = boost::json::parse(text, ec);
  if (ec) {
    *why = Refusal("bad_message", {{"detail", ec.message()}}, "json");
    return nullptr;
  }
  if (!v->is_object()) {
    *why = Refusal("bad_message", {}, "object");
    return nullptr;
  }
  const boost::json::value* tv = v->as_object().if_contains("type");
  if (!tv || !tv->is_string()) {
    *why = Refusal("bad_message", {}, "type");
    return nullptr;
  }
  return &v->as_object();
}

}  // namespace toguz::site
