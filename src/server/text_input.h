// Text that comes in from clients: display names and URL query values.
#pragma once

#include <string>
#include <string_view>

namespace toguz::server {

// A display name: well-formed UTF-8 only, control and bidi-control characters dropped, spaces
// trimmed, at most kMaxNameChars characters (cut between characters); `fallback` when empty.
constexpr size_t kMaxNameChars = 40;
std::string clean_name(std::string_view in, const std::string& fallback);
// Percent-decoding for paths and query values ('+' is a space). Bad escapes are kept as written.
std::string url_decode(std::string_view s);

}  // namespace toguz::server
