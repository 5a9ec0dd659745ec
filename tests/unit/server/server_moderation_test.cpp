// Moderation and fair play on a real server over real sockets (docs/accounts.md "Moderation",
// docs/web-protocol.md "Moderation"): the rated pair cap, the feeding flag, the moderator-only
// API, a marked account off the leaderboard and refused rated play, a voided game's ratings
// recomputed, blocks in the lobby, a closed account, reports.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>

#include "server_client.h"
#include "site/accounts/moderation.h"
#include "store/store.h"

namespace toguz::test {
namespace moderation_test {

using Headers = std::vector<std::pair<http::field, std::string>>;

const WsOptions kLobbySocket{.hello = false};

HttpResult post_with(uint16_t port, const std::string& target, const json::value& body,
                     const std::string& cookie) {
  Headers h;
  if (!cookie.empty()) h.emplace_back(http::field::cookie, cookie);
  return http_call(port, http::verb::post, target, json::serialize(body), h);
}

HttpResult get_with(uint16_t port, const std::string& target, const std::string& cookie) {
  Headers h;
  if (!cookie.empty()) h.emplace_back(http::field::cookie, cookie);
  return http_call(port, http::verb::get, target, "", h);
}

std::string code(const HttpResult& r) {
  const json::value v = r.json();
  const json::value* c = v.is_object() ? v.as_object().if_contains("code") : nullptr;
  return c && c->is_string() ? jstr(*c) : "";
}

std::string code(const std::optional<json::object>& m) {
  return m && m->at("code").is_string() ? jstr(m->at("code")) : "";
}

// The operator's `toguz admin grant`, on the server's own database while it runs.
void grant(const std::string& db, const std::string& name) {
  auto st = store::open_store(db);
  ASSERT_EQ(site::moderation::set_moderator(*st, name, true), "");
}

// A lobby socket that has read the lobby's first message (`state`).
struct Lobby {
  WsClient ws;
  json::object state;
  Lobby(uint16_t port, const std::string& cookie) : ws(port, "lobby", "", kLobbySocket, cookie) {
    if (auto m = ws.read()) state = *m;
  }
  // Sends `msg`, then a ping, and reads up to the pong: `msg` has been handled.
  void send_handled(const json::object& msg) {
    ws.send(msg);
    ws.send(json::object{{"type", "ping"}});
    ws.read_type("pong");
  }
};

// A server on which the tests' accounts challenge each other many times a minute.
server::Config many_challenges() {
  server::Config cfg;
  cfg.challenges_per_minute = 1000;
  return cfg;
}

const json::object kBlitz{{"initial_ms", 180000}, {"increment_ms", 2000}};

// A rated blitz challenge from `from` to account `to`, accepted: the start message of each.
std::pair<json::object, json::object> challenge_accepted(Lobby& from, Lobby& to,
                                                         const std::string& to_name) {
  from.ws.send(json::object{{"type", "challenge"},
                            {"to", to_name},
                            {"clock", kBlitz},
                            {"rated", true},
                            {"color", "white"}});
  auto made = from.ws.read_type("challenge_created");
  EXPECT_TRUE(made);
  if (!made) return {};
  to.ws.send(json::object{{"type", "challenge_accept"}, {"id", made->at("id")}});
  auto sa = from.ws.read_type("start"), sb = to.ws.read_type("start");
  EXPECT_TRUE(sa && sb);
  if (!sa || !sb) return {};
  return {*sa, *sb};
}

// Plays game `id` from its first state: two moves each, then `loser` ("white" or "black")
// resigns. The final state, as White sees it.
std::optional<json::object> play_and_resign(uint16_t port, const std::string& id,
                                            const std::string& white_token,
                                            const std::string& white_cookie,
                                            const std::string& black_token,
                                            const std::string& black_cookie,
                                            const std::string& loser) {
  WsClient w(port, id, white_token, {}, white_cookie), b(port, id, black_token, {}, black_cookie);
  WsClient* side[2] = {&w, &b};
  for (int ply = 0; ply < 4; ++ply) {
    auto s = side[ply % 2]->read_state([ply](const json::object& g) {
      return jint(g.at("ply")) == ply && jstr(g.at("status")) == "playing";
    });
    if (!s) return std::nullopt;
    side[ply % 2]->send(json::object{{"type", "move"}, {"hole", first_legal(*s)}, {"ply", ply}});
  }
  WsClient& resigner = loser == "white" ? w : b;
  if (!resigner.read_state([](const json::object& g) { return jint(g.at("ply")) == 4; }))
    return std::nullopt;
  resigner.send(json::object{{"type", "resign"}});
  return w.read_state([](const json::object& g) { return jstr(g.at("status")) == "over"; });
}

// A challenge game between two lobby sockets played to a resignation by `loser`; the state
// of its start as White sees it, and the end.
struct Played {
  json::object start, end;
};
Played challenge_game(uint16_t port, Lobby& white, const std::string& white_cookie, Lobby& black,
                      const std::string& black_name, const std::string& black_cookie,
                      const std::string& loser) {
  Played out;
  const auto [sw, sb] = challenge_accepted(white, black, black_name);
  if (sw.empty()) return out;
  const std::string game = jstr(sw.at("game"));
  WsClient look(port, game, "", {}, white_cookie);
  if (auto s = look.read_state([](const json::object&) { return true; })) out.start = *s;
  if (auto e = play_and_resign(port, game, jstr(sw.at("token")), white_cookie, jstr(sb.at("token")),
                               black_cookie, loser))
    out.end = *e;
  return out;
}

// The blitz rating of an account as its page shows it.
json::object blitz_of(uint16_t port, const std::string& name) {
  return http_get(port, "/api/users/" + name).json().at("ratings").at("blitz").as_object();
}

// Reads the moderators' list until `pred` holds for it (the flag is raised after the end is
// stored, on the store's thread), or the deadline.
json::array reports_until(uint16_t port, const std::string& cookie,
                          const std::function<bool(const json::array&)>& pred) {
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  json::array last;
  while (std::chrono::steady_clock::now() < deadline) {
    HttpResult r = get_with(port, "/api/moderation", cookie);
    if (r.status != 200) return {};
    last = r.json().at("reports").as_array();
    if (pred(last)) return last;
  }
  return last;
}

TEST(ServerModeration, PairCapMakesTheNextRatedGameOfThePairUnrated) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string(), many_challenges());
  const uint16_t port = srv.port;
  ASSERT_EQ(server::Config{}.rated_pair_per_day, 5);
  const std::string ca = sign_up_cookie(port, "Aigerim"), cb = sign_up_cookie(port, "Bolat");
  Lobby a(port, ca), b(port, cb);
  // Five rated games count; each side wins some (no feeding).
  for (int i = 0; i < 5; ++i) {
    const Played p = challenge_game(port, a, ca, b, "Bolat", cb, i % 2 ? "white" : "black");
    ASSERT_FALSE(p.start.empty());
    EXPECT_TRUE(p.start.at("rated").as_bool()) << i;
    EXPECT_TRUE(p.start.at("unrated_reason").is_null());
    ASSERT_FALSE(p.end.empty());
    EXPECT_FALSE(p.end.at("players").at("white").at("rating_diff").is_null());
  }
  EXPECT_EQ(jint(blitz_of(port, "Aigerim").at("games")), 5);
  // The sixth is played unrated, and its state says why from the start.
  const Played sixth = challenge_game(port, a, ca, b, "Bolat", cb, "black");
  ASSERT_FALSE(sixth.start.empty());
  EXPECT_FALSE(sixth.start.at("rated").as_bool());
  EXPECT_EQ(jstr(sixth.start.at("unrated_reason")), "pair_cap");
  ASSERT_FALSE(sixth.end.empty());
  EXPECT_EQ(jint(blitz_of(port, "Aigerim").at("games")), 5);
  // A game by invitation link too.
  const json::value create{
      {"mode", "online"}, {"color", "white"}, {"rated", true}, {"clock", kBlitz}};
  HttpResult c = post_with(port, "/api/games", create, ca);
  ASSERT_EQ(c.status, 200) << c.body;
  HttpResult j = post_with(port, "/api/games/" + jstr(c.json().at("id")) + "/join",
                           json::value{{"invite", c.json().at("invite")}}, cb);
  ASSERT_EQ(j.status, 200) << j.body;
  const json::value g = http_get(port, "/api/games/" + jstr(c.json().at("id"))).json();
  EXPECT_FALSE(g.at("game").at("rated").as_bool());
  EXPECT_EQ(jstr(g.at("game").at("unrated_reason")), "pair_cap");
  // Another pair is not capped.
  const std::string cc = sign_up_cookie(port, "Chingiz");
  Lobby ch(port, cc);
  const Played other = challenge_game(port, a, ca, ch, "Chingiz", cc, "white");
  ASSERT_FALSE(other.start.empty());
  EXPECT_TRUE(other.start.at("rated").as_bool());
}

