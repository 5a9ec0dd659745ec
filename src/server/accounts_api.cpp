// The accounts API (docs/web-protocol.md "Accounts, ratings and the lobby", docs/accounts.md):
// sign-up, login, logout, the password, who is asking (the session cookie), the player pages'
// data and the leaderboard, and the games the lobby starts between two players. Passwords are
// hashed and verified on the password pool (hash_pool.h) so neither the IO thread nor a login
// waits for engine work; a password is never logged, stored or answered.
#include <boost/json.hpp>
#include <cmath>

#include "accounts/glicko2.h"
#include "accounts/password.h"
#include "accounts/session.h"
#include "accounts/speed.h"
#include "accounts/username.h"
#include "net/log.h"
#include "rules/notation.h"
#include "rules/record.h"
#include "server/server_impl.h"
#include "site/json_out.h"
#include "site/texts.h"

namespace toguz::server {

bool served_over_https(const http::request<http::string_body>& req) {
  return req["X-Forwarded-Proto"] == "https";
}

namespace {

using Response = http::response<http::string_body>;

// The string field `name` of a request body, or why not.
std::optional<std::string> string_field(const json::object& body, const char* name,
                                        std::string* why) {
  const json::value* v = body.if_contains(name);
  if (!v || !v->is_string()) {
    *why = std::string(name) + ": expected a string";
    return std::nullopt;
  }
  return std::string(v->as_string());
}

Response bad_field(const std::string& why) {
  return coded_error(http::status::bad_request, why, "bad_message");
}

// The two string fields of a body (`first` and `second`), or the refusal naming the first one
// missing or not a string.
std::optional<std::pair<std::string, std::string>> two_strings(const json::object& body,
                                                               const char* first,
                                                               const char* second,
                                                               Response* refusal) {
  std::string why;
  auto a = string_field(body, first, &why);
  auto b = a ? string_field(body, second, &why) : std::nullopt;
  if (!b) {
    *refusal = bad_field(why);
    return std::nullopt;
  }
  return std::pair{std::move(*a), std::move(*b)};
}

// 400 with the code of a refused username or password (`field` names it in the message).
template <class Error>
Response refused(const char* field, Error e) {
  return coded_error(http::status::bad_request, std::string(field) + ": refused",
                     std::string(accounts::code(e)));
}

Response not_logged_in() {
  return coded_error(http::status::unauthorized, "log in first", "not_logged_in");
}

Response login_failed() {
  return coded_error(http::status::unauthorized, "wrong username or password", "login_failed");
}

Response passwords_busy() {
  return coded_error(http::status::service_unavailable,
                     "the server is checking too many passwords; try again in a moment",
                     "passwords_busy");
}

// 429 for a refusal of a limiter (`verdict.code`), with when to try again in the body's params
// and in Retry-After.
Response too_many(const std::string& message, const accounts::LoginVerdict& verdict) {
  const int64_t seconds = (verdict.retry_after_ms + 999) / 1000;
  Response res = coded_error(http::status::too_many_requests, message, std::string(verdict.code),
                             json::object{{"retry_after_s", seconds}});
  res.set(http::field::retry_after, std::to_string(seconds));
  return res;
}

// The answer that logs `user` in: a new session stored, its cookie set.
Response logged_in(Store& store, const store::UserRow& user, http::status status, bool secure) {
  const int64_t now = now_ms();
  const accounts::NewSession s = accounts::new_session(now);
  store.add_session(s.hash, user.id, s.expires_ms);
  Response res = json_response(status, json::object{{"username", user.username}});
  res.set(http::field::set_cookie, accounts::session_cookie(s.token, s.expires_ms, now, secure));
  return res;
}

// Runs `work` on the password pool in `lane` (not the IO thread: an Argon2id hash takes tens of
// milliseconds) and `done` with its result back on the IO thread. A throw in either answers
// 500 (503 with the fault's code for a store that refuses writes); a full queue 503
// "passwords_busy".
template <class Work, class Done>
void off_io(Server::Impl& server, HashLane lane, const Server::Impl::Respond& respond, Work work,
            Done done) {
  auto failed = [respond](const std::string& what) {
    respond(error_response(http::status::internal_server_error, "server error: " + what));
  };
  auto refused = [respond](store::StoreFault fault) {
    respond(coded_error(http::status::service_unavailable, fault_text(fault),
                        store::fault_code(fault)));
  };
  const bool queued = server.hashes->submit(
      [&ioc = server.ioc, work, done, failed, refused] {
        try {
          auto result = work();
          asio::post(ioc, [done, failed, refused, result = std::move(result)]() mutable {
            try {
              done(std::move(result));
            } catch (const store::StoreUnavailable& e) {
              log(net::LogLevel::Error, "", std::string("accounts: ") + e.what());
              refused(e.fault);
            } catch (const std::exception& e) {
              log(net::LogLevel::Error, "", std::string("accounts: ") + e.what());
              failed(e.what());
            }
          });
        } catch (const std::exception& e) {
          asio::post(ioc, [failed, what = std::string(e.what())] { failed(what); });
        }
      },
      lane);
  if (!queued) respond(passwords_busy());
}

// A hash nobody's password matches: an unknown name costs a verification like a known one, so
// the time of the answer does not tell which names exist.
const std::string& dummy_hash() {
  static const std::string hash = accounts::hash_password("no account has this password");
  return hash;
}

accounts::Rating rating_of(const store::RatingRow& r) {
  return {r.rating, r.rd, r.volatility, r.games};
}

// The rating as shown now: its deviation grown by the days since its last game.
store::RatingRow shown(store::RatingRow r, int64_t now) {
  if (r.games > 0)
    r.rd = accounts::rd_after(rating_of(r), double(now - r.updated_ms) / 86400000.0,
                              accounts::Glicko2Config{});
  return r;
}

}  // namespace

// ---- who is asking ----

Viewer Server::Impl::viewer_of(const http::request<http::string_body>& req) {
  auto it = req.find(http::field::cookie);
  if (it == req.end()) return {};
  const auto token = accounts::find_cookie(it->value());
  if (!token) return {};
  const auto hash = accounts::token_hash(*token);
  if (!hash) return {};
  try {
    const auto session = store->find_session(*hash);
    if (!session || !accounts::session_matches(*token, *hash, session->expires_ms, now_ms()))
      return {};
    const auto user = store->user_by_id(session->user_id);
    if (!user) return {};
    return Viewer{user->id, user->username, user->bot, *hash};
  } catch (const std::exception& e) {
    log(net::LogLevel::Error, "", std::string("cannot read the session: ") + e.what());
    return {};
  }
}

void Server::Impl::user_connected(const Viewer& v) {
  if (v.signed_in()) ++online_users[v.user_id];
}

void Server::Impl::user_disconnected(const Viewer& v) {
  auto it = online_users.find(v.user_id);
  if (it != online_users.end() && --it->second <= 0) online_users.erase(it);
}

bool Server::Impl::online(int64_t user_id) const {
  return online_users.count(user_id) > 0;
}

// ---- sign-up, login, logout, password ----

void Server::Impl::api_signup(const json::object& body, const std::string& peer, bool secure,
                              Respond respond) {
  Response refusal;
  const auto fields = two_strings(body, "username", "password", &refusal);
  if (!fields) return respond(std::move(refusal));
  const auto& [name, password] = *fields;
  if (auto e = accounts::check_username(name)) return respond(refused("username", *e));
  if (auto e = accounts::check_password(password)) return respond(refused("password", *e));
  const std::string key = accounts::username_key(name);
  auto taken = [] {
    return coded_error(http::status::conflict, "username: taken", "username_taken");
  };
  if (store->find_user(key)) return respond(taken());
  // Counted when admitted: a flood of sign-ups from one address stops here, before any hash.
  const accounts::LoginVerdict verdict = signup_limiter.admit(peer, now_ms());
  if (!verdict.allowed) {
    log(net::LogLevel::Debug, "", "sign-up refused: too many from " + peer);
    return respond(too_many("signup: too many accounts from this address", verdict));
  }
  off_io(
      *this, HashLane::Signup, respond,
      [password = password] { return accounts::hash_password(password); },
      [this, respond, secure, name = name, key, taken, peer](std::string hash) {
        store::UserRow u;
        u.username = name;
        u.username_key = key;
        u.password_hash = std::move(hash);
        u.created_ms = now_ms();
        u.id = store->create_user(u);  // a sign-up of the same name meanwhile: taken
        if (u.id == 0) return respond(taken());
        log(net::LogLevel::Info, "", "account created: " + u.username + " from " + peer);
        respond(logged_in(*store, u, http::status::created, secure));
      });
}

void Server::Impl::api_login(const json::object& body, const std::string& peer, bool secure,
                             Respond respond) {
  Response refusal;
  const auto fields = two_strings(body, "username", "password", &refusal);
  if (!fields) return respond(std::move(refusal));
  const auto& [name, password] = *fields;
  if (password.size() > accounts::kPasswordMax || name.size() > 100) return respond(login_failed());
  const std::string key = accounts::username_key(name);
  const accounts::LoginVerdict verdict = login_limiter.check(key, peer, now_ms());
  if (!verdict.allowed) return respond(too_many("login: too many failures", verdict));
  const auto user = store->find_user(key);
  const std::string hash = user ? user->password_hash : "";
  // The verdict and, when the stored hash has another cost, the new hash of this password.
  off_io(
      *this, HashLane::Login, respond,
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
          login_limiter.failure(key, peer, now_ms());
          log(net::LogLevel::Debug, "", "login failed from " + peer);
          return respond(login_failed());
        }
        login_limiter.success(key, peer);
        // A closed account (docs/accounts.md "Moderation") is told so only with its password.
        if (store->standing(user->id).closed)
          return respond(coded_error(http::status::forbidden, "login: this account is closed",
                                     "account_closed"));
        if (!verdict.second.empty()) store->set_password(user->id, verdict.second);
        respond(logged_in(*store, *user, http::status::ok, secure));
      });
}

