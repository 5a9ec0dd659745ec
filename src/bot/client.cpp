#include "bot/client.h"

#include <algorithm>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace toguz::bot {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace json = boost::json;
using tcp = net::ip::tcp;

ServerAddress parse_server_url(const std::string& url) {
  const std::string scheme = "http://";
  if (url.rfind(scheme, 0) != 0)
    throw BotError("--server '" + url + "': expected http://HOST[:PORT] (plain HTTP)");
  std::string rest = url.substr(scheme.size());
  if (!rest.empty() && rest.back() == '/') rest.pop_back();
  if (rest.empty() || rest.find('/') != std::string::npos)
    throw BotError("--server '" + url + "': expected http://HOST[:PORT] with no path");
  ServerAddress a;
  const size_t colon = rest.rfind(':');
  a.host = rest.substr(0, colon);
  if (colon != std::string::npos) {
    const std::string port = rest.substr(colon + 1);
    char* end = nullptr;
    const long p = std::strtol(port.c_str(), &end, 10);
    if (port.empty() || *end != 0 || p < 1 || p > 65535)
      throw BotError("--server '" + url + "': the port must be 1..65535");
    a.port = uint16_t(p);
  }
  if (a.host.empty()) throw BotError("--server '" + url + "': no host");
  return a;
}

namespace {

constexpr auto kConnectTimeout = std::chrono::seconds(10);

std::string host_header(const ServerAddress& s) {
  return s.host + ":" + std::to_string(s.port);
}

// One HTTP request on a fresh connection, with a deadline.
http::response<http::string_body> http_request(const ServerAddress& server, http::verb method,
                                               const std::string& target, const std::string& body,
                                               const std::string& cookie) {
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  tcp::resolver resolver(ioc);
  http::request<http::string_body> req{method, target, 11};
  req.set(http::field::host, host_header(server));
  req.set(http::field::user_agent, "toguz-bot");
  if (!cookie.empty()) req.set(http::field::cookie, cookie);
  if (method == http::verb::post) req.set(http::field::content_type, "application/json");
  req.body() = body;
  req.prepare_payload();
  http::response<http::string_body> res;
  beast::flat_buffer buffer;
  beast::error_code result = net::error::timed_out;
  stream.expires_after(kConnectTimeout);
  resolver.async_resolve(
      server.host, std::to_string(server.port),
      [&](beast::error_code ec, tcp::resolver::results_type eps) {
        if (ec) {
          result = ec;
          return;
        }
        stream.async_connect(eps, [&](beast::error_code ec, const tcp::endpoint&) {
          if (ec) {
            result = ec;
            return;
          }
          http::async_write(stream, req, [&](beast::error_code ec, size_t) {
            if (ec) {
              result = ec;
              return;
            }
            http::async_read(stream, buffer, res,
                             [&](beast::error_code ec, size_t) { result = ec; });
          });
        });
      });
  ioc.run();
  if (result) throw BotError(target + ": " + host_header(server) + ": " + result.message());
  return res;
}

std::string error_of(const http::response<http::string_body>& res) {
  json::error_code ec;
  json::value v = json::parse(res.body(), ec);
  if (!ec && v.is_object())
    if (const json::value* e = v.as_object().if_contains("error"); e && e->is_string())
      return std::string(e->as_string());
  return "HTTP " + std::to_string(res.result_int());
}

// A lobby or game WebSocket that reconnects: opened() after each handshake, message() for each
// text frame, lost() after each drop; it retries with a backoff until close().
struct LinkHandlers {
  std::function<void()> opened;
  std::function<void(const std::string&)> message;
  std::function<void(const std::string&)> lost;
};

class Link : public std::enable_shared_from_this<Link> {
 public:
  using Ws = websocket::stream<beast::tcp_stream>;

  Link(net::io_context& ioc, ServerAddress server, std::string target, std::string cookie,
       int retry_max_ms, LinkHandlers handlers)
      : ioc_(ioc),
        timer_(ioc),
        resolver_(ioc),
        server_(std::move(server)),
        target_(std::move(target)),
        cookie_(std::move(cookie)),
        retry_max_ms_(retry_max_ms),
        handlers_(std::move(handlers)) {}

