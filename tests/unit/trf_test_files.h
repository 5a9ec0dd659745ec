// What the exchange files' tests (Trf.*, TeamTrf.*) share: a file with one line's columns
// changed, and a file damaged at random.
#pragma once

#include <random>
#include <string>

// `good` with line `index` (0-based) changed at column `col` (1-based) to `text`.
inline std::string trf_line_changed(const std::string& good, int index, size_t col,
                                    const std::string& text) {
  std::string out;
  int i = 0;
  for (size_t at = 0; at < good.size(); ++i) {
    const size_t end = good.find('\n', at);
    std::string line = good.substr(at, end - at);
    if (i == index) line.replace(col - 1, text.size(), text);
    out += line + "\n";
    at = end + 1;
  }
  return out;
}

// `good` with one to four characters replaced by digits, blanks, colours, results, line ends.
inline std::string trf_damaged(const std::string& good, std::mt19937& rng) {
  const std::string alphabet = " 0123456789wb=+-*UZ\n";
  std::string text = good;
  for (int k = 0; k < 1 + int(rng() % 4); ++k)
    text[rng() % text.size()] = alphabet[rng() % alphabet.size()];
  return text;
}
