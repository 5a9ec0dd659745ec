// One WebSocket connection to the lobby (/ws/lobby): the Viewer comes from the handshake's
// session cookie, so there is no hello; every message passes the game socket's checks (rate,
// size, JSON) and goes to the Lobby. Its send queue drops a client that falls far behind.
// IO thread only.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <deque>
#include <memory>
#include <string>

#include "net/ws_ops.h"
#include "site/accounts/accounts_site.h"
#include "site/config.h"
#include "site/lobby/lobby.h"
#include "site/message_check.h"
#include "site/sockets.h"
#include "site/viewer.h"

namespace toguz::site {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = boost::asio::ip::tcp;

// A lobby client this far behind is dropped (it gets every seek's coming and going, a few
// hundred bytes each; its first message lists every seek, about 50 KB with 200 of them).
constexpr size_t kMaxQueuedLobby = 512, kMaxQueuedBytesLobby = 512 << 10;

// What a lobby socket needs of the site.
struct LobbySocketServices {
  const Config& config;
  SiteSockets& sockets;    // counted there with the games' sockets
  AccountsSite& accounts;  // who is online
  Lobby& lobby;
  const bool& stopping;  // the server shuts down: the lobby goes with it, untold
  const bool& draining;  // the server drains: what would start a game here is refused
};

class LobbySocket : public LobbyClient,
                    public QueuedSocket,
                    public std::enable_shared_from_this<LobbySocket> {
 public:
  LobbySocket(const LobbySocketServices& services, tcp::socket&& socket);
  // Accepts the upgrade `req` from the client at address `peer` (client_of) for `viewer`; the
  // lobby then sends its state.
  void start(http::request<http::string_body> req, Viewer viewer, std::string peer);
  void send(std::string message) override;
  void close();
  // The client's address, the key of every per-address limit on the lobby.
  const std::string& client_address() const { return peer_; }
  size_t queued_bytes() const override { return queued_bytes_; }
  void close_over_budget(const std::string& why) override;

 private:
  friend struct net::WsSessionOps;
  void do_write();
  void on_gone();
  void on_text(const std::string& text);
  const LobbySocketServices& s_;
  websocket::stream<beast::tcp_stream> ws_;
  std::string peer_;             // the client's address
  Viewer viewer_;                // online (user_connected) while joined
  bool counted_ = false;         // in the site's sockets (SiteSockets::opened)
  uint64_t session_socket_ = 0;  // its number there
  bool joined_ = false;          // in the lobby
  bool gone_ = false;
  MessageRate rate_;
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  size_t queued_bytes_ = 0;
  bool writing_ = false;
};

}  // namespace toguz::site
