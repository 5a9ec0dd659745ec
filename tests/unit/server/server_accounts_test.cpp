// Accounts on a real server over real sockets (docs/accounts.md, docs/web-protocol.md
// "Accounts, ratings and the lobby"): sign-up rules, login and its limit, the session cookie and
// logout, a wrong or expired session, the Origin check, seats bound to accounts, and a rated
// game to the end with both ratings written exactly once; the limits per client and the
// password pool (logins ahead of sign-ups).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "server_client.h"
#include "site/accounts/hash_pool.h"

namespace toguz::test {
namespace {

using Headers = std::vector<std::pair<http::field, std::string>>;

// The session cookie of an answer ("toguz_session=<token>"), "" when it sets none.
std::string cookie_of(const HttpResult& r) {
  const std::string set(r.headers[http::field::set_cookie]);
  return set.substr(0, set.find(';'));
}

HttpResult post_as(uint16_t port, const std::string& target, const json::value& body,
                   const std::string& cookie) {
  Headers h;
  if (!cookie.empty()) h.emplace_back(http::field::cookie, cookie);
  return http_call(port, http::verb::post, target, json::serialize(body), h);
}

HttpResult get_as(uint16_t port, const std::string& target, const std::string& cookie) {
  Headers h;
  if (!cookie.empty()) h.emplace_back(http::field::cookie, cookie);
  return http_call(port, http::verb::get, target, "", h);
}

json::value credentials(const std::string& name, const std::string& password) {
  return json::object{{"username", name}, {"password", password}};
}

// Signs up `name` and answers its session cookie.
std::string me(uint16_t port, const std::string& cookie) {
  const json::value v = get_as(port, "/api/me", cookie).json();
  return v.at("username").is_null() ? "" : jstr(v.at("username"));
}

TEST(ServerAccounts, SignUpRulesAndTheCookie) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  struct Bad {
    std::string name, password, code;
    int status;
  };
  for (const Bad& b : {Bad{"a", "long enough", "username_too_short", 400},
                       Bad{"abcdefghijklmnopqrstu", "long enough", "username_too_long", 400},
                       Bad{"Ай", "long enough", "username_bad_character", 400},
                       Bad{"a b", "long enough", "username_bad_character", 400},
                       Bad{"Admin", "long enough", "username_reserved", 400},
                       Bad{"Aigerim", "short", "password_too_short", 400},
                       Bad{"Aigerim", std::string(257, 'x'), "password_too_long", 400}}) {
    HttpResult r = http_post(port, "/api/signup", credentials(b.name, b.password));
    EXPECT_EQ(r.status, b.status) << b.name << " " << r.body;
    EXPECT_EQ(code_of(r), b.code) << r.body;
    EXPECT_EQ(cookie_of(r), "");
  }
  EXPECT_EQ(http_post(port, "/api/signup", std::string(R"({"username":5})")).status, 400);

  HttpResult ok = http_post(port, "/api/signup", credentials("Aigerim", "a good password"));
  ASSERT_EQ(ok.status, 201) << ok.body;
  EXPECT_EQ(jstr(ok.json().at("username")), "Aigerim");
  const std::string set(ok.headers[http::field::set_cookie]);
  EXPECT_NE(set.find("HttpOnly"), std::string::npos) << set;
  EXPECT_NE(set.find("SameSite=Lax"), std::string::npos) << set;
  EXPECT_EQ(set.find("Secure"), std::string::npos) << set;  // plain HTTP here
  EXPECT_EQ(ok.body.find("a good password"), std::string::npos);
  const std::string cookie = cookie_of(ok);
  EXPECT_EQ(cookie.rfind("toguz_session=", 0), 0u) << cookie;
  EXPECT_EQ(me(port, cookie), "Aigerim");
  EXPECT_EQ(me(port, ""), "");

  // The same name in another case is taken.
  HttpResult again = http_post(port, "/api/signup", credentials("aIGERIM", "another password"));
  EXPECT_EQ(again.status, 409);
  EXPECT_EQ(code_of(again), "username_taken");
}

TEST(ServerAccounts, LoginWrongPasswordAndTheLimit) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  ASSERT_NE(sign_up_cookie(port, "Aigerim"), "");

  // The name in any case, the name answered as written.
  HttpResult ok = http_post(port, "/api/login", credentials("aigerim", "password-of-Aigerim"));
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(jstr(ok.json().at("username")), "Aigerim");
  EXPECT_EQ(me(port, cookie_of(ok)), "Aigerim");

  // A wrong password and an unknown name get the same answer.
  HttpResult wrong = http_post(port, "/api/login", credentials("Aigerim", "not the password"));
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(code_of(wrong), "login_failed");
  EXPECT_EQ(cookie_of(wrong), "");
  HttpResult unknown = http_post(port, "/api/login", credentials("Nobody", "not the password"));
  EXPECT_EQ(unknown.status, 401);
  EXPECT_EQ(code_of(unknown), "login_failed");

