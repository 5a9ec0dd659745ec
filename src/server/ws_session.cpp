#include "server/ws_session.h"

#include <utility>

#include "net/log.h"
#include "server/server_impl.h"
#include "site/json_out.h"

namespace toguz::server {

void set_server_options(websocket::stream<beast::tcp_stream>& ws) {
  beast::error_code ignored;
  beast::get_lowest_layer(ws).socket().set_option(
      asio::socket_base::send_buffer_size(kWsSendBuffer), ignored);
  ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  ws.read_message_max(kMaxBody);
  ws.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, "toguz"); }));
}

WsSession::WsSession(Server::Impl& server, tcp::socket&& socket)
    : server_(server), ws_(std::move(socket)), hello_timer_(ws_.get_executor()) {}

// A session is detached from its room when its connection fails or closes (on_gone); one
// still attached at shutdown dies with the io_context and must not call back into the server.
WsSession::~WsSession() = default;

void WsSession::start(http::request<http::string_body> req, std::shared_ptr<Room> r,
                      std::string peer, Viewer viewer) {
  room = std::move(r);
  peer_ = std::move(peer);
  viewer_ = std::move(viewer);
  address = peer_;
  user_id = viewer_.user_id;
  ++server_.addresses[peer_].connections;
  server_.accounts_site->user_connected(viewer_);
  counted_ = true;
  session_socket_ = server_.add_session_socket(viewer_, [weak = weak_from_this()] {
    if (auto s = weak.lock()) s->close();
  });
  server_.socket_opened(peer_, *this);
  budgeted_ = true;
  set_server_options(ws_);
  auto self = shared_from_this();
  ws_.async_accept(req, [self](beast::error_code ec) {
    if (ec) {
      self->on_gone();
      return;
    }
    self->rate.window_start = SteadyClock::now();
    // The hello must come soon: a socket that never says who it is does not stay.
    self->hello_timer_.expires_after(std::chrono::seconds(10));
    self->hello_timer_.async_wait([weak = std::weak_ptr<WsSession>(self)](beast::error_code ec) {
      auto s = weak.lock();
      if (!ec && s && !s->attached_) s->close();
    });
    WsSessionOps::read(self);
  });
}

// The first message: {"type":"hello","token":<secret>|null,"deltas":true|false}. It seats the
// session (a wrong or missing token makes a spectator) and attaches it to its room, which answers
// with the state.
void WsSession::on_hello(std::string_view text) {
  json::error_code ec;
  json::value v = json::parse(text, ec);
  const json::object* o = !ec && v.is_object() ? &v.as_object() : nullptr;
  const json::value* type = o ? o->if_contains("type") : nullptr;
  if (!type || !type->is_string() || type->as_string() != "hello") {
    send(error_message(R"(hello: the first message must be {"type":"hello","token":...})"));
    return;
  }
  const json::value* token = o->if_contains("token");
  if (token && !token->is_null() && !token->is_string()) {
    send(error_message("token: expected a string or null"));
    return;
  }
  const json::value* deltas = o->if_contains("deltas");
  if (deltas && !deltas->is_bool()) {
    send(error_message("deltas: expected true or false"));
    return;
  }
  deltas_ = deltas && deltas->as_bool();
  hello_token_ = token && token->is_string() ? std::string(token->as_string()) : "";
  if (!relay_game.empty()) {
    // Relayed (cluster.h): the driver sends whole states, whatever `deltas` asked for.
    hello_timer_.cancel();
    attached_ = true;
    server_.cluster->relay_hello(*this);
    return;
  }
  // The room may have left memory since the upgrade (sweep): take the one in the map now.
  if (auto current = server_.rooms->find(room->id)) room = std::move(current);
  seat_ = room->seat_for(hello_token_, viewer_);
  if (seat_ == Seat::Spectator && room->spectators >= server_.config.max_spectators_per_room) {
    send(error_message("this game has " + std::to_string(room->spectators) +
                       " spectators, the most it takes"));
    close();
    return;
  }
  hello_timer_.cancel();
  attached_ = true;
  room->attach(*this);
}

void WsSession::become_local(std::shared_ptr<Room> r) {
  room = std::move(r);
  relay_game.clear();
  sent_ply = -1;  // nothing from this room yet: its first message is the whole state
  seat_ = room->seat_for(hello_token_, viewer_);
  if (attached_ && !gone_) room->attach(*this);
}