TEST(ServerModeration, RepeatedResignationsToOneAccountRaiseAFlag) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  TestServer srv(db, many_challenges());
  const uint16_t port = srv.port;
  const std::string ca = sign_up_cookie(port, "Aigerim"), cb = sign_up_cookie(port, "Bolat"),
                    cm = sign_up_cookie(port, "Zhanna");
  grant(db, "Zhanna");
  Lobby a(port, ca), b(port, cb);
  // Bolat (Black) resigns to Aigerim: twice is no flag yet, the third time (the stated
  // threshold) is.
  for (int i = 0; i < 2; ++i)
    ASSERT_FALSE(challenge_game(port, a, ca, b, "Bolat", cb, "black").end.empty());
  EXPECT_TRUE(get_with(port, "/api/moderation", cm).json().at("reports").as_array().empty());
  ASSERT_FALSE(challenge_game(port, a, ca, b, "Bolat", cb, "black").end.empty());
  const json::array flags =
      reports_until(port, cm, [](const json::array& a) { return !a.empty(); });
  ASSERT_EQ(flags.size(), 1u);
  const json::object& f = flags[0].as_object();
  EXPECT_EQ(jstr(f.at("kind")), "flag");
  EXPECT_EQ(jstr(f.at("target")), "Bolat");
  EXPECT_EQ(jstr(f.at("about")), "Aigerim");
  EXPECT_TRUE(f.at("reporter").is_null());
  EXPECT_NE(jstr(f.at("reason")).find("3 by resignation"), std::string::npos) << json::serialize(f);
  // A fourth raises no second flag while the first is open.
  ASSERT_FALSE(challenge_game(port, a, ca, b, "Bolat", cb, "black").end.empty());
  sign_up_cookie(port, "Chingiz");  // a store request queued after the fourth end's check
  EXPECT_EQ(get_with(port, "/api/moderation", cm).json().at("reports").as_array().size(), 1u);
}