  void open() { connect(); }
  void set_cookie(std::string cookie) { cookie_ = std::move(cookie); }
  // Consecutive failed connections (0 after a handshake went through).
  int failures() const { return failures_; }
  bool is_open() const { return open_; }

  // Sends when open; a message sent while the link is down is dropped (the bot acts again on
  // the state the server sends after the reconnect).
  void send(std::string text) {
    if (!open_) return;
    out_.push_back(std::move(text));
    if (out_.size() == 1) write();
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    timer_.cancel();
    resolver_.cancel();
    if (ws_) {
      auto ws = ws_;
      if (open_)
        ws->async_close(websocket::close_code::normal, [ws](beast::error_code) {});
      else
        beast::get_lowest_layer(*ws).cancel();
    }
    open_ = false;
  }

 private:
  void connect() {
    if (closed_) return;
    const int gen = ++generation_;
    ws_ = std::make_shared<Ws>(ioc_);
    auto ws = ws_;
    ws->set_option(
        websocket::stream_base::decorator([cookie = cookie_](websocket::request_type& r) {
          r.set(http::field::user_agent, "toguz-bot");
          if (!cookie.empty()) r.set(http::field::cookie, cookie);
        }));
    auto self = shared_from_this();
    resolver_.async_resolve(
        server_.host, std::to_string(server_.port),
        [self, ws, gen](beast::error_code ec, tcp::resolver::results_type eps) {
          if (gen != self->generation_) return;
          if (ec) return self->lost("resolve: " + ec.message());
          beast::get_lowest_layer(*ws).expires_after(kConnectTimeout);
          beast::get_lowest_layer(*ws).async_connect(
              eps, [self, ws, gen](beast::error_code ec, const tcp::endpoint&) {
                if (gen != self->generation_) return;
                if (ec) return self->lost("connect: " + ec.message());
                beast::error_code ignored;
                beast::get_lowest_layer(*ws).socket().set_option(tcp::no_delay(true), ignored);
                beast::get_lowest_layer(*ws).expires_never();
                websocket::stream_base::timeout t{};
                t.handshake_timeout = kConnectTimeout;
                // pings at 5 s of silence, as the site's pages do: the server closes a game's
                // socket silent for --silent-socket-seconds (15 s by default)
                t.idle_timeout = std::chrono::seconds(10);
                t.keep_alive_pings = true;
                ws->set_option(t);
                ws->async_handshake(host_header(self->server_), self->target_,
                                    [self, ws, gen](beast::error_code ec) {
                                      if (gen != self->generation_) return;
                                      if (ec) return self->lost("handshake: " + ec.message());
                                      self->open_ = true;
                                      self->failures_ = 0;
                                      ws->text(true);
                                      self->read(ws, gen);
                                      self->handlers_.opened();
                                    });
              });
        });
  }

  void read(std::shared_ptr<Ws> ws, int gen) {
    auto self = shared_from_this();
    ws->async_read(buffer_, [self, ws, gen](beast::error_code ec, size_t) {
      if (gen != self->generation_) return;
      if (ec)
        return self->lost(ec == websocket::error::closed ? "closed by the server"
                                                         : "read: " + ec.message());
      std::string text = beast::buffers_to_string(self->buffer_.data());
      self->buffer_.consume(self->buffer_.size());
      self->handlers_.message(text);
      if (self->generation_ == gen && self->open_) self->read(ws, gen);
    });
  }

  void write() {
    auto self = shared_from_this();
    auto ws = ws_;
    const int gen = generation_;
    ws->async_write(net::buffer(out_.front()), [self, ws, gen](beast::error_code ec, size_t) {
      if (gen != self->generation_) return;
      if (ec) return self->lost("write: " + ec.message());
      self->out_.pop_front();
      if (!self->out_.empty()) self->write();
    });
  }