  // Four more failures make five on the account: then even the right password waits.
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(http_post(port, "/api/login", credentials("AIGERIM", "wrong again")).status, 401);
  HttpResult locked = http_post(port, "/api/login", credentials("Aigerim", "password-of-Aigerim"));
  EXPECT_EQ(locked.status, 429) << locked.body;
  EXPECT_EQ(code_of(locked), "login_locked_account");
  const int64_t retry = jint(locked.json().at("params").at("retry_after_s"));
  EXPECT_GT(retry, 0);
  EXPECT_LE(retry, 300);
  EXPECT_EQ(std::string(locked.headers[http::field::retry_after]), std::to_string(retry));
  EXPECT_EQ(cookie_of(locked), "");
}

TEST(ServerAccounts, LogoutAndWrongOrExpiredSessionsAreAnonymous) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  TestServer srv(db);
  const uint16_t port = srv.port;
  const std::string cookie = sign_up_cookie(port, "Aigerim");
  ASSERT_EQ(me(port, cookie), "Aigerim");

  // Malformed, unknown and garbage cookies are simply anonymous.
  for (const std::string& bad : std::vector<std::string>{
           "toguz_session=", "toguz_session=short", "toguz_session=" + std::string(43, 'A'),
           "other=1", "toguz_session=" + std::string(43, '*')}) {
    HttpResult r = get_as(port, "/api/me", bad);
    EXPECT_EQ(r.status, 200) << bad;
    EXPECT_TRUE(r.json().at("username").is_null()) << bad;
  }

  // A second session; logout ends only the one it was sent with, and clears the cookie.
  HttpResult second = http_post(port, "/api/login", credentials("Aigerim", "password-of-Aigerim"));
  const std::string cookie2 = cookie_of(second);
  ASSERT_EQ(me(port, cookie2), "Aigerim");
  HttpResult out = post_as(port, "/api/logout", json::object{}, cookie);
  EXPECT_EQ(out.status, 200);
  EXPECT_NE(std::string(out.headers[http::field::set_cookie]).find("Max-Age=0"), std::string::npos);
  EXPECT_EQ(me(port, cookie), "");
  EXPECT_EQ(me(port, cookie2), "Aigerim");

  // An expired session (its expiry moved into the past in the database) is anonymous.
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  sqlite3_busy_timeout(h, 5000);
  ASSERT_EQ(sqlite3_exec(h, "UPDATE sessions SET expires_ms = 1", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(h);
  EXPECT_EQ(me(port, cookie2), "");
}

TEST(ServerAccounts, OriginIsCheckedOnAccountPosts) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  for (const char* target : {"/api/signup", "/api/login", "/api/logout", "/api/password"}) {
    HttpResult r = http_call(port, http::verb::post, target,
                             json::serialize(credentials("Aigerim", "a good password")),
                             {{http::field::origin, "http://evil.example"}});
    EXPECT_EQ(r.status, 403) << target;
    EXPECT_EQ(code_of(r), "origin") << r.body;
  }
  HttpResult same = http_call(port, http::verb::post, "/api/signup",
                              json::serialize(credentials("Aigerim", "a good password")),
                              {{http::field::origin, "http://127.0.0.1:" + std::to_string(port)}});
  EXPECT_EQ(same.status, 201) << same.body;
}

TEST(ServerAccounts, PasswordChangeEndsTheOtherSessions) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  const std::string a = sign_up_cookie(port, "Aigerim");
  const std::string b =
      cookie_of(http_post(port, "/api/login", credentials("Aigerim", "password-of-Aigerim")));
  ASSERT_EQ(me(port, b), "Aigerim");
  const json::value change{{"password", "password-of-Aigerim"}, {"new_password", "a new one!"}};
  EXPECT_EQ(post_as(port, "/api/password", change, "").status, 401);
  HttpResult wrong =
      post_as(port, "/api/password",
              json::object{{"password", "wrong"}, {"new_password", "a new one!"}}, a);
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(code_of(wrong), "login_failed");
  HttpResult ok = post_as(port, "/api/password", change, a);
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(me(port, a), "Aigerim");
  EXPECT_EQ(me(port, b), "");
  EXPECT_EQ(http_post(port, "/api/login", credentials("Aigerim", "password-of-Aigerim")).status,
            401);
  EXPECT_EQ(http_post(port, "/api/login", credentials("Aigerim", "a new one!")).status, 200);
}

// A rated game by link between two accounts: created and joined, the seats bound to the
// accounts, played to a resignation; both ratings change once.
struct RatedGame {
  // Plays plies from..to-1 over the two seats' sockets, each side its first legal hole.
  static void play(WsClient& w, WsClient& b, int from, int to) {
    for (int ply = from; ply < to; ++ply) {
      WsClient& mover = ply % 2 == 0 ? w : b;
      auto s = mover.read_state([&](const json::object& g) {
        return jint(g.at("ply")) == ply && !g.at("legal").as_array().empty();
      });
      ASSERT_TRUE(s) << "ply " << ply;
      mover.send(json::object{{"type", "move"}, {"hole", first_legal(*s)}, {"ply", ply}});
    }
  }
  std::string id, white_token, black_token, white_cookie, black_cookie;
};