TEST(ServerModeration, ModeratorApiIsForModeratorsOnly) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  TestServer srv(db, many_challenges());
  const uint16_t port = srv.port;
  const std::string ca = sign_up_cookie(port, "Aigerim"), cm = sign_up_cookie(port, "Zhanna");
  const json::value mark{{"username", "Aigerim"}, {"marked", true}};
  for (const std::string& cookie : {std::string(), ca}) {
    HttpResult list = get_with(port, "/api/moderation", cookie);
    EXPECT_EQ(list.status, 403);
    EXPECT_EQ(code(list), "not_moderator");
    for (const char* action : {"mark", "close", "void", "resolve"}) {
      HttpResult r = post_with(port, std::string("/api/moderation/") + action, mark, cookie);
      EXPECT_EQ(r.status, 403) << action;
      EXPECT_EQ(code(r), "not_moderator");
    }
  }
  EXPECT_FALSE(get_with(port, "/api/me", ca).json().at("moderator").as_bool());
  EXPECT_FALSE(get_with(port, "/api/me", cm).json().at("moderator").as_bool());
  grant(db, "Zhanna");
  EXPECT_TRUE(get_with(port, "/api/me", cm).json().at("moderator").as_bool());
  // A moderator's POST from another site is refused as every POST is.
  Headers evil{{http::field::cookie, cm}, {http::field::origin, "http://evil.example"}};
  HttpResult cross =
      http_call(port, http::verb::post, "/api/moderation/mark", json::serialize(mark), evil);
  EXPECT_EQ(cross.status, 403);
  EXPECT_EQ(code(cross), "origin");
  EXPECT_EQ(get_with(port, "/api/moderation", cm).status, 200);
  // A player's report reaches the moderators.
  HttpResult rep = post_with(port, "/api/account/reports",
                             json::value{{"username", "zhanna"}, {"reason", "rude in chat"}}, ca);
  EXPECT_EQ(rep.status, 201) << rep.body;
  EXPECT_EQ(post_with(port, "/api/account/reports", json::value{{"username", "Zhanna"}}, ca).status,
            400);
  EXPECT_EQ(code(post_with(port, "/api/account/reports",
                           json::value{{"username", "Aigerim"}, {"reason", "x"}}, ca)),
            "own_account");
  EXPECT_EQ(post_with(port, "/api/account/reports",
                      json::value{{"username", "Zhanna"}, {"reason", "x"}}, "")
                .status,
            401);
  const json::array list = get_with(port, "/api/moderation", cm).json().at("reports").as_array();
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(jstr(list[0].at("kind")), "report");
  EXPECT_EQ(jstr(list[0].at("reporter")), "Aigerim");
  EXPECT_EQ(jstr(list[0].at("reason")), "rude in chat");
  HttpResult resolved =
      post_with(port, "/api/moderation/resolve", json::value{{"id", list[0].at("id")}}, cm);
  EXPECT_EQ(resolved.status, 200) << resolved.body;
  EXPECT_TRUE(get_with(port, "/api/moderation", cm).json().at("reports").as_array().empty());
  EXPECT_EQ(get_with(port, "/api/moderation?resolved=1", cm).json().at("reports").as_array().size(),
            1u);
}

