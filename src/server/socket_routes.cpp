// The site's socket endpoints, the WebSocket side of the route table: an upgrade the listener
// (net/http_listener.h) hands over becomes a lobby or a game socket, or is refused.
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
  const std::string target(req.target());
  const std::string path = target.substr(0, target.find('?'));
  if (!origin_allowed(req))
    return error_response(http::status::forbidden, "Origin: not this server's");
  // /ws/lobby: the lobby, whose player is the session cookie's.
  if (path == "/ws/lobby") {
    if (auto refused = sockets->refusal(client)) return refused;
    Viewer viewer = accounts_site->viewer_of(req);
    std::make_shared<LobbySocket>(*lobby_sockets, stream.release_socket())
        ->start(std::move(req), std::move(viewer), client);
    return std::nullopt;
  }
  if (path.rfind("/ws/", 0) == 0) return games->open_socket(std::move(req), client, stream);
  return error_response(http::status::not_found, "no such game");
}

}  // namespace toguz::server