  void lost(const std::string& why) {
    ++generation_;  // the old connection's callbacks are ignored from here on
    const bool was_open = open_;
    open_ = false;
    out_.clear();
    buffer_.consume(buffer_.size());
    if (ws_) {
      beast::error_code ignored;
      beast::get_lowest_layer(*ws_).socket().close(ignored);
    }
    if (closed_) return;
    ++failures_;
    handlers_.lost(why);
    if (closed_) return;
    // 0.5 s, 1 s, 2 s, ... after consecutive failures; at once-ish after a drop of an open link.
    const int delay = was_open ? 500 : std::min(retry_max_ms_, 500 << std::min(failures_ - 1, 8));
    timer_.expires_after(std::chrono::milliseconds(delay));
    timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (!ec && !self->closed_) self->connect();
    });
  }

  net::io_context& ioc_;
  net::steady_timer timer_;
  tcp::resolver resolver_;
  ServerAddress server_;
  std::string target_, cookie_;
  int retry_max_ms_;
  LinkHandlers handlers_;
  std::shared_ptr<Ws> ws_;
  beast::flat_buffer buffer_;
  std::deque<std::string> out_;
  int generation_ = 0;
  int failures_ = 0;
  bool open_ = false, closed_ = false;
};

// One engine process on a thread of its own: think() hands it a move to find; the answer comes
// back through `done` (called on the engine thread; the caller posts it to the network thread).
class EngineThread {
 public:
  using Done = std::function<void(const Think&, const match::MoveReply&)>;

  EngineThread(const match::EngineSpec& spec, int handshake_ms, Done done)
      : done_(std::move(done)) {
    match::Settings settings;
    settings.handshake_ms = handshake_ms;
    player_ = match::make_player(spec, settings);
    thread_ = std::thread([this] { loop(); });
  }
  ~EngineThread() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    cv_.notify_one();
    player_->interrupt();
    thread_.join();
  }

  bool busy() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return job_.has_value() || running_;
  }
  void think(Think t) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = std::move(t);
    }
    cv_.notify_one();
  }

 private:
  void loop() {
    bool started = false;
    for (;;) {
      Think t;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        cv_.wait(lock, [&] { return stop_ || job_.has_value(); });
        if (stop_) break;
        t = std::move(*job_);
        job_.reset();
        running_ = true;
      }
      match::MoveReply reply;
      std::string why;
      if (!started || !(t.game.rules() == rules_)) {
        started = player_->new_game(t.game.rules(), &why);
        rules_ = t.game.rules();
      }
      if (!started) {
        reply.status = match::ReplyStatus::Crashed;
        reply.error = why;
      } else {
        reply = player_->think(t.game, t.request);
        // A crashed or hung engine was stopped: the next think starts it again.
        if (reply.status != match::ReplyStatus::Ok) started = false;
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        running_ = false;
        if (stop_) break;
      }
      done_(t, reply);
    }
    player_->shutdown();
  }

  Done done_;
  std::unique_ptr<match::Player> player_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::optional<Think> job_;
  bool running_ = false, stop_ = false;
  Rules rules_;
  std::thread thread_;
};

}  // namespace

// Everything runs on the thread that calls run() or play(); the engine threads post their
// answers to it, stop() posts itself to it.
struct Bot::Impl {
  Bot& bot;
  BotConfig cfg;
  net::io_context ioc;
  std::optional<net::executor_work_guard<net::io_context::executor_type>> work;
  std::string cookie;
  LobbyBrain lobby_brain;
  std::shared_ptr<Link> lobby;
  struct GameRun {
    explicit GameRun(net::io_context& ioc) : timer(ioc) {}
    GameBrain brain;
    std::shared_ptr<Link> link;
    std::unique_ptr<EngineThread> engine;
    net::steady_timer timer;  // a paced or repeated answer waits on it
    std::string pending;      // that answer
    std::chrono::steady_clock::time_point last_send{};
  };
  std::map<std::string, std::unique_ptr<GameRun>> games;
  int stops = 0;
  bool lobby_mode = false;
  std::chrono::steady_clock::time_point last_login = std::chrono::steady_clock::now();

  Impl(Bot& b, BotConfig c) : bot(b), cfg(std::move(c)), lobby_brain(cfg.filters) {}

  void log(const std::string& line) {
    if (!line.empty()) cfg.log(line);
  }

