#include "net/static_path.h"

namespace toguz::net {

namespace fs = std::filesystem;

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// `s` percent-decoded once ('+' stays a '+': it is a space only in query values).
std::optional<std::string> decode_segment(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;
    const int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += char(hi * 16 + lo);
    i += 2;
  }
  return out;
}

// True when `p` is `root` or lies below it (both canonical).
bool lies_under(const fs::path& p, const fs::path& root) {
  auto r = root.begin(), q = p.begin();
  for (; r != root.end(); ++r, ++q) {
    if (q == p.end() || *q != *r) return false;
  }
  return true;
}

}  // namespace

std::optional<std::vector<std::string>> path_segments(std::string_view path) {
  if (path.empty() || path[0] != '/') return std::nullopt;
  std::vector<std::string> out;
  if (path.size() == 1) return out;
  size_t start = 1;
  for (;;) {
    const size_t end = path.find('/', start);
    const std::string_view raw =
        path.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    auto seg = decode_segment(raw);
    if (!seg || seg->empty() || *seg == "." || *seg == ".." ||
        seg->find_first_of(std::string_view("/\\\0", 3)) != std::string::npos)
      return std::nullopt;
    out.push_back(std::move(*seg));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

std::optional<fs::path> file_under_root(const fs::path& root,
                                        const std::vector<std::string>& segments) {
  if (segments.empty()) return std::nullopt;
  std::error_code ec;
  const fs::path base = fs::canonical(root, ec);
  if (ec) return std::nullopt;
  fs::path joined = base;
  for (const std::string& s : segments) {
    const fs::path part(s);
    // A segment is one relative name: anything else (a root name on some systems) is refused.
    if (part.has_root_path() || part.filename() != part) return std::nullopt;
    joined /= part;
  }
  const fs::path real = fs::canonical(joined, ec);
  if (ec || !lies_under(real, base) || real == base) return std::nullopt;
  if (!fs::is_regular_file(real, ec) || ec) return std::nullopt;
  return real;
}

std::optional<fs::path> static_file(const fs::path& root, std::string_view path) {
  auto segments = path_segments(path);
  if (!segments) return std::nullopt;
  return file_under_root(root, *segments);
}

}  // namespace toguz::net
