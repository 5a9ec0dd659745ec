// Moderation on the site (moderation_site.h). Every POST passes the Origin check first
// (server/server.cpp, before any route).
#include "site/accounts/moderation_site.h"

#include <algorithm>
#include <boost/json.hpp>

#include "net/log.h"
#include "site/accounts/moderation.h"
#include "site/json_out.h"

namespace toguz::site {

namespace {

using Response = http::response<http::string_body>;

constexpr int64_t kBlockCacheMs = 10000;
constexpr size_t kMaxReason = 500;  // bytes of a report's reason
constexpr int kMaxBlocks = 500;     // accounts one account may block

// A POST's JSON object body, or nullopt.
std::optional<json::object> body_of(const http::request<http::string_body>& req) {
  json::error_code ec;
  json::value v = json::parse(req.body(), ec);
  if (ec || !v.is_object()) return std::nullopt;
  return std::move(v.as_object());
}

std::string text_field(const json::object& o, const char* name) {
  const json::value* v = o.if_contains(name);
  return v && v->is_string() ? std::string(v->as_string()) : "";
}

Response bad(const std::string& why) {
  return coded_error(http::status::bad_request, why, "bad_message");
}

Response refused_as(const std::string& code) {
  if (code == "no_user") return coded_error(http::status::not_found, "no such player", code);
  if (code == "no_game") return coded_error(http::status::not_found, "no such game", code);
  return coded_error(http::status::conflict, "void: the game changed no rating", code);
}

json::value name_or_null(const std::string& s) {
  return s.empty() ? json::value(nullptr) : json::value(s);
}

json::object report_json(const store::ReportRow& r, const store::Standing& target) {
  return json::object{{"id", r.id},
                      {"kind", r.reporter == 0 ? "flag" : "report"},
                      {"target", name_or_null(r.target_name)},
                      {"reporter", name_or_null(r.reporter_name)},
                      {"about", name_or_null(r.about_name)},
                      {"game", name_or_null(r.game_id)},
                      {"reason", r.reason},
                      {"created", iso_time(r.created_ms)},
                      {"resolved", r.resolved},
                      {"target_marked", target.marked},
                      {"target_closed", target.closed}};
}

}  // namespace

bool ModerationSite::blocks_between(int64_t a, int64_t b) {
  if (a <= 0 || b <= 0) return false;
  const int64_t now = now_ms();
  BlockSet& set = block_cache_[a];
  if (set.read_ms == 0 || now - set.read_ms > kBlockCacheMs) {
    set.ids = s_.store.blocked_either_way(a);
    set.read_ms = now;
  }
  return std::find(set.ids.begin(), set.ids.end(), b) != set.ids.end();
}

std::string ModerationSite::rated_refusal(int64_t a, int64_t b) {
  return moderation::rated_refusal(s_.store, a, b, s_.config.rated_pair_per_day, now_ms());
}

// The /api/account/... part: a signed-in player's blocks and reports.
Response ModerationSite::account_part(const net::Request& req, AccountPart part, const Viewer& v) {
  if (!v.signed_in())
    return coded_error(http::status::unauthorized, "log in first", "not_logged_in");
  store::Store& st = s_.store;
  auto list = [&] {
    json::array names;
    for (const auto& [id, name] : st.blocks(v.user_id)) names.push_back(json::value(name));
    return json_response(http::status::ok, json::object{{"blocks", std::move(names)}});
  };
  if (req.method() != http::verb::post) return list();  // GET /api/account/blocks
  const auto body = body_of(req);
  if (!body) return bad("body: expected a JSON object");
  const auto target = moderation::account(st, text_field(*body, "username"));
  if (!target) return coded_error(http::status::not_found, "no such player", "no_user");
  if (target->id == v.user_id)
    return coded_error(http::status::bad_request, "not your own account", "own_account");
  if (part == AccountPart::Blocks) {
    const json::value* on = body->if_contains("block");
    if (!on || !on->is_bool()) return bad("block: expected true or false");
    if (on->as_bool() && st.blocks(v.user_id).size() >= size_t(kMaxBlocks))
      return coded_error(http::status::conflict, "block: too many accounts blocked",
                         "too_many_blocks");
    st.set_block(v.user_id, target->id, on->as_bool(), now_ms());
    block_cache_.erase(v.user_id);
    block_cache_.erase(target->id);
    return list();
  }
  const std::string reason = text_field(*body, "reason");
  if (reason.empty() || reason.size() > kMaxReason)
    return bad("reason: expected 1 to " + std::to_string(kMaxReason) + " bytes of text");
  store::ReportRow r;
  r.target = target->id;
  r.reporter = v.user_id;
  r.game_id = text_field(*body, "game").substr(0, 64);
  r.reason = reason;
  r.created_ms = now_ms();
  st.add_report(r);
  log(net::LogLevel::Info, r.game_id, v.username + " reported " + target->username);
  return json_response(http::status::created, json::object{{"ok", true}});
}

// One moderator action (POST /api/moderation/<action>).
Response ModerationSite::moderator_action(const std::string& action, const json::object& body,
                                          const Viewer& v) {
  store::Store& st = s_.store;
  std::string why;
  if (action == "resolve") {
    const json::value* id = body.if_contains("id");
    if (!id || !id->is_int64()) return bad("id: expected a report's id");
    if (!st.resolve_report(id->as_int64()))
      return coded_error(http::status::not_found, "no such report", "no_report");
  } else if (action == "void") {
    why = moderation::void_ratings(st, text_field(body, "game"));
  } else if (action == "mark" || action == "close") {
    const json::value* on = body.if_contains(action == "mark" ? "marked" : "closed");
    if (on && !on->is_bool()) return bad(action + ": expected true or false");
    const bool set = !on || on->as_bool();
    const std::string name = text_field(body, "username");
    why = action == "mark" ? moderation::set_marked(st, name, set)
                           : moderation::set_closed(st, name, set);
  } else {
    return coded_error(http::status::not_found, "no such endpoint: /api/moderation/" + action,
                       "no_endpoint");
  }
  if (!why.empty()) return refused_as(why);
  log(net::LogLevel::Info, "",
      "moderator " + v.username + ": " + action + " " +
          json::serialize(json::value(body)).substr(0, 200));
  return json_response(http::status::ok, json::object{{"ok", true}});
}

Response ModerationSite::moderators(const net::Request& req, const std::string& query,
                                    const std::string& action) {
  const Viewer v = s_.viewer_of(req);
  if (!v.signed_in() || !s_.store.standing(v.user_id).moderator)
    return coded_error(http::status::forbidden, "moderators only", "not_moderator");
  if (action.empty()) {
    json::array items;
    for (const store::ReportRow& r : s_.store.list_reports(query == "resolved=1", 200))
      items.push_back(report_json(r, s_.store.standing(r.target)));
    return json_response(http::status::ok, json::object{{"reports", std::move(items)}});
  }
  const auto body = body_of(req);
  if (!body) return bad("body: expected a JSON object");
  return moderator_action(action, *body, v);
}

void ModerationSite::add_routes(net::Router& router) {
  using net::Call;
  using net::Method;
  auto part = [this](AccountPart p) {
    return [this, p](const Call& c) { c.respond(account_part(c.req, p, s_.viewer_of(c.req))); };
  };
  router.add(Method::Get, "/api/account/blocks", part(AccountPart::Blocks));
  router.add(Method::Post, "/api/account/blocks", part(AccountPart::Blocks));
  router.add(Method::Post, "/api/account/reports", part(AccountPart::Reports));
  router.add(Method::Get, "/api/moderation",
             [this](const Call& c) { c.respond(moderators(c.req, c.query, "")); });
  router.add(Method::Post, "/api/moderation/:action",
             [this](const Call& c) { c.respond(moderators(c.req, c.query, c.param(0))); });
}

}  // namespace toguz::site
