// HTTP routing: /api/* to the API (http_api.cpp) with a 405 naming the methods an endpoint
// takes, everything else (GET and HEAD only) to the static files. The Origin check for every
// request that changes something.
#include <sstream>
#include <vector>

#include "rules/record.h"
#include "server/json_out.h"
#include "server/log.h"
#include "server/server_impl.h"
#include "server/text_input.h"
#include "server/texts.h"

namespace toguz::server {

namespace {

using Response = http::response<http::string_body>;

// The path segments after /api/.
std::vector<std::string> api_segments(const std::string& path) {
  std::vector<std::string> parts;
  std::istringstream in(path.substr(5));
  std::string seg;
  while (std::getline(in, seg, '/'))
    if (!seg.empty()) parts.push_back(seg);
  return parts;
}

// The methods of each endpoint ("" for a path that is none): another method on it is a 405.
std::string allowed_methods(const std::vector<std::string>& parts) {
  const size_t n = parts.size();
  if (n == 1 && parts[0] == "health") return "GET, HEAD";
  if (n == 1 && parts[0] == "games") return "GET, HEAD, POST";
  if (n == 1 && (parts[0] == "import" || parts[0] == "analyze")) return "POST";
  if (n == 2 && parts[0] == "games") return "GET, HEAD";
  if (n == 3 && parts[0] == "games" && parts[2] == "join") return "POST";
  if (n == 3 && parts[0] == "games" && parts[2] == "pgn") return "GET, HEAD";
  // Accounts (accounts_api.cpp)
  if (n == 1 && (parts[0] == "signup" || parts[0] == "login" || parts[0] == "logout" ||
                 parts[0] == "password"))
    return "POST";
  if (n == 1 && parts[0] == "me") return "GET, HEAD";
  if (n == 2 && parts[0] == "account" && parts[1] == "games") return "GET, HEAD";
  if (n == 2 && (parts[0] == "users" || parts[0] == "leaderboard")) return "GET, HEAD";
  if (n == 3 && parts[0] == "users" && (parts[2] == "history" || parts[2] == "pgn"))
    return "GET, HEAD";
  return "";
}

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

namespace {

// One /api request, its method already allowed for its path.
void route_api(Server::Impl& server, const http::request<http::string_body>& req,
               const std::vector<std::string>& parts, const std::string& query,
               const std::string& peer, const Server::Impl::Respond& respond) {
  const bool get = req.method() == http::verb::get || req.method() == http::verb::head;
  // The JSON body of a POST: an object, else 400.
  json::object body;
  auto body_object = [&]() -> bool {
    json::error_code ec;
    json::value v = json::parse(req.body(), ec);
    if (ec || !v.is_object()) {
      respond(error_response(http::status::bad_request, "body: expected a JSON object"));
      return false;
    }
    body = std::move(v.as_object());
    return true;
  };
  const std::string& first = parts.empty() ? "" : parts[0];
  if (parts.size() == 1 && first == "health") {
    size_t connections = 0;
    server.rooms->for_each([&](const auto& room) { connections += room->connections(); });
    respond(json_response(http::status::ok, json::object{{"ok", true},
                                                         {"version", TOGUZ_VERSION},
                                                         {"rooms", server.rooms->size()},
                                                         {"connections", connections},
                                                         {"queued_bytes", server.queued_total},
                                                         {"queued_bytes_peak", server.queued_peak},
                                                         {"reviews", server.reviews->running()}}));
  } else if (parts.size() == 1 && first == "games") {
    if (get)
      respond(server.api_list(query));
    else if (body_object())
      server.api_create(body, server.viewer_of(req), peer, respond);
  } else if (parts.size() == 1 && first == "signup") {
    if (body_object()) server.api_signup(body, peer, served_over_https(req), respond);
  } else if (parts.size() == 1 && first == "login") {
    if (body_object()) server.api_login(body, peer, served_over_https(req), respond);
  } else if (parts.size() == 1 && first == "logout") {
    respond(server.api_logout(req));
  } else if (parts.size() == 1 && first == "password") {
    if (body_object()) server.api_password(req, server.viewer_of(req), peer, body, respond);
  } else if (parts.size() == 1 && first == "me") {
    respond(server.api_me(server.viewer_of(req)));
  } else if (first == "account") {
    respond(server.api_account_games(server.viewer_of(req), query));
  } else if (first == "users") {
    respond(server.api_user(url_decode(parts[1]), parts.size() == 3 ? parts[2] : ""));
  } else if (first == "leaderboard") {
    respond(server.api_leaderboard(parts[1], query));
  } else if (parts.size() == 1 && first == "import") {
    if (body_object()) server.api_import(body, respond);
  } else if (parts.size() == 1 && first == "analyze") {
    if (body_object()) server.api_analyze(body, peer, respond);
  } else if (parts.size() >= 2 && first == "games" &&
             server.forward_game_request(parts[1], req, peer, respond)) {
    // driven by another instance of the cluster, which answers
  } else if (parts.size() == 3 && parts[2] == "join") {
    if (body_object()) respond(server.api_join(parts[1], body, server.viewer_of(req)));
  } else if (auto room = server.rooms->find(parts[1]); !room) {
    respond(error_response(http::status::not_found, "no such game: " + parts[1]));
  } else if (parts.size() == 2) {
    respond(
        json_response(http::status::ok, json::object{{"game", room->state_json(Seat::Spectator)}}));
  } else {
    respond(pgn_response(*room));
  }
}

}  // namespace

void Server::Impl::handle_http(const http::request<http::string_body>& req, const std::string& peer,
                               Respond respond) {
  const std::string target(req.target());
  const auto q = target.find('?');
  const std::string path = target.substr(0, q);
  const std::string query = q == std::string::npos ? "" : target.substr(q + 1);
  const auto method = req.method();
  const bool get = method == http::verb::get || method == http::verb::head;
  if (!get && !origin_allowed(req)) {
    respond(error_response(http::status::forbidden, "Origin: not this server's"));
    return;
  }
  if (path.rfind("/api/", 0) != 0 && path != "/api") {
    if (!get) {
      auto res = error_response(http::status::method_not_allowed, "only GET and HEAD outside /api");
      res.set(http::field::allow, "GET, HEAD");
      respond(std::move(res));
      return;
    }
    if (path.rfind("/@/", 0) == 0) {
      // A player page: the front end's page itself, which reads the name from the address.
      http::request<http::string_body> page = req;
      page.target("/");
      static_files.serve(page, respond);
      return;
    }
    static_files.serve(req, respond);
    return;
  }
  try {
    if (path == "/api/tournaments" || path.rfind("/api/tournaments/", 0) == 0) {
      if (forward_tournament_request(req, peer, respond)) return;
      respond(api_tournaments(req, path, peer));
      return;
    }
    if (auto r = arbiter->handle(req)) {
      respond(std::move(*r));
      return;
    }
    if (path == "/api/explorer/eval") {
      if (!get) {
        auto res = error_response(http::status::method_not_allowed, path + ": allowed GET, HEAD");
        res.set(http::field::allow, "GET, HEAD");
        respond(std::move(res));
      } else {
        api_explorer_eval(query, respond);
      }
      return;
    }
    const std::string attempt_base = "/api/puzzles/", attempt_end = "/attempt";
    if (learn && path.size() > attempt_base.size() + attempt_end.size() &&
        path.rfind(attempt_base, 0) == 0 &&
        path.compare(path.size() - attempt_end.size(), attempt_end.size(), attempt_end) == 0) {
      if (method != http::verb::post) {
        auto res = error_response(http::status::method_not_allowed, path + ": allowed POST");
        res.set(http::field::allow, "POST");
        respond(std::move(res));
        return;
      }
      const std::string id =
          path.substr(attempt_base.size(), path.size() - attempt_base.size() - attempt_end.size());
      respond(api_puzzle_attempt(id, req.body(), viewer_of(req)));
      return;
    }
    if (learn) {
      if (auto r = learn_request(req)) {
        http::response<http::string_body> res{http::status(r->status), req.version()};
        res.set(http::field::content_type, "application/json; charset=utf-8");
        res.set(http::field::cache_control, "no-store");
        if (r->status == 405) res.set(http::field::allow, "GET, HEAD");
        res.body() = std::move(r->body);
        res.prepare_payload();
        respond(std::move(res));
        return;
      }
    }
    if (auto r = moderation_request(req, path, query)) {
      respond(std::move(*r));
      return;
    }
    const auto parts = api_segments(path);
    const std::string allow = allowed_methods(parts);
    const bool post = method == http::verb::post;
    if (allow.empty()) {
      respond(error_response(http::status::not_found,
                             "no such endpoint: " + std::string(req.method_string()) + " " + path));
    } else if (!(get && allow.find("GET") != std::string::npos) &&
               !(post && allow.find("POST") != std::string::npos)) {
      auto res =
          error_response(http::status::method_not_allowed,
                         std::string(req.method_string()) + " " + path + ": allowed " + allow);
      res.set(http::field::allow, allow);
      respond(std::move(res));
    } else {
      route_api(*this, req, parts, query, peer, respond);
    }
  } catch (const store::StoreUnavailable& e) {
    // A temporary refusal of the store (busy, read-only, full, unreachable): nothing was
    // written; the client may try again.
    log(LogLevel::Error, "", std::string(req.method_string()) + " " + path + ": " + e.what());
    respond(coded_error(http::status::service_unavailable, fault_text(e.fault),
                        store::fault_code(e.fault)));
  } catch (const std::exception& e) {
    log(LogLevel::Error, "", std::string(req.method_string()) + " " + path + ": " + e.what());
    respond(error_response(http::status::internal_server_error,
                           std::string("server error: ") + e.what()));
  }
}

}  // namespace toguz::server
