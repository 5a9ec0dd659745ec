#include "site/lobby/lobby_socket.h"

#include <utility>

#include "net/log.h"
#include "site/json_out.h"

namespace toguz::site {

LobbySocket::LobbySocket(const LobbySocketServices& services, tcp::socket&& socket)
    : s_(services), ws_(std::move(socket)) {}

void LobbySocket::start(http::request<http::string_body> req, Viewer viewer, std::string peer) {
  peer_ = std::move(peer);
  session_socket_ = s_.sockets.opened(peer_, *this, viewer, [weak = weak_from_this()] {
    if (auto s = weak.lock()) s->close();
  });
  counted_ = true;
  net::set_server_options(ws_, kMaxBody);
  ws_.async_accept(req,
                   [self = shared_from_this(), viewer = std::move(viewer)](beast::error_code ec) {
                     if (ec || self->s_.stopping) {
                       self->on_gone();
                       return;
                     }
                     self->rate_.window_start = std::chrono::steady_clock::now();
                     self->joined_ = true;
                     self->viewer_ = viewer;
                     self->s_.accounts.user_connected(viewer);
                     self->s_.lobby.join(*self, viewer, self->peer_);
                     net::WsSessionOps::read(self);
                   });
}

namespace {

// A lobby message that may start a game here (refused while the server drains).
bool starts_a_game(const json::object& msg) {
  const json::value* t = msg.if_contains("type");
  if (!t || !t->is_string()) return false;
  const std::string_view type = t->as_string();
  return type == "seek" || type == "accept" || type == "pool_join" || type == "challenge" ||
         type == "challenge_accept";
}

}  // namespace

// As on a game's socket, a handler that throws is logged and told, and the connection reads on.
void LobbySocket::on_text(const std::string& text) {
  if (gone_) return;
  try {
    json::value v;
    Refused why;
    const json::object* msg =
        check_message(text, s_.config.max_messages_per_second, rate_, &v, &why);
    if (!msg)
      send(why->message());
    else if (s_.draining && starts_a_game(*msg))
      send(Refusal("draining").message());
    else
      s_.lobby.handle(*this, *msg);
  } catch (const std::exception& e) {
    log(net::LogLevel::Error, "lobby", std::string("message handler: ") + e.what());
    send(Refusal("server_error", {{"detail", e.what()}}).message());
  }
}

void LobbySocket::send(std::string message) {
  if (gone_) return;
  if (queue_.size() >= kMaxQueuedLobby || queued_bytes_ + message.size() > kMaxQueuedBytesLobby) {
    log(net::LogLevel::Warn, "lobby",
        "send queue: closed a lobby socket of " + peer_ + " that does not read (" +
            std::to_string(queued_bytes_ + message.size()) + " bytes queued)");
    close();
    return;
  }
  const size_t size = message.size();
  queued_bytes_ += size;
  queue_.push_back(std::move(message));
  // May close this socket, or another of its address, when the address is over its budget.
  if (counted_) s_.sockets.queue_grew(peer_, size);
  if (!writing_ && !gone_) do_write();
}

void LobbySocket::do_write() {
  writing_ = true;
  ws_.text(true);
  ws_.async_write(boost::asio::buffer(queue_.front()),
                  [self = shared_from_this()](beast::error_code ec, size_t) {
                    const size_t size = self->queue_.front().size();
                    self->queued_bytes_ -= size;
                    if (self->counted_) self->s_.sockets.queue_shrank(self->peer_, size);
                    self->queue_.pop_front();
                    self->writing_ = !ec && !self->gone_ && !self->queue_.empty();
                    if (ec)
                      self->on_gone();
                    else if (self->writing_)
                      self->do_write();
                  });
}

void LobbySocket::close_over_budget(const std::string& why) {
  log(net::LogLevel::Warn, "lobby", "send queue: closed a lobby socket of " + peer_ + ": " + why);
  close();
}

void LobbySocket::close() {
  net::WsSessionOps::close(*this);
}

// Leaving the lobby takes the player's seeks away when this was his last socket. At shutdown
// the lobby is not told: it goes with the server.
void LobbySocket::on_gone() {
  if (gone_) return;
  gone_ = true;
  if (counted_) {
    counted_ = false;
    s_.sockets.closed(peer_, *this, std::exchange(session_socket_, 0));
  }
  if (joined_) s_.accounts.user_disconnected(viewer_);
  if (joined_ && !s_.stopping) s_.lobby.leave(*this);
  joined_ = false;
}

}  // namespace toguz::site
