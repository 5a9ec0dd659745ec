// The site's HTTP routes, one table (net/router.h): every /api endpoint with its method, in the
// order the router tries them. Outside /api only GET and HEAD, answered by the static files. The
// Origin check for every request that changes something; 404, 405 and a handler's exception
// are answered by the router.
#include <vector>

#include "net/log.h"
#include "net/router.h"
#include "server/server_impl.h"
#include "site/json_in.h"
#include "site/json_out.h"
#include "site/texts.h"

namespace toguz::server {

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
      [this](const net::Call& c, const std::exception& e) {
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
  add_health_route();
  games->add_routes(*router);
  accounts_site->add_routes(*router);
  moderation_site->add_routes(*router);
  tournaments->add_routes(*router);
  arbiter->add_routes(*router);
  learn_site->add_routes(*router);
}

void Server::Impl::add_health_route() {
  router->add(net::Method::Get, "/api/health", [this](const net::Call& c) {
    size_t connections = 0;
    rooms->for_each([&](const auto& room) { connections += room->connections(); });
    c.respond(
        json_response(http::status::ok, json::object{{"ok", true},
                                                     {"version", TOGUZ_VERSION},
                                                     {"rooms", rooms->size()},
                                                     {"connections", connections},
                                                     {"queued_bytes", sockets->queued_total()},
                                                     {"queued_bytes_peak", sockets->queued_peak()},
                                                     {"reviews", games->reviews_running()}}));
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
    router->dispatch(net::Call{req, path, query, {}, peer, std::move(respond)});
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