Response Server::Impl::api_logout(const http::request<http::string_body>& req) {
  // The session ends, and every socket opened with it closes (here and on other instances).
  if (auto it = req.find(http::field::cookie); it != req.end())
    if (const auto token = accounts::find_cookie(it->value()))
      if (const auto hash = accounts::token_hash(*token)) {
        const auto session = store->find_session(*hash);
        store->delete_session(*hash);
        if (session) sessions_ended(session->user_id);
      }
  Response res = json_response(http::status::ok, json::object{{"ok", true}});
  res.set(http::field::set_cookie, accounts::clear_session_cookie(served_over_https(req)));
  return res;
}

Response Server::Impl::api_me(const Viewer& v) {
  return json_response(
      http::status::ok,
      json::object{{"username", v.signed_in() ? json::value(v.username) : json::value(nullptr)},
                   {"moderator", v.signed_in() && store->standing(v.user_id).moderator}});
}

void Server::Impl::api_password(const http::request<http::string_body>& req, const Viewer& v,
                                const std::string& peer, const json::object& body,
                                Respond respond) {
  if (!v.signed_in()) return respond(not_logged_in());
  Response refusal;
  const auto fields = two_strings(body, "password", "new_password", &refusal);
  if (!fields) return respond(std::move(refusal));
  const auto& [current, next] = *fields;
  if (auto e = accounts::check_password(next)) return respond(refused("new_password", *e));
  const auto user = store->user_by_id(v.user_id);
  if (!user) return respond(not_logged_in());
  const accounts::LoginVerdict verdict = login_limiter.check(user->username_key, peer, now_ms());
  if (!verdict.allowed) return respond(login_failed());
  std::string keep;  // this session stays; every other one of the account ends
  if (const auto token = accounts::find_cookie(req[http::field::cookie]))
    keep = accounts::token_hash(*token).value_or("");
  off_io(
      *this, HashLane::Login, respond,
      [current = current, next = next, hash = user->password_hash] {
        return accounts::verify_password(current, hash) ? accounts::hash_password(next)
                                                        : std::string();
      },
      [this, respond, user = *user, peer, keep](std::string hash) {
        if (hash.empty()) {
          login_limiter.failure(user.username_key, peer, now_ms());
          return respond(login_failed());
        }
        store->set_password(user.id, hash);
        store->delete_other_sessions(user.id, keep, now_ms());
        sessions_ended(user.id);  // the sockets of the ended sessions close; this one's stay
        respond(json_response(http::status::ok, json::object{{"ok", true}}));
      });
}

