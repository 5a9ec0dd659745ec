// One WebSocket connection to a game (/ws/<id>): its hello (the seat from the token), its send
// queue, its reads handed to the game's messages (GamesSite::on_message), or in a cluster
// relayed to the instance that drives the game. A RoomClient for its room. IO thread only.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <deque>
#include <memory>
#include <string>

#include "net/ws_ops.h"
#include "site/games/games_site.h"

namespace toguz::site {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

// A client this far behind is dropped: a spectator early (it only watches), a player late (his
// states are coalesced, so only his own analysis and hints can pile up).
constexpr size_t kMaxQueuedSpectator = 64, kMaxQueuedPlayer = 512;
constexpr size_t kMaxQueuedBytesSpectator = 1 << 20, kMaxQueuedBytesPlayer = 2 << 20;
// What is not a state (analysis, hints, a review, errors, pongs) is never replaced by a newer
// one, so it is bounded far lower: a client this many bytes of it behind does not read. One
// message larger than this (a long game's review) still goes out when nothing else waits.
constexpr size_t kMaxQueuedOtherBytes = 256 << 10;

class GameSocket : public ClientSession,
                   public QueuedSocket,
                   public std::enable_shared_from_this<GameSocket> {
 public:
  GameSocket(GamesSite& games, tcp::socket&& socket);
  ~GameSocket() override;
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

  // In a cluster, a session of a game another instance drives relays (GamesCluster): `relay_game`
  // is set instead of `room` before start(), and the driver names the seat.
  std::string relay_game;
  uint64_t relay_conn = 0;  // this instance's number for the session
  const std::string& hello_token() const { return hello_token_; }
  void set_seat(Seat seat) { seat_ = seat; }
  // The instance took the relayed game over: the session attaches to its room here.
  void become_local(std::shared_ptr<Room> r);

 private:
  friend struct net::WsSessionOps;
  void do_write();
  void on_gone();
  void on_hello(std::string_view text);
  void on_text(const std::string& text);
  // Closes the socket once nothing has come from it for the config's silent_socket_seconds
  // (checked at the time it would run out, then again from the last message heard).
  void watch_silence();
  GamesSite& games_;
  const GamesServices& s_;
  websocket::stream<beast::tcp_stream> ws_;
  asio::steady_timer hello_timer_;
  asio::steady_timer silence_timer_;
  SteadyClock::time_point last_heard_ = SteadyClock::now();
  std::string peer_;  // the client's address
  Viewer viewer_;
  Seat seat_ = Seat::Spectator;
  std::string hello_token_;
  bool counted_ = false;         // in the site's sockets (SiteSockets::opened)
  uint64_t session_socket_ = 0;  // its number there
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
  bool writing_ = false;
  bool attached_ = false;
  bool gone_ = false;
  bool deltas_ = false;  // the hello said "deltas":true
};

}  // namespace toguz::site
