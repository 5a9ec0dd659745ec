// The learning pages' routes (docs/web-protocol.md "Learning"): the puzzles, studies and
// explorer of the learning service (learn_api.h), a puzzle attempt (puzzle_ratings.cpp) and every
// move's score of a position (engine_work/move_evals.h).
#include "engine_work/move_evals.h"
#include "net/router.h"
#include "net/url.h"
#include "server/server_impl.h"
#include "site/json_out.h"

namespace toguz::server {

using net::Call;
using net::Method;

void Server::Impl::add_learn_routes() {
  on(Method::Get, "/api/explorer/eval",
     [this](const Call& c) { api_explorer_eval(c.query, c.respond); });
  if (!learn) return;  // no puzzles, studies or explorer served
  on(Method::Post, "/api/puzzles/:id/attempt", [this](const Call& c) {
    c.respond(api_puzzle_attempt(c.param(0), c.req.body(), viewer_of(c.req)));
  });
  // The learning service answers its own paths (learn_api.h).
  auto learn_route = [this](const Call& c) {
    const LearnReply r = *learn_request(c.req);
    c.respond(json_text_response(http::status(r.status), r.body, c.req.version()));
  };
  for (const char* path : {"/api/puzzles", "/api/puzzles/next", "/api/puzzles/:id", "/api/studies",
                           "/api/studies/*rest", "/api/explorer"})
    on(Method::Get, path, learn_route);
}

void Server::Impl::api_explorer_eval(const std::string& query, Respond respond) {
  Position pos = Position::start();
  std::string why;
  const std::string text = net::query_value(net::query_pairs(query), "position").value_or("");
  if (!explorer_position(text, learn ? learn->explorer() : nullptr, &pos, &why)) {
    respond(error_response(http::status::bad_request, "position: " + why));
    return;
  }
  auto answer = [respond](const std::string& body) {
    respond(json_text_response(http::status::ok, body));
  };
  if (!move_evals->evaluate(pos, answer))
    respond(error_response(http::status::service_unavailable, busy_message(*pool)));
}

}  // namespace toguz::server