// Runs SQL on the server's SQLite file while it runs (a rating put in place).
void sql_beside(const std::string& db, const std::string& sql) {
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  sqlite3_busy_timeout(h, 10000);
  char* err = nullptr;
  const int rc = sqlite3_exec(h, sql.c_str(), nullptr, nullptr, &err);
  const std::string why = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(h);
  ASSERT_EQ(rc, SQLITE_OK) << why;
}

TEST(ServerModeration, MarkedAccountIsOffTheLeaderboardAndPlaysNoRatedGame) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  TestServer srv(db, many_challenges());
  const uint16_t port = srv.port;
  const std::string ca = sign_up_cookie(port, "Aigerim"), cb = sign_up_cookie(port, "Bolat"),
                    cm = sign_up_cookie(port, "Zhanna");
  grant(db, "Zhanna");
  // Both established in blitz (RD 60): on the leaderboard.
  sql_beside(db,
             "INSERT INTO ratings (user_id, category, rating, rd, volatility, games, updated_ms)"
             " SELECT id, 'blitz', 1900 - id, 60, 0.06, 40, " +
                 std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count()) +
                 " FROM users WHERE username != 'Zhanna'");
  auto board = [&] {
    std::vector<std::string> names;
    const json::value got = http_get(port, "/api/leaderboard/blitz").json();
    for (const json::value& p : got.at("players").as_array())
      names.push_back(jstr(p.at("username")));
    return names;
  };
  EXPECT_EQ(board(), (std::vector<std::string>{"Aigerim", "Bolat"}));
  HttpResult mark = post_with(port, "/api/moderation/mark",
                              json::value{{"username", "aigerim"}, {"marked", true}}, cm);
  ASSERT_EQ(mark.status, 200) << mark.body;
  EXPECT_EQ(board(), (std::vector<std::string>{"Bolat"}));
  // No rated seek, challenge, pool or game by link; casual play goes on.
  Lobby a(port, ca), b(port, cb);
  a.ws.send(json::object{{"type", "seek"}, {"clock", kBlitz}, {"rated", true}});
  EXPECT_EQ(code(a.ws.read_type("error")), "account_marked");
  a.ws.send(
      json::object{{"type", "challenge"}, {"to", "Bolat"}, {"clock", kBlitz}, {"rated", true}});
  EXPECT_EQ(code(a.ws.read_type("error")), "account_marked");
  a.ws.send(json::object{{"type", "pool_join"}, {"pool", "3+2"}});
  EXPECT_EQ(code(a.ws.read_type("error")), "account_marked");
  b.ws.send(json::object{{"type", "seek"}, {"clock", kBlitz}, {"rated", true}});
  auto seek = b.ws.read_type("seek_created");
  ASSERT_TRUE(seek);
  a.ws.send(json::object{{"type", "accept"}, {"id", seek->at("id")}});
  EXPECT_EQ(code(a.ws.read_type("error")), "account_marked");
  HttpResult rated = post_with(
      port, "/api/games", json::value{{"mode", "online"}, {"rated", true}, {"clock", kBlitz}}, ca);
  EXPECT_EQ(rated.status, 403);
  EXPECT_EQ(code(rated), "account_marked");
  a.ws.send(json::object{{"type", "seek"}, {"clock", kBlitz}, {"rated", false}});
  EXPECT_TRUE(a.ws.read_type("seek_created"));
  // Unmarked: back on the board.
  ASSERT_EQ(post_with(port, "/api/moderation/mark",
                      json::value{{"username", "Aigerim"}, {"marked", false}}, cm)
                .status,
            200);
  EXPECT_EQ(board(), (std::vector<std::string>{"Aigerim", "Bolat"}));
  EXPECT_EQ(code(post_with(port, "/api/moderation/mark", json::value{{"username", "Nobody"}}, cm)),
            "no_user");
}