  void start_game(const std::string& id, const std::string& token) {
    if (games.count(id)) return;
    auto run = std::make_unique<GameRun>(ioc);
    run->brain = GameBrain(cfg.timing);
    GameRun* g = run.get();
    run->engine = std::make_unique<EngineThread>(
        cfg.engine, cfg.handshake_ms, [this, id](const Think& t, const match::MoveReply& reply) {
          net::post(ioc, [this, id, t, reply] { on_engine(id, t, reply); });
        });
    LinkHandlers h;
    // A handler may still run after end_game freed the run (a read completed before the link
    // closed): each one first checks that its run is still the game's.
    h.opened = [this, g, id, token] {
      if (!running(id, g)) return;
      g->link->send(json::serialize(json::object{{"type", "hello"}, {"token", token}}));
    };
    h.message = [this, g, id](const std::string& text) {
      if (running(id, g)) on_game_message(id, g, text);
    };
    h.lost = [this, g, id](const std::string& why) {
      if (!running(id, g)) return;
      log("game " + id + ": " + why + "; reconnecting");
      // A think in progress is answered on the new connection; otherwise the state the server
      // sends after the hello is thought about afresh.
      if (!g->engine->busy()) g->brain.reconnected();
      if (g->link->failures() >= 20) {
        log("game " + id + ": giving up after 20 failed connections");
        end_game(id);
      }
    };
    run->link = std::make_shared<Link>(ioc, cfg.server, "/ws/" + id, cookie, cfg.retry_max_ms,
                                       std::move(h));
    games[id] = std::move(run);
    g->link->open();
  }

  bool running(const std::string& id, const GameRun* g) const {
    auto it = games.find(id);
    return it != games.end() && it->second.get() == g;
  }

  void on_game_message(const std::string& id, GameRun* g, const std::string& text) {
    GameReaction r = g->brain.on_message(text);
    if (r.over) bot.finished_++;
    log(r.log.empty() ? "" : "game " + id + ": " + r.log);
    if (r.think) g->engine->think(std::move(*r.think));
    if (r.resend) send_answer(id, g, std::move(*r.resend), std::chrono::milliseconds(500));
    if (r.over) end_game(id);
  }

  void on_engine(const std::string& id, const Think& t, const match::MoveReply& reply) {
    auto it = games.find(id);
    if (it == games.end()) return;
    std::string why;
    const std::string msg = it->second->brain.answer(t, reply, &why);
    if (!why.empty()) log("game " + id + ": " + why);
    send_answer(id, it->second.get(), msg, std::chrono::milliseconds(0));
  }

  // Sends a move at least kAnswerGap after the previous one and `delay` from now: the server
  // refuses more than 20 messages a second, and an engine that answers at once would pass it.
  void send_answer(const std::string& id, GameRun* g, std::string msg,
                   std::chrono::milliseconds delay) {
    constexpr auto kAnswerGap = std::chrono::milliseconds(60);
    const auto now = std::chrono::steady_clock::now();
    const auto at = std::max(now + delay, g->last_send + kAnswerGap);
    g->pending = std::move(msg);
    if (at <= now) return flush_answer(g);
    g->timer.expires_at(at);
    g->timer.async_wait([this, id](beast::error_code ec) {
      auto it = games.find(id);
      if (!ec && it != games.end()) flush_answer(it->second.get());
    });
  }
  void flush_answer(GameRun* g) {
    if (g->pending.empty()) return;
    g->link->send(std::move(g->pending));
    g->pending.clear();
    g->last_send = std::chrono::steady_clock::now();
  }

  // Closes the game's socket and stops its engine; the lobby gets the place back.
  void end_game(const std::string& id) {
    auto it = games.find(id);
    if (it == games.end()) return;
    std::unique_ptr<GameRun> g = std::move(it->second);
    games.erase(it);
    g->link->close();
    lobby_brain.game_ended(id);
    // The engine thread may be about to post an answer: its Impl and ioc outlive it, and the
    // answer finds no game.
    g->engine.reset();
    maybe_finish();
  }

  void open_lobby() {
    if (stops > 0) return;
    LinkHandlers h;
    h.opened = [this] { log("lobby: connected"); };
    h.message = [this](const std::string& text) { on_lobby_message(text); };
    h.lost = [this](const std::string& why) { log("lobby: " + why + "; reconnecting"); };
    lobby = std::make_shared<Link>(ioc, cfg.server, "/ws/lobby", cookie, cfg.retry_max_ms,
                                   std::move(h));
    lobby->open();
  }

