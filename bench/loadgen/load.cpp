// toguz_load: many concurrent online games against a running `toguz serve`, over WebSockets.
// Each game is created and joined over HTTP, then its two players (one WebSocket each) play
// random legal moves, each player at most one message per --pace-ms (default 60; the server
// allows 20 per second per connection; a refused move is sent again). Reports moves/s and the latency from sending a move to receiving the
// state that contains it (p50, p99, max). Usage: toguz_load --port P [--games N] [--pace-ms MS]
#include <algorithm>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace json = boost::json;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

struct Stats {
  uint64_t moves = 0, errors = 0, games_done = 0;
  std::vector<double> latency_ms;
};

json::value post(const std::string& host, uint16_t port, const std::string& target, const std::string& body) {
  net::io_context ioc;
  beast::tcp_stream s(ioc);
  s.connect(tcp::endpoint(net::ip::make_address(host), port));
  http::request<http::string_body> req{http::verb::post, target, 11};
  req.set(http::field::host, host);
  req.set(http::field::content_type, "application/json");
  req.body() = body;
  req.prepare_payload();
  http::write(s, req);
  beast::flat_buffer buf;
  http::response<http::string_body> res;
  http::read(s, buf, res);
  if (res.result() != http::status::ok) throw std::runtime_error(target + ": " + res.body());
  return json::parse(res.body());
}

// The value after `"key":` at the top level of a state message (the move list has no such keys).
std::string_view field(std::string_view msg, std::string_view key) {
  const std::string pat = "\"" + std::string(key) + "\":";
  const size_t p = msg.rfind(pat);
  if (p == std::string_view::npos) return {};
  return msg.substr(p + pat.size());
}

class Player : public std::enable_shared_from_this<Player> {
 public:
  Player(net::io_context& ioc, Stats& stats, std::string target, uint64_t seed, int pace_ms)
      : ws_(ioc), timer_(ioc), stats_(stats), target_(std::move(target)), rng_(seed), pace_(pace_ms) {}

