// toguz_load: many concurrent online games against a running `toguz serve`, over WebSockets.
// Each game is created and joined over HTTP, then its two players (one WebSocket each) play
// random legal moves, each player at most one message per --pace-ms (default 60; the server
// allows 20 per second per connection; a refused move is sent again). Reports moves/s and the
// latency from sending a move to receiving the state that contains it (p50, p99, max). Usage:
// toguz_load --port P [--games N] [--pace-ms MS]
//   --think-ms MIN-MAX --seconds S [--deltas] [--pid PID]: human pace instead: each player
//     answers a state that lets him move after a think drawn uniformly from MIN..MAX ms; the
//     games run S seconds once every connection has its first state (not to their end), and
//     the report adds the connect time and the server's resident memory (VmRSS of PID) before
//     the games, with every connection open, and at the end. --deltas: the hellos ask for
//     deltas (docs/web-protocol.md), as the front end does.
//   --port P1,P2,... (several instances of a cluster, docs/cluster.md): game g is created and
//     joined on instance g mod n and its white player connects there, its black player to the
//     next instance, so every game has one socket relayed over Redis. --pid NAME=PID,...: the
//     processes whose CPU and memory are reported, each by its name, with their children's (a
//     PostgreSQL server's backends; memory then as the sum of Pss); a bare PID is "server".
// Two more modes (see bench/load):
//   --flood N [--seconds S]: one engine game whose human moves as soon as he may, while N
//     analysis boards ask for analysis and hints as fast as the server lets them and a thread
//     posts 10-second /api/analyze requests; reports the engine's reply time (move sent to the
//     engine's answer received) and how many flood requests were refused.
//   --spectators N [--rounds R] [--pid PID]: an online game with both players connected; R
//     times N spectators connect and leave at once; reports whether the players stayed
//     connected and the server's resident memory (VmRSS of PID) before, at the peak and after.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "lobby.h"

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
  // Human pace: whether latencies count now (every connection has had its first state), and how
  // many connections have had it.
  bool measuring = true;
  int ready = 0;
};

// Human pace: the think range of each player (0-0: the --pace-ms mode) and whether the hellos
// ask for deltas.
struct Pace {
  int pace_ms = 60, think_min_ms = 0, think_max_ms = 0;
  bool deltas = false;
};

// HTTP requests on one kept-alive connection (opened again when the server closed it).
class HttpClient {
 public:
  HttpClient(std::string host, uint16_t port) : host_(std::move(host)), port_(port) {}
  json::value post(const std::string& target, const std::string& body) {
    for (int attempt = 0;; ++attempt) {
      try {
        if (!s_) {
          s_ = std::make_unique<beast::tcp_stream>(ioc_);
          s_->connect(tcp::endpoint(net::ip::make_address(host_), port_));
        }
        http::request<http::string_body> req{http::verb::post, target, 11};
        req.set(http::field::host, host_);
        req.set(http::field::content_type, "application/json");
        req.keep_alive(true);
        req.body() = body;
        req.prepare_payload();
        http::write(*s_, req);
        http::response<http::string_body> res;
        http::read(*s_, buf_, res);
        if (!res.keep_alive()) s_.reset();
        if (res.result() != http::status::ok) throw std::logic_error(target + ": " + res.body());
        return json::parse(res.body());
      } catch (const std::logic_error&) {
        throw;
      } catch (const std::exception&) {
        s_.reset();
        buf_.clear();
        if (attempt > 0) throw;
      }
    }
  }

 private:
  net::io_context ioc_;
  std::string host_;
  uint16_t port_;
  std::unique_ptr<beast::tcp_stream> s_;
  beast::flat_buffer buf_;
};

