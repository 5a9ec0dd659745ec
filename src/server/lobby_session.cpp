#include "server/lobby_session.h"

#include <utility>

#include "net/log.h"
#include "server/server_impl.h"
#include "site/json_out.h"

namespace toguz::server {

LobbySession::LobbySession(Server::Impl& server, tcp::socket&& socket)
    : server_(server), ws_(std::move(socket)) {}

void LobbySession::start(http::request<http::string_body> req, Viewer viewer, std::string peer) {
  peer_ = std::move(peer);
  ++server_.addresses[peer_].connections;
  server_.socket_opened(peer_, *this);
  counted_ = true;
  session_socket_ = server_.add_session_socket(viewer, [weak = weak_from_this()] {
    if (auto s = weak.lock()) s->close();
  });
  set_server_options(ws_);
  ws_.async_accept(req,
                   [self = shared_from_this(), viewer = std::move(viewer)](beast::error_code ec) {
                     if (ec || self->server_.stopped_io) {
                       self->on_gone();
                       return;
                     }
                     self->rate_.window_start = SteadyClock::now();
                     self->joined_ = true;
                     self->viewer_ = viewer;
                     self->server_.accounts_site->user_connected(viewer);
                     self->server_.lobby->join(*self, viewer, self->peer_);
                     WsSessionOps::read(self);
                   });
}

// As on a game's socket, a handler that throws is logged and told, and the connection reads on.
void LobbySession::on_text(const std::string& text) {
  if (gone_) return;
  try {
    json::value v;
    std::string why;
    const json::object* msg =
        check_message(text, server_.config.max_messages_per_second, rate_, &v, &why);
    if (!msg)
      send(error_message(why));
    else
      server_.lobby->handle(*this, *msg);
  } catch (const std::exception& e) {
    log(net::LogLevel::Error, "lobby", std::string("message handler: ") + e.what());
    send(error_message(std::string("server error: ") + e.what()));
  }
}

void LobbySession::send(std::string message) {
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
  if (counted_) server_.queue_grew(peer_, size);
  if (!writing_ && !gone_) do_write();
}

void LobbySession::do_write() {
  writing_ = true;
  ws_.text(true);
  ws_.async_write(asio::buffer(queue_.front()),
                  [self = shared_from_this()](beast::error_code ec, size_t) {
                    const size_t size = self->queue_.front().size();
                    self->queued_bytes_ -= size;
                    if (self->counted_) self->server_.queue_shrank(self->peer_, size);
                    self->queue_.pop_front();
                    self->writing_ = !ec && !self->gone_ && !self->queue_.empty();
                    if (ec)
                      self->on_gone();
                    else if (self->writing_)
                      self->do_write();
                  });
}

void LobbySession::close_over_budget(const std::string& why) {
  log(net::LogLevel::Warn, "lobby", "send queue: closed a lobby socket of " + peer_ + ": " + why);
  close();
}

void LobbySession::close() {
  WsSessionOps::close(*this);
}

// Leaving the lobby takes the player's seeks away when this was his last socket. At shutdown
// the lobby is not told: it goes with the server.
void LobbySession::on_gone() {
  if (gone_) return;
  gone_ = true;
  if (counted_) {
    counted_ = false;
    if (auto it = server_.addresses.find(peer_); it != server_.addresses.end())
      --it->second.connections;
    server_.socket_closed(peer_, *this);
  }
  server_.session_sockets.forget(std::exchange(session_socket_, 0));
  if (joined_) server_.accounts_site->user_disconnected(viewer_);
  if (joined_ && !server_.stopped_io) server_.lobby->leave(*this);
  joined_ = false;
}

}  // namespace toguz::server
