// Display names that come in from clients (URL query values: net/url.h).
#pragma once

#include <string>
#include <string_view>

namespace toguz::site {

// A display name cleaned as every page shows names (clean_display_text in rules/text.h:
// well-formed UTF-8, no controls, no zero-width, bidi or other invisible characters, white space
// runs one space, trimmed), at most `max_chars` characters; `fallback` when nothing is left.
constexpr size_t kMaxNameChars = 40;
std::string clean_name(std::string_view in, const std::string& fallback,
                       size_t max_chars = kMaxNameChars);
// Whether a cleaned name ends in what reads as a rating: digits (with spaces, '?', '+', '-',
// ',' or '.') in round, square or full-width brackets, as in "Aigerim (2500)" or "Bolat [1500?]".
bool ends_in_rating(std::string_view name);
// The username key (accounts/username.h) a cleaned name reads as: look-alike Cyrillic and Greek
// letters and full-width forms taken as the Latin letters and digits they resemble, then lower
// case; "" when it cannot read as a username (a character no username has, or a space).
std::string lookalike_username_key(std::string_view name);
}  // namespace toguz::site
