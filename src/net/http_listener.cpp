#include "net/http_listener.h"

#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <memory>

namespace toguz::net {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

// On every answer: no MIME sniffing, no framing, no referrer, and a policy that allows only this
// server's own scripts (none inline), styles, images and sockets.
void add_security_headers(Response& res, const std::string& host) {
  res.set("X-Content-Type-Options", "nosniff");
  res.set("X-Frame-Options", "DENY");
  res.set("Referrer-Policy", "no-referrer");
  std::string connect = "'self'";
  if (!host.empty() && host.find_first_of(" ;,'\"") == std::string::npos)
    connect += " ws://" + host + " wss://" + host;
  res.set("Content-Security-Policy",
          "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' "
          "data:; connect-src " +
              connect +
              "; object-src 'none'; base-uri 'none'; form-action 'self'; "
              "frame-ancestors 'none'");
}

// One HTTP connection: reads requests (keep-alive) until it closes or upgrades to a WebSocket.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(HttpSite& site, tcp::socket&& socket) : site_(site), stream_(std::move(socket)) {}

  void run() { do_read(); }

 private:
  void do_read() {
    parser_.emplace();
    parser_->body_limit(kMaxRequestBody);
    parser_->header_limit(16 * 1024);
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == asio::error::operation_aborted) {
      close();
    } else if (ec == http::error::body_limit) {
      write(site_.refusal(HttpSite::Refused::BodyTooLarge, ""), false);
    } else if (ec == http::error::header_limit) {
      write(site_.refusal(HttpSite::Refused::HeadersTooLarge, ""), false);
    } else if (ec) {
      write(site_.refusal(HttpSite::Refused::Malformed, ec.message()), false);
    } else if (Request req = parser_->release(); websocket::is_upgrade(req)) {
      const std::string client = client_of(req);
      stream_.expires_never();
      if (auto refused = site_.upgrade(std::move(req), client, stream_)) write(*refused, false);
    } else {
      answer(req);
    }
  }

  void answer(const Request& req) {
    const bool keep = req.keep_alive();
    const unsigned version = req.version();
    const bool head = req.method() == http::verb::head;
    const std::string host(req[http::field::host]);
    site_.handle_http(req, client_of(req),
                      [self = shared_from_this(), keep, version, head, host](Response res) {
                        res.version(version);
                        res.set(http::field::server, "toguz");
                        add_security_headers(res, host);
                        self->write(std::move(res), keep, head);
                      });
  }

  // The client of `req`, found for each request: a proxy's keep-alive connection carries
  // requests of many clients. "?" when the socket has no peer.
  std::string client_of(const Request& req) {
    beast::error_code ec;
    const auto remote = stream_.socket().remote_endpoint(ec);
    return ec ? std::string("?") : site_.client_of(remote.address(), req);
  }

  // Sends `res`; for a HEAD request only its header, whose Content-Length is the body's.
  void write(Response res, bool keep, bool head = false) {
    res.keep_alive(keep);
    res.prepare_payload();
    auto sp = std::make_shared<Response>(std::move(res));
    stream_.expires_after(std::chrono::seconds(30));
    auto done = [self = shared_from_this(), sp, keep](beast::error_code ec, size_t) {
      if (ec || !keep) {
        self->close();
        return;
      }
      self->do_read();
    };
    if (head) {
      auto sr = std::make_shared<http::response_serializer<http::string_body>>(*sp);
      http::async_write_header(stream_, *sr,
                               [sr, done](beast::error_code ec, size_t n) { done(ec, n); });
    } else {
      http::async_write(stream_, *sp, std::move(done));
    }
  }

  void close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.socket().close(ec);
  }

  HttpSite& site_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace

void accept_http(tcp::acceptor& acceptor, HttpSite& site) {
  acceptor.async_accept(asio::make_strand(acceptor.get_executor()),
                        [&acceptor, &site](beast::error_code ec, tcp::socket socket) {
                          if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
                          if (!ec) {
                            beast::error_code ignored;
                            // small WebSocket frames: no Nagle delay
                            socket.set_option(tcp::no_delay(true), ignored);
                            std::make_shared<HttpSession>(site, std::move(socket))->run();
                          }
                          accept_http(acceptor, site);
                        });
}

}  // namespace toguz::net
