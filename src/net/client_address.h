// Who the client is (docs/server.md "Abuse limits"): the socket's peer, or, when the peer is a
// proxy the operator trusts (--trusted-proxy), the address that proxy says it serves. Every
// per-address limit, log line and cluster relay uses this one address.
#pragma once

#include <boost/asio/ip/address.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace toguz::net {

// The proxies whose forwarding headers are believed: single addresses and CIDR ranges, IPv4
// and IPv6 (an IPv4-mapped IPv6 address counts as its IPv4 address). Empty: none (the default).
class TrustedProxies {
 public:
  // Each entry "ADDR" or "ADDR/BITS" (spaces around it ignored; empty entries skipped). Throws
  // std::invalid_argument naming the entry that is neither.
  static TrustedProxies parse(const std::vector<std::string>& entries);
  bool empty() const { return ranges_.empty(); }
  bool contains(const boost::asio::ip::address& a) const;

 private:
  struct Range {
    boost::asio::ip::address base;
    int bits;
  };
  std::vector<Range> ranges_;
};

// The address as the server writes it: an IPv4-mapped IPv6 address as IPv4, else as Asio
// prints it.
std::string address_text(const boost::asio::ip::address& a);

// The client of a request that came from `peer` with these X-Forwarded-For and X-Real-IP
// values ("" when absent). Only a trusted peer's headers count: then the client is the
// right-most X-Forwarded-For entry that is not itself a trusted proxy (entries a client wrote
// stand to the left of what the proxies appended, so they are never reached), else X-Real-IP
// when no X-Forwarded-For was sent; a malformed entry where the walk stops, or no header at
// all, leaves the peer.
std::string client_address(const boost::asio::ip::address& peer, std::string_view forwarded_for,
                           std::string_view real_ip, const TrustedProxies& proxies);

}  // namespace toguz::net
