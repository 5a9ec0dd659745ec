// Small text helpers shared by the parsers and the front ends: ASCII only, no locale.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace toguz {

// The C locale's white space: space, \t, \n, \v, \f, \r.
constexpr bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
// `s` without white space at either end.
std::string_view trim(std::string_view s);
// `s` with A-Z turned into a-z.
std::string lower(std::string_view s);
// The pieces of `s` between the separators `sep` (n separators give n + 1 pieces); with
// `skip_empty` the empty pieces are left out.
std::vector<std::string_view> split(std::string_view s, char sep, bool skip_empty = false);
// The words of `s`: the pieces between runs of white space.
std::vector<std::string> split_words(std::string_view s);

}  // namespace toguz