  void start(const tcp::endpoint& ep) {
    beast::get_lowest_layer(ws_).async_connect(ep, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return self->fail("connect", ec);
      beast::get_lowest_layer(self->ws_).socket().set_option(tcp::no_delay(true));
      self->ws_.async_handshake("127.0.0.1", self->target_, [self](beast::error_code ec) {
        if (ec) return self->fail("handshake", ec);
        self->read();
      });
    });
  }

 private:
  void fail(const char* what, beast::error_code ec) {
    if (done_) return;
    std::cerr << "toguz_load: " << what << ": " << ec.message() << "\n";
    ++stats_.errors;
    done_ = true;
  }

  void read() {
    ws_.async_read(buf_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) {
        if (!self->done_) self->fail("read", ec);
        return;
      }
      std::string msg = beast::buffers_to_string(self->buf_.data());
      self->buf_.consume(self->buf_.size());
      self->on_message(msg);
      if (!self->done_) self->read();
    });
  }

  void on_message(std::string_view msg) {
    if (msg.rfind("{\"type\":\"error\"", 0) == 0) {
      ++stats_.errors;
      // Refused (e.g. the rate limit): send the same move again after the pace.
      if (pending_ >= 0 && !scheduled_) {
        scheduled_ = true;
        timer_.expires_after(std::chrono::milliseconds(pace_));
        timer_.async_wait([self = shared_from_this()](beast::error_code) {
          self->scheduled_ = false;
          self->send_move(self->last_hole_, self->pending_);
        });
      }
      return;
    }
    if (msg.rfind("{\"type\":\"state\"", 0) != 0) return;
    const int ply = std::atoi(std::string(field(msg, "ply").substr(0, 8)).c_str());
    std::string_view status = field(msg, "status");
    std::string_view legal = field(msg, "legal");
    if (pending_ >= 0 && ply > pending_) {
      stats_.latency_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - sent_).count());
      ++stats_.moves;
      pending_ = -1;
    }
    if (status.rfind("\"playing\"", 0) != 0) {
      if (status.rfind("\"over\"", 0) == 0 || status.rfind("\"aborted\"", 0) == 0) {
        if (!done_) {
          done_ = true;
          ++finished_players;
          if (finished_players % 2 == 0) ++stats_.games_done;
          ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {});
        }
      }
      return;
    }
    std::vector<int> holes;
    for (size_t i = 1; i < legal.size() && legal[i] != ']'; ++i)
      if (legal[i] >= '1' && legal[i] <= '9') holes.push_back(legal[i] - '0');
    if (holes.empty() || pending_ >= 0 || scheduled_) return;
    const int hole = holes[rng_() % holes.size()];
    scheduled_ = true;
    timer_.expires_at(last_send_ + std::chrono::milliseconds(pace_));
    timer_.async_wait([self = shared_from_this(), hole, ply](beast::error_code) {
      self->scheduled_ = false;
      self->send_move(hole, ply);
    });
  }

  void send_move(int hole, int ply) {
    if (done_) return;
    last_hole_ = hole;
    out_.push_back("{\"type\":\"move\",\"hole\":" + std::to_string(hole) + ",\"ply\":" + std::to_string(ply) + "}");
    pending_ = ply;
    sent_ = last_send_ = Clock::now();
    if (out_.size() == 1) write();
  }

  void write() {
    ws_.text(true);
    ws_.async_write(net::buffer(out_.front()), [self = shared_from_this()](beast::error_code ec, size_t) {
      self->out_.erase(self->out_.begin());
      if (ec) return self->fail("write", ec);
      if (!self->out_.empty()) self->write();
    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  net::steady_timer timer_;
  beast::flat_buffer buf_;
  Stats& stats_;
  std::string target_;
  std::mt19937_64 rng_;
  int pace_;
  int pending_ = -1;
  int last_hole_ = 0;
  bool scheduled_ = false, done_ = false;
  Clock::time_point sent_, last_send_{};
  std::vector<std::string> out_;

 public:
  static inline int finished_players = 0;
};

}  // namespace

int main(int argc, char** argv) {
  std::string host = "127.0.0.1";
  int port = 0, games = 100, pace_ms = 60;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--host") host = argv[i + 1];
    else if (a == "--port") port = std::atoi(argv[i + 1]);
    else if (a == "--games") games = std::atoi(argv[i + 1]);
    else if (a == "--pace-ms") pace_ms = std::atoi(argv[i + 1]);
    else {
      std::cerr << "usage: toguz_load --port P [--host H] [--games N] [--pace-ms MS]\n";
      return 2;
    }
  }
  if (port <= 0 || games <= 0) {
    std::cerr << "usage: toguz_load --port P [--host H] [--games N] [--pace-ms MS]\n";
    return 2;
  }
  try {
    net::io_context ioc;
    Stats stats;
    std::vector<std::shared_ptr<Player>> players;
    for (int g = 0; g < games; ++g) {
      json::value c = post(host, uint16_t(port), "/api/games", R"({"mode":"online","name":"load-w"})");
      const std::string id(c.at("id").as_string());
      json::value j = post(host, uint16_t(port), "/api/games/" + id + "/join",
                           json::serialize(json::object{{"invite", c.at("invite")}, {"name", "load-b"}}));
      players.push_back(std::make_shared<Player>(ioc, stats, "/ws/" + id + "?token=" + std::string(c.at("token").as_string()), g * 2 + 1, pace_ms));
      players.push_back(std::make_shared<Player>(ioc, stats, "/ws/" + id + "?token=" + std::string(j.at("token").as_string()), g * 2 + 2, pace_ms));
    }
    const tcp::endpoint ep(net::ip::make_address(host), uint16_t(port));
    const auto start = Clock::now();
    for (auto& p : players) p->start(ep);
    ioc.run();
    const double secs = std::chrono::duration<double>(Clock::now() - start).count();
    auto& l = stats.latency_ms;
    std::sort(l.begin(), l.end());
    auto pct = [&](double q) { return l.empty() ? 0.0 : l[std::min(l.size() - 1, size_t(q * double(l.size())))]; };
    std::printf("games %d (finished %llu), connections %d, moves %llu in %.2f s: %.0f moves/s; "
                "latency p50 %.2f ms, p99 %.2f ms, max %.2f ms; errors %llu\n",
                games, (unsigned long long)stats.games_done, games * 2, (unsigned long long)stats.moves, secs,
                double(stats.moves) / secs, pct(0.5), pct(0.99), l.empty() ? 0.0 : l.back(),
                (unsigned long long)stats.errors);
    return stats.games_done == uint64_t(games) ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "toguz_load: " << e.what() << "\n";
    return 1;
  }
}
