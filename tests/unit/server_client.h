// Test clients for the server tests: a real toguz server on 127.0.0.1 (port 0, a temporary
// database) and Beast HTTP / WebSocket clients whose every wait has a deadline, so a broken
// server fails a test instead of hanging it. No sleeps: every wait is for a message.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "server/server.h"
#include "temp_dir.h"

namespace toguz::test {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace json = boost::json;
using tcp = net::ip::tcp;

constexpr auto kWait = std::chrono::seconds(20);  // generous: the tests also run under ASan

// A server on 127.0.0.1, any free port, with its database in `db` (a file path).
struct TestServer {
  std::unique_ptr<server::Server> server;
  uint16_t port = 0;
  explicit TestServer(const std::string& db, server::Config cfg = {}) {
    cfg.host = "127.0.0.1";
    cfg.port = 0;
    cfg.db_path = db;
    if (cfg.workers == 0) cfg.workers = 2;
    // The test clients send no keep-alive, and under ASan a review outlasts the 15 s a silent
    // game socket is kept; a test of that limit sets its own.
    if (cfg.silent_socket_seconds == server::Config{}.silent_socket_seconds)
      cfg.silent_socket_seconds = 600;
    server = std::make_unique<server::Server>(cfg);
    server->start();
    port = server->port();
  }
  ~TestServer() { server->stop(); }
};

struct HttpResult {
  int status = -1;  // -1: no answer
  std::string body;
  std::string content_type;
  http::fields headers;
  json::value json() const {
    json::error_code ec;
    json::value v = json::parse(body, ec);
    return ec ? json::value(nullptr) : v;
  }
};

// Binds `socket` (open, not yet connected) to the loopback address `source` ("": the kernel's
// choice), so that one test plays clients at 127.0.0.2, 127.0.0.3... Any address of 127/8 is
// the machine's own on Linux.
inline void bind_source(tcp::socket& socket, const std::string& source) {
  if (source.empty()) return;
  beast::error_code ec;
  socket.open(tcp::v4(), ec);
  socket.bind(tcp::endpoint(net::ip::make_address(source), 0), ec);
  EXPECT_FALSE(ec) << "cannot bind to " << source << ": " << ec.message();
}

// One HTTP request on a fresh connection (from the address `source`, "": any).
inline HttpResult http_call(uint16_t port, http::verb method, const std::string& target,
                            const std::string& body = "",
                            const std::vector<std::pair<http::field, std::string>>& headers = {},
                            const std::string& source = "") {
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  bind_source(stream.socket(), source);
  stream.expires_after(kWait);
  http::request<http::string_body> req{method, target, 11};
  req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  if (method == http::verb::post) req.set(http::field::content_type, "application/json");
  for (const auto& [f, v] : headers) req.set(f, v);
  req.body() = body;
  req.prepare_payload();
  http::response_parser<http::string_body> parser;
  parser.body_limit(16 * 1024 * 1024);
  if (method == http::verb::head) parser.skip(true);  // the answer to HEAD has no body
  beast::flat_buffer buffer;
  beast::error_code result = net::error::timed_out;
  stream.async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port),
                       [&](beast::error_code ec) {
                         if (ec) {
                           result = ec;
                           return;
                         }
                         http::async_write(stream, req, [&](beast::error_code ec, size_t) {
                           // The server may answer (413) before reading the whole body: read the
                           // answer anyway.
                           (void)ec;
                           http::async_read(stream, buffer, parser,
                                            [&](beast::error_code ec, size_t) { result = ec; });
                         });
                       });
  ioc.run();
  HttpResult out;
  if (!result || parser.is_done()) {
    out.status = int(parser.get().result_int());
    out.body = parser.get().body();
    out.content_type = std::string(parser.get()[http::field::content_type]);
    for (const auto& f : parser.get().base()) out.headers.insert(f.name_string(), f.value());
  }
  return out;
}