RatedGame start_rated(uint16_t port, int64_t initial_ms) {
  RatedGame g;
  g.white_cookie = sign_up_cookie(port, "Aigerim");
  g.black_cookie = sign_up_cookie(port, "Bolat");
  const json::value create{
      {"mode", "online"},
      {"color", "white"},
      {"rated", true},
      {"clock", json::object{{"initial_ms", initial_ms}, {"increment_ms", 0}}}};
  HttpResult c = post_as(port, "/api/games", create, g.white_cookie);
  EXPECT_EQ(c.status, 200) << c.body;
  g.id = jstr(c.json().at("id"));
  g.white_token = jstr(c.json().at("token"));
  const json::value join{{"invite", c.json().at("invite")}};
  HttpResult anon = http_post(port, "/api/games/" + g.id + "/join", join);
  EXPECT_EQ(anon.status, 401);
  EXPECT_EQ(code_of(anon), "rated_needs_account");
  HttpResult own = post_as(port, "/api/games/" + g.id + "/join", join, g.white_cookie);
  EXPECT_EQ(own.status, 409);
  HttpResult j = post_as(port, "/api/games/" + g.id + "/join", join, g.black_cookie);
  EXPECT_EQ(j.status, 200) << j.body;
  g.black_token = jstr(j.json().at("token"));
  return g;
}

TEST(ServerAccounts, RatedGamesNeedAccountsAndAClock) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  const std::string a = sign_up_cookie(port, "Aigerim");
  const json::value clock = json::object{{"initial_ms", 180000}, {"increment_ms", 2000}};
  HttpResult anon = http_post(port, "/api/games",
                              json::value{{"mode", "online"}, {"rated", true}, {"clock", clock}});
  EXPECT_EQ(anon.status, 401);
  EXPECT_EQ(code_of(anon), "rated_needs_account");
  HttpResult no_clock =
      post_as(port, "/api/games", json::value{{"mode", "online"}, {"rated", true}}, a);
  EXPECT_EQ(no_clock.status, 400);
  EXPECT_EQ(code_of(no_clock), "rated_needs_clock");
  HttpResult engine = post_as(
      port, "/api/games", json::value{{"mode", "engine"}, {"rated", true}, {"clock", clock}}, a);
  EXPECT_EQ(engine.status, 400);
  // A logged-in player plays the engine, casual, seated as his account.
  HttpResult casual = post_as(port, "/api/games", json::value{{"mode", "engine"}, {"level", 1}}, a);
  ASSERT_EQ(casual.status, 200) << casual.body;
  const json::value g = http_get(port, "/api/games/" + jstr(casual.json().at("id"))).json();
  EXPECT_FALSE(g.at("game").at("rated").as_bool());
  EXPECT_EQ(jstr(g.at("game").at("players").at("white").at("account")), "Aigerim");
  EXPECT_EQ(jstr(g.at("game").at("players").at("white").at("name")), "Aigerim");
  EXPECT_TRUE(g.at("game").at("players").at("black").at("account").is_null());
}

