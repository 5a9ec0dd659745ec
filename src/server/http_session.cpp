// The listener and the HTTP connections: each request is read (keep-alive), answered through
// the routes (http_routes.cpp) with the security headers, or upgraded to a WebSocket session.
#include "net/log.h"
#include "server/json_out.h"
#include "server/lobby_session.h"
#include "server/server_impl.h"

namespace toguz::server {

namespace {

// On every answer: no MIME sniffing, no framing, no referrer, and a policy that allows only this
// server's own scripts (none inline), styles, images and sockets.
void add_security_headers(http::response<http::string_body>& res, const std::string& host) {
  res.set("X-Content-Type-Options", "nosniff");
  res.set("X-Frame-Options", "DENY");
  res.set("Referrer-Policy", "no-referrer");
  std::string connect = "'self'";
  if (!host.empty() && host.find_first_of(" ;,'\"") == std::string::npos)
    connect += " ws://" + host + " wss://" + host;
  res.set("Content-Security-Policy",
          "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' "
          "data:; "
          "connect-src " +
              connect +
              "; object-src 'none'; base-uri 'none'; form-action 'self'; "
              "frame-ancestors 'none'");
}

// One HTTP connection: reads requests (keep-alive) until it closes or upgrades to a WebSocket.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(Server::Impl& server, tcp::socket&& socket)
      : server_(server), stream_(std::move(socket)) {}

  void run() { do_read(); }

 private:
  void do_read() {
    parser_.emplace();
    parser_->body_limit(kMaxBody);
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
      return;
    }
    if (ec == http::error::body_limit) {
      write(error_response(http::status::payload_too_large, "request body over 64 KiB"), false);
      return;
    }
    if (ec) {
      if (ec == http::error::header_limit)
        write(error_response(http::status::request_header_fields_too_large,
                             "request headers too large"),
              false);
      else
        write(error_response(http::status::bad_request,
                             std::string("bad HTTP request: ") + ec.message()),
              false);
      return;
    }
    http::request<http::string_body> req = parser_->release();
    if (websocket::is_upgrade(req)) {
      upgrade(std::move(req));
      return;
    }
    const bool keep = req.keep_alive();
    const unsigned version = req.version();
    const bool head = req.method() == http::verb::head;
    auto self = shared_from_this();
    const std::string peer = client(req);
    const std::string host(req[http::field::host]);
    server_.handle_http(req, peer,
                        [self, keep, version, head, host](http::response<http::string_body> res) {
                          res.version(version);
                          res.set(http::field::server, "toguz");
                          add_security_headers(res, host);
                          self->write(std::move(res), keep, head);
                        });
  }

  void upgrade(http::request<http::string_body> req) {
    // /ws/<id>: the token comes in the first message ("hello"), never in the URL.
    std::string target(req.target());
    std::string path = target.substr(0, target.find('?'));
    if (!server_.origin_allowed(req)) {
      write(error_response(http::status::forbidden, "Origin: not this server's"), false);
      return;
    }
    // /ws/lobby: the lobby, whose player is the session cookie's.
    const bool lobby = path == "/ws/lobby";
    std::shared_ptr<Room> room;
    std::string relay;  // in a cluster: the game another instance drives
    if (!lobby && path.rfind("/ws/", 0) == 0) {
      const std::string id = path.substr(4);
      room = server_.rooms->find(id);
      if (!room && server_.cluster && !server_.cluster->driver_elsewhere(id).empty()) relay = id;
    }
    if (!lobby && !room && relay.empty()) {
      write(error_response(http::status::not_found, "no such game"), false);
      return;
    }
    const std::string peer = client(req);
    AddressState& a = server_.addresses[peer];
    if (a.connections >= server_.config.max_connections_per_address) {
      log(net::LogLevel::Debug, "", "socket refused: too many connections from " + peer);
      write(error_response(http::status::service_unavailable,
                           "too many connections from this address (" +
                               std::to_string(server_.config.max_connections_per_address) + ")"),
            false);
      return;
    }
    stream_.expires_never();
    if (lobby) {
      const Viewer viewer = server_.viewer_of(req);
      std::make_shared<LobbySession>(server_, stream_.release_socket())
          ->start(std::move(req), viewer, peer);
      return;
    }
    Viewer viewer = server_.viewer_of(req);
    auto ws = std::make_shared<WsSession>(server_, stream_.release_socket());
    ws->relay_game = relay;
    ws->start(std::move(req), room, peer, std::move(viewer));
  }

  // The client of `req` (Server::Impl::client_of), found for each request: a proxy's
  // keep-alive connection carries requests of many clients. "?" when the socket has no peer.
  std::string client(const http::request<http::string_body>& req) {
    beast::error_code ec;
    const auto remote = stream_.socket().remote_endpoint(ec);
    return ec ? std::string("?") : server_.client_of(remote.address(), req);
  }

  // Sends `res`; for a HEAD request only its header, whose Content-Length is the body's.
  void write(http::response<http::string_body> res, bool keep, bool head = false) {
    res.keep_alive(keep);
    res.prepare_payload();
    auto sp = std::make_shared<http::response<http::string_body>>(std::move(res));
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

  Server::Impl& server_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace

void Server::Impl::do_accept() {
  acceptor.async_accept(asio::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
    if (!ec) {
      beast::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);  // small WebSocket frames: no Nagle delay
      std::make_shared<HttpSession>(*this, std::move(socket))->run();
    }
    do_accept();
  });
}

}  // namespace toguz::server
