// The games' routes (net/router.h) and the module's making.
#include "site/games/games_site.h"

#include "rules/record.h"
#include "site/games/game_socket.h"
#include "site/json_in.h"
#include "site/json_out.h"
#include "site/refusal.h"
#include "site/texts.h"

namespace toguz::site {

namespace {

using net::Call;
using net::Method;

http::response<http::string_body> pgn_response(Room& room) {
  http::response<http::string_body> res{http::status::ok, 11};
  res.set(http::field::content_type, "text/plain; charset=utf-8");
  res.set(http::field::content_disposition, "attachment; filename=\"toguz-" + room.id + ".pgn\"");
  res.body() = write_record(room.game, export_tags(room.row()), RecordStyle::Pgn);
  return res;
}

}  // namespace

GamesSite::GamesSite(GamesServices services) : s_(services) {}

bool GamesSite::forwarded(const Call& c) {
  return s_.cluster && s_.cluster->forward(c.param(0), c.req, c.peer, c.respond);
}

void GamesSite::add_routes(net::Router& router) {
  auto on = [&router](Method method, std::string_view pattern,
                      std::function<void(const Call&)> handler) {
    router.add(method, pattern, refusals_answered(std::move(handler)));
  };
  on(Method::Get, "/api/games", [this](const Call& c) { c.respond(api_list(c.query)); });
  // Before /api/games/:id ("live" is no game id: ids are longer).
  on(Method::Get, "/api/games/live", [this](const Call& c) { c.respond(api_live()); });
  on(Method::Post, "/api/games", [this](const Call& c) {
    api_create(json_body(c.req), s_.accounts.viewer_of(c.req), c.peer, c.respond);
  });
  on(Method::Post, "/api/import",
     [this](const Call& c) { api_import(json_body(c.req), c.respond); });
  on(Method::Post, "/api/analyze",
     [this](const Call& c) { api_analyze(json_body(c.req), c.peer, c.respond); });
  // A game another instance of the cluster drives is answered there.
  auto game = [this](std::function<void(const Call&, Room&)> h) {
    return [this, h = std::move(h)](const Call& c) {
      if (forwarded(c)) return;
      const auto room = s_.rooms.find(c.param(0));
      if (!room) throw Refusal("no_game", {{"id", c.param(0)}});
      h(c, *room);
    };
  };
  on(Method::Get, "/api/games/:id", game([](const Call& c, Room& room) {
       c.respond(json_response(http::status::ok,
                               json::object{{"game", room.state_json(Seat::Spectator)}}));
     }));
  on(Method::Post, "/api/games/:id/join", [this](const Call& c) {
    if (forwarded(c)) return;
    c.respond(api_join(c.param(0), json_body(c.req), s_.accounts.viewer_of(c.req)));
  });
  on(Method::Get, "/api/games/:id/pgn",
     game([](const Call& c, Room& room) { c.respond(pgn_response(room)); }));
  on(Method::Get, "/api/account/games", [this](const Call& c) {
    c.respond(api_account_games(s_.accounts.viewer_of(c.req), c.query));
  });
}

std::optional<GamesSite::Response> GamesSite::open_socket(net::Request req,
                                                          const std::string& client,
                                                          boost::beast::tcp_stream& stream) {
  // /ws/<id>: the token comes in the first message ("hello"), never in the URL.
  const std::string target(req.target());
  const std::string id = target.substr(0, target.find('?')).substr(4);
  std::shared_ptr<Room> room = s_.rooms.find(id);
  std::string relay;  // in a cluster: the game another instance drives
  if (!room && s_.cluster && s_.cluster->driven_elsewhere(id)) relay = id;
  if (!room && relay.empty()) return Refusal("no_game").response();
  if (auto refused = s_.sockets.refusal(client)) return refused;
  Viewer viewer = s_.accounts.viewer_of(req);
  auto socket = std::make_shared<GameSocket>(*this, stream.release_socket());
  socket->relay_game = relay;
  socket->start(std::move(req), room, client, std::move(viewer));
  return std::nullopt;
}

}  // namespace toguz::site