TEST(ServerAccounts, RatedGameToTheEndRatesBothOnce) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  const RatedGame rg = start_rated(port, 180000);
  ASSERT_FALSE(rg.id.empty());

  // The seats are the accounts': a token without its account is a spectator, the account
  // without the token is seated.
  WsClient thief(port, rg.id, rg.white_token);
  auto ts = thief.read_state([](const json::object&) { return true; });
  ASSERT_TRUE(ts);
  EXPECT_EQ(jstr(ts->at("you")), "spectator");
  thief.send(json::object{{"type", "resign"}});
  ASSERT_TRUE(thief.read_type("error"));
  WsClient wrong_token(port, rg.id, rg.white_token, {}, rg.black_cookie);
  auto wt = wrong_token.read_state([](const json::object&) { return true; });
  ASSERT_TRUE(wt);
  EXPECT_EQ(jstr(wt->at("you")), "black");
  wrong_token.close();

  WsClient w(port, rg.id, "", {}, rg.white_cookie),
      b(port, rg.id, rg.black_token, {}, rg.black_cookie);
  auto s = w.read_state([](const json::object& g) { return jstr(g.at("you")) == "white"; });
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->at("rated").as_bool());
  EXPECT_EQ(jstr(s->at("speed")), "blitz");
  const json::object& wp = s->at("players").at("white").as_object();
  EXPECT_EQ(jstr(wp.at("account")), "Aigerim");
  EXPECT_EQ(jint(wp.at("rating")), 1500);
  EXPECT_TRUE(wp.at("provisional").as_bool());
  EXPECT_TRUE(wp.at("rating_diff").is_null());
  // Two moves each (before them a resignation calls the game off, unrated), then Black resigns.
  RatedGame::play(w, b, 0, 4);
  auto bs = b.read_state([](const json::object& g) { return jint(g.at("ply")) == 4; });
  ASSERT_TRUE(bs);
  b.send(json::object{{"type", "resign"}});
  auto end = w.read_state([](const json::object& g) { return jstr(g.at("status")) == "over"; });
  ASSERT_TRUE(end);
  EXPECT_EQ(jstr(end->at("result").at("winner")), "white");
  // Two new players, one game: the winner to 1662, the loser to 1338 (docs/ratings.md).
  EXPECT_EQ(jint(end->at("players").at("white").at("rating_diff")), 162);
  EXPECT_EQ(jint(end->at("players").at("black").at("rating_diff")), -162);
  // A second end changes nothing.
  b.send(json::object{{"type", "resign"}});
  ASSERT_TRUE(b.read_type("error"));

  const json::value u = http_get(port, "/api/users/aigerim").json();
  EXPECT_EQ(jstr(u.at("username")), "Aigerim");
  EXPECT_TRUE(u.at("online").as_bool());
  const json::object& blitz = u.at("ratings").at("blitz").as_object();
  EXPECT_EQ(jint(blitz.at("games")), 1);
  EXPECT_NEAR(blitz.at("rating").as_double(), 1662.0, 0.5);
  EXPECT_EQ(jint(u.at("ratings").at("bullet").at("games")), 0);
  EXPECT_EQ(jint(u.at("counts").at("white").at("win")), 1);
  EXPECT_EQ(jint(u.at("counts").at("all").at("loss")), 0);
  const json::value ub = http_get(port, "/api/users/Bolat").json();
  EXPECT_NEAR(ub.at("ratings").at("blitz").at("rating").as_double(), 1338.0, 0.5);
  EXPECT_EQ(jint(ub.at("counts").at("black").at("loss")), 1);
  const json::value h = http_get(port, "/api/users/Bolat/history").json();
  ASSERT_EQ(h.at("blitz").as_array().size(), 1u);
  EXPECT_NEAR(h.at("blitz").at(0).at(1).as_double(), 1338.0, 0.5);

  // The games list of an account, with the accounts and the changes.
  HttpResult list = http_get(port, "/api/games?account=BOLAT");
  ASSERT_EQ(list.status, 200) << list.body;
  ASSERT_EQ(jint(list.json().at("total")), 1);
  const json::value item = list.json().at("games").at(0);
  EXPECT_TRUE(item.at("rated").as_bool());
  EXPECT_EQ(jstr(item.at("white_account")), "Aigerim");
  EXPECT_EQ(jint(item.at("white_rating")), 1500);
  EXPECT_EQ(jint(item.at("black_diff")), -162);
  EXPECT_EQ(http_get(port, "/api/games?account=nobody").status, 404);
  EXPECT_EQ(http_get(port, "/api/users/nobody").status, 404);
  HttpResult pgn = http_get(port, "/api/users/Aigerim/pgn");
  EXPECT_EQ(pgn.status, 200);
  EXPECT_NE(pgn.body.find("[White \"Aigerim\"]"), std::string::npos) << pgn.body;
  // Provisional ratings are not on the leaderboard.
  HttpResult board = http_get(port, "/api/leaderboard/blitz");
  ASSERT_EQ(board.status, 200);
  EXPECT_TRUE(board.json().at("players").as_array().empty());
  EXPECT_EQ(http_get(port, "/api/leaderboard/chess").status, 404);
}

// A flag and a resignation at about the same moment: one end, one rating change each.
TEST(ServerAccounts, FlagAndResignationRaceEndOnce) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  // 1 s each: after two moves each (played as fast as the server answers) White's flag falls
  // within the second.
  const RatedGame rg = start_rated(port, 1000);
  WsClient w(port, rg.id, rg.white_token, {}, rg.white_cookie),
      b(port, rg.id, rg.black_token, {}, rg.black_cookie);
  RatedGame::play(w, b, 0, 4);
  ASSERT_TRUE(b.read_state([](const json::object& g) { return jint(g.at("ply")) == 4; }));
  b.send(json::object{{"type", "resign"}});
  w.send(json::object{{"type", "resign"}});
  auto end = w.read_state([](const json::object& g) { return jstr(g.at("status")) == "over"; });
  ASSERT_TRUE(end);
  const std::string reason = jstr(end->at("result").at("reason"));
  EXPECT_TRUE(reason == "timeout" || reason == "resign") << reason;
  for (const char* name : {"Aigerim", "Bolat"}) {
    const json::value h = http_get(port, std::string("/api/users/") + name + "/history").json();
    ASSERT_TRUE(h.as_object().contains("bullet")) << json::serialize(h);
    EXPECT_EQ(h.at("bullet").as_array().size(), 1u) << name;
    const json::value u = http_get(port, std::string("/api/users/") + name).json();
    EXPECT_EQ(jint(u.at("ratings").at("bullet").at("games")), 1) << name;
  }
}

}  // namespace
}  // namespace toguz::test

