// The parts of a URL a request carries: percent-decoding and the query string.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace toguz::net {

// Percent-decoding for paths and query values ('+' is a space). Bad escapes are kept as written.
std::string url_decode(std::string_view s);
// The key=value pairs of a query string (after the '?'), values decoded; a key may repeat.
std::multimap<std::string, std::string> query_pairs(std::string_view query);
// The first value of `key`, nullopt when absent.
std::optional<std::string> query_value(const std::multimap<std::string, std::string>& q,
                                       const std::string& key);

}  // namespace toguz::net
