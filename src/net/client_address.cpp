#include "net/client_address.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace toguz::net {

namespace ip = boost::asio::ip;

namespace {

// `a` with an IPv4-mapped IPv6 address made IPv4.
ip::address unmapped(const ip::address& a) {
  if (a.is_v6() && a.to_v6().is_v4_mapped()) return ip::make_address_v4(ip::v4_mapped, a.to_v6());
  return a;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// An address written alone (no port, no brackets), unmapped; nullopt when it is none.
std::optional<ip::address> parse_address(std::string_view s) {
  boost::system::error_code ec;
  const ip::address a = ip::make_address(std::string(trimmed(s)), ec);
  if (ec) return std::nullopt;
  return unmapped(a);
}

// The address's bytes, 4 or 16 of them.
std::vector<unsigned char> bytes_of(const ip::address& a) {
  if (a.is_v4()) {
    const auto b = a.to_v4().to_bytes();
    return {b.begin(), b.end()};
  }
  const auto b = a.to_v6().to_bytes();
  return {b.begin(), b.end()};
}

}  // namespace

TrustedProxies TrustedProxies::parse(const std::vector<std::string>& entries) {
  TrustedProxies out;
  for (const std::string& raw : entries) {
    const std::string_view entry = trimmed(raw);
    if (entry.empty()) continue;
    const size_t slash = entry.find('/');
    const auto base = parse_address(entry.substr(0, slash));
    const int width = base && base->is_v4() ? 32 : 128;
    int bits = width;
    if (base && slash != std::string_view::npos) {
      const std::string_view b = entry.substr(slash + 1);
      bits = b.empty() || b.size() > 3 ? -1 : 0;
      for (char c : b) bits = c >= '0' && c <= '9' && bits >= 0 ? bits * 10 + (c - '0') : -1;
    }
    if (!base || bits < 0 || bits > width)
      throw std::invalid_argument("trusted proxy '" + std::string(entry) +
                                  "': expected an address or ADDRESS/BITS");
    out.ranges_.push_back({*base, bits});
  }
  return out;
}

bool TrustedProxies::contains(const ip::address& address) const {
  const ip::address a = unmapped(address);
  const std::vector<unsigned char> bytes = bytes_of(a);
  for (const Range& r : ranges_) {
    if (r.base.is_v4() != a.is_v4()) continue;
    const std::vector<unsigned char> base = bytes_of(r.base);
    bool same = true;
    for (int i = 0; i < r.bits && same; i += 8) {
      const int n = std::min(8, r.bits - i);
      const unsigned mask = (0xFFu << (8 - n)) & 0xFFu;
      same = (bytes[i / 8] & mask) == (base[i / 8] & mask);
    }
    if (same) return true;
  }
  return false;
}

std::string address_text(const ip::address& a) {
  return unmapped(a).to_string();
}

std::string client_address(const ip::address& peer, std::string_view forwarded_for,
                           std::string_view real_ip, const TrustedProxies& proxies) {
  if (proxies.empty() || !proxies.contains(peer)) return address_text(peer);
  if (!trimmed(forwarded_for).empty()) {
    // From the right: each entry was appended by the hop before it, trusted so far.
    std::string_view rest = forwarded_for;
    std::optional<ip::address> last;
    while (!rest.empty()) {
      const size_t comma = rest.rfind(',');
      const std::string_view entry =
          comma == std::string_view::npos ? rest : rest.substr(comma + 1);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(0, comma);
      if (trimmed(entry).empty()) continue;
      last = parse_address(entry);
      if (!last) return address_text(peer);
      if (!proxies.contains(*last)) return last->to_string();
    }
    return last ? last->to_string() : address_text(peer);
  }
  if (const auto a = parse_address(real_ip)) return a->to_string();
  return address_text(peer);
}

}  // namespace toguz::net
