// One WebSocket connection to a game (/ws/<id>): its hello (the seat from the token), its send
// queue, its reads handed to the message handlers. A RoomClient for its room. IO thread only.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <deque>
#include <memory>
#include <string>

#include "server/message_check.h"
#include "server/server.h"
#include "site/games/room.h"

namespace toguz::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

constexpr size_t kMaxBody = 64 * 1024;    // HTTP request bodies (413 above)
constexpr size_t kMaxMessage = 4 * 1024;  // WebSocket messages (error above)
// A client this far behind is dropped: a spectator early (it only watches), a player late (his
// states are coalesced, so only his own analysis and hints can pile up).
constexpr size_t kMaxQueuedSpectator = 64, kMaxQueuedPlayer = 512;
constexpr size_t kMaxQueuedBytesSpectator = 1 << 20, kMaxQueuedBytesPlayer = 2 << 20;
// What is not a state (analysis, hints, a review, errors, pongs) is never replaced by a newer
// one, so it is bounded far lower: a client this many bytes of it behind does not read. One
// message larger than this (a long game's review) still goes out when nothing else waits.
constexpr size_t kMaxQueuedOtherBytes = 256 << 10;
// The kernel's send buffer of an upgraded socket, fixed rather than autotuned (on loopback and
// fast links Linux grows it to 4 MiB): a socket that does not read then holds at most this in
// the kernel, and what waits beyond it is in its queue, counted by its address's budget.
constexpr int kWsSendBuffer = 128 << 10;

// The server's options on an accepted WebSocket stream: the suggested timeouts, messages up to
// kMaxBody (above it the connection closes; above kMaxMessage the handler refuses), its name,
// the kernel's send buffer (kWsSendBuffer).
void set_server_options(websocket::stream<beast::tcp_stream>& ws);
// What a game's socket and the lobby's do alike, for a session class S with ws_, buffer_,
// gone_, on_text(text) and on_gone() (S befriends it).
struct WsSessionOps {
  // Reads the messages one after another, each to on_text while the session is not gone; a
  // read error is on_gone. `self` is held while a read waits.
  template <class S>
  static void read(std::shared_ptr<S> self) {
    S& s = *self;
    s.ws_.async_read(s.buffer_, [self = std::move(self)](beast::error_code ec, size_t) mutable {
      if (ec) {
        self->on_gone();
        return;
      }
      const std::string text = beast::buffers_to_string(self->buffer_.data());
      self->buffer_.consume(self->buffer_.size());
      self->on_text(text);
      if (!self->gone_) read(std::move(self));
    });
  }
  // Gone now (on_gone), and the socket closed.
  template <class S>
  static void close(S& s) {
    if (s.gone_) return;
    s.on_gone();
    beast::error_code ec;
    beast::get_lowest_layer(s.ws_).socket().close(ec);
  }
};

// A WebSocket's send queue as its address's budget sees it (game and lobby sockets).
class QueuedSocket {
 public:
  virtual ~QueuedSocket() = default;
  virtual size_t queued_bytes() const = 0;
  // Closes the socket because its address is over its budget; `why` is logged.
  virtual void close_over_budget(const std::string& why) = 0;
};

// A client that sends messages to a room (message_handlers.cpp): a WebSocket of this instance,
// or in a cluster one relayed from another instance (cluster.h).
class ClientSession : public RoomClient {
 public:
  virtual std::shared_ptr<ClientSession> client_ptr() = 0;
  // The client's address (Server::Impl::client_of: behind a trusted proxy, the one it names),
  // the key of every per-address limit on what the client asks for.
  virtual const std::string& client_address() const = 0;

  std::shared_ptr<Room> room;
  std::shared_ptr<engine_work::Job>
      analysis;               // the running analyze stream, if any (one per connection)
  bool hint_pending = false;  // a hint is queued or searching (one at a time)
  MessageRate rate;
  // Who the client is, for the per-client limits: its address ("" when unknown: a relayed
  // socket) and its account (0: anonymous).
  std::string address;
  int64_t user_id = 0;
};

class WsSession : public ClientSession,
                  public QueuedSocket,
                  public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(Server::Impl& server, tcp::socket&& socket);
  ~WsSession() override;
  // Accepts the upgrade `req` for `room` from the client at address `peer` (client_of) and
  // `viewer` (the account of the handshake's session cookie, kept for the connection's life);
  // the first message (hello) then names the seat and attaches the session.
  void start(http::request<http::string_body> req, std::shared_ptr<Room> room, std::string peer,
             Viewer viewer);
  const Viewer& viewer() const { return viewer_; }
  Seat seat() const override { return seat_; }
  void send(std::string message) override;
  void send_state(std::string message) override;
  void close() override;
  bool wants_deltas() const override { return deltas_; }
  bool state_waiting() const override;
  size_t queued() const { return queue_.size(); }
  size_t queued_bytes() const override { return queued_bytes_; }
  void close_over_budget(const std::string& why) override;
  std::shared_ptr<ClientSession> client_ptr() override { return shared_from_this(); }
  const std::string& client_address() const override { return peer_; }

  // In a cluster, a session of a game another instance drives relays (cluster.h): `relay_game`
  // is set instead of `room` before start(), and the driver names the seat.
  std::string relay_game;
  uint64_t relay_conn = 0;  // this instance's number for the session
  const std::string& hello_token() const { return hello_token_; }
  void set_seat(Seat seat) { seat_ = seat; }
  // The instance took the relayed game over: the session attaches to its room here.
  void become_local(std::shared_ptr<Room> r);

 private:
  friend struct WsSessionOps;
  void do_write();
  void on_gone();
  void on_hello(std::string_view text);
  void on_text(const std::string& text);
  Server::Impl& server_;
  websocket::stream<beast::tcp_stream> ws_;
  asio::steady_timer hello_timer_;
  std::string peer_;  // the client's address
  Viewer viewer_;
  Seat seat_ = Seat::Spectator;
  std::string hello_token_;
  bool counted_ = false;         // in addresses[peer_].connections
  uint64_t session_socket_ = 0;  // in server_.session_sockets (0: anonymous or gone)
  beast::flat_buffer buffer_;
  struct Out {
    std::string text;
    bool state;
  };
  void push(std::string message, bool state);
  // The front entry left the queue (written, or its write failed).
  void pop_front();
  // Why a message of `size` bytes cannot be queued now ("" when it can).
  std::string over_cap(size_t size, bool state) const;
  std::deque<Out> queue_;
  size_t queued_bytes_ = 0;
  size_t other_bytes_ = 0;  // of queued_bytes_, what is not a state
  bool budgeted_ = false;   // registered with its address's budget (socket_opened)
  bool writing_ = false;
  bool attached_ = false;
  bool gone_ = false;
  bool deltas_ = false;  // the hello said "deltas":true
};

}  // namespace toguz::server