namespace toguz::test {
namespace {

// The ids of GET /api/account/games (with `query`) for the account of `cookie`, and its count of
// games where it is his move.
std::pair<std::vector<std::string>, int64_t> account_games(uint16_t port, const std::string& cookie,
                                                           const std::string& query = "") {
  HttpResult r = get_as(port, "/api/account/games" + query, cookie);
  EXPECT_EQ(r.status, 200) << r.body;
  std::vector<std::string> ids;
  if (r.status != 200) return {ids, -1};
  const json::value body = r.json();
  for (const json::value& g : body.at("games").as_array()) ids.push_back(jstr(g.at("id")));
  return {ids, jint(body.at("your_turn"))};
}

// Correspondence between two accounts: the "your turn" list names the game for the player to
// move only, keeps it across a restart, and after the deadline (put in the past in the store
// while the server is down) the opponent claims it on time: before two moves each that calls
// the game off, against the one out of time (docs/accounts.md "Fair play").
TEST(ServerAccounts, YourTurnListAndCorrespondenceAcrossRestarts) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  std::string id, a, b;
  {
    TestServer srv(db);
    const uint16_t port = srv.port;
    a = sign_up_cookie(port, "Aigerim");
    b = sign_up_cookie(port, "Bolat");
    EXPECT_EQ(get_as(port, "/api/account/games", "").status, 401);
    EXPECT_EQ(code_of(get_as(port, "/api/account/games?turn=yours", a)), "bad_query");
    const json::value create{{"mode", "online"}, {"color", "white"}, {"days_per_move", 1}};
    HttpResult c = post_as(port, "/api/games", create, a);
    ASSERT_EQ(c.status, 200) << c.body;
    id = jstr(c.json().at("id"));
    // Waiting for the opponent: no one's move yet.
    EXPECT_EQ(account_games(port, a).second, 0);
    HttpResult j = post_as(port, "/api/games/" + id + "/join",
                           json::value{{"invite", c.json().at("invite")}}, b);
    ASSERT_EQ(j.status, 200) << j.body;
    // White to move: Aigerim's turn, not Bolat's.
    EXPECT_EQ(account_games(port, a, "?turn=mine"), (std::pair{std::vector{id}, int64_t(1)}));
    EXPECT_EQ(account_games(port, b, "?turn=mine"),
              (std::pair{std::vector<std::string>{}, int64_t(0)}));
    EXPECT_EQ(account_games(port, b).first, (std::vector{id}));  // listed, not his turn
    const json::value listed = get_as(port, "/api/account/games", a).json();
    const json::object& g = listed.at("games").at(0).as_object();
    EXPECT_EQ(jstr(g.at("side")), "white");
    EXPECT_EQ(jstr(g.at("opponent")), "Bolat");
    EXPECT_EQ(jint(g.at("days_per_move")), 1);
    EXPECT_GT(jint(g.at("deadline_ms")), 0);
    WsClient w(port, id, jstr(g.at("token")), {}, a);
    auto s = w.read_state([](const json::object& st) { return jstr(st.at("you")) == "white"; });
    ASSERT_TRUE(s);
    w.send(json::object{{"type", "move"}, {"hole", first_legal(*s)}, {"ply", 0}});
    ASSERT_TRUE(w.read_state([](const json::object& st) { return jint(st.at("ply")) == 1; }));
    EXPECT_EQ(account_games(port, a, "?turn=mine").second, 0);
    EXPECT_EQ(account_games(port, b, "?turn=mine"), (std::pair{std::vector{id}, int64_t(1)}));
  }
  {
    // Restarted: still Bolat's turn; he moves, then it is Aigerim's.
    TestServer srv(db);
    const uint16_t port = srv.port;
    EXPECT_EQ(account_games(port, b, "?turn=mine"), (std::pair{std::vector{id}, int64_t(1)}));
    WsClient bw(port, id, "", {}, b);
    auto s = bw.read_state([](const json::object& st) { return jstr(st.at("you")) == "black"; });
    ASSERT_TRUE(s);
    EXPECT_EQ(jint(s->at("ply")), 1);
    bw.send(json::object{{"type", "move"}, {"hole", first_legal(*s)}, {"ply", 1}});
    ASSERT_TRUE(bw.read_state([](const json::object& st) { return jint(st.at("ply")) == 2; }));
    EXPECT_EQ(account_games(port, a, "?turn=mine").second, 1);
    EXPECT_EQ(account_games(port, b, "?turn=mine").second, 0);
  }
  // Aigerim's day runs out while the server is down.
  sqlite_run(db, "UPDATE games SET move_deadline_ms = 1000 WHERE id = '" + id + "'");
  TestServer srv(db);
  WsClient bw(srv.port, id, "", {}, b);
  auto s = bw.read_state([](const json::object& st) { return jstr(st.at("you")) == "black"; });
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->at("can_claim").as_bool());
  EXPECT_EQ(jint(s->at("correspondence").at("deadline_ms")), 1000);
  bw.send(json::object{{"type", "claim_win"}});
  auto over =
      bw.read_state([](const json::object& st) { return jstr(st.at("status")) == "aborted"; });
  ASSERT_TRUE(over);
  EXPECT_TRUE(over->at("result").at("winner").is_null());
  EXPECT_EQ(jstr(over->at("result").at("aborted_by")), "white");
  EXPECT_EQ(account_games(srv.port, a).first, (std::vector<std::string>{}));  // over: not listed
}