inline HttpResult http_get(uint16_t port, const std::string& target) {
  return http_call(port, http::verb::get, target);
}
inline HttpResult http_post(uint16_t port, const std::string& target, const std::string& body) {
  return http_call(port, http::verb::post, target, body);
}
inline HttpResult http_post(uint16_t port, const std::string& target, const json::value& body) {
  return http_call(port, http::verb::post, target, json::serialize(body));
}

// Signs `name` up (the password "password-of-<name>") and answers the session cookie
// ("toguz_session=<token>").
inline std::string sign_up_cookie(uint16_t port, const std::string& name) {
  HttpResult r =
      http_post(port, "/api/signup",
                json::value(json::object{{"username", name}, {"password", "password-of-" + name}}));
  EXPECT_EQ(r.status, 201) << r.body;
  const std::string set(r.headers[http::field::set_cookie]);
  return set.substr(0, set.find(';'));
}

// Runs `sql` on the SQLite file `db` beside the server (while it is stopped: a test changing
// what the store holds, such as a deadline put in the past).
inline void sqlite_run(const std::string& db, const std::string& sql) {
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(h, sql.c_str(), nullptr, nullptr, &err);
  const std::string why = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(h);
  ASSERT_EQ(rc, SQLITE_OK) << why;
}

// How a WsClient connects: an Origin header to send, and whether it says hello (with the token)
// as the front end does.
// Each member has its initializer, so that a designated initializer may name only some.
struct WsOptions {
  std::string origin{};
  bool hello = true;
  std::string query{};   // appended to the target as written
  std::string cookie{};  // a Cookie header to send with the handshake
  std::string source{};  // the client's own address (bind_source), "" for any
  std::vector<std::pair<std::string, std::string>> headers{};  // more handshake headers
};

