#include "site/games/game_socket.h"

#include <utility>

#include "net/log.h"
#include "site/json_out.h"
#include "site/refusal.h"

namespace toguz::site {

GameSocket::GameSocket(GamesSite& games, tcp::socket&& socket)
    : games_(games),
      s_(games.services()),
      ws_(std::move(socket)),
      hello_timer_(ws_.get_executor()),
      silence_timer_(ws_.get_executor()) {}

// A session is detached from its room when its connection fails or closes (on_gone); one
// still attached at shutdown dies with the io_context and must not call back into the server.
GameSocket::~GameSocket() = default;

void GameSocket::start(http::request<http::string_body> req, std::shared_ptr<Room> r,
                       std::string peer, Viewer viewer) {
  room = std::move(r);
  peer_ = std::move(peer);
  viewer_ = std::move(viewer);
  address = peer_;
  user_id = viewer_.user_id;
  session_socket_ = s_.sockets.opened(peer_, *this, viewer_, [weak = weak_from_this()] {
    if (auto s = weak.lock()) s->close();
  });
  counted_ = true;
  s_.accounts.user_connected(viewer_);
  net::set_server_options(ws_, kMaxBody);
  // A ping frame (a program's keep-alive, not the page's "ping" message) is heard too.
  ws_.control_callback([weak = weak_from_this()](websocket::frame_type, beast::string_view) {
    if (auto s = weak.lock()) s->last_heard_ = SteadyClock::now();
  });
  auto self = shared_from_this();
  ws_.async_accept(req, [self](beast::error_code ec) {
    if (ec) {
      self->on_gone();
      return;
    }
    self->rate.window_start = SteadyClock::now();
    // The hello must come soon: a socket that never says who it is does not stay.
    self->hello_timer_.expires_after(std::chrono::seconds(10));
    self->hello_timer_.async_wait([weak = std::weak_ptr<GameSocket>(self)](beast::error_code ec) {
      auto s = weak.lock();
      if (!ec && s && !s->attached_) s->close();
    });
    self->last_heard_ = SteadyClock::now();
    self->watch_silence();
    net::WsSessionOps::read(self);
  });
}

void GameSocket::watch_silence() {
  silence_timer_.expires_at(last_heard_ + std::chrono::seconds(s_.config.silent_socket_seconds));
  silence_timer_.async_wait([weak = weak_from_this()](beast::error_code ec) {
    auto s = weak.lock();
    if (ec || !s || s->gone_) return;
    if (SteadyClock::now() - s->last_heard_ <
        std::chrono::seconds(s->s_.config.silent_socket_seconds)) {
      s->watch_silence();
      return;
    }
    log(net::LogLevel::Info, s->room ? s->room->id : "",
        "closed a socket of " + s->peer_ + " silent for " +
            std::to_string(s->s_.config.silent_socket_seconds) + " s");
    s->close();
  });
}

// The first message: {"type":"hello","token":<secret>|null,"deltas":true|false}. It seats the
// session (a wrong or missing token makes a spectator) and attaches it to its room, which answers
// with the state.
void GameSocket::on_hello(std::string_view text) {
  json::error_code ec;
  json::value v = json::parse(text, ec);
  const json::object* o = !ec && v.is_object() ? &v.as_object() : nullptr;
  const json::value* type = o ? o->if_contains("type") : nullptr;
  if (!type || !type->is_string() || type->as_string() != "hello") {
    send(
        Refusal("bad_message", {{"detail", R"({"type":"hello","token":...})"}}, "hello").message());
    return;
  }
  const json::value* token = o->if_contains("token");
  if (token && !token->is_null() && !token->is_string()) {
    send(Refusal("bad_token").message());
    return;
  }
  const json::value* deltas = o->if_contains("deltas");
  if (deltas && !deltas->is_bool()) {
    send(Refusal("field_type", {{"field", "deltas"}}, "bool").message());
    return;
  }
  deltas_ = deltas && deltas->as_bool();
  hello_token_ = token && token->is_string() ? std::string(token->as_string()) : "";
  if (!relay_game.empty()) {
    // Relayed (cluster.h): the driver sends whole states, whatever `deltas` asked for.
    hello_timer_.cancel();
    attached_ = true;
    s_.cluster->relay_hello(*this);
    return;
  }
  // The room may have left memory since the upgrade (sweep): take the one in the map now.
  if (auto current = s_.rooms.find(room->id)) room = std::move(current);
  seat_ = room->seat_for(hello_token_, viewer_);
  if (seat_ == Seat::Spectator && room->spectators >= s_.config.max_spectators_per_room) {
    send(Refusal("spectators_full", {{"n", std::to_string(room->spectators)}}).message());
    close();
    return;
  }
  hello_timer_.cancel();
  attached_ = true;
  room->attach(*this);
}

void GameSocket::become_local(std::shared_ptr<Room> r) {
  room = std::move(r);
  relay_game.clear();
  sent_ply = -1;  // nothing from this room yet: its first message is the whole state
  seat_ = room->seat_for(hello_token_, viewer_);
  if (attached_ && !gone_) room->attach(*this);
}

// A handler that throws is the server's fault, not the connection's: it is logged, the client
// is told, and the connection reads on.
void GameSocket::on_text(const std::string& text) {
  if (gone_) return;
  last_heard_ = SteadyClock::now();
  try {
    if (!attached_)
      on_hello(text);
    else if (!relay_game.empty())
      s_.cluster->relay_message(*this, text);
    else
      games_.on_message(*this, text);
  } catch (const std::exception& e) {
    log(net::LogLevel::Error, room ? room->id : "", std::string("message handler: ") + e.what());
    send(Refusal("server_error", {{"detail", e.what()}}).message());
  }
}

void GameSocket::send(std::string message) {
  push(std::move(message), false);
}

void GameSocket::send_state(std::string message) {
  push(std::move(message), true);
}

bool GameSocket::state_waiting() const {
  // The front entry may be on the wire: only later ones wait.
  for (auto it = queue_.begin() + (writing_ ? 1 : 0); it != queue_.end(); ++it)
    if (it->state) return true;
  return false;
}

std::string GameSocket::over_cap(size_t size, bool state) const {
  const bool watcher = seat_ == Seat::Spectator;
  if (queue_.size() >= (watcher ? kMaxQueuedSpectator : kMaxQueuedPlayer))
    return std::to_string(queue_.size()) + " messages queued";
  if (queued_bytes_ + size > (watcher ? kMaxQueuedBytesSpectator : kMaxQueuedBytesPlayer))
    return std::to_string(queued_bytes_ + size) + " bytes queued";
  // A single message over the cap goes out when nothing else that is not a state waits.
  if (!state && other_bytes_ > 0 && other_bytes_ + size > kMaxQueuedOtherBytes)
    return std::to_string(other_bytes_ + size) + " bytes of messages other than states queued";
  return "";
}

void GameSocket::push(std::string message, bool state) {
  if (gone_) return;
  if (state) {
    // The front entry may be on the wire: only later ones can be replaced.
    for (auto it = queue_.begin() + (writing_ ? 1 : 0); it != queue_.end(); ++it) {
      if (!it->state) continue;
      queued_bytes_ -= it->text.size();
      if (counted_) s_.sockets.queue_shrank(peer_, it->text.size());
      queue_.erase(it);
      break;
    }
  }
  if (const std::string why = over_cap(message.size(), state); !why.empty()) {
    log(net::LogLevel::Warn, room ? room->id : "",
        "send queue: closed a socket of " + peer_ + " that does not read (" + why + ")");
    close();
    return;
  }
  const size_t size = message.size();
  queued_bytes_ += size;
  if (!state) other_bytes_ += size;
  queue_.push_back({std::move(message), state});
  // May close this socket, or another of its address, when the address is over its budget.
  if (counted_) s_.sockets.queue_grew(peer_, size);
  if (!writing_ && !gone_) do_write();
}

void GameSocket::pop_front() {
  const Out& out = queue_.front();
  queued_bytes_ -= out.text.size();
  if (!out.state) other_bytes_ -= out.text.size();
  if (counted_) s_.sockets.queue_shrank(peer_, out.text.size());
  queue_.pop_front();
}

void GameSocket::do_write() {
  writing_ = true;
  ws_.text(true);
  ws_.async_write(asio::buffer(queue_.front().text),
                  [self = shared_from_this()](beast::error_code ec, size_t) {
                    self->pop_front();
                    if (ec) {
                      self->writing_ = false;
                      self->on_gone();
                      return;
                    }
                    if (!self->queue_.empty() && !self->gone_)
                      self->do_write();
                    else
                      self->writing_ = false;
                  });
}

void GameSocket::close_over_budget(const std::string& why) {
  log(net::LogLevel::Warn, room ? room->id : "",
      "send queue: closed a socket of " + peer_ + ": " + why);
  close();
}

void GameSocket::close() {
  net::WsSessionOps::close(*this);
}

void GameSocket::on_gone() {
  if (gone_) return;
  gone_ = true;
  hello_timer_.cancel();
  silence_timer_.cancel();
  if (counted_) {
    counted_ = false;
    s_.accounts.user_disconnected(viewer_);
    s_.sockets.closed(peer_, *this, std::exchange(session_socket_, 0));
  }
  if (analysis) analysis->cancel();
  if (!attached_) return;
  if (!relay_game.empty()) {
    if (!s_.stopping) s_.cluster->relay_bye(*this);
    return;
  }
  room->detach(*this);
  if (!s_.stopping && s_.socket_left) s_.socket_left();
}

}  // namespace toguz::site