// POST /api/login from the client at `source`.
HttpResult login_from(uint16_t port, const std::string& name, const std::string& password,
                      const std::string& source) {
  return http_call(port, http::verb::post, "/api/login",
                   json::serialize(credentials(name, password)), {}, source);
}

// The lock counts failures per account and address: an attacker at 127.0.0.2 locks only
// himself out of Aigerim's account, and she logs in from 127.0.0.3 at once; an address that
// fails 20 times, on any accounts, is locked out of every account.
TEST(ServerAccounts, LoginLockIsPerAccountAndAddress) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  ASSERT_NE(sign_up_cookie(port, "Aigerim"), "");
  const std::string attacker = "127.0.0.2", owner = "127.0.0.3", right = "password-of-Aigerim";
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(login_from(port, "Aigerim", "a guess", attacker).status, 401) << i;
  HttpResult locked = login_from(port, "Aigerim", right, attacker);
  EXPECT_EQ(locked.status, 429) << locked.body;
  EXPECT_EQ(code_of(locked), "login_locked_account");
  HttpResult ok = login_from(port, "Aigerim", right, owner);
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(me(port, cookie_of(ok)), "Aigerim");
  EXPECT_EQ(login_from(port, "Aigerim", right, attacker).status, 429);  // still locked there
  // 15 more failures on other names make 20 from the attacker's address: every account locked.
  for (int i = 0; i < 15; ++i)
    EXPECT_EQ(login_from(port, "Nobody" + std::to_string(i), "a guess", attacker).status, 401);
  HttpResult everywhere = login_from(port, "Somebody", "a guess", attacker);
  EXPECT_EQ(everywhere.status, 429);
  EXPECT_EQ(code_of(everywhere), "login_locked_address");
  EXPECT_EQ(login_from(port, "Aigerim", right, owner).status, 200);
}

// One client (127.0.0.2) floods sign-ups while another (127.0.0.3) logs in, and the one engine
// worker is busy with a 10-second analysis: the flood gets its 3 sign-ups of the hour and then
// 429 "signup_rate", and the login is answered while the flood still runs and before the
// analysis ends (hashes have a pool of their own; logins go ahead of sign-ups).
TEST(ServerAccounts, SignupFloodThrottledWhileAnotherLogsIn) {
  TempDir dir;
  server::Config cfg;
  cfg.workers = 1;
  cfg.signups_per_hour = 3;
  TestServer srv((dir.path / "t.db").string(), cfg);
  const uint16_t port = srv.port;
  ASSERT_NE(sign_up_cookie(port, "Bolat"), "");  // from 127.0.0.1

  std::mutex m;
  std::vector<std::string> events;  // "analysis", "login", "flood", in the order answered
  auto note = [&](const std::string& e) {
    std::lock_guard lock(m);
    events.push_back(e);
  };
  std::thread analysis([&] {
    HttpResult r =
        http_call(port, http::verb::post, "/api/analyze", R"({"time_ms":10000})", {}, "127.0.0.4");
    EXPECT_EQ(r.status, 200) << r.body;
    note("analysis");
  });
  std::atomic<bool> stop{false};
  std::atomic<int> created{0}, throttled{0}, answered{0};
  std::vector<std::string> other;  // any other answer of the flood
  std::vector<std::thread> flood;
  for (int t = 0; t < 4; ++t)
    flood.emplace_back([&, t] {
      for (int i = 0; i < 2000 && !stop; ++i) {
        const std::string name = "Flood" + std::to_string(t) + "x" + std::to_string(i);
        HttpResult r =
            http_call(port, http::verb::post, "/api/signup",
                      json::serialize(credentials(name, "password-of-" + name)), {}, "127.0.0.2");
        if (r.status == 201)
          ++created;
        else if (r.status == 429 && code_of(r) == "signup_rate")
          ++throttled;
        else {
          std::lock_guard lock(m);
          other.push_back(std::to_string(r.status) + " " + r.body);
        }
        ++answered;
        note("flood");
      }
    });
  // Polled with a generous deadline: the flood's answers coming.
  auto flood_answers = [&](int n) {
    const auto deadline = std::chrono::steady_clock::now() + kWait;
    while (answered < n && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  };
  // The flood is under way (its first answers came) when the other client logs in, and goes on
  // until a few more of its answers came after the login's.
  flood_answers(8);
  HttpResult login = login_from(port, "Bolat", "password-of-Bolat", "127.0.0.3");
  note("login");
  flood_answers(answered + 4);
  stop = true;
  for (std::thread& t : flood) t.join();
  analysis.join();

  ASSERT_EQ(login.status, 200) << login.body;
  EXPECT_EQ(me(port, cookie_of(login)), "Bolat");
  EXPECT_EQ(created, 3);
  EXPECT_GT(throttled, 0);
  EXPECT_EQ(other, std::vector<std::string>{});
  const auto at = [&](const std::string& e) {
    return std::find(events.begin(), events.end(), e) - events.begin();
  };
  EXPECT_LT(at("login"), at("analysis")) << "the login waited for the engine";
}

// A task that waits until released, so the test decides when the pool's thread is free.
struct Gate {
  std::mutex m;
  std::condition_variable cv;
  bool open = false, entered = false;
  void wait() {
    std::unique_lock lock(m);
    entered = true;
    cv.notify_all();
    cv.wait(lock, [&] { return open; });
  }
  void wait_entered() {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return entered; });
  }
  void release() {
    std::lock_guard lock(m);
    open = true;
    cv.notify_all();
  }
};