  void on_lobby_message(const std::string& text) {
    // The session expired: log in again and reconnect with the new cookie.
    json::error_code ec;
    json::value v = json::parse(text, ec);
    if (!ec && v.is_object() && v.as_object().if_contains("type") &&
        v.as_object().at("type") == "lobby") {
      const json::value* you = v.as_object().if_contains("you");
      const auto now = std::chrono::steady_clock::now();
      if ((!you || you->is_null()) && now - last_login > std::chrono::minutes(1)) {
        last_login = now;
        log("lobby: not logged in any more; logging in again");
        try {
          cookie = login(cfg.server, cfg.username, cfg.password);
          lobby->set_cookie(cookie);
        } catch (const std::exception& e) {
          log(std::string("lobby: ") + e.what());
        }
        auto old = lobby;
        old->close();
        open_lobby();
        return;
      }
      log("lobby: in as " + std::string(you->is_string() ? you->as_string() : ""));
    }
    LobbyReaction r = lobby_brain.on_message(text);
    log(r.log.empty() ? "" : "lobby: " + r.log);
    for (auto& m : r.send) lobby->send(m);
    if (r.start) start_game(r.start->game, r.start->token);
  }

  void on_stop() {
    ++stops;
    lobby_brain.close();
    if (lobby) {
      lobby->close();
      lobby.reset();
    }
    if (stops == 1 && !games.empty()) {
      log("stopping: no new games; " + std::to_string(games.size()) +
          " in progress are played to the end (stop again to leave them now)");
    } else {
      while (!games.empty()) end_game(games.begin()->first);
    }
    maybe_finish();
  }

  void maybe_finish() {
    if ((stops > 0 || !lobby_mode) && games.empty()) work.reset();
  }
};

std::string login(const ServerAddress& server, const std::string& username,
                  const std::string& password) {
  const std::string body =
      json::serialize(json::object{{"username", username}, {"password", password}});
  auto res = http_request(server, http::verb::post, "/api/login", body, "");
  if (res.result() != http::status::ok)
    throw BotError("login as " + username + ": " + error_of(res));
  for (const auto& f : res.base()) {
    if (f.name() != http::field::set_cookie) continue;
    const std::string_view v = f.value();
    if (v.rfind("toguz_session=", 0) == 0) return std::string(v.substr(0, v.find(';')));
  }
  throw BotError("login as " + username + ": the answer set no toguz_session cookie");
}

Bot::Bot(BotConfig config) : impl_(std::make_unique<Impl>(*this, std::move(config))) {}
Bot::~Bot() = default;

void Bot::run() {
  Impl& m = *impl_;
  m.cookie = login(m.cfg.server, m.cfg.username, m.cfg.password);
  m.log("logged in as " + m.cfg.username);
  try {
    auto res =
        http_request(m.cfg.server, http::verb::get, "/api/users/" + m.cfg.username, "", m.cookie);
    json::error_code ec;
    json::value v = json::parse(res.body(), ec);
    const json::value* bot = !ec && v.is_object() ? v.as_object().if_contains("bot") : nullptr;
    if (!bot || !bot->is_bool() || !bot->as_bool())
      m.log("warning: the account " + m.cfg.username + " is not marked as a bot");
  } catch (const std::exception&) {
  }
  m.lobby_mode = true;
  m.work.emplace(m.ioc.get_executor());
  net::post(m.ioc, [&m] { m.open_lobby(); });
  m.ioc.run();
  m.ioc.restart();
}

void Bot::play(const std::string& game, const std::string& token, const std::string& cookie) {
  Impl& m = *impl_;
  m.cookie = cookie;
  m.work.emplace(m.ioc.get_executor());
  net::post(m.ioc, [&m, game, token] { m.start_game(game, token); });
  m.ioc.run();
  m.ioc.restart();
}

void Bot::stop() {
  Impl* m = impl_.get();
  net::post(m->ioc, [m] { m->on_stop(); });
}

}  // namespace toguz::bot
