#include "server/text_input.h"

#include <cctype>
#include <cstdint>
#include <vector>

namespace toguz::server {

std::string clean_name(std::string_view in, const std::string& fallback, size_t max_chars) {
  // Decode UTF-8, keeping only well-formed characters that are not controls or bidi controls.
  std::vector<uint32_t> cps;
  for (size_t i = 0; i < in.size();) {
    const unsigned char c = static_cast<unsigned char>(in[i]);
    const int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > in.size()) {
      ++i;
      continue;
    }
    uint32_t cp = len == 1 ? c : c & (0x7f >> len);
    bool ok = true;
    for (int k = 1; k < len; ++k) {
      const unsigned char d = static_cast<unsigned char>(in[i + k]);
      if ((d >> 6) != 2) ok = false;
      cp = cp << 6 | (d & 0x3f);
    }
    static constexpr uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (!ok || cp < kMin[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      ++i;
      continue;
    }
    i += len;
    const bool control = cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
    const bool bidi = cp == 0x061c || cp == 0x200e || cp == 0x200f ||
                      (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
    if (!control && !bidi) cps.push_back(cp);
  }
  auto space = [](uint32_t cp) { return cp == ' ' || cp == 0xa0 || cp == 0x3000; };
  size_t b = 0, e = cps.size();
  while (b < e && space(cps[b])) ++b;
  e = std::min(e, b + max_chars);
  while (e > b && space(cps[e - 1])) --e;
  std::string out;
  for (size_t k = b; k < e; ++k) {
    const uint32_t cp = cps[k];
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xc0 | cp >> 6);
      out += char(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += char(0xe0 | cp >> 12);
      out += char(0x80 | (cp >> 6 & 0x3f));
      out += char(0x80 | (cp & 0x3f));
    } else {
      out += char(0xf0 | cp >> 18);
      out += char(0x80 | (cp >> 12 & 0x3f));
      out += char(0x80 | (cp >> 6 & 0x3f));
      out += char(0x80 | (cp & 0x3f));
    }
  }
  return out.empty() ? fallback : out;
}

std::string url_decode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() &&
               std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
               std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += char(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::multimap<std::string, std::string> query_pairs(std::string_view query) {
  std::multimap<std::string, std::string> out;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view kv = query.substr(0, amp);
    const size_t eq = kv.find('=');
    if (!kv.empty())
      out.emplace(std::string(kv.substr(0, eq)),
                  eq == std::string_view::npos ? "" : url_decode(kv.substr(eq + 1)));
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return out;
}

std::optional<std::string> query_value(const std::multimap<std::string, std::string>& q,
                                       const std::string& key) {
  auto it = q.find(key);
  if (it == q.end()) return std::nullopt;
  return it->second;
}

}  // namespace toguz::server