TEST(HashPool, LoginsGoFirstAndSignupsFillHalfTheQueue) {
  site::HashPool pool(1, 6);
  Gate gate;
  std::mutex m;
  std::vector<std::string> order;
  auto note = [&](std::string what) {
    return [&, what] {
      std::lock_guard lock(m);
      order.push_back(what);
    };
  };
  ASSERT_TRUE(pool.submit([&] { gate.wait(); }, site::HashLane::Signup));
  gate.wait_entered();  // the one thread is busy: what follows waits
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(pool.submit(note("signup" + std::to_string(i)), site::HashLane::Signup)) << i;
  EXPECT_FALSE(pool.submit(note("signup3"), site::HashLane::Signup));  // half of 6 wait already
  EXPECT_TRUE(pool.submit(note("login0"), site::HashLane::Login));
  EXPECT_TRUE(pool.submit(note("login1"), site::HashLane::Login));
  EXPECT_TRUE(pool.submit(note("login2"), site::HashLane::Login));
  EXPECT_FALSE(pool.submit(note("login3"), site::HashLane::Login));  // 6 wait: full
  EXPECT_EQ(pool.queued(), 6u);
  gate.release();
  Gate done;
  while (!pool.submit([&] { done.wait(); }, site::HashLane::Signup)) std::this_thread::yield();
  done.wait_entered();
  done.release();
  std::lock_guard lock(m);
  EXPECT_EQ(order, (std::vector<std::string>{"login0", "login1", "login2", "signup0", "signup1",
                                             "signup2"}));
}

TEST(HashPool, ShutdownRefusesAndDrops) {
  site::HashPool pool(1, 4);
  Gate gate;
  bool ran = false;
  ASSERT_TRUE(pool.submit([&] { gate.wait(); }, site::HashLane::Login));
  gate.wait_entered();
  ASSERT_TRUE(pool.submit([&] { ran = true; }, site::HashLane::Login));
  pool.shutdown();
  EXPECT_FALSE(pool.submit([] {}, site::HashLane::Login));
  gate.release();
  EXPECT_EQ(pool.queued(), 0u);
  EXPECT_FALSE(ran);
}

}  // namespace
}  // namespace toguz::test

namespace toguz::test {
namespace {

// A game socket and a lobby socket, both opened with `cookie`, each answering a ping first.
struct AccountSockets {
  std::unique_ptr<WsClient> game, lobby;
  AccountSockets(uint16_t port, const std::string& game_id, const std::string& cookie) {
    game = std::make_unique<WsClient>(port, game_id, "", WsOptions{}, cookie);
    lobby = std::make_unique<WsClient>(port, "lobby", "", WsOptions{.hello = false}, cookie);
    EXPECT_TRUE(game->read_type("state"));
    EXPECT_TRUE(lobby->read_type("lobby"));
  }
  // Whether both still answer a ping.
  bool open() {
    game->send(json::object{{"type", "ping"}});
    lobby->send(json::object{{"type", "ping"}});
    return game->read_type("pong").has_value() && lobby->read_type("pong").has_value();
  }
};

// A new session of `name` (signed up with sign_up_cookie): its cookie.
std::string login_cookie(uint16_t port, const std::string& name) {
  return cookie_of(http_post(port, "/api/login", credentials(name, "password-of-" + name)));
}

// An online game waiting for its opponent, made by the account of `cookie`.
std::string waiting_game(uint16_t port, const std::string& cookie) {
  HttpResult c = post_as(port, "/api/games", json::object{{"mode", "online"}}, cookie);
  EXPECT_EQ(c.status, 200) << c.body;
  return c.status == 200 ? jstr(c.json().at("id")) : "";
}

// A logout closes the game and lobby sockets opened with that session (the old socket can no
// longer seek or move as the account); another session's sockets stay.
TEST(ServerSessions, LogoutClosesTheSessionsSockets) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  const std::string a = sign_up_cookie(port, "Aigerim");
  const std::string b = login_cookie(port, "Aigerim");
  const std::string id = waiting_game(port, a);
  AccountSockets with_a(port, id, a), with_b(port, id, b);
  WsClient anonymous(port, "lobby", "", WsOptions{.hello = false});
  ASSERT_TRUE(anonymous.read_type("lobby"));
  ASSERT_TRUE(with_a.open());

