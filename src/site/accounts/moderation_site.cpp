// Moderation on the site (moderation_site.h). Every POST passes the Origin check first
// (server/server.cpp, before any route).
#include "site/accounts/moderation_site.h"

#include <algorithm>
#include <boost/json.hpp>

#include "net/log.h"
#include "site/accounts/moderation.h"
#include "site/json_out.h"
#include "site/types.h"

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

Response bad_body() {
  return Refusal("bad_message", {}, "body").response();
}

// A field that should be true or false.
Response not_bool(const std::string& field) {
  return Refusal("field_type", {{"field", field}}, "bool").response();
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
                      {"chat", name_or_null(r.chat)},
                      {"created", iso_time(r.created_ms)},
                      {"resolved", r.resolved},
                      {"target_marked", target.marked},
                      {"target_closed", target.closed}};
}

}  // namespace

json::object chat_json(const store::ChatRow& m) {
  return json::object{{"id", m.id},
                      {"side", side_word(m.side == 0 ? Side::White : Side::Black)},
                      {"name", m.name},
                      {"text", m.text},
                      {"time_ms", m.created_ms}};
}

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
  if (!v.signed_in()) return Refusal("not_logged_in").response();
  store::Store& st = s_.store;
  auto list = [&] {
    json::array names;
    for (const auto& [id, name] : st.blocks(v.user_id)) names.push_back(json::value(name));
    return json_response(http::status::ok, json::object{{"blocks", std::move(names)}});
  };
  if (req.method() != http::verb::post) return list();  // GET /api/account/blocks
  const auto body = body_of(req);
  if (!body) return bad_body();
  const auto target = moderation::account(st, text_field(*body, "username"));
  if (!target) return Refusal("no_user").response();
  if (target->id == v.user_id) return Refusal("own_account").response();
  if (part == AccountPart::Blocks) {
    const json::value* on = body->if_contains("block");
    if (!on || !on->is_bool()) return not_bool("block");
    if (on->as_bool() && st.blocks(v.user_id).size() >= size_t(kMaxBlocks))
      return Refusal("too_many_blocks").response();
    st.set_block(v.user_id, target->id, on->as_bool(), now_ms());
    block_cache_.erase(v.user_id);
    block_cache_.erase(target->id);
    return list();
  }
  return add_report(*body, *target, v);
}

Response ModerationSite::add_report(const json::object& body, const store::UserRow& target,
                                    const Viewer& v) {
  store::Store& st = s_.store;
  store::ReportRow r;
  r.game_id = text_field(body, "game").substr(0, 64);
  if (const json::value* chat = body.if_contains("chat")) {
    if (!chat->is_int64()) return Refusal("field_type", {{"field", "chat"}}, "integer").response();
    const auto m = st.chat_message(chat->as_int64());
    if (!m || m->user_id != target.id) return Refusal("no_chat_message").response();
    r.chat = m->text;
    r.game_id = m->game_id;
  }
  std::string reason = text_field(body, "reason");
  if (reason.empty() && !r.chat.empty()) reason = "chat";
  if (reason.empty() || reason.size() > kMaxReason)
    return Refusal("report_reason", {{"n", std::to_string(kMaxReason)}}).response();
  r.target = target.id;
  r.reporter = v.user_id;
  r.reason = reason;
  r.created_ms = now_ms();
  st.add_report(r);
  log(net::LogLevel::Info, r.game_id, v.username + " reported " + target.username);
  return json_response(http::status::created, json::object{{"ok", true}});
}

// One moderator action (POST /api/moderation/<action>).
Response ModerationSite::moderator_action(const std::string& action, const json::object& body,
                                          const Viewer& v) {
  store::Store& st = s_.store;
  std::string why;
  if (action == "resolve") {
    const json::value* id = body.if_contains("id");
    if (!id || !id->is_int64()) return Refusal("report_id").response();
    if (!st.resolve_report(id->as_int64())) return Refusal("no_report").response();
  } else if (action == "void") {
    why = moderation::void_ratings(st, text_field(body, "game"));
  } else if (action == "mark" || action == "close") {
    const json::value* on = body.if_contains(action == "mark" ? "marked" : "closed");
    if (on && !on->is_bool()) return not_bool(action);
    const bool set = !on || on->as_bool();
    const std::string name = text_field(body, "username");
    why = action == "mark" ? moderation::set_marked(st, name, set)
                           : moderation::set_closed(st, name, set);
  } else {
    return Refusal("no_endpoint", {{"request", "/api/moderation/" + action}}).response();
  }
  if (!why.empty()) return Refusal(why).response();
  log(net::LogLevel::Info, "",
      "moderator " + v.username + ": " + action + " " +
          json::serialize(json::value(body)).substr(0, 200));
  return json_response(http::status::ok, json::object{{"ok", true}});
}

Response ModerationSite::moderators(const net::Request& req, const std::string& query,
                                    const std::string& action) {
  const Viewer v = s_.viewer_of(req);
  if (!v.signed_in() || !s_.store.standing(v.user_id).moderator)
    return Refusal("not_moderator").response();
  if (action.empty()) {
    json::array items;
    for (const store::ReportRow& r : s_.store.list_reports(query == "resolved=1", 200))
      items.push_back(report_json(r, s_.store.standing(r.target)));
    return json_response(http::status::ok, json::object{{"reports", std::move(items)}});
  }
  const auto body = body_of(req);
  if (!body) return bad_body();
  return moderator_action(action, *body, v);
}

Response ModerationSite::game_chat(const net::Request& req, const std::string& game) {
  const Viewer v = s_.viewer_of(req);
  if (!v.signed_in() || !s_.store.standing(v.user_id).moderator)
    return Refusal("not_moderator").response();
  json::array messages;
  for (const store::ChatRow& m : s_.store.game_chat(game)) {
    json::object o = chat_json(m);
    o["user_id"] = m.user_id;
    messages.push_back(std::move(o));
  }
  return json_response(http::status::ok,
                       json::object{{"game", game}, {"messages", std::move(messages)}});
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
  router.add(Method::Get, "/api/moderation/chat/:game",
             [this](const Call& c) { c.respond(game_chat(c.req, c.param(0))); });
  router.add(Method::Post, "/api/moderation/:action",
             [this](const Call& c) { c.respond(moderators(c.req, c.query, c.param(0))); });
}

}  // namespace toguz::site