json::value post(const std::string& host, uint16_t port, const std::string& target,
                 const std::string& body) {
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
  Player(net::io_context& ioc, Stats& stats, std::string target, std::string token, uint64_t seed,
         const Pace& pace)
      : ws_(ioc),
        timer_(ioc),
        stats_(stats),
        target_(std::move(target)),
        token_(std::move(token)),
        rng_(seed),
        pace_(pace.pace_ms),
        think_min_(pace.think_min_ms),
        think_max_(pace.think_max_ms),
        deltas_(pace.deltas) {}

  void start(const tcp::endpoint& ep) {
    beast::get_lowest_layer(ws_).async_connect(
        ep, [self = shared_from_this()](beast::error_code ec) {
          if (ec) return self->fail("connect", ec);
          beast::get_lowest_layer(self->ws_).socket().set_option(tcp::no_delay(true));
          self->ws_.async_handshake("127.0.0.1", self->target_, [self](beast::error_code ec) {
            if (ec) return self->fail("handshake", ec);
            json::object hello{{"type", "hello"}, {"token", self->token_}};
            if (self->deltas_) hello["deltas"] = true;
            self->out_.push_back(json::serialize(hello));
            self->write();
            self->read();
          });
        });
  }

 private:
  void fail(const char* what, beast::error_code ec) {
    if (done_) return;
    // The first few only: when a server drops thousands of sockets, the count says enough.
    if (++failures_shown <= 10)
      std::cerr << "toguz_load: " << what << ": " << ec.message()
                << (failures_shown == 10 ? " (no more of these are shown)" : "") << "\n";
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
    const bool state = msg.rfind("{\"type\":\"state\"", 0) == 0;
    if (!state && msg.rfind("{\"type\":\"delta\"", 0) != 0) return;
    if (state && !had_state_) {
      had_state_ = true;
      ++stats_.ready;
    }
    const int ply = std::atoi(std::string(field(msg, "ply").substr(0, 8)).c_str());
    std::string_view status = field(msg, "status");
    std::string_view legal = field(msg, "legal");
    if (pending_ >= 0 && ply > pending_) {
      if (counted_)
        stats_.latency_ms.push_back(
            std::chrono::duration<double, std::milli>(Clock::now() - sent_).count());
      ++stats_.moves;
      pending_ = -1;
    }
    if (status.rfind("\"playing\"", 0) != 0) {
      if (status.rfind("\"over\"", 0) == 0 || status.rfind("\"aborted\"", 0) == 0) {
        if (!done_) {
          done_ = true;
          ++finished_players;
          if (finished_players % 2 == 0) ++stats_.games_done;
          ws_.async_close(websocket::close_code::normal,
                          [self = shared_from_this()](beast::error_code) {});
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
    if (think_max_ > 0)
      timer_.expires_after(std::chrono::milliseconds(
          think_min_ + int(rng_() % uint64_t(think_max_ - think_min_ + 1))));
    else
      timer_.expires_at(last_send_ + std::chrono::milliseconds(pace_));
    timer_.async_wait([self = shared_from_this(), hole, ply](beast::error_code) {
      self->scheduled_ = false;
      self->send_move(hole, ply);
    });
  }

  void send_move(int hole, int ply) {
    if (done_) return;
    last_hole_ = hole;
    out_.push_back("{\"type\":\"move\",\"hole\":" + std::to_string(hole) +
                   ",\"ply\":" + std::to_string(ply) + "}");
    pending_ = ply;
    counted_ = stats_.measuring;
    sent_ = last_send_ = Clock::now();
    if (out_.size() == 1) write();
  }

  void write() {
    ws_.text(true);
    ws_.async_write(net::buffer(out_.front()),
                    [self = shared_from_this()](beast::error_code ec, size_t) {
                      self->out_.erase(self->out_.begin());
                      if (ec) return self->fail("write", ec);
                      if (!self->out_.empty()) self->write();
                    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  net::steady_timer timer_;
  beast::flat_buffer buf_;
  Stats& stats_;
  std::string target_, token_;
  std::mt19937_64 rng_;
  int pace_, think_min_, think_max_;
  bool deltas_;
  int pending_ = -1;
  int last_hole_ = 0;
  bool scheduled_ = false, done_ = false, had_state_ = false;
  bool counted_ = false;  // the pending move was sent while measuring
  Clock::time_point sent_, last_send_{};
  std::vector<std::string> out_;

 public:
  static inline int finished_players = 0;
  static inline int failures_shown = 0;
};

// ---- the synchronous modes (flood, spectators) ----

using SyncWs = websocket::stream<tcp::socket>;

// --token-in-url: also put the token in the URL, as servers before the hello message read it
// (to run the same load against an older build for comparison).
bool g_token_in_url = false;

// A WebSocket to /ws/<id> that has said hello (token "" = a spectator).
std::unique_ptr<SyncWs> ws_connect(net::io_context& ioc, const std::string& host, uint16_t port,
                                   const std::string& id, const std::string& token) {
  auto ws = std::make_unique<SyncWs>(ioc);
  ws->next_layer().connect(tcp::endpoint(net::ip::make_address(host), port));
  ws->next_layer().set_option(tcp::no_delay(true));
  ws->handshake(host, "/ws/" + id + (g_token_in_url && !token.empty() ? "?token=" + token : ""));
  ws->text(true);
  ws->write(net::buffer(json::serialize(json::object{
      {"type", "hello"}, {"token", token.empty() ? json::value(nullptr) : json::value(token)}})));
  return ws;
}

// Reads until a message of `type` (whose `pred` holds); false when the socket closed.
bool ws_read_until(SyncWs& ws, const std::string& type, json::object* out,
                   const std::function<bool(const json::object&)>& pred = nullptr) {
  for (;;) {
    beast::flat_buffer buf;
    beast::error_code ec;
    ws.read(buf, ec);
    if (ec) return false;
    json::error_code jec;
    json::value v = json::parse(beast::buffers_to_string(buf.data()), jec);
    if (jec || !v.is_object()) continue;
    const json::object& o = v.as_object();
    if (o.at("type").as_string() == type && (!pred || pred(o))) {
      if (out) *out = o;
      return true;
    }
  }
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}

// CPU seconds (user + system) of process `pid`, 0: this one.
double cpu_seconds(int pid) {
  if (pid == 0) {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  }
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t p = text.rfind(')');  // fields after the command name: state is field 3
  if (p == std::string::npos) return 0;
  std::istringstream f(text.substr(p + 2));
  std::string skip;
  for (int i = 3; i < 14; ++i) f >> skip;
  double utime = 0, stime = 0;
  f >> utime >> stime;
  return (utime + stime) / double(sysconf(_SC_CLK_TCK));
}

// The process `pid` and its descendants (a PostgreSQL server and its backends).
std::vector<int> process_tree(int pid) {
  std::vector<std::pair<int, int>> parent;  // (pid, ppid) of every process
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t p = text.rfind(')');
    if (p == std::string::npos) continue;
    std::istringstream f(text.substr(p + 2));
    std::string state;
    int ppid = 0;
    f >> state >> ppid;
    parent.emplace_back(std::atoi(name.c_str()), ppid);
  }
  std::vector<int> tree{pid};
  for (size_t i = 0; i < tree.size(); ++i)
    for (const auto& [child, ppid] : parent)
      if (ppid == tree[i]) tree.push_back(child);
  return tree;
}

long rss_kib(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

// A watched process tree: its name, root pid, and the CPU seconds of each of its processes
// when the measured seconds began (a process born later counts from 0).
struct Watched {
  std::string name;
  int pid = 0;
  std::vector<std::pair<int, double>> cpu_before;
  long rss_connected = -1, rss_peak = -1;

  // Resident KiB: VmRSS of one process; of a tree, the sum of each one's proportional share
  // (Pss), so that memory they share (PostgreSQL's shared buffers) counts once.
  long rss() const {
    const std::vector<int> tree = process_tree(pid);
    if (tree.size() == 1) return rss_kib(pid);
    long sum = 0;
    for (int p : tree) {
      std::ifstream in("/proc/" + std::to_string(p) + "/smaps_rollup");
      std::string line;
      while (std::getline(in, line))
        if (line.rfind("Pss:", 0) == 0) sum += std::atol(line.c_str() + 4);
    }
    return sum;
  }
  void begin() {
    cpu_before.clear();
    for (int p : process_tree(pid)) cpu_before.emplace_back(p, cpu_seconds(p));
    rss_connected = rss_peak = rss();
  }
  double cpu_since() const {
    double sum = 0;
    for (int p : process_tree(pid)) {
      double before = 0;
      for (const auto& [q, c] : cpu_before)
        if (q == p) before = c;
      sum += cpu_seconds(p) - before;
    }
    return sum;
  }
};

int run_flood(const std::string& host, uint16_t port, int boards, int seconds) {
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> sent{0}, refused{0}, http_ok{0}, http_refused{0};
  std::vector<std::thread> threads;
  for (int b = 0; b < boards; ++b) {
    threads.emplace_back([&, b] {
      try {
        json::value c = post(host, port, "/api/import",
                             R"({"position":"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w"})");
        net::io_context ioc;
        auto ws = ws_connect(ioc, host, port, std::string(c.at("id").as_string()),
                             std::string(c.at("token").as_string()));
        ws_read_until(*ws, "state", nullptr);
        // Reader: counts refusals; writer: 18 messages a second (the server allows 20).
        std::thread reader([&] {
          for (;;) {
            beast::flat_buffer buf;
            beast::error_code ec;
            ws->read(buf, ec);
            if (ec) return;
            if (beast::buffers_to_string(buf.data()).rfind("{\"type\":\"error\"", 0) == 0)
              ++refused;
          }
        });
        for (int i = 0; !stop; ++i) {
          const char* msg =
              (i + b) % 2 ? R"({"type":"hint"})" : R"({"type":"analyze","multipv":5})";
          beast::error_code ec;
          ws->write(net::buffer(std::string(msg)), ec);
          if (ec) break;
          ++sent;
          std::this_thread::sleep_for(std::chrono::milliseconds(55));
        }
        beast::error_code ec;
        ws->next_layer().shutdown(tcp::socket::shutdown_both, ec);
        ws->next_layer().close(ec);
        reader.join();
      } catch (const std::exception& e) {
        std::cerr << "toguz_load: flood board " << b << ": " << e.what() << "\n";
      }
    });
  }
  threads.emplace_back([&] {
    while (!stop) {
      try {
        post(host, port, "/api/analyze", R"({"time_ms":10000,"multipv":9})");
        ++http_ok;
      } catch (const std::exception&) {
        ++http_refused;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
  });
  // The engine game: the human answers at once; the engine's reply time is what counts. The
  // flood stops at the end; a reply still awaited then is waited for (the queue drains) up
  // to 120 s more, then the socket is shut.
  std::vector<double> reply_ms;
  int games = 0;
  const auto end = Clock::now() + std::chrono::seconds(seconds);
  std::mutex current_mutex;
  SyncWs* current = nullptr;
  std::atomic<bool> engine_done{false}, gave_up{false};
  std::thread watchdog([&] {
    std::this_thread::sleep_until(end);
    stop = true;
    for (int i = 0; i < 1200 && !engine_done; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::lock_guard<std::mutex> lock(current_mutex);
    if (!engine_done && current) {
      gave_up = true;
      beast::error_code ec;
      current->next_layer().shutdown(tcp::socket::shutdown_both, ec);
    }
  });
  std::mt19937_64 rng(7);
  Clock::time_point last_move{};
  try {
    while (Clock::now() < end) {
      json::value c = post(host, port, "/api/games", R"({"mode":"engine","level":1})");
      ++games;
      net::io_context ioc;
      auto ws = ws_connect(ioc, host, port, std::string(c.at("id").as_string()),
                           std::string(c.at("token").as_string()));
      {
        std::lock_guard<std::mutex> lock(current_mutex);
        current = ws.get();
      }
      json::object st;
      if (!ws_read_until(*ws, "state", &st)) throw std::runtime_error("engine game: closed");
      while (Clock::now() < end) {
        const json::object& g = st.at("game").as_object();
        if (g.at("status").as_string() != "playing") break;
        const json::array& legal = g.at("legal").as_array();
        if (legal.empty()) {
          if (!ws_read_until(*ws, "state", &st)) throw std::runtime_error("engine game: closed");
          continue;
        }
        const int64_t ply = g.at("ply").as_int64();
        const int64_t hole = legal[rng() % legal.size()].as_int64();
        // At most one move per 60 ms: the server refuses more than 20 messages a second.
        std::this_thread::sleep_until(last_move + std::chrono::milliseconds(60));
        last_move = Clock::now();
        const auto t0 = Clock::now();
        ws->write(net::buffer(
            json::serialize(json::object{{"type", "move"}, {"hole", hole}, {"ply", ply}})));
        auto answered = [ply](const json::object& m) {
          const json::object& g = m.at("game").as_object();
          return g.at("ply").as_int64() >= ply + 2 || g.at("status").as_string() != "playing";
        };
        if (!ws_read_until(*ws, "state", &st, answered))
          throw std::runtime_error("engine game: closed");
        if (st.at("game").at("ply").as_int64() >= ply + 2)
          reply_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
      }
      std::lock_guard<std::mutex> lock(current_mutex);
      current = nullptr;
    }
  } catch (const std::exception& e) {
    if (!gave_up) std::cerr << "toguz_load: " << e.what() << "\n";
  }
  {
    std::lock_guard<std::mutex> lock(current_mutex);
    engine_done = true;
    current = nullptr;
  }
  stop = true;
  watchdog.join();
  for (auto& t : threads) t.join();
  if (gave_up) std::printf("flood: a reply was still missing 120 s after the flood stopped\n");
  std::printf(
      "flood: %d analysis boards, %llu analyze/hint messages (%llu refused), /api/analyze %llu "
      "done, %llu refused; engine games %d, replies %zu: p50 %.0f ms, p99 %.0f ms, max %.0f ms "
      "(level 1: its search takes a few ms once a worker takes it)\n",
      boards, (unsigned long long)sent, (unsigned long long)refused, (unsigned long long)http_ok,
      (unsigned long long)http_refused, games, reply_ms.size(), percentile(reply_ms, 0.5),
      percentile(reply_ms, 0.99), reply_ms.empty() ? 0.0 : percentile(reply_ms, 1.0));
  return reply_ms.empty() ? 1 : 0;
}

int run_spectators(const std::string& host, uint16_t port, int spectators, int rounds, int pid) {
  json::value c = post(host, port, "/api/games", R"({"mode":"online","name":"load-w"})");
  const std::string id(c.at("id").as_string());
  json::value j =
      post(host, port, "/api/games/" + id + "/join",
           json::serialize(json::object{{"invite", c.at("invite")}, {"name", "load-b"}}));
  net::io_context ioc;
  auto white = ws_connect(ioc, host, port, id, std::string(c.at("token").as_string()));
  auto black = ws_connect(ioc, host, port, id, std::string(j.at("token").as_string()));
  ws_read_until(*white, "state", nullptr);
  ws_read_until(*black, "state", nullptr);
  const long before = pid > 0 ? rss_kib(pid) : -1;
  long peak = before;
  bool players_ok = true;
  for (int r = 0; r < rounds && players_ok; ++r) {
    std::vector<std::unique_ptr<SyncWs>> watchers;
    for (int i = 0; i < spectators; ++i) watchers.push_back(ws_connect(ioc, host, port, id, ""));
    for (auto& w : watchers) ws_read_until(*w, "state", nullptr);
    if (pid > 0) peak = std::max(peak, rss_kib(pid));
    for (auto& w : watchers) {  // all leave at once: the sockets just close
      beast::error_code ec;
      w->next_layer().close(ec);
    }
    watchers.clear();
    for (auto* p : {white.get(), black.get()}) {
      beast::error_code ec;
      p->write(net::buffer(std::string(R"({"type":"ping"})")), ec);
      if (ec || !ws_read_until(*p, "pong", nullptr)) players_ok = false;
    }
  }
  std::this_thread::sleep_for(std::chrono::seconds(3));  // the server trims a little after
  const long after = pid > 0 ? rss_kib(pid) : -1;
  std::printf(
      "spectators: %d rounds of %d spectators joining and leaving at once; players %s; "
      "server RSS %ld KiB before, %ld KiB at the peak, %ld KiB 3 s after\n",
      rounds, spectators, players_ok ? "stayed connected" : "were DISCONNECTED", before, peak,
      after);
  return players_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string host = "127.0.0.1";
  int port = 0, games = 100, pace_ms = 60, flood = 0, seconds = 20, spectators = 0, rounds = 5,
      pid = 0, think_min = 0, think_max = 0, lobby = 0;
  bool deltas = false;
  std::string pool = "3+2";
  std::vector<uint16_t> ports;   // --port P1,P2,...: the instances of a cluster
  std::vector<Watched> watched;  // --pid NAME=PID,...
  const char* usage =
      "usage: toguz_load --port P [--host H] [--games N] [--pace-ms MS]\n"
      "       toguz_load --port P[,P2...] --games N --think-ms MIN-MAX --seconds S [--deltas] "
      "[--pid [NAME=]PID[,...]]\n"
      "       toguz_load --port P --flood N [--seconds S] [--token-in-url]\n"
      "       toguz_load --port P --spectators N [--rounds R] [--pid SERVER_PID]\n"
      "       toguz_load --port P --lobby N [--pool 3+2] [--pace-ms MS]\n";
  for (int i = 1; i < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--token-in-url" || a == "--deltas") {
      (a == "--deltas" ? deltas : g_token_in_url) = true;
      --i;
      continue;
    }
    if (i + 1 >= argc) {
      std::cerr << usage;
      return 2;
    }
    if (a == "--host")
      host = argv[i + 1];
    else if (a == "--port") {
      std::stringstream list(argv[i + 1]);
      for (std::string item; std::getline(list, item, ',');)
        ports.push_back(uint16_t(std::atoi(item.c_str())));
      port = ports.empty() ? 0 : ports[0];
      for (uint16_t p : ports)
        if (p == 0) port = 0;
    } else if (a == "--games")
      games = std::atoi(argv[i + 1]);
    else if (a == "--pace-ms")
      pace_ms = std::atoi(argv[i + 1]);
    else if (a == "--flood")
      flood = std::atoi(argv[i + 1]);
    else if (a == "--seconds")
      seconds = std::atoi(argv[i + 1]);
    else if (a == "--spectators")
      spectators = std::atoi(argv[i + 1]);
    else if (a == "--rounds")
      rounds = std::atoi(argv[i + 1]);
    else if (a == "--pid") {
      std::stringstream list(argv[i + 1]);
      for (std::string item; std::getline(list, item, ',');) {
        const size_t eq = item.find('=');
        Watched w;
        w.name = eq == std::string::npos ? "server" : item.substr(0, eq);
        w.pid = std::atoi(item.c_str() + (eq == std::string::npos ? 0 : eq + 1));
        watched.push_back(w);
      }
      pid = watched.empty() ? 0 : watched[0].pid;
    } else if (a == "--think-ms" &&
               std::sscanf(argv[i + 1], "%d-%d", &think_min, &think_max) == 2 && think_min >= 0 &&
               think_max > think_min)
      continue;
    else if (a == "--lobby")
      lobby = std::atoi(argv[i + 1]);
    else if (a == "--pool")
      pool = argv[i + 1];
    else {
      std::cerr << usage;
      return 2;
    }
  }
  if (port <= 0 || games <= 0) {
    std::cerr << usage;
    return 2;
  }
  try {
    if (flood > 0) return run_flood(host, uint16_t(port), flood, seconds);
    if (spectators > 0) return run_spectators(host, uint16_t(port), spectators, rounds, pid);
    if (lobby > 0) return toguz::load::run_lobby(host, uint16_t(port), lobby, pace_ms, pool);
  } catch (const std::exception& e) {
    std::cerr << "toguz_load: " << e.what() << "\n";
    return 1;
  }
  try {
    net::io_context ioc;
    Stats stats;
    Pace pace;
    pace.pace_ms = pace_ms;
    pace.think_min_ms = think_min;
    pace.think_max_ms = think_max;
    pace.deltas = deltas;
    const bool human = think_max > 0;
    const long rss_before = pid > 0 ? rss_kib(pid) : -1;
    const auto setup_start = Clock::now();
    const size_t n = ports.size();
    std::vector<std::unique_ptr<HttpClient>> https;
    std::vector<tcp::endpoint> eps;
    for (uint16_t p : ports) {
      https.push_back(std::make_unique<HttpClient>(host, p));
      eps.emplace_back(net::ip::make_address(host), p);
    }
    std::vector<std::shared_ptr<Player>> players;
    std::vector<tcp::endpoint> player_ep;  // the instance each player connects to
    for (int g = 0; g < games; ++g) {
      HttpClient& http = *https[size_t(g) % n];
      player_ep.push_back(eps[size_t(g) % n]);
      player_ep.push_back(eps[size_t(g + 1) % n]);
      json::value c = http.post("/api/games", R"({"mode":"online","name":"load-w"})");
      const std::string id(c.at("id").as_string());
      json::value j =
          http.post("/api/games/" + id + "/join",
                    json::serialize(json::object{{"invite", c.at("invite")}, {"name", "load-b"}}));
      players.push_back(std::make_shared<Player>(
          ioc, stats, "/ws/" + id, std::string(c.at("token").as_string()), g * 2 + 1, pace));
      players.push_back(std::make_shared<Player>(
          ioc, stats, "/ws/" + id, std::string(j.at("token").as_string()), g * 2 + 2, pace));
    }
    const double setup_s = std::chrono::duration<double>(Clock::now() - setup_start).count();
    const long rss_games = pid > 0 ? rss_kib(pid) : -1;
    auto& l = stats.latency_ms;
    auto pct = [&](double q) {
      return l.empty() ? 0.0 : l[std::min(l.size() - 1, size_t(q * double(l.size())))];
    };
    if (!human) {
      const auto start = Clock::now();
      for (size_t i = 0; i < players.size(); ++i) players[i]->start(player_ep[i]);
      ioc.run();
      const double secs = std::chrono::duration<double>(Clock::now() - start).count();
      std::sort(l.begin(), l.end());
      std::printf(
          "games %d (finished %llu), connections %d, moves %llu in %.2f s: %.0f moves/s; "
          "latency p50 %.2f ms, p99 %.2f ms, max %.2f ms; errors %llu\n",
          games, (unsigned long long)stats.games_done, games * 2, (unsigned long long)stats.moves,
          secs, double(stats.moves) / secs, pct(0.5), pct(0.99), l.empty() ? 0.0 : l.back(),
          (unsigned long long)stats.errors);
      return stats.games_done == uint64_t(games) ? 0 : 1;
    }
    // Human pace: at most 200 sockets are connecting at once (connected, no state yet), so a
    // burst of SYNs never overflows the server's listen queue; the measured seconds start once
    // each has had its first state.
    stats.measuring = false;
    size_t next = 0;
    net::steady_timer tick(ioc);
    auto connect_some = [&] {
      while (next < players.size() && next - size_t(stats.ready) - stats.errors < 200)
        players[next]->start(player_ep[next]), ++next;
    };
    const auto connect_start = Clock::now();
    Clock::time_point measure_start;
    double connect_s = 0;
    long rss_connected = -1, rss_peak = -1;
    uint64_t moves_before = 0;
    double server_cpu_before = 0, own_cpu_before = 0;
    bool started = false, gave_up = false;
    int ticks = 0;
    std::function<void()> on_tick = [&] {
      const auto now = Clock::now();
      connect_some();
      if (!started && uint64_t(stats.ready) + stats.errors >= players.size()) {
        started = true;
        stats.measuring = true;
        measure_start = now;
        connect_s = std::chrono::duration<double>(now - connect_start).count();
        rss_connected = rss_peak = pid > 0 ? rss_kib(pid) : -1;
        moves_before = stats.moves;
        server_cpu_before = cpu_seconds(pid);
        for (Watched& w : watched) w.begin();
        own_cpu_before = cpu_seconds(0);
      }
      if (started && pid > 0 && ++ticks % 10 == 0) {
        rss_peak = std::max(rss_peak, rss_kib(pid));
        for (Watched& w : watched) w.rss_peak = std::max(w.rss_peak, w.rss());
      }
      if (started && now - measure_start >= std::chrono::seconds(seconds)) return ioc.stop();
      if (!started && now - connect_start >= std::chrono::seconds(300)) {
        gave_up = true;
        return ioc.stop();
      }
      tick.expires_after(std::chrono::milliseconds(100));
      tick.async_wait([&](beast::error_code) { on_tick(); });
    };
    on_tick();
    ioc.run();
    if (gave_up) {
      std::printf("human pace: only %d of %zu connections had a state after 300 s; errors %llu\n",
                  stats.ready, players.size(), (unsigned long long)stats.errors);
      return 1;
    }
    const double secs = std::chrono::duration<double>(Clock::now() - measure_start).count();
    const double server_cpu = cpu_seconds(pid) - server_cpu_before;
    const double own_cpu = cpu_seconds(0) - own_cpu_before;
    const long rss_end = pid > 0 ? rss_kib(pid) : -1;
    const uint64_t moves = stats.moves - moves_before;
    std::sort(l.begin(), l.end());
    std::printf(
        "human pace (think %d-%d ms%s): games %d, connections %zu (created in %.1f s, connected "
        "in %.1f s); measured %.1f s: moves %llu (%.0f/s), latency p50 %.2f ms, p99 %.2f ms, "
        "max %.2f ms; errors %llu; games finished %llu\n",
        think_min, think_max, deltas ? ", deltas" : ", whole states", games, players.size(),
        setup_s, connect_s, secs, (unsigned long long)moves, double(moves) / secs, pct(0.5),
        pct(0.99), l.empty() ? 0.0 : l.back(), (unsigned long long)stats.errors,
        (unsigned long long)stats.games_done);
    if (watched.size() > 1 || n > 1) {
      double total = 0;
      for (const Watched& w : watched) {
        const double cpu = w.cpu_since();
        total += cpu;
        std::printf(
            "%s (pid %d%s): CPU %.1f s (%.0f%% of one core, %.0f us a move); memory %ld KiB "
            "connected, %ld peak, %ld at the end\n",
            w.name.c_str(), w.pid,
            process_tree(w.pid).size() > 1 ? " and its children, Pss" : ", RSS", cpu,
            100 * cpu / secs, moves ? 1e6 * cpu / double(moves) : 0, w.rss_connected, w.rss_peak,
            w.rss());
      }
      std::printf("all watched: CPU %.1f s (%.0f%% of one core); loadgen CPU %.1f s\n", total,
                  100 * total / secs, own_cpu);
    } else if (pid > 0)
      std::printf(
          "server: CPU %.1f s in the %.1f s (%.0f%% of one core, %.0f us a move), loadgen CPU "
          "%.1f s; RSS %ld KiB before, %ld with the games, %ld connected, %ld peak, %ld at the "
          "end: %.1f KiB a game (its room and two WebSockets)\n",
          server_cpu, secs, 100 * server_cpu / secs, moves ? 1e6 * server_cpu / double(moves) : 0,
          own_cpu, rss_before, rss_games, rss_connected, rss_peak, rss_end,
          double(rss_peak - rss_before) / games);
    return stats.errors == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "toguz_load: " << e.what() << "\n";
    return 1;
  }
}