  ASSERT_EQ(post_as(port, "/api/logout", json::object{}, a).status, 200);
  EXPECT_TRUE(with_a.game->closed_by_server());
  EXPECT_TRUE(with_a.lobby->closed_by_server());
  EXPECT_TRUE(with_b.open());
  anonymous.send(json::object{{"type", "ping"}});
  EXPECT_TRUE(anonymous.read_type("pong"));
  // A socket opened with the ended session now is anonymous: it may not seek rated.
  WsClient late(port, "lobby", "", WsOptions{.hello = false}, a);
  auto state = late.read_type("lobby");
  ASSERT_TRUE(state);
  EXPECT_TRUE(state->at("you").is_null()) << json::serialize(*state);
}

// A password change closes the sockets of every other session of the account; those of the
// session that changed it stay open (it stays logged in).
TEST(ServerSessions, PasswordChangeClosesTheOtherSessionsSockets) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  const std::string a = sign_up_cookie(port, "Aigerim");
  const std::string b = login_cookie(port, "Aigerim");
  const std::string c = login_cookie(port, "Aigerim");
  const std::string other = sign_up_cookie(port, "Bolat");
  const std::string id = waiting_game(port, a);
  AccountSockets with_a(port, id, a), with_b(port, id, b), with_c(port, id, c),
      bolat(port, id, other);

  const json::value change{{"password", "password-of-Aigerim"}, {"new_password", "a new one!"}};
  ASSERT_EQ(post_as(port, "/api/password", change, a).status, 200);
  for (AccountSockets* s : {&with_b, &with_c}) {
    EXPECT_TRUE(s->game->closed_by_server());
    EXPECT_TRUE(s->lobby->closed_by_server());
  }
  EXPECT_TRUE(with_a.open());
  EXPECT_TRUE(bolat.open());
}

// Weak passwords are refused at sign-up and at a change, each with its code.
TEST(ServerAccounts, WeakPasswordsAreRefused) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  struct Weak {
    std::string password, code;
  };
  for (const Weak& w :
       {Weak{"password123", "password_common"}, Weak{"QWERTY 12345", "password_common"},
        Weak{"1q2w3e4r5t", "password_common"}, Weak{std::string(10, ' '), "password_blank"},
        Weak{"nine char", "password_too_short"}}) {
    HttpResult r = http_post(port, "/api/signup", credentials("Aigerim", w.password));
    EXPECT_EQ(r.status, 400) << w.password << ": " << r.body;
    EXPECT_EQ(code_of(r), w.code) << w.password;
  }
  const std::string a = sign_up_cookie(port, "Aigerim");
  HttpResult change = post_as(
      port, "/api/password",
      json::object{{"password", "password-of-Aigerim"}, {"new_password", "iloveyou123"}}, a);
  EXPECT_EQ(change.status, 400) << change.body;
  EXPECT_EQ(code_of(change), "password_common");
}

// A guest's name cannot pass for an account (any case, invisible characters and look-alike
// letters taken out) nor carry a rating; the names are shown cleaned.
TEST(ServerAccounts, GuestNamesCannotPassForAccountsOrRatings) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  const std::string a = sign_up_cookie(port, "Aigerim");
  auto create = [&](const json::object& body, const std::string& cookie = "") {
    return post_as(port, "/api/games", body, cookie);
  };
  for (const std::string& name :
       {std::string("Aigerim"), std::string("AIGERIM"), std::string("Ai\u200Dgerim"),
        std::string("\u202DAigerim\u202C"), std::string("\u0410igerim")}) {
    HttpResult r = create(json::object{{"mode", "online"}, {"name", name}});
    EXPECT_EQ(r.status, 409) << name << ": " << r.body;
    EXPECT_EQ(code_of(r), "name_account") << r.body;
  }
  for (const std::string& name : {std::string("Guest (2500)"), std::string("Bolat [2100?]"),
                                  std::string("Bolat (2100)\u200B")}) {
    HttpResult r = create(json::object{{"mode", "engine"}, {"name", name}});
    EXPECT_EQ(r.status, 400) << name << ": " << r.body;
    EXPECT_EQ(code_of(r), "name_rating") << r.body;
  }
  HttpResult local = create(json::object{{"mode", "local"}, {"white", "x"}, {"black", "aigerim"}});
  EXPECT_EQ(code_of(local), "name_account") << local.body;
  // Her own name in a local game of hers is hers to use.
  EXPECT_EQ(create(json::object{{"mode", "local"}, {"white", "Aigerim"}}, a).status, 200);

  // Joining under an account's name is refused too; a clean guest name is shown cleaned.
  HttpResult game = create(json::object{{"mode", "online"}, {"name", "Bo\u200Blat\u2066"}});
  ASSERT_EQ(game.status, 200) << game.body;
  const std::string id = jstr(game.json().at("id"));
  const json::value join{{"invite", game.json().at("invite")}, {"name", "aigerim"}};
  HttpResult refused = http_post(port, "/api/games/" + id + "/join", join);
  EXPECT_EQ(refused.status, 409) << refused.body;
  EXPECT_EQ(code_of(refused), "name_account");
  const json::value g = http_get(port, "/api/games/" + id).json();
  EXPECT_EQ(jstr(g.at("game").at("players").at("white").at("name")), "Bolat");
}

}  // namespace
}  // namespace toguz::test