// ---- ratings and the player pages ----

store::RatingRow Server::Impl::rating_now(int64_t user_id, const std::string& category) {
  for (const store::RatingRow& r : store->ratings(user_id))
    if (r.category == category) return shown(r, now_ms());
  store::RatingRow r;
  r.category = category;
  return r;
}

void Server::Impl::bind_account(Player& p, const Room& room, const Viewer& v) {
  p.user_id = v.user_id;
  p.name = v.username;
  if (room.rated && !room.speed.empty()) {
    const store::RatingRow r = rating_now(v.user_id, room.speed);
    p.rating = int(std::lround(r.rating));
    p.provisional = r.rd > accounts::kProvisionalRd;
  }
}

Response Server::Impl::api_user(const std::string& name, const std::string& part) {
  const auto user =
      name.size() <= 100 ? store->find_user(accounts::username_key(name)) : std::nullopt;
  if (!user) return coded_error(http::status::not_found, "no such player", "no_user");
  const int64_t now = now_ms();
  if (part == "history") {
    json::object out;
    for (const store::RatingChange& c : store->rating_history(user->id)) {
      json::value& points = out[c.category];
      if (!points.is_array()) points = json::array();
      points.as_array().push_back(json::array{c.time_ms, c.rating_after});
    }
    return json_response(http::status::ok, out);
  }
  if (part == "pgn") {
    std::string text;
    ListQuery q;
    q.account = user->id;
    q.limit = 1000;
    int64_t total = 0;
    for (const GameRow& listed : store->list_games(q, &total)) {
      if (parse_status(listed.status) != Status::Over) continue;
      auto row = store->load_game(listed.id);
      if (!row) continue;
      const auto room = Room::from_row(*services, *row);
      text += write_record(room->game, export_tags(room->row()), RecordStyle::Pgn);
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
  const std::vector<store::RatingRow> rows = store->ratings(user->id);
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
  const store::ResultCounts c = store->result_counts(user->id);
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

Response Server::Impl::api_leaderboard(const std::string& category, const std::string& query) {
  if (!accounts::parse_speed(category))
    return error_response(http::status::not_found, "no such category: " + category);
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
      return error_response(http::status::bad_request, "limit: expected 1..200");
    limit = std::stoi(v);
  }
  json::array players;
  for (const store::LeaderRow& r : store->leaderboard(category, accounts::kProvisionalRd, limit))
    players.push_back(json::object{
        {"username", r.username}, {"rating", r.rating}, {"rd", r.rd}, {"games", r.games}});
  return json_response(http::status::ok,
                       json::object{{"category", category}, {"players", std::move(players)}});
}

// ---- games the lobby starts ----

PairedSeats Server::Impl::start_paired_game(const PairedGame& g) {
  PairedSeats out;
  Variant variant;
  if (!parse_variant(g.variant, &variant)) {
    out.error = "variant";
    return out;
  }
  if (g.rated &&
      (!g.white.signed_in() || !g.black.signed_in() || g.white.user_id == g.black.user_id)) {
    out.error = "rated_needs_account";
    return out;
  }
  if (g.rated && g.initial_ms < 0 && g.days_per_move <= 0) {
    out.error = "rated_needs_clock";
    return out;
  }
  RuleOptions opts;
  opts.variant = variant;
  auto room = rooms->create(Mode::Online, Game(Position::start(opts.resolve())));
  room->clock_initial_ms = g.days_per_move > 0 ? -1 : g.initial_ms;
  room->increment_ms = room->has_clock() ? std::max<int64_t>(0, g.increment_ms) : 0;
  room->set_clocks(std::max<int64_t>(0, room->clock_initial_ms));
  room->days_per_move = std::max(0, g.days_per_move);
  const auto speed =
      room->has_clock()     ? accounts::speed_of({room->clock_initial_ms, room->increment_ms, 0})
      : g.days_per_move > 0 ? std::optional<accounts::Speed>(accounts::Speed::correspondence)
                            : std::nullopt;
  if (speed) room->speed = std::string(accounts::name(*speed));
  // The pair cap and a marked account make it casual; the players see why in its state.
  room->unrated_reason = g.rated ? rated_refusal(g.white.user_id, g.black.user_id) : "";
  room->rated = g.rated && room->unrated_reason.empty();
  const Viewer* viewers[2] = {&g.white, &g.black};
  for (int s = 0; s < 2; ++s) {
    Player& p = room->players[s];
    p = {kNameGuest, RoomRegistry::random_id(32), true};
    // One account on both sides (a casual game with oneself): the second seat is the token's.
    if (viewers[s]->signed_in() && (s == 0 || g.black.user_id != g.white.user_id))
      bind_account(p, *room, *viewers[s]);
  }
  room->status = Status::Playing;
  if (!room->save()) {  // logged; a game the store does not have is not started
    rooms->drop(room->id);
    out.error = "store";
    return out;
  }
  room->arm_start_timer();
  out.id = room->id;
  out.white_token = room->players[0].token;
  out.black_token = room->players[1].token;
  return out;
}

}  // namespace toguz::server