// A WebSocket client of /ws/<id>: its first message is {"type":"hello","token":<token>|null}.
class WsClient {
 public:
  // `cookie`: a Cookie header for the handshake ("toguz_session=..."), "" for none (then
  // options.cookie).
  WsClient(uint16_t port, const std::string& id, const std::string& token = "",
           const WsOptions& options = {}, const std::string& cookie = "") {
    beast::error_code result = net::error::timed_out;
    beast::get_lowest_layer(ws_).expires_after(kWait);
    const std::string target = "/ws/" + id + options.query;
    const std::string cookie_header = cookie.empty() ? options.cookie : cookie;
    if (!options.origin.empty() || !cookie_header.empty() || !options.headers.empty())
      ws_.set_option(websocket::stream_base::decorator(
          [origin = options.origin, cookie = cookie_header,
           headers = options.headers](websocket::request_type& req) {
            if (!origin.empty()) req.set(http::field::origin, origin);
            if (!cookie.empty()) req.set(http::field::cookie, cookie);
            for (const auto& [name, value] : headers) req.set(name, value);
          }));
    bind_source(beast::get_lowest_layer(ws_).socket(), options.source);
    beast::get_lowest_layer(ws_).async_connect(
        tcp::endpoint(net::ip::make_address("127.0.0.1"), port), [&, target](beast::error_code ec) {
          if (ec) {
            result = ec;
            return;
          }
          beast::error_code ignored;
          beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true), ignored);
          ws_.async_handshake(response_, "127.0.0.1:" + std::to_string(port), target,
                              [&](beast::error_code ec) { result = ec; });
        });
    ioc_.run();
    ok_ = !result;
    beast::get_lowest_layer(ws_).expires_never();
    if (ok_ && options.hello)
      send(json::object{{"type", "hello"},
                        {"token", token.empty() ? json::value(nullptr) : json::value(token)}});
  }
  // The HTTP status of the upgrade's answer (101 when it was accepted).
  int handshake_status() const { return int(response_.result_int()); }
  bool ok() const { return ok_; }

  void send(const std::string& text) {
    beast::error_code ec;
    ws_.text(true);
    ws_.write(net::buffer(text), ec);
  }
  void send(const json::object& o) { send(json::serialize(o)); }

  // The next message, or nullopt when none came within the deadline or the socket closed.
  std::optional<json::object> read() {
    if (!ok_) return std::nullopt;
    bool done = false;
    beast::error_code result;
    buffer_.consume(buffer_.size());
    beast::get_lowest_layer(ws_).expires_after(kWait);
    ws_.async_read(buffer_, [&](beast::error_code ec, size_t) {
      result = ec;
      done = true;
    });
    ioc_.restart();
    ioc_.run();
    if (!done || result) {
      ok_ = false;
      last_error_ = done ? result : beast::error::timeout;
      return std::nullopt;
    }
    json::error_code jec;
    json::value v = json::parse(beast::buffers_to_string(buffer_.data()), jec);
    if (jec || !v.is_object()) return std::nullopt;
    return v.as_object();
  }

  // Reads until a message satisfies `pred` (the others are skipped); nullopt on timeout.
  std::optional<json::object> read_until(const std::function<bool(const json::object&)>& pred) {
    for (int i = 0; i < 10000; ++i) {
      auto m = read();
      if (!m) return std::nullopt;
      if (pred(*m)) return m;
    }
    return std::nullopt;
  }
  std::optional<json::object> read_type(const std::string& type) {
    return read_until([&](const json::object& m) { return m.at("type").as_string() == type; });
  }
  // The next state message whose game satisfies `pred`.
  std::optional<json::object> read_state(const std::function<bool(const json::object&)>& pred) {
    auto m = read_until([&](const json::object& m) {
      return m.at("type").as_string() == "state" && pred(m.at("game").as_object());
    });
    if (!m) return std::nullopt;
    return m->at("game").as_object();
  }

  // Whether the server closes the connection: the messages before the close are skipped;
  // false when it is still open at the deadline (or never opened).
  bool closed_by_server() {
    while (ok_) read();
    return last_error_ && last_error_ != beast::error::timeout;
  }

  void close() {
    beast::error_code ec;
    beast::get_lowest_layer(ws_).expires_after(kWait);
    ws_.async_close(websocket::close_code::normal, [](beast::error_code) {});
    ioc_.restart();
    ioc_.run();
    ok_ = false;
  }

 private:
  net::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_{ioc_};
  websocket::response_type response_;
  beast::flat_buffer buffer_;
  bool ok_ = false;
  beast::error_code last_error_;  // why the last read ended the connection
};

// Plays plies from..from+n-1 with the first legal hole, White's on w and Black's on b; false
// when a state to move in did not come.
inline bool play_plies(WsClient& w, WsClient& b, int from, int n);

// Whether server message m is of type `type`.
inline bool is_type(const json::object& m, const char* type) {
  return m.at("type") == type;
}

inline int64_t jint(const json::value& v) {
  return v.as_int64();
}
inline std::string jstr(const json::value& v) {
  return std::string(v.as_string());
}

// The refusal code of an HTTP answer ("" when it has none).
inline std::string code_of(const HttpResult& r) {
  const json::value v = r.json();
  const json::value* c = v.is_object() ? v.as_object().if_contains("code") : nullptr;
  return c && c->is_string() ? jstr(*c) : "";
}

// The first legal hole of a state message.
inline int first_legal(const json::object& state) {
  return int(jint(state.at("legal").as_array().at(0)));
}

inline bool play_plies(WsClient& w, WsClient& b, int from, int n) {
  for (int ply = from; ply < from + n; ++ply) {
    WsClient& mover = ply % 2 == 0 ? w : b;
    auto s = mover.read_state([&](const json::object& g) {
      return jint(g.at("ply")) == ply && !g.at("legal").as_array().empty();
    });
    if (!s) return false;
    mover.send(json::object{{"type", "move"}, {"hole", first_legal(*s)}, {"ply", ply}});
  }
  return true;
}

}  // namespace toguz::test