TEST(ServerModeration, VoidingAGameRecomputesBothPlayersRatings) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  TestServer srv(db, many_challenges());
  const uint16_t port = srv.port;
  const std::string ca = sign_up_cookie(port, "Aigerim"), cb = sign_up_cookie(port, "Bolat"),
                    cc = sign_up_cookie(port, "Chingiz"), cm = sign_up_cookie(port, "Zhanna");
  grant(db, "Zhanna");
  Lobby a(port, ca), b(port, cb), c(port, cc);
  // Aigerim beats Bolat (two new players: 1662 and 1338), then Chingiz.
  const Played first = challenge_game(port, a, ca, b, "Bolat", cb, "black");
  ASSERT_FALSE(first.end.empty());
  EXPECT_EQ(jint(first.end.at("players").at("white").at("rating_diff")), 162);
  ASSERT_FALSE(challenge_game(port, a, ca, c, "Chingiz", cc, "black").end.empty());
  EXPECT_GT(blitz_of(port, "Aigerim").at("rating").as_double(), 1700);
  const double chingiz = blitz_of(port, "Chingiz").at("rating").as_double();
  EXPECT_LT(chingiz, 1400);

  const std::string game = jstr(first.start.at("id"));
  HttpResult v = post_with(port, "/api/moderation/void", json::value{{"game", game}}, cm);
  ASSERT_EQ(v.status, 200) << v.body;
  // Aigerim recomputed from her later game alone: a new player beating Chingiz's recorded
  // 1500/350 ends at 1662, one game; Bolat has no rated game left: 1500, none.
  const json::object ra = blitz_of(port, "Aigerim");
  EXPECT_NEAR(ra.at("rating").as_double(), 1662.3, 0.5);
  EXPECT_EQ(jint(ra.at("games")), 1);
  const json::object rb = blitz_of(port, "Bolat");
  EXPECT_DOUBLE_EQ(rb.at("rating").as_double(), 1500);
  EXPECT_EQ(jint(rb.at("games")), 0);
  EXPECT_EQ(http_get(port, "/api/users/Aigerim/history").json().at("blitz").as_array().size(), 1u);
  // The later opponent keeps his rating; the voided game is listed unrated.
  EXPECT_DOUBLE_EQ(blitz_of(port, "Chingiz").at("rating").as_double(), chingiz);
  EXPECT_FALSE(
      http_get(port, "/api/games?account=Bolat").json().at("games").at(0).at("rated").as_bool());
  // Once only; an unknown game is named.
  HttpResult again = post_with(port, "/api/moderation/void", json::value{{"game", game}}, cm);
  EXPECT_EQ(again.status, 409);
  EXPECT_EQ(code(again), "not_rated");
  EXPECT_EQ(code(post_with(port, "/api/moderation/void", json::value{{"game", "nothing"}}, cm)),
            "no_game");
}

