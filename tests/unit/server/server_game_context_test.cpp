// The game page's context over a real server: a rated correspondence game by link, rated at its
// end in the correspondence category; the state's ratings, time control and spectators; a
// tournament's game named in its state (across a restart) and refused a rematch.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "server_client.h"

namespace toguz::test {
namespace {

HttpResult ctx_post(uint16_t port, const std::string& target, const json::value& body,
                    const std::string& cookie) {
  return http_call(port, http::verb::post, target, json::serialize(body),
                   {{http::field::cookie, cookie}});
}

HttpResult ctx_get(uint16_t port, const std::string& target, const std::string& cookie) {
  return http_call(port, http::verb::get, target, "", {{http::field::cookie, cookie}});
}

int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

TEST(ServerGameContext, RatedCorrespondenceIsRatedInItsCategory) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  const std::string a = sign_up_cookie(port, "Aigerim"), b = sign_up_cookie(port, "Bolat");
  const json::value create{
      {"mode", "online"}, {"color", "white"}, {"rated", true}, {"days_per_move", 2}};
  HttpResult c = ctx_post(port, "/api/games", create, a);
  ASSERT_EQ(c.status, 200) << c.body;
  const std::string id = jstr(c.json().at("id"));
  HttpResult j = ctx_post(port, "/api/games/" + id + "/join",
                          json::value{{"invite", c.json().at("invite")}}, b);
  ASSERT_EQ(j.status, 200) << j.body;
  WsClient w(port, id, "", {}, a), bl(port, id, "", {}, b);
  auto s = w.read_state([](const json::object& g) { return jstr(g.at("you")) == "white"; });
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->at("rated").as_bool());
  EXPECT_EQ(jstr(s->at("speed")), "correspondence");
  EXPECT_EQ(jstr(s->at("time_control").at("kind")), "correspondence");
  EXPECT_EQ(jint(s->at("time_control").at("days")), 2);
  EXPECT_TRUE(s->at("tournament").is_null());
  EXPECT_EQ(jint(s->at("players").at("black").at("rating")), 1500);
  EXPECT_EQ(jstr(s->at("players").at("black").at("account")), "Bolat");
  ASSERT_TRUE(play_plies(w, bl, 0, 4));
  ASSERT_TRUE(bl.read_state([](const json::object& g) { return jint(g.at("ply")) == 4; }));
  bl.send(json::object{{"type", "resign"}});
  auto end = w.read_state([](const json::object& g) { return jstr(g.at("status")) == "over"; });
  ASSERT_TRUE(end);
  EXPECT_EQ(jint(end->at("players").at("white").at("rating_diff")), 162);
  EXPECT_EQ(jint(end->at("players").at("black").at("rating_diff")), -162);
  const json::value u = http_get(port, "/api/users/Aigerim").json();
  EXPECT_EQ(jint(u.at("ratings").at("correspondence").at("games")), 1);
  EXPECT_NEAR(u.at("ratings").at("correspondence").at("rating").as_double(), 1662.0, 0.5);
  EXPECT_EQ(jint(u.at("ratings").at("blitz").at("games")), 0);
  // Days per move are one of 1, 2, 3, 5, 7, 14; rated still needs a clock or days.
  json::value four = create;
  four.as_object()["days_per_move"] = 4;
  EXPECT_EQ(code_of(ctx_post(port, "/api/games", four, a)), "bad_days_per_move");
  EXPECT_EQ(
      code_of(ctx_post(port, "/api/games", json::value{{"mode", "online"}, {"rated", true}}, a)),
      "rated_needs_clock");
}

