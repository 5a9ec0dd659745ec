#include "rules/text.h"

namespace toguz {

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

std::vector<std::string_view> split(std::string_view s, char sep, bool skip_empty) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i <= s.size()) {
    size_t j = s.find(sep, i);
    if (j == std::string_view::npos) j = s.size();
    if (!skip_empty || j > i) out.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    size_t j = i;
    while (j < s.size() && !is_space(s[j])) ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::u32string utf8_decode(std::string_view in) {
  std::u32string out;
  for (size_t i = 0; i < in.size();) {
    const unsigned char c = static_cast<unsigned char>(in[i]);
    const int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > in.size()) {
      ++i;
      continue;
    }
    char32_t cp = len == 1 ? c : c & (0x7f >> len);
    bool ok = true;
    for (int k = 1; k < len; ++k) {
      const unsigned char d = static_cast<unsigned char>(in[i + k]);
      if ((d >> 6) != 2) ok = false;
      cp = cp << 6 | (d & 0x3f);
    }
    static constexpr char32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (!ok || cp < kMin[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      ++i;
      continue;
    }
    i += len;
    out.push_back(cp);
  }
  return out;
}

std::string utf8_encode(std::u32string_view cps) {
  std::string out;
  for (const char32_t cp : cps) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xc0 | cp >> 6);
      out += char(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      out += char(0xe0 | cp >> 12);
      out += char(0x80 | (cp >> 6 & 0x3f));
      out += char(0x80 | (cp & 0x3f));
    } else if (cp <= 0x10ffff) {
      out += char(0xf0 | cp >> 18);
      out += char(0x80 | (cp >> 12 & 0x3f));
      out += char(0x80 | (cp >> 6 & 0x3f));
      out += char(0x80 | (cp & 0x3f));
    }
  }
  return out;
}

namespace {

// Unicode 15's format characters (general category Cf), as [first, last] ranges.
constexpr char32_t kFormat[][2] = {{0x00ad, 0x00ad},   {0x0600, 0x0605},   {0x061c, 0x061c},
                                   {0x06dd, 0x06dd},   {0x070f, 0x070f},   {0x0890, 0x0891},
                                   {0x08e2, 0x08e2},   {0x180e, 0x180e},   {0x200b, 0x200f},
                                   {0x202a, 0x202e},   {0x2060, 0x2064},   {0x2066, 0x206f},
                                   {0xfeff, 0xfeff},   {0xfff9, 0xfffb},   {0x110bd, 0x110bd},
                                   {0x110cd, 0x110cd}, {0x13430, 0x1343f}, {0x1bca0, 0x1bca3},
                                   {0x1d173, 0x1d17a}, {0xe0001, 0xe0001}, {0xe0020, 0xe007f}};

// Characters that draw nothing though they are not Cf: the combining grapheme joiner, the
// Hangul fillers, the Khmer inherent vowels, the Mongolian and the other variation selectors,
// the blank braille pattern, the line and paragraph separators; and those that draw whatever a
// font wants: private use (U+E000..F8FF, planes 15 and 16), the noncharacters U+FDD0..FDEF.
constexpr char32_t kInvisible[][2] = {
    {0x034f, 0x034f}, {0x115f, 0x1160}, {0x17b4, 0x17b5},   {0x180b, 0x180d},   {0x180f, 0x180f},
    {0x2028, 0x2029}, {0x2800, 0x2800}, {0x3164, 0x3164},   {0xfe00, 0xfe0f},   {0xffa0, 0xffa0},
    {0xe000, 0xf8ff}, {0xfdd0, 0xfdef}, {0xe0100, 0xe01ef}, {0xf0000, 0x10ffff}};

template <size_t N>
bool in_ranges(char32_t cp, const char32_t (&ranges)[N][2]) {
  for (const auto& r : ranges)
    if (cp >= r[0] && cp <= r[1]) return true;
  return false;
}

// White space of any kind: the C0 spaces and Unicode's space separators (Zs).
bool any_space(char32_t cp) {
  return cp == ' ' || (cp >= 0x09 && cp <= 0x0d) || cp == 0x85 || cp == 0xa0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200a) || cp == 0x202f || cp == 0x205f || cp == 0x3000;
}

bool dropped(char32_t cp) {
  const bool control = cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
  const bool noncharacter = (cp & 0xfffe) == 0xfffe;
  return control || noncharacter || in_ranges(cp, kFormat) || in_ranges(cp, kInvisible);
}

}  // namespace

std::string clean_display_text(std::string_view in, size_t max_chars) {
  std::u32string out;
  bool space = false;  // a space is pending: written before the next kept character
  for (const char32_t cp : utf8_decode(in)) {
    if (any_space(cp)) {
      space = !out.empty();
      continue;
    }
    if (dropped(cp)) continue;
    if (out.size() + (space ? 2 : 1) > max_chars) break;
    if (space) out.push_back(U' ');
    space = false;
    out.push_back(cp);
  }
  return utf8_encode(out);
}

}  // namespace toguz
