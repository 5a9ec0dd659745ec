// Small text helpers shared by the parsers and the front ends: ASCII only and no locale, except
// the UTF-8 helpers and clean_display_text, which know the few Unicode ranges they name.
#pragma once

#include <cstddef>
#include <limits>
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

// The code points of well-formed UTF-8 `s`; a malformed, overlong or surrogate sequence is
// skipped one byte at a time.
std::u32string utf8_decode(std::string_view s);
// `cps` as UTF-8 (code points above U+10FFFF and surrogates are left out).
std::string utf8_encode(std::u32string_view cps);

// A name or title as every page, record and report shows it (player, guest, account, event and
// tournament names): well-formed UTF-8 only; controls (C0, DEL, C1), format characters (Unicode
// Cf: zero-width space, joiners, the bidi controls LRE..RLO, LRI..PDI, LRM, RLM, ALM, the BOM,
// the soft hyphen, tags, ...), line and paragraph separators, noncharacters, private-use
// characters and the invisible fillers (combining grapheme joiner, Hangul fillers, the blank
// braille pattern, variation selectors) removed; every run of white space (tab, newline and
// the Unicode spaces included) one ' '; no space at either end; at most `max_chars` characters
// (cut between characters). The same text cleaned again is unchanged.
std::string clean_display_text(std::string_view in,
                               size_t max_chars = std::numeric_limits<size_t>::max());

}  // namespace toguz
