#include "site/text_input.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <utility>

#include "rules/text.h"

namespace toguz::site {

std::string clean_name(std::string_view in, const std::string& fallback, size_t max_chars) {
  std::string out = clean_display_text(in, max_chars);
  return out.empty() ? fallback : out;
}

bool ends_in_rating(std::string_view name) {
  const std::u32string cps = utf8_decode(name);
  auto is_digit = [](char32_t c) {
    return (c >= '0' && c <= '9') || (c >= 0xff10 && c <= 0xff19) || (c >= 0x0660 && c <= 0x0669) ||
           (c >= 0x06f0 && c <= 0x06f9);
  };
  auto filler = [](char32_t c) {
    return c == ' ' || c == '?' || c == '+' || c == '-' || c == ',' || c == '.' || c == 0xff1f;
  };
  size_t i = cps.size();
  if (i == 0 ||
      (cps[i - 1] != ')' && cps[i - 1] != ']' && cps[i - 1] != 0xff09 && cps[i - 1] != 0xff3d))
    return false;
  --i;
  bool digits = false;
  for (; i > 0 && (is_digit(cps[i - 1]) || filler(cps[i - 1])); --i) digits |= is_digit(cps[i - 1]);
  if (!digits || i == 0) return false;
  const char32_t open = cps[i - 1];
  return open == '(' || open == '[' || open == 0xff08 || open == 0xff3b;
}

std::string lookalike_username_key(std::string_view name) {
  // Cyrillic and Greek letters drawn like Latin ones (lower and upper case), as Latin.
  static constexpr std::pair<char32_t, char> kLookalike[] = {
      {U'а', 'a'}, {U'в', 'b'}, {U'е', 'e'}, {U'ё', 'e'}, {U'к', 'k'}, {U'м', 'm'}, {U'н', 'h'},
      {U'о', 'o'}, {U'р', 'p'}, {U'с', 'c'}, {U'т', 't'}, {U'у', 'y'}, {U'х', 'x'}, {U'і', 'i'},
      {U'ї', 'i'}, {U'ј', 'j'}, {U'ѕ', 's'}, {U'ԁ', 'd'}, {U'ԛ', 'q'}, {U'ԝ', 'w'}, {U'һ', 'h'},
      {U'ө', 'o'}, {U'ү', 'y'}, {U'А', 'a'}, {U'В', 'b'}, {U'Е', 'e'}, {U'Ё', 'e'}, {U'К', 'k'},
      {U'М', 'm'}, {U'Н', 'h'}, {U'О', 'o'}, {U'Р', 'p'}, {U'С', 'c'}, {U'Т', 't'}, {U'У', 'y'},
      {U'Х', 'x'}, {U'І', 'i'}, {U'Ј', 'j'}, {U'Ѕ', 's'}, {U'Ү', 'y'}, {U'Һ', 'h'}, {U'Ө', 'o'},
      {U'α', 'a'}, {U'ε', 'e'}, {U'ι', 'i'}, {U'κ', 'k'}, {U'ν', 'v'}, {U'ο', 'o'}, {U'ρ', 'p'},
      {U'τ', 't'}, {U'υ', 'u'}, {U'χ', 'x'}, {U'Α', 'a'}, {U'Β', 'b'}, {U'Ε', 'e'}, {U'Ζ', 'z'},
      {U'Η', 'h'}, {U'Ι', 'i'}, {U'Κ', 'k'}, {U'Μ', 'm'}, {U'Ν', 'n'}, {U'Ο', 'o'}, {U'Ρ', 'p'},
      {U'Τ', 't'}, {U'Υ', 'y'}, {U'Χ', 'x'}};
  std::string key;
  for (char32_t c : utf8_decode(name)) {
    if (c >= 0xff01 && c <= 0xff5e) c -= 0xff01 - 0x21;  // full-width ASCII
    if (c < 0x80) {
      const char a = char(c);
      if (!std::isalnum(static_cast<unsigned char>(a)) && a != '_' && a != '-') return "";
      key += char(std::tolower(static_cast<unsigned char>(a)));
      continue;
    }
    const auto* it = std::find_if(std::begin(kLookalike), std::end(kLookalike),
                                  [c](const auto& p) { return p.first == c; });
    if (it == std::end(kLookalike)) return "";
    key += it->second;
  }
  return key;
}

}  // namespace toguz::site
