// The accounts API (docs/web-protocol.md "Accounts, ratings and the lobby", docs/accounts.md):
// sign-up, login, logout, the password, who is asking (the session cookie), the player pages'
// data and the leaderboard. Passwords are
// hashed and verified on the password pool (hash_pool.h) so neither the IO thread nor a login
// waits for engine work; a password is never logged, stored or answered.
#include "site/accounts/accounts_site.h"

#include <boost/asio/post.hpp>
#include <boost/json.hpp>
#include <cmath>

#include "accounts/glicko2.h"
#include "accounts/password.h"
#include "accounts/session.h"
#include "accounts/speed.h"
#include "accounts/username.h"
#include "net/log.h"
#include "site/accounts/off_io.h"
#include "site/accounts/settings.h"
#include "site/json_in.h"
#include "site/json_out.h"
#include "site/texts.h"
#include "site/types.h"

namespace toguz::site {

namespace {

using Response = http::response<http::string_body>;
// Settings saved by one account: a burst, then this many a minute (a page saves one per
// change the player makes).
constexpr double kSettingsBurst = 30;
constexpr double kSettingsPerMinute = 10;

// The string field `name` of a request body, or why not.
std::optional<std::string> string_field(const json::object& body, const char* name, Refused* why) {
  const json::value* v = body.if_contains(name);
  if (!v || !v->is_string()) {
    *why = Refusal("field_type", {{"field", name}}, "string");
    return std::nullopt;
  }
  return std::string(v->as_string());
}

// The two string fields of a body (`first` and `second`), or the refusal naming the first one
// missing or not a string.
std::optional<std::pair<std::string, std::string>> two_strings(const json::object& body,
                                                               const char* first,
                                                               const char* second,
                                                               Response* refusal) {
  Refused why;
  auto a = string_field(body, first, &why);
  auto b = a ? string_field(body, second, &why) : std::nullopt;
  if (!b) {
    *refusal = why->response();
    return std::nullopt;
  }
  return std::pair{std::move(*a), std::move(*b)};
}

// The refusal of a username or password by its code (its message names the field).
template <class Error>
Response refused(Error e) {
  return Refusal(std::string(accounts::code(e))).response();
}

Response not_logged_in() {
  return Refusal("not_logged_in").response();
}

Response login_failed() {
  return Refusal("login_failed").response();
}

// 429 for a refusal of a limiter (`verdict.code`), with when to try again in the body's params
// and in Retry-After.
Response too_many(const accounts::LoginVerdict& verdict) {
  const int64_t seconds = (verdict.retry_after_ms + 999) / 1000;
  Response res =
      Refusal(std::string(verdict.code), json::object{{"retry_after_s", seconds}}).response();
  res.set(http::field::retry_after, std::to_string(seconds));
  return res;
}

// The answer that logs `user` in: a new session stored, its cookie set.
Response logged_in(store::Store& store, const store::UserRow& user, http::status status,
                   bool secure) {
  const int64_t now = now_ms();
  const accounts::NewSession s = accounts::new_session(now);
  store.add_session(s.hash, user.id, s.expires_ms);
  Response res = json_response(status, json::object{{"username", user.username}});
  res.set(http::field::set_cookie, accounts::session_cookie(s.token, s.expires_ms, now, secure));
  return res;
}

// The rating as shown now: its deviation grown by the days since its last game.
store::RatingRow shown(store::RatingRow r, int64_t now) {
  if (r.games > 0)
    r.rd = accounts::rd_after(rating_of(r), double(now - r.updated_ms) / 86400000.0,
                              accounts::Glicko2Config{});
  return r;
}

}  // namespace

bool served_over_https(const net::Request& req) {
  return req["X-Forwarded-Proto"] == "https";
}

AccountsSite::AccountsSite(AccountsServices services)
    : s_(std::move(services)),
      signup_limiter_(accounts::SignupLimits{s_.config.signups_per_hour}) {}

void AccountsSite::add_routes(net::Router& router) {
  using net::Call;
  using net::Method;
  auto add = [&router](Method m, std::string_view pattern, std::function<void(const Call&)> h) {
    router.add(m, pattern, refusals_answered(std::move(h)));
  };
  add(Method::Post, "/api/signup", [this](const Call& c) {
    signup(json_body(c.req), c.peer, served_over_https(c.req), c.respond);
  });
  add(Method::Post, "/api/login", [this](const Call& c) {
    login(json_body(c.req), c.peer, served_over_https(c.req), c.respond);
  });
  add(Method::Post, "/api/logout", [this](const Call& c) { c.respond(logout(c.req)); });
  add(Method::Post, "/api/password", [this](const Call& c) {
    password(c.req, viewer_of(c.req), c.peer, json_body(c.req), c.respond);
  });
  add(Method::Get, "/api/me", [this](const Call& c) { c.respond(me(viewer_of(c.req))); });
  add(Method::Get, "/api/me/settings",
      [this](const Call& c) { c.respond(settings(viewer_of(c.req), nullptr)); });
  add(Method::Put, "/api/me/settings",
      [this](const Call& c) { c.respond(settings(viewer_of(c.req), &c.req.body())); });
  add(Method::Get, "/api/users/:name", [this](const Call& c) { c.respond(user(c.param(0), "")); });
  for (const char* part : {"history", "pgn"})
    add(Method::Get, std::string("/api/users/:name/") + part,
        [this, part](const Call& c) { c.respond(user(c.param(0), part)); });
  add(Method::Get, "/api/leaderboard/:category",
      [this](const Call& c) { c.respond(leaderboard(c.param(0), c.query)); });
}

void AccountsSite::sweep(int64_t now) {
  login_limiter_.sweep(now);  // failures that left the window
  signup_limiter_.sweep(now);
  for (auto it = settings_writes_.begin(); it != settings_writes_.end();) {
    RateBucket& b = it->second;  // full again: as good as never used
    const bool full =
        b.take(now, kSettingsBurst, kSettingsPerMinute, false) && b.tokens >= kSettingsBurst;
    it = full ? settings_writes_.erase(it) : std::next(it);
  }
}

std::vector<int64_t> AccountsSite::online_ids() const {
  std::vector<int64_t> ids;
  for (const auto& [id, n] : online_users_) ids.push_back(id);
  return ids;
}

// ---- who is asking ----

Viewer AccountsSite::viewer_of(const net::Request& req) {
  auto it = req.find(http::field::cookie);
  if (it == req.end()) return {};
  const auto token = accounts::find_cookie(it->value());
  if (!token) return {};
  const auto hash = accounts::token_hash(*token);
  if (!hash) return {};
  try {
    const auto session = s_.store.find_session(*hash);
    if (!session || !accounts::session_matches(*token, *hash, session->expires_ms, now_ms()))
      return {};
    const auto user = s_.store.user_by_id(session->user_id);
    if (!user) return {};
    return Viewer{user->id, user->username, user->bot, *hash};
  } catch (const std::exception& e) {
    log(net::LogLevel::Error, "", std::string("cannot read the session: ") + e.what());
    return {};
  }
}

void AccountsSite::user_connected(const Viewer& v) {
  if (v.signed_in()) ++online_users_[v.user_id];
}

void AccountsSite::user_disconnected(const Viewer& v) {
  auto it = online_users_.find(v.user_id);
  if (it != online_users_.end() && --it->second <= 0) online_users_.erase(it);
}

bool AccountsSite::online(int64_t user_id) const {
  return online_users_.count(user_id) > 0;
}

// ---- sign-up, login, logout, password ----

void AccountsSite::signup(const json::object& body, const std::string& peer, bool secure,
                          net::Respond respond) {
  Response refusal;
  const auto fields = two_strings(body, "username", "password", &refusal);
  if (!fields) return respond(std::move(refusal));
  const auto& [name, password] = *fields;
  if (auto e = accounts::check_username(name)) return respond(refused(*e));
  if (auto e = accounts::check_password(password)) return respond(refused(*e));
  const std::string key = accounts::username_key(name);
  auto taken = [] { return Refusal("username_taken").response(); };
  if (s_.store.find_user(key)) return respond(taken());
  // Counted when admitted: a flood of sign-ups from one address stops here, before any hash.
  const accounts::LoginVerdict verdict = signup_limiter_.admit(peer, now_ms());
  if (!verdict.allowed) {
    log(net::LogLevel::Debug, "", "sign-up refused: too many from " + peer);
    return respond(too_many(verdict));
  }
  off_io(
      s_.hashes, s_.ioc, HashLane::Signup, respond,
      [password = password] { return accounts::hash_password(password); },
      [this, respond, secure, name = name, key, taken, peer](std::string hash) {
        store::UserRow u;
        u.username = name;
        u.username_key = key;
        u.password_hash = std::move(hash);
        u.created_ms = now_ms();
        u.id = s_.store.create_user(u);  // a sign-up of the same name meanwhile: taken
        if (u.id == 0) return respond(taken());
        log(net::LogLevel::Info, "", "account created: " + u.username + " from " + peer);
        respond(logged_in(s_.store, u, http::status::created, secure));
      });
}

void AccountsSite::login(const json::object& body, const std::string& peer, bool secure,
                         net::Respond respond) {
  Response refusal;
  const auto fields = two_strings(body, "username", "password", &refusal);
  if (!fields) return respond(std::move(refusal));
  const auto& [name, password] = *fields;
  if (password.size() > accounts::kPasswordMax || name.size() > 100) return respond(login_failed());
  const std::string key = accounts::username_key(name);
  const accounts::LoginVerdict verdict = login_limiter_.check(key, peer, now_ms());
  if (!verdict.allowed) return respond(too_many(verdict));
  const auto user = s_.store.find_user(key);
  const std::string hash = user ? user->password_hash : "";
  // The verdict and, when the stored hash has another cost, the new hash of this password.
  off_io(
      s_.hashes, s_.ioc, HashLane::Login, respond,
      [password = password, hash] {
        if (hash.empty()) {
          accounts::verify_password(password, dummy_hash());
          return std::pair<bool, std::string>{false, ""};
        }
        if (!accounts::verify_password(password, hash)) return std::pair<bool, std::string>{};
        return std::pair<bool, std::string>{
            true, accounts::needs_rehash(hash) ? accounts::hash_password(password) : ""};
      },
      [this, respond, secure, key, peer, user](std::pair<bool, std::string> verdict) {
        if (!verdict.first) {
          login_limiter_.failure(key, peer, now_ms());
          log(net::LogLevel::Debug, "", "login failed from " + peer);
          return respond(login_failed());
        }
        login_limiter_.success(key, peer);
        // A closed account (docs/accounts.md "Moderation") is told so only with its password.
        if (s_.store.standing(user->id).closed)
          return respond(Refusal("account_closed").response());
        if (!verdict.second.empty()) s_.store.set_password(user->id, verdict.second);
        respond(logged_in(s_.store, *user, http::status::ok, secure));
      });
}

Response AccountsSite::logout(const net::Request& req) {
  // The session ends, and every socket opened with it closes (here and on other instances).
  if (auto it = req.find(http::field::cookie); it != req.end())
    if (const auto token = accounts::find_cookie(it->value()))
      if (const auto hash = accounts::token_hash(*token)) {
        const auto session = s_.store.find_session(*hash);
        s_.store.delete_session(*hash);
        if (session) s_.sessions_ended(session->user_id);
      }
  Response res = json_response(http::status::ok, json::object{{"ok", true}});
  res.set(http::field::set_cookie, accounts::clear_session_cookie(served_over_https(req)));
  return res;
}

Response AccountsSite::me(const Viewer& v) {
  return json_response(
      http::status::ok,
      json::object{{"username", v.signed_in() ? json::value(v.username) : json::value(nullptr)},
                   {"moderator", v.signed_in() && s_.store.standing(v.user_id).moderator}});
}

void AccountsSite::password(const net::Request& req, const Viewer& v, const std::string& peer,
                            const json::object& body, net::Respond respond) {
  if (!v.signed_in()) return respond(not_logged_in());
  Response refusal;
  const auto fields = two_strings(body, "password", "new_password", &refusal);
  if (!fields) return respond(std::move(refusal));
  const auto& [current, next] = *fields;
  if (auto e = accounts::check_password(next)) return respond(refused(*e));
  const auto user = s_.store.user_by_id(v.user_id);
  if (!user) return respond(not_logged_in());
  const accounts::LoginVerdict verdict = login_limiter_.check(user->username_key, peer, now_ms());
  if (!verdict.allowed) return respond(login_failed());
  std::string keep;  // this session stays; every other one of the account ends
  if (const auto token = accounts::find_cookie(req[http::field::cookie]))
    keep = accounts::token_hash(*token).value_or("");
  off_io(
      s_.hashes, s_.ioc, HashLane::Login, respond,
      [current = current, next = next, hash = user->password_hash] {
        return accounts::verify_password(current, hash) ? accounts::hash_password(next)
                                                        : std::string();
      },
      [this, respond, user = *user, peer, keep](std::string hash) {
        if (hash.empty()) {
          login_limiter_.failure(user.username_key, peer, now_ms());
          return respond(login_failed());
        }
        s_.store.set_password(user.id, hash);
        s_.store.delete_other_sessions(user.id, keep, now_ms());
        s_.sessions_ended(user.id);  // the sockets of the ended sessions close; this one's stay
        respond(json_response(http::status::ok, json::object{{"ok", true}}));
      });
}

// ---- settings ----

Response AccountsSite::settings(const Viewer& v, const std::string* body) {
  if (!v.signed_in()) throw Refusal("not_logged_in");
  if (body) {
    json::object checked = checked_settings(*body);
    RateBucket& bucket = settings_writes_[v.user_id];
    if (!bucket.take(now_ms(), kSettingsBurst, kSettingsPerMinute))
      throw Refusal("settings_rate",
                    {{"n", std::to_string(bucket.minutes_to_wait(kSettingsPerMinute))}});
    s_.store.set_settings(v.user_id, json::serialize(checked), now_ms());
    return json_response(http::status::ok, json::object{{"settings", std::move(checked)}});
  }
  return json_response(http::status::ok,
                       json::object{{"settings", stored_settings(s_.store.settings(v.user_id))}});
}

// ---- ratings and the player pages ----

store::RatingRow AccountsSite::rating_now(int64_t user_id, const std::string& category) {
  for (const store::RatingRow& r : s_.store.ratings(user_id))
    if (r.category == category) return shown(r, now_ms());
  store::RatingRow r;
  r.category = category;
  return r;
}

Response AccountsSite::user(const std::string& name, const std::string& part) {
  const auto user =
      name.size() <= 100 ? s_.store.find_user(accounts::username_key(name)) : std::nullopt;
  if (!user) return Refusal("no_user").response();
  const int64_t now = now_ms();
  if (part == "history") {
    json::object out;
    for (const store::RatingChange& c : s_.store.rating_history(user->id)) {
      json::value& points = out[c.category];
      if (!points.is_array()) points = json::array();
      points.as_array().push_back(json::array{c.time_ms, c.rating_after});
    }
    return json_response(http::status::ok, out);
  }
  if (part == "pgn") {
    std::string text;
    store::ListQuery q;
    q.account = user->id;
    q.limit = 1000;
    int64_t total = 0;
    for (const GameRow& listed : s_.store.list_games(q, &total)) {
      if (parse_status(listed.status) != Status::Over) continue;
      auto row = s_.store.load_game(listed.id);
      if (!row) continue;
      text += s_.pgn_of(*row);
      text += "\n";
    }
    Response res{http::status::ok, 11};
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.set(http::field::content_disposition,
            "attachment; filename=\"toguz-" + user->username + ".pgn\"");
    res.body() = std::move(text);
    return res;
  }
  json::object ratings;
  const std::vector<store::RatingRow> rows = s_.store.ratings(user->id);
  for (accounts::Speed speed : accounts::kSpeeds) {
    store::RatingRow r;
    r.category = std::string(accounts::name(speed));
    for (const store::RatingRow& row : rows)
      if (row.category == r.category) r = shown(row, now);
    ratings[r.category] = json::object{{"rating", r.rating},
                                       {"rd", r.rd},
                                       {"volatility", r.volatility},
                                       {"games", r.games},
                                       {"provisional", r.rd > accounts::kProvisionalRd}};
  }
  const store::ResultCounts c = s_.store.result_counts(user->id);
  auto counts = [](int64_t win, int64_t draw, int64_t loss) {
    return json::object{{"win", win}, {"draw", draw}, {"loss", loss}};
  };
  return json_response(
      http::status::ok,
      json::object{
          {"username", user->username},
          {"created", iso_time(user->created_ms)},
          {"online", online(user->id)},
          {"bot", user->bot},
          {"ratings", std::move(ratings)},
          {"counts", json::object{{"all", counts(c.win[0] + c.win[1], c.draw[0] + c.draw[1],
                                                 c.loss[0] + c.loss[1])},
                                  {"white", counts(c.win[0], c.draw[0], c.loss[0])},
                                  {"black", counts(c.win[1], c.draw[1], c.loss[1])}}}});
}

Response AccountsSite::leaderboard(const std::string& category, const std::string& query) {
  if (!accounts::parse_speed(category))
    return Refusal("no_category", {{"category", category}}).response();
  int limit = 50;
  for (size_t at = 0; at < query.size();) {
    size_t end = query.find('&', at);
    if (end == std::string::npos) end = query.size();
    const std::string kv = query.substr(at, end - at);
    at = end + 1;
    if (kv.rfind("limit=", 0) != 0) continue;
    const std::string v = kv.substr(6);
    if (v.empty() || v.size() > 3 || v.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(v) < 1 || std::stoi(v) > 200)
      return Refusal("field_range", {{"field", "limit"}, {"lo", "1"}, {"hi", "200"}}).response();
    limit = std::stoi(v);
  }
  json::array players;
  for (const store::LeaderRow& r : s_.store.leaderboard(category, accounts::kProvisionalRd, limit))
    players.push_back(json::object{
        {"username", r.username}, {"rating", r.rating}, {"rd", r.rd}, {"games", r.games}});
  return json_response(http::status::ok,
                       json::object{{"category", category}, {"players", std::move(players)}});
}

}  // namespace toguz::site
