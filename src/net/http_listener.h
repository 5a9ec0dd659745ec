// The listener and the HTTP connections of a site: each connection reads requests (keep-alive)
// and answers them with the security headers, or hands a WebSocket upgrade to the site. It
// knows no route, room, lobby or cluster: what a request means is the site's (HttpSite).
// Everything runs on the acceptor's IO context, one thread.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <optional>
#include <string>

#include "net/router.h"

namespace toguz::net {

// Above this a request body is refused (413) and the connection closed.
inline constexpr size_t kMaxRequestBody = 64 * 1024;

// The site behind the listener.
class HttpSite {
 public:
  virtual ~HttpSite() = default;
  // The client of a request that came from the socket peer `peer` (behind a trusted proxy,
  // the address the proxy names): the one address the site's limits and log lines use.
  virtual std::string client_of(const boost::asio::ip::address& peer, const Request& req) const = 0;
  // Answers `req` from `client` through `respond`, now or later, once.
  virtual void handle_http(const Request& req, const std::string& client, Respond respond) = 0;
  // A WebSocket upgrade from `client`: its refusal (sent, then the connection closes), or
  // nullopt when the site took the stream's socket (release_socket) for a session of its own.
  virtual std::optional<Response> upgrade(Request req, const std::string& client,
                                          boost::beast::tcp_stream& stream) = 0;
  // The site's answer for a request the connection refuses itself: its body over the limit,
  // its headers over theirs, or malformed (`detail` says how).
  enum class Refused { BodyTooLarge, HeadersTooLarge, Malformed };
  virtual Response refusal(Refused why, const std::string& detail) const = 0;
};

// Accepts connections on `acceptor` until it is closed, each served as above (30 s to read a
// request or write an answer, 16 KiB of headers, kMaxRequestBody).
void accept_http(boost::asio::ip::tcp::acceptor& acceptor, HttpSite& site);

}  // namespace toguz::net
