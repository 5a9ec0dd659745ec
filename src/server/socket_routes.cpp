// The site's socket endpoints, the WebSocket side of the route table: an upgrade the listener
// (net/http_listener.h) hands over becomes a lobby or a game session, or is refused.
#include "net/log.h"
#include "server/lobby_session.h"
#include "server/server_impl.h"
#include "site/json_out.h"

namespace toguz::server {

http::response<http::string_body> Server::Impl::refusal(http::status status,
                                                        const std::string& message) const {
  return error_response(status, message);
}

std::optional<http::response<http::string_body>> Server::Impl::upgrade(
    http::request<http::string_body> req, const std::string& client,
    boost::beast::tcp_stream& stream) {
  // /ws/<id>: the token comes in the first message ("hello"), never in the URL.
  const std::string target(req.target());
  const std::string path = target.substr(0, target.find('?'));
  if (!origin_allowed(req))
    return error_response(http::status::forbidden, "Origin: not this server's");
  // /ws/lobby: the lobby, whose player is the session cookie's.
  const bool lobby_socket = path == "/ws/lobby";
  std::shared_ptr<Room> room;
  std::string relay;  // in a cluster: the game another instance drives
  if (!lobby_socket && path.rfind("/ws/", 0) == 0) {
    const std::string id = path.substr(4);
    room = rooms->find(id);
    if (!room && cluster && !cluster->driver_elsewhere(id).empty()) relay = id;
  }
  if (!lobby_socket && !room && relay.empty())
    return error_response(http::status::not_found, "no such game");
  AddressState& a = addresses[client];
  if (a.connections >= config.max_connections_per_address) {
    log(net::LogLevel::Debug, "", "socket refused: too many connections from " + client);
    return error_response(http::status::service_unavailable,
                          "too many connections from this address (" +
                              std::to_string(config.max_connections_per_address) + ")");
  }
  Viewer viewer = accounts_site->viewer_of(req);
  if (lobby_socket) {
    std::make_shared<LobbySession>(*this, stream.release_socket())
        ->start(std::move(req), viewer, client);
    return std::nullopt;
  }
  auto ws = std::make_shared<WsSession>(*this, stream.release_socket());
  ws->relay_game = relay;
  ws->start(std::move(req), room, client, std::move(viewer));
  return std::nullopt;
}

}  // namespace toguz::server