TEST(ServerModeration, BlockedAccountCannotChallengeNorBePaired) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string(), many_challenges());
  const uint16_t port = srv.port;
  const std::string ca = sign_up_cookie(port, "Aigerim"), cb = sign_up_cookie(port, "Bolat"),
                    cc = sign_up_cookie(port, "Chingiz");
  HttpResult blocked = post_with(port, "/api/account/blocks",
                                 json::value{{"username", "bolat"}, {"block", true}}, ca);
  ASSERT_EQ(blocked.status, 200) << blocked.body;
  EXPECT_EQ(get_with(port, "/api/account/blocks", ca).json().at("blocks"),
            json::value(json::array{"Bolat"}));
  EXPECT_EQ(get_with(port, "/api/account/blocks", "").status, 401);
  Lobby a(port, ca), b(port, cb), c(port, cc);
  // Neither challenges the other.
  b.ws.send(json::object{{"type", "challenge"}, {"to", "Aigerim"}, {"clock", kBlitz}});
  EXPECT_EQ(code(b.ws.read_type("error")), "blocked");
  a.ws.send(json::object{{"type", "challenge"}, {"to", "Bolat"}, {"clock", kBlitz}});
  EXPECT_EQ(code(a.ws.read_type("error")), "blocked");
  // Nor takes the other's seek.
  a.ws.send(json::object{{"type", "seek"}, {"clock", kBlitz}});
  auto seek = a.ws.read_type("seek_created");
  ASSERT_TRUE(seek);
  b.ws.send(json::object{{"type", "accept"}, {"id", seek->at("id")}});
  EXPECT_EQ(code(b.ws.read_type("error")), "blocked");
  a.ws.send(json::object{{"type", "cancel"}, {"id", seek->at("id")}});
  // In a pool they wait side by side; a third player is paired with the longer waiter.
  a.send_handled(json::object{{"type", "pool_join"}, {"pool", "3+2"}});
  b.send_handled(json::object{{"type", "pool_join"}, {"pool", "3+2"}});
  c.ws.send(json::object{{"type", "pool_join"}, {"pool", "3+2"}});
  auto sa = a.ws.read_type("start"), sc = c.ws.read_type("start");
  ASSERT_TRUE(sa && sc);
  EXPECT_EQ(jstr(sa->at("game")), jstr(sc->at("game")));
  const Lobby watcher(port, "");
  EXPECT_EQ(jint(watcher.state.at("pools").as_array()[3].at("waiting")), 1);  // Bolat
  // Nor joins the other's game by its link.
  const json::value create{{"mode", "online"}, {"color", "white"}};
  HttpResult g = post_with(port, "/api/games", create, ca);
  ASSERT_EQ(g.status, 200);
  HttpResult j = post_with(port, "/api/games/" + jstr(g.json().at("id")) + "/join",
                           json::value{{"invite", g.json().at("invite")}}, cb);
  EXPECT_EQ(j.status, 403);
  EXPECT_EQ(code(j), "blocked");
  // Unblocked, they may.
  ASSERT_EQ(post_with(port, "/api/account/blocks",
                      json::value{{"username", "Bolat"}, {"block", false}}, ca)
                .status,
            200);
  EXPECT_TRUE(get_with(port, "/api/account/blocks", ca).json().at("blocks").as_array().empty());
  b.ws.send(json::object{{"type", "challenge"}, {"to", "Aigerim"}, {"clock", kBlitz}});
  EXPECT_TRUE(b.ws.read_type("challenge_created"));
}

TEST(ServerModeration, ClosedAccountCannotLogInAndItsSessionsEnd) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  TestServer srv(db, many_challenges());
  const uint16_t port = srv.port;
  const std::string cb = sign_up_cookie(port, "Bolat"), cm = sign_up_cookie(port, "Zhanna");
  grant(db, "Zhanna");
  EXPECT_EQ(jstr(get_with(port, "/api/me", cb).json().at("username")), "Bolat");
  HttpResult close =
      post_with(port, "/api/moderation/close", json::value{{"username", "Bolat"}}, cm);
  ASSERT_EQ(close.status, 200) << close.body;
  EXPECT_TRUE(get_with(port, "/api/me", cb).json().at("username").is_null());
  const json::value login{{"username", "Bolat"}, {"password", "password-of-Bolat"}};
  HttpResult refused = http_post(port, "/api/login", login);
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(code(refused), "account_closed");
  // A wrong password is told nothing more.
  EXPECT_EQ(code(http_post(port, "/api/login",
                           json::value{{"username", "Bolat"}, {"password", "not-the-password"}})),
            "login_failed");
  ASSERT_EQ(post_with(port, "/api/moderation/close",
                      json::value{{"username", "Bolat"}, {"closed", false}}, cm)
                .status,
            200);
  EXPECT_EQ(http_post(port, "/api/login", login).status, 200);
}

}  // namespace moderation_test
}  // namespace toguz::test
