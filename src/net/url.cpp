#include "net/url.h"

#include <cctype>

namespace toguz::net {

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

}  // namespace toguz::net