// A handler that throws is the server's fault, not the connection's: it is logged, the client
// is told, and the connection reads on.
void WsSession::on_text(const std::string& text) {
  if (gone_) return;
  try {
    if (!attached_)
      on_hello(text);
    else if (!relay_game.empty())
      server_.cluster->relay_message(*this, text);
    else
      server_.on_message(*this, text);
  } catch (const std::exception& e) {
    log(net::LogLevel::Error, room ? room->id : "", std::string("message handler: ") + e.what());
    send(error_message(std::string("server error: ") + e.what()));
  }
}

void WsSession::send(std::string message) {
  push(std::move(message), false);
}

void WsSession::send_state(std::string message) {
  push(std::move(message), true);
}

bool WsSession::state_waiting() const {
  // The front entry may be on the wire: only later ones wait.
  for (auto it = queue_.begin() + (writing_ ? 1 : 0); it != queue_.end(); ++it)
    if (it->state) return true;
  return false;
}

std::string WsSession::over_cap(size_t size, bool state) const {
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

void WsSession::push(std::string message, bool state) {
  if (gone_) return;
  if (state) {
    // The front entry may be on the wire: only later ones can be replaced.
    for (auto it = queue_.begin() + (writing_ ? 1 : 0); it != queue_.end(); ++it) {
      if (!it->state) continue;
      queued_bytes_ -= it->text.size();
      if (budgeted_) server_.queue_shrank(peer_, it->text.size());
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
  if (budgeted_) server_.queue_grew(peer_, size);
  if (!writing_ && !gone_) do_write();
}

void WsSession::pop_front() {
  const Out& out = queue_.front();
  queued_bytes_ -= out.text.size();
  if (!out.state) other_bytes_ -= out.text.size();
  if (budgeted_) server_.queue_shrank(peer_, out.text.size());
  queue_.pop_front();
}

void WsSession::do_write() {
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

void WsSession::close_over_budget(const std::string& why) {
  log(net::LogLevel::Warn, room ? room->id : "",
      "send queue: closed a socket of " + peer_ + ": " + why);
  close();
}

void WsSession::close() {
  WsSessionOps::close(*this);
}

void WsSession::on_gone() {
  if (gone_) return;
  gone_ = true;
  hello_timer_.cancel();
  if (counted_) {
    counted_ = false;
    if (auto it = server_.addresses.find(peer_); it != server_.addresses.end())
      --it->second.connections;
    server_.accounts_site->user_disconnected(viewer_);
  }
  server_.session_sockets.forget(std::exchange(session_socket_, 0));
  if (budgeted_) {
    server_.socket_closed(peer_, *this);
    budgeted_ = false;
  }
  if (analysis) analysis->cancel();
  if (!attached_) return;
  if (!relay_game.empty()) {
    if (!server_.stopped_io) server_.cluster->relay_bye(*this);
    return;
  }
  room->detach(*this);
  if (!server_.stopped_io) server_.schedule_trim();
}

}  // namespace toguz::server

namespace toguz::server {

// ---- the send budget of each address ----

void Server::Impl::socket_opened(const std::string& peer, QueuedSocket& s) {
  addresses[peer].sockets.push_back(&s);
}

void Server::Impl::socket_closed(const std::string& peer, QueuedSocket& s) {
  auto it = addresses.find(peer);
  if (it == addresses.end()) return;
  std::erase(it->second.sockets, &s);
  queue_shrank(peer, s.queued_bytes());
}

void Server::Impl::queue_shrank(const std::string& peer, size_t bytes) {
  auto it = addresses.find(peer);
  if (it == addresses.end()) return;
  AddressState& a = it->second;
  a.queued_bytes -= std::min(a.queued_bytes, bytes);
  queued_total -= std::min(queued_total, bytes);
}

void Server::Impl::queue_grew(const std::string& peer, size_t bytes) {
  AddressState& a = addresses[peer];
  a.queued_bytes += bytes;
  queued_total += bytes;
  queued_peak = std::max(queued_peak, queued_total);
  // Over the budget: the socket that holds the most goes first (it is the one not reading),
  // so a reading socket of the same address is not closed for another's backlog.
  while (a.queued_bytes > config.max_queued_bytes_per_address && !a.sockets.empty()) {
    QueuedSocket* worst = *std::max_element(a.sockets.begin(), a.sockets.end(),
                                            [](const QueuedSocket* x, const QueuedSocket* y) {
                                              return x->queued_bytes() < y->queued_bytes();
                                            });
    const size_t before = a.queued_bytes;
    worst->close_over_budget(std::to_string(before) + " bytes queued for the address, over its " +
                             std::to_string(config.max_queued_bytes_per_address) +
                             "; this socket held " + std::to_string(worst->queued_bytes()));
    if (a.queued_bytes == before) break;  // nothing released: do not spin
  }
}

}  // namespace toguz::server