TEST(ServerGameContext, StateCarriesTimeControlAndSpectators) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  const std::string a = sign_up_cookie(port, "Aigerim"), b = sign_up_cookie(port, "Bolat");
  const json::value create{{"mode", "online"},
                           {"color", "white"},
                           {"clock", json::object{{"initial_ms", 600000}, {"increment_ms", 5000}}}};
  HttpResult c = ctx_post(port, "/api/games", create, a);
  ASSERT_EQ(c.status, 200) << c.body;
  const std::string id = jstr(c.json().at("id"));
  ASSERT_EQ(ctx_post(port, "/api/games/" + id + "/join",
                     json::value{{"invite", c.json().at("invite")}}, b)
                .status,
            200);
  WsClient w(port, id, "", {}, a);
  auto s = w.read_state([](const json::object& g) { return jstr(g.at("you")) == "white"; });
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->at("rated").as_bool());
  EXPECT_EQ(jstr(s->at("speed")), "rapid");
  EXPECT_EQ(jstr(s->at("time_control").at("kind")), "clock");
  EXPECT_EQ(jint(s->at("time_control").at("initial_ms")), 600000);
  EXPECT_EQ(jint(s->at("time_control").at("increment_ms")), 5000);
  EXPECT_TRUE(s->at("players").at("white").at("rating").is_null());  // casual: no ratings
  EXPECT_EQ(jint(s->at("spectators")), 0);
  WsClient watcher(port, id);
  ASSERT_TRUE(
      watcher.read_state([](const json::object& g) { return jint(g.at("spectators")) == 1; }));
  ASSERT_TRUE(w.read_until([](const json::object& m) {
    return is_type(m, "presence") && jint(m.at("spectators")) == 1;
  }));
  const json::value g = ctx_get(port, "/api/games/" + id, a).json();
  EXPECT_EQ(jint(g.at("game").at("spectators")), 1);
}

// An arena of two accounts pairs them at once; the game names its tournament, keeps it across
// a restart, and has no rematch.
TEST(ServerGameContext, TournamentGameNamesItAndHasNoRematch) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  server::Config cfg;
  cfg.tournament_min_rated_games = 0;
  std::string tid, game;
  std::string ca, cb;
  {
    TestServer srv(db, cfg);
    ca = sign_up_cookie(srv.port, "Aigerim");
    cb = sign_up_cookie(srv.port, "Bolat");
    const json::value arena{{"name", "Evening arena"}, {"system", "arena"},
                            {"initial_ms", 60000},     {"increment_ms", 0},
                            {"duration_minutes", 30},  {"starts_at", wall_ms()}};
    HttpResult r = ctx_post(srv.port, "/api/tournaments", arena, ca);
    ASSERT_EQ(r.status, 200) << r.body;
    tid = jstr(r.json().at("id"));
    for (const std::string& c : {ca, cb})
      ASSERT_EQ(ctx_post(srv.port, "/api/tournaments/" + tid + "/join", json::object{}, c).status,
                200);
    const json::value t = ctx_get(srv.port, "/api/tournaments/" + tid, ca).json();
    ASSERT_TRUE(t.at("tournament").at("me").at("game").is_string()) << json::serialize(t);
    game = jstr(t.at("tournament").at("me").at("game"));
    WsClient ws(srv.port, game, "", {}, cb);
    auto st = ws.read_state([](const json::object&) { return true; });
    ASSERT_TRUE(st);
    EXPECT_EQ(jstr(st->at("tournament").at("id")), tid);
    EXPECT_EQ(jstr(st->at("tournament").at("name")), "Evening arena");
    ws.send(json::object{{"type", "resign"}});
    ASSERT_TRUE(ws.read_state([](const json::object& s) { return s.at("status") == "aborted"; }));
    ws.send(json::object{{"type", "rematch"}});
    auto refused = ws.read_type("error");
    ASSERT_TRUE(refused);
    EXPECT_EQ(jstr(refused->at("code")), "rematch_tournament");
  }
  TestServer srv(db, cfg);
  const json::value g = http_get(srv.port, "/api/games/" + game).json();
  EXPECT_EQ(jstr(g.at("game").at("tournament").at("name")), "Evening arena");
}

}  // namespace
}  // namespace toguz::test
