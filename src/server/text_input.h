// Text that comes in from clients: display names and URL query values.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace toguz::server {

// A display name: well-formed UTF-8 only, control and bidi-control characters dropped, spaces
// trimmed, at most `max_chars` characters (cut between characters); `fallback` when empty.
constexpr size_t kMaxNameChars = 40;
std::string clean_name(std::string_view in, const std::string& fallback,
                       size_t max_chars = kMaxNameChars);
// Percent-decoding for paths and query values ('+' is a space). Bad escapes are kept as written.
std::string url_decode(std::string_view s);
// The key=value pairs of a query string (after the '?'), values decoded; a key may repeat.
std::multimap<std::string, std::string> query_pairs(std::string_view query);
// The first value of `key`, nullopt when absent.
std::optional<std::string> query_value(const std::multimap<std::string, std::string>& q,
                                       const std::string& key);

}  // namespace toguz::server
