// toguz_load --lobby N: N accounts sign up (or log in when the name exists), open the lobby
// socket with their session cookie, join one quick-pairing pool at the same moment and, once
// paired, play their game over its game socket with random legal moves, each player at most one
// move per --pace-ms. Reports the pairing time (pool_join sent to `start` received) and the move
// latency (a move sent to the state that contains it), p50 and p99 of each. All of it runs on
// one Asio thread.
#include "lobby.h"

#include <algorithm>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <deque>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace toguz::load {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace json = boost::json;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

struct LobbyStats {
  std::vector<double> pairing_ms, move_ms;
  int paired = 0, games_over = 0, errors = 0, moves = 0;
};

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

double quantile(std::vector<double>& v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}

// Signs the account up, or logs it in when the name is taken (a second run on one database);
// returns the Cookie header's value.
std::string session_of(const tcp::endpoint& ep, const std::string& name) {
  const std::string body =
      json::serialize(json::object{{"username", name}, {"password", "load-password-" + name}});
  for (const char* target : {"/api/signup", "/api/login"}) {
    net::io_context ioc;
    beast::tcp_stream s(ioc);
    s.connect(ep);
    http::request<http::string_body> req{http::verb::post, target, 11};
    req.set(http::field::host, ep.address().to_string() + ":" + std::to_string(ep.port()));
    req.set(http::field::content_type, "application/json");
    req.body() = body;
    req.prepare_payload();
    http::write(s, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(s, buf, res);
    if (res.result_int() == 409) continue;  // taken: log in instead
    if (res.result_int() / 100 != 2)
      throw std::runtime_error(std::string(target) + " " + name + ": " + res.body());
    for (const auto& f : res.base())
      if (f.name() == http::field::set_cookie && f.value().starts_with("toguz_session="))
        return std::string(f.value().substr(0, f.value().find(';')));
    throw std::runtime_error(std::string(target) + " " + name + ": no session cookie");
  }
  throw std::runtime_error("login " + name + ": refused");
}

// One WebSocket with a write queue; `on_text` gets every message.
class Socket : public std::enable_shared_from_this<Socket> {
 public:
  Socket(net::io_context& ioc, LobbyStats& stats) : ws_(ioc), stats_(stats) {}
  std::function<void(std::string_view)> on_text;
  std::function<void()> on_open;

  void open(const tcp::endpoint& ep, const std::string& target, const std::string& cookie) {
    ws_.set_option(websocket::stream_base::decorator(
        [cookie](websocket::request_type& r) { r.set(http::field::cookie, cookie); }));
    beast::get_lowest_layer(ws_).async_connect(
        ep, [self = shared_from_this(), ep, target](beast::error_code ec) {
          if (ec) return self->fail("connect", ec);
          beast::get_lowest_layer(self->ws_).socket().set_option(tcp::no_delay(true));
          self->ws_.async_handshake(ep.address().to_string() + ":" + std::to_string(ep.port()),
                                    target, [self](beast::error_code ec) {
                                      if (ec) return self->fail("handshake", ec);
                                      self->ws_.text(true);
                                      self->read();
                                      if (self->on_open) self->on_open();
                                    });
        });
  }
  void send(std::string text) {
    out_.push_back(std::move(text));
    if (out_.size() == 1) write();
  }
  void close() {
    if (closing_) return;
    closing_ = true;
    ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {
      self->on_text = nullptr;
      self->on_open = nullptr;
    });
  }

 private:
  void fail(const char* what, beast::error_code ec) {
    if (closing_) return;
    std::cerr << "toguz_load: lobby mode: " << what << ": " << ec.message() << "\n";
    ++stats_.errors;
    closing_ = true;
    on_text = nullptr;
    on_open = nullptr;
  }
  void read() {
    ws_.async_read(buf_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) {
        if (ec != websocket::error::closed) self->fail("read", ec);
        return;
      }
      const std::string text = beast::buffers_to_string(self->buf_.data());
      self->buf_.consume(self->buf_.size());
      if (self->on_text) self->on_text(text);
      self->read();
    });
  }
  void write() {
    ws_.async_write(net::buffer(out_.front()),
                    [self = shared_from_this()](beast::error_code ec, size_t) {
                      if (ec) return self->fail("write", ec);
                      self->out_.pop_front();
                      if (!self->out_.empty()) self->write();
                    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  LobbyStats& stats_;
  beast::flat_buffer buf_;
  std::deque<std::string> out_;
  bool closing_ = false;
};

// One account: the lobby socket until paired, then the game socket until the game is over.
class User : public std::enable_shared_from_this<User> {
 public:
  User(net::io_context& ioc, LobbyStats& stats, tcp::endpoint ep, std::string cookie,
       std::string pool, int pace_ms, uint64_t seed)
      : ioc_(ioc),
        stats_(stats),
        ep_(ep),
        cookie_(std::move(cookie)),
        pool_(std::move(pool)),
        pace_(pace_ms),
        timer_(ioc),
        rng_(seed) {}

  // Opens the lobby; `ready` is called once its first message came.
  void open_lobby(std::function<void()> ready) {
    lobby_ = std::make_shared<Socket>(ioc_, stats_);
    lobby_->on_text = [self = shared_from_this(), ready](std::string_view text) {
      self->on_lobby(text, ready);
    };
    lobby_->open(ep_, "/ws/lobby", cookie_);
  }
  void join_pool() {
    joined_ = Clock::now();
    lobby_->send(json::serialize(json::object{{"type", "pool_join"}, {"pool", pool_}}));
  }

 private:
  void on_lobby(std::string_view text, const std::function<void()>& ready) {
    json::error_code ec;
    json::value v = json::parse(text, ec);
    if (ec || !v.is_object()) return;
    const json::object& m = v.as_object();
    const json::value* type = m.if_contains("type");
    if (!type || !type->is_string()) return;
    if (*type == "lobby" && !lobby_ready_) {
      lobby_ready_ = true;
      ready();
    } else if (*type == "error") {
      std::cerr << "toguz_load: lobby refused: " << json::serialize(m) << "\n";
      ++stats_.errors;
    } else if (*type == "start" && !game_) {
      stats_.pairing_ms.push_back(ms_between(joined_, Clock::now()));
      ++stats_.paired;
      const std::string token(m.at("token").as_string());
      game_ = std::make_shared<Socket>(ioc_, stats_);
      game_->on_open = [g = game_, token] {
        g->send(json::serialize(json::object{{"type", "hello"}, {"token", token}}));
      };
      game_->on_text = [self = shared_from_this()](std::string_view t) { self->on_game(t); };
      game_->open(ep_, "/ws/" + std::string(m.at("game").as_string()), cookie_);
    }
  }

  void on_game(std::string_view text) {
    json::error_code ec;
    json::value v = json::parse(text, ec);
    if (ec || !v.is_object()) return;
    const json::object& m = v.as_object();
    if (m.at("type") == "error") {
      ++stats_.errors;
      if (pending_ >= 0) schedule(last_hole_, pending_);  // refused (the rate): again
      return;
    }
    if (m.at("type") != "state") return;
    const json::object& g = m.at("game").as_object();
    const int ply = int(g.at("ply").as_int64());
    if (pending_ >= 0 && ply > pending_) {
      stats_.move_ms.push_back(ms_between(sent_, Clock::now()));
      ++stats_.moves;
      pending_ = -1;
    }
    const json::string& status = g.at("status").as_string();
    if (status != "playing") {
      if ((status == "over" || status == "aborted") && !over_) {
        over_ = true;
        ++stats_.games_over;
        timer_.cancel();
        game_->close();
        lobby_->close();
      }
      return;
    }
    const json::array& legal = g.at("legal").as_array();
    if (legal.empty() || pending_ >= 0 || scheduled_) return;
    schedule(int(legal[rng_() % legal.size()].as_int64()), ply);
  }

  void schedule(int hole, int ply) {
    scheduled_ = true;
    timer_.expires_at(last_send_ + std::chrono::milliseconds(pace_));
    timer_.async_wait([self = shared_from_this(), hole, ply](beast::error_code ec) {
      self->scheduled_ = false;
      if (ec || self->over_) return;
      self->last_hole_ = hole;
      self->pending_ = ply;
      self->sent_ = self->last_send_ = Clock::now();
      self->game_->send(
          json::serialize(json::object{{"type", "move"}, {"hole", hole}, {"ply", ply}}));
    });
  }

  net::io_context& ioc_;
  LobbyStats& stats_;
  tcp::endpoint ep_;
  std::string cookie_, pool_;
  int pace_;
  net::steady_timer timer_;
  std::mt19937_64 rng_;
  std::shared_ptr<Socket> lobby_, game_;
  Clock::time_point joined_, sent_, last_send_{};
  int pending_ = -1, last_hole_ = 0;
  bool lobby_ready_ = false, scheduled_ = false, over_ = false;
};

}  // namespace

int run_lobby(const std::string& host, uint16_t port, int users, int pace_ms,
              const std::string& pool) {
  if (users < 2 || users % 2) {
    std::cerr << "toguz_load: --lobby needs an even number of users, at least 2\n";
    return 2;
  }
  const tcp::endpoint ep(net::ip::make_address(host), port);
  const auto t_signup = Clock::now();
  std::vector<std::string> cookies;
  for (int u = 0; u < users; ++u) cookies.push_back(session_of(ep, "load" + std::to_string(u)));
  const double signup_s = ms_between(t_signup, Clock::now()) / 1000;

  net::io_context ioc;
  LobbyStats stats;
  std::vector<std::shared_ptr<User>> all;
  int ready = 0;
  Clock::time_point start;
  for (int u = 0; u < users; ++u)
    all.push_back(std::make_shared<User>(ioc, stats, ep, cookies[u], pool, pace_ms, u + 1));
  // Everyone joins the pool once every lobby socket is open, so the pairing time is the
  // server's alone.
  for (auto& user : all)
    user->open_lobby([&] {
      if (++ready < users) return;
      start = Clock::now();
      for (auto& x : all) x->join_pool();
    });
  ioc.run();
  const double secs = ms_between(start, Clock::now()) / 1000;
  std::printf(
      "lobby: %d users (signup/login %.1f s), pool %s: paired %d, games over %d of %d in %.1f s; "
      "pairing p50 %.1f ms, p99 %.1f ms; moves %d, latency p50 %.2f ms, p99 %.2f ms; errors %d\n",
      users, signup_s, pool.c_str(), stats.paired, stats.games_over, users / 2, secs,
      quantile(stats.pairing_ms, 0.5), quantile(stats.pairing_ms, 0.99), stats.moves,
      quantile(stats.move_ms, 0.5), quantile(stats.move_ms, 0.99), stats.errors);
  // Each game's end reaches both its players.
  return stats.paired == users && stats.games_over == users && stats.errors == 0 ? 0 : 1;
}

}  // namespace toguz::load
