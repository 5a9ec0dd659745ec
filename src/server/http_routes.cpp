// The site's HTTP routes, one table (net/router.h): every /api endpoint with its method, in the
// order the router tries them. Outside /api only GET and HEAD, answered by the static files. The
// Origin check for every request that changes something; 404, 405 and a handler's exception
// are answered by the router.
#include <vector>

#include "net/log.h"
#include "net/router.h"
#include "rules/record.h"
#include "server/server_impl.h"
#include "site/json_in.h"
#include "site/json_out.h"
#include "site/texts.h"

namespace toguz::server {

namespace {

using Response = http::response<http::string_body>;
using net::Call;
using net::Method;

Response pgn_response(Room& room) {
  Response res{http::status::ok, 11};
  res.set(http::field::content_type, "text/plain; charset=utf-8");
  res.set(http::field::content_disposition, "attachment; filename=\"toguz-" + room.id + ".pgn\"");
  res.body() = write_record(room.game, export_tags(room.row()), RecordStyle::Pgn);
  return res;
}

}  // namespace

bool Server::Impl::origin_allowed(const http::request<http::string_body>& req) const {
  auto it = req.find(http::field::origin);
  if (it == req.end()) return true;  // not sent: no browser's cross-site request
  const std::string origin(it->value()), host(req[http::field::host]);
  return !host.empty() && (origin == "http://" + host || origin == "https://" + host);
}

void Server::Impl::make_router() {
  router = std::make_unique<net::Router>(
      [](http::status status, const std::string& message, std::string allow) {
        const bool no_method = status == http::status::method_not_allowed;
        auto res = coded_error(status, message, no_method ? "method_not_allowed" : "no_endpoint");
        if (!allow.empty()) res.set(http::field::allow, allow);
        return res;
      },
      [this](const Call& c, const std::exception& e) {
        const std::string what = std::string(c.req.method_string()) + " " + c.path + ": ";
        log(net::LogLevel::Error, "", what + e.what());
        // A temporary refusal of the store (busy, read-only, full, unreachable): nothing was
        // written; the client may try again.
        if (const auto* u = dynamic_cast<const store::StoreUnavailable*>(&e))
          return coded_error(http::status::service_unavailable, fault_text(u->fault),
                             store::fault_code(u->fault));
        return error_response(http::status::internal_server_error,
                              std::string("server error: ") + e.what());
      });
  add_game_routes();
  accounts_site->add_routes(*router);
  add_account_routes();
  moderation_site->add_routes(*router);
  tournaments->add_routes(*router);
  arbiter->add_routes(*router);
  learn_site->add_routes(*router);
}

void Server::Impl::on(net::Method method, std::string_view pattern,
                      std::function<void(const net::Call&)> handler) {
  router->add(method, pattern, refusals_answered(std::move(handler)));
}

void Server::Impl::add_game_routes() {
  on(Method::Get, "/api/health", [this](const Call& c) {
    size_t connections = 0;
    rooms->for_each([&](const auto& room) { connections += room->connections(); });
    c.respond(json_response(http::status::ok, json::object{{"ok", true},
                                                           {"version", TOGUZ_VERSION},
                                                           {"rooms", rooms->size()},
                                                           {"connections", connections},
                                                           {"queued_bytes", queued_total},
                                                           {"queued_bytes_peak", queued_peak},
                                                           {"reviews", reviews->running()}}));
  });
  on(Method::Get, "/api/games", [this](const Call& c) { c.respond(api_list(c.query)); });
  on(Method::Post, "/api/games", [this](const Call& c) {
    api_create(json_body(c.req), accounts_site->viewer_of(c.req), c.peer, c.respond);
  });
  on(Method::Post, "/api/import",
     [this](const Call& c) { api_import(json_body(c.req), c.respond); });
  on(Method::Post, "/api/analyze",
     [this](const Call& c) { api_analyze(json_body(c.req), c.peer, c.respond); });
  // A game another instance of the cluster drives is answered there.
  auto game = [this](std::function<void(const Call&, Room&)> h) {
    return [this, h = std::move(h)](const Call& c) {
      if (forward_game_request(c.param(0), c.req, c.peer, c.respond)) return;
      const auto room = rooms->find(c.param(0));
      if (!room) throw BadRequest{"no such game: " + c.param(0), http::status::not_found};
      h(c, *room);
    };
  };
  on(Method::Get, "/api/games/:id", game([](const Call& c, Room& room) {
       c.respond(json_response(http::status::ok,
                               json::object{{"game", room.state_json(Seat::Spectator)}}));
     }));
  on(Method::Post, "/api/games/:id/join", [this](const Call& c) {
    if (forward_game_request(c.param(0), c.req, c.peer, c.respond)) return;
    c.respond(api_join(c.param(0), json_body(c.req), accounts_site->viewer_of(c.req)));
  });
  on(Method::Get, "/api/games/:id/pgn",
     game([](const Call& c, Room& room) { c.respond(pgn_response(room)); }));
}

void Server::Impl::add_account_routes() {
  on(Method::Get, "/api/account/games", [this](const Call& c) {
    c.respond(api_account_games(accounts_site->viewer_of(c.req), c.query));
  });
}

void Server::Impl::handle_http(const http::request<http::string_body>& req, const std::string& peer,
                               Respond respond) {
  const std::string target(req.target());
  const auto q = target.find('?');
  const std::string path = target.substr(0, q);
  const std::string query = q == std::string::npos ? "" : target.substr(q + 1);
  const bool get = req.method() == http::verb::get || req.method() == http::verb::head;
  if (!get && !origin_allowed(req)) {
    respond(error_response(http::status::forbidden, "Origin: not this server's"));
    return;
  }
  if (path.rfind("/api/", 0) == 0 || path == "/api") {
    router->dispatch(Call{req, path, query, {}, peer, std::move(respond)});
  } else if (!get) {
    auto res = error_response(http::status::method_not_allowed, "only GET and HEAD outside /api");
    res.set(http::field::allow, "GET, HEAD");
    respond(std::move(res));
  } else if (path.rfind("/@/", 0) == 0) {
    // A player page: the front end's page itself, which reads the name from the address.
    http::request<http::string_body> page = req;
    page.target("/");
    static_files.serve(page, respond);
  } else {
    static_files.serve(req, respond);
  }
}

}  // namespace toguz::server
