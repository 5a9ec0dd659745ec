// Online tournaments over a real server (/api/tournaments): the refusals, an arena created,
// joined by two accounts and paired at once, a game resigned over its socket before two moves
// each (the resigner's loss by forfeit, docs/accounts.md "Fair play") whose result and points
// reach the tournament, the tournament kept across a restart, and its PGN and TGK files.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "server_client.h"

namespace toguz::test {
namespace {

HttpResult post_as(uint16_t port, const std::string& cookie, const std::string& target,
                   const json::object& body) {
  return http_call(port, http::verb::post, target, json::serialize(body),
                   {{http::field::cookie, cookie}});
}

json::object get_as(uint16_t port, const std::string& cookie, const std::string& id) {
  HttpResult r = http_call(port, http::verb::get, "/api/tournaments/" + id, "",
                           {{http::field::cookie, cookie}});
  EXPECT_EQ(r.status, 200) << r.body;
  json::value v = r.json();
  return v.is_object() ? v.at("tournament").as_object() : json::object{};
}

// The accounts here are new: creating a tournament needs no rated games (that rule is
// server_limits_test.cpp's).
server::Config any_creator() {
  server::Config c;
  c.tournament_min_rated_games = 0;
  return c;
}

int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

TEST(ServerTournaments, ArenaOverHttpAndItsGamesAcrossARestart) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  std::string id, first_game;
  {
    TestServer srv(db, any_creator());
    const std::string ca = sign_up_cookie(srv.port, "Aigerim"),
                      cb = sign_up_cookie(srv.port, "Bolat");
    const json::object arena{{"name", "Кечки <арена>"}, {"system", "arena"},
                             {"initial_ms", 60000},     {"increment_ms", 0},
                             {"duration_minutes", 30},  {"starts_at", wall_ms()},
                             {"entry_code", "kokpar"}};
    // the refusals: no account, a bad field named, unknown ids and methods
    EXPECT_EQ(http_post(srv.port, "/api/tournaments", json::value(arena)).status, 401);
    json::object bad = arena;
    bad["duration_minutes"] = 0;
    HttpResult r = post_as(srv.port, ca, "/api/tournaments", bad);
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(r.body.find("duration_minutes"), std::string::npos) << r.body;
    bad = arena;
    bad["initial_ms"] = "fast";
    r = post_as(srv.port, ca, "/api/tournaments", bad);
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(r.body.find("initial_ms: expected an integer"), std::string::npos) << r.body;
    EXPECT_EQ(http_get(srv.port, "/api/tournaments/nope").status, 404);
    EXPECT_EQ(http_call(srv.port, http::verb::delete_, "/api/tournaments").status, 405);
    EXPECT_EQ(http_get(srv.port, "/api/tournaments/x/join").status, 405);
    // made, listed, joined (the code is needed), paired at once
    r = post_as(srv.port, ca, "/api/tournaments", arena);
    ASSERT_EQ(r.status, 200) << r.body;
    id = jstr(r.json().at("id"));
    json::value list = http_get(srv.port, "/api/tournaments").json();
    ASSERT_EQ(list.at("tournaments").as_array().size(), 1u);
    EXPECT_EQ(jstr(list.at("tournaments").as_array()[0].at("name")), "Кечки <арена>");
    EXPECT_EQ(post_as(srv.port, cb, "/api/tournaments/" + id + "/join", {}).status, 409);
    EXPECT_EQ(
        http_post(srv.port, "/api/tournaments/" + id + "/join", json::value(json::object{})).status,
        401);
    for (const std::string& c : {ca, cb}) {
      r = post_as(srv.port, c, "/api/tournaments/" + id + "/join", {{"code", "kokpar"}});
      ASSERT_EQ(r.status, 200) << r.body;
    }
    json::object a = get_as(srv.port, ca, id);
    EXPECT_EQ(jstr(a.at("status")), "running");
    ASSERT_TRUE(a.at("me").at("game").is_string()) << json::serialize(a);
    first_game = jstr(a.at("me").at("game"));
    EXPECT_EQ(jstr(get_as(srv.port, cb, id).at("me").at("game")), first_game);
    // the game is the accounts': Bolat's socket, by his session, resigns for his side
    json::object g = http_get(srv.port, "/api/games/" + first_game).json().at("game").as_object();
    EXPECT_EQ(jint(g.at("clock").at("initial_ms")), 60000);
    {
      WsClient ws(srv.port, first_game, "", {}, cb);
      auto st = ws.read_state([](const json::object&) { return true; });
      ASSERT_TRUE(st);
      ws.send(json::object{{"type", "resign"}});
      ASSERT_TRUE(ws.read_state([](const json::object& s) { return s.at("status") == "aborted"; }));
    }
    // the result and the points reach the tournament; the two are paired again
    json::object after;
    for (int i = 0; i < 100; ++i) {
      after = get_as(srv.port, ca, id);
      if (after.at("games").as_array().size() >= 2) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    const json::array& games = after.at("games").as_array();
    ASSERT_GE(games.size(), 2u);
    const bool aigerim_white = games[0].at("white_name") == "Aigerim";
    EXPECT_EQ(jstr(games[0].at("result")), aigerim_white ? "+-" : "-+");
    // an abort is no win (docs/tournaments.md "Arena"): nobody has a point
    EXPECT_EQ(jstr(after.at("standings").as_array()[0].at("points")), "0");
  }
  // A restart: the tournament and its standings are back, its running game still counted.
  TestServer srv(db, any_creator());
  json::object back = get_as(srv.port, "", id);
  EXPECT_EQ(jstr(back.at("status")), "running");
  EXPECT_EQ(jstr(back.at("standings").as_array()[0].at("points")), "0");
  ASSERT_GE(back.at("games").as_array().size(), 2u);
  EXPECT_EQ(jstr(back.at("games").as_array()[1].at("result")), "*");
  HttpResult pgn = http_get(srv.port, "/api/tournaments/" + id + "/pgn");
  ASSERT_EQ(pgn.status, 200);
  EXPECT_NE(pgn.body.find("[Event \"Кечки <арена>\"]"), std::string::npos) << pgn.body;
  EXPECT_NE(pgn.body.find("[Round \"1\"]"), std::string::npos) << pgn.body;
  EXPECT_NE(pgn.body.find("[Termination \"abandoned\"]"), std::string::npos) << pgn.body;
  HttpResult tgk = http_get(srv.port, "/api/tournaments/" + id + "/tgk");
  ASSERT_EQ(tgk.status, 200);
  EXPECT_NE(tgk.body.find("[Event \"Кечки <арена>\"]"), std::string::npos) << tgk.body;
  EXPECT_EQ(http_get(srv.port, "/api/tournaments").json().at("tournaments").as_array().size(), 1u);
}

// A Swiss of one round started by its creator: its game resigned after two moves each, the
// tournament finished, and its TGK file the tournament library's event file with the game's
// moves.
TEST(ServerTournaments, SwissStartedByItsCreatorAndItsTgk) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string(), any_creator());
  const std::string ca = sign_up_cookie(srv.port, "Aigerim"),
                    cb = sign_up_cookie(srv.port, "Bolat"), cc = sign_up_cookie(srv.port, "Dana");
  HttpResult r = post_as(srv.port, ca, "/api/tournaments",
                         {{"name", "Swiss"},
                          {"system", "swiss"},
                          {"rounds", 1},
                          {"initial_ms", 300000},
                          {"increment_ms", 3000},
                          {"rated", true},
                          {"starts_at", wall_ms() + 3600000}});
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string id = jstr(r.json().at("id"));
  for (const std::string& c : {ca, cb})
    ASSERT_EQ(post_as(srv.port, c, "/api/tournaments/" + id + "/join", {}).status, 200);
  EXPECT_EQ(post_as(srv.port, cc, "/api/tournaments/" + id + "/start", {}).status, 403);
  r = post_as(srv.port, ca, "/api/tournaments/" + id + "/start", {});
  ASSERT_EQ(r.status, 200) << r.body;
  json::object t = r.json().at("tournament").as_object();
  EXPECT_EQ(jstr(t.at("status")), "running");
  EXPECT_EQ(jint(t.at("round")), 1);
  ASSERT_EQ(t.at("games").as_array().size(), 1u);
  EXPECT_EQ(post_as(srv.port, cc, "/api/tournaments/" + id + "/join", {}).status, 409);
  const std::string game = jstr(t.at("games").as_array()[0].at("id"));
  json::object g = http_get(srv.port, "/api/games/" + game).json().at("game").as_object();
  EXPECT_TRUE(g.at("rated").as_bool());
  {
    WsClient wa(srv.port, game, "", {}, ca), ws(srv.port, game, "", {}, cb);
    // Two moves each (before them a resignation calls the game off), then Bolat resigns.
    // (Each client's newest state is kept: one it read ahead serves the next ply.)
    std::optional<json::object> seen[2];
    for (int ply = 0; ply < 4; ++ply) {
      for (int i = 0; i < 2; ++i) {
        WsClient* c = i == 0 ? &wa : &ws;
        if (!seen[i] || jint(seen[i]->at("ply")) < ply)
          seen[i] = c->read_state([&](const json::object& s) { return jint(s.at("ply")) >= ply; });
        ASSERT_TRUE(seen[i]);
        if (jint(seen[i]->at("ply")) == ply && !seen[i]->at("legal").as_array().empty())
          c->send(json::object{{"type", "move"}, {"hole", first_legal(*seen[i])}, {"ply", ply}});
      }
    }
    ASSERT_TRUE(ws.read_state([](const json::object& s) { return jint(s.at("ply")) == 4; }));
    ws.send(json::object{{"type", "resign"}});
    ASSERT_TRUE(ws.read_state([](const json::object& s) { return s.at("status") == "over"; }));
  }
  json::object done;
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  while (std::chrono::steady_clock::now() < deadline) {
    done = get_as(srv.port, ca, id);
    if (jstr(done.at("status")) == "finished") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(jstr(done.at("status")), "finished");
  EXPECT_EQ(jstr(done.at("standings").as_array()[0].at("name")), "Aigerim");
  EXPECT_EQ(jstr(done.at("standings").as_array()[0].at("points")), "1");
  const bool aigerim_white = done.at("games").as_array()[0].at("white_name") == "Aigerim";
  HttpResult tgk = http_get(srv.port, "/api/tournaments/" + id + "/tgk");
  ASSERT_EQ(tgk.status, 200);
  EXPECT_NE(tgk.body.find("[Round \"1\"]"), std::string::npos) << tgk.body;
  EXPECT_NE(tgk.body.find(aigerim_white ? "[Result \"1-0\"]" : "[Result \"0-1\"]"),
            std::string::npos)
      << tgk.body;
  EXPECT_EQ(post_as(srv.port, ca, "/api/tournaments/" + id + "/start", {}).status, 409);
}

}  // namespace
}  // namespace toguz::test
