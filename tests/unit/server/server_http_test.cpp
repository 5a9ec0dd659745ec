// The server's HTTP endpoints, its refusals of bad WebSocket messages (each leaves the game
// as it was), and restart recovery from a real database file.
#include <gtest/gtest.h>

#include <fstream>

#include "server_client.h"

namespace toguz::test {
namespace {

json::value game_of(uint16_t port, const std::string& id) {
  HttpResult r = http_get(port, "/api/games/" + id);
  EXPECT_EQ(r.status, 200) << r.body;
  json::value v = r.json();
  return v.is_object() ? v.at("game") : json::value(nullptr);
}

// The game without who is connected and how many watch (that changes with every test
// connection).
std::string game_text(uint16_t port, const std::string& id) {
  json::value g = game_of(port, id);
  if (g.is_object()) {
    g.as_object().erase("players");
    g.as_object().erase("spectators");
  }
  return json::serialize(g);
}

TEST(ServerHttp, EndpointsAnswerAndRefuse) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;

  HttpResult h = http_get(port, "/api/health");
  ASSERT_EQ(h.status, 200);
  EXPECT_TRUE(h.json().at("ok").as_bool());
  EXPECT_NE(h.content_type.find("application/json"), std::string::npos);

  // Create: each mode, and refusals naming the field.
  HttpResult e =
      http_post(port, "/api/games",
                json::value(json::object{{"mode", "engine"}, {"level", 3}, {"color", "black"}}));
  ASSERT_EQ(e.status, 200) << e.body;
  EXPECT_EQ(jstr(e.json().at("side")), "black");
  EXPECT_TRUE(e.json().at("invite").is_null());
  HttpResult l = http_post(port, "/api/games",
                           json::value(json::object{{"mode", "local"}, {"variant", "kozdatu"}}));
  ASSERT_EQ(l.status, 200) << l.body;
  EXPECT_EQ(jstr(l.json().at("side")), "both");
  json::value lg = game_of(port, jstr(l.json().at("id")));
  EXPECT_EQ(jint(lg.at("n")), 7);
  EXPECT_EQ(jstr(lg.at("you")), "spectator");
  EXPECT_TRUE(lg.at("legal").as_array().empty());
  struct Bad {
    std::string body, field;
  };
  for (const Bad& b :
       {Bad{R"({"mode":"chess"})", "mode"}, Bad{R"({"mode":"local","variant":"x"})", "variant"},
        Bad{R"({"mode":"engine","level":0})", "level"},
        Bad{R"({"mode":"engine","level":"5"})", "level"},
        Bad{R"({"mode":"local","position":"1,2,3"})", "position"},
        Bad{R"({"mode":"online","clock":{"initial_ms":-5}})", "initial_ms"},
        Bad{R"({"mode":"online","color":"green"})", "color"}, Bad{R"([1,2])", "body"},
        Bad{R"({"mode":)", "body"}}) {
    HttpResult r = http_post(port, "/api/games", b.body);
    EXPECT_EQ(r.status, 400) << b.body;
    EXPECT_NE(jstr(r.json().at("error")).find(b.field), std::string::npos) << r.body;
  }
  // Import: a record, a position, a bad record naming the line.
  HttpResult ir = http_post(
      port, "/api/import",
      json::value(
          json::object{{"record", "[White \"Arman\"]\n[Black \"B\"]\n\n1. 76(10) 87(2) *\n"}}));
  ASSERT_EQ(ir.status, 200) << ir.body;
  const std::string iid = jstr(ir.json().at("id"));
  json::value ig = game_of(port, iid);
  EXPECT_EQ(jint(ig.at("ply")), 2);
  EXPECT_EQ(jstr(ig.at("moves").at(0).at("notation")), "76(10)");
  HttpResult ip = http_post(
      port, "/api/import",
      json::value(json::object{{"position", "0,18,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w"}}));
  ASSERT_EQ(ip.status, 200) << ip.body;
  EXPECT_EQ(jint(game_of(port, jstr(ip.json().at("id"))).at("board").at("white").at(1)), 18);
  HttpResult ib =
      http_post(port, "/api/import",
                json::value(json::object{{"record", "[White \"A\"]\n\n1. 76(10) 12(99) *\n"}}));
  EXPECT_EQ(ib.status, 400);
  EXPECT_NE(ib.body.find("record: game 1, line 3: ply 2, token '12(99)'"), std::string::npos)
      << ib.body;
  EXPECT_EQ(http_post(port, "/api/import", std::string("{}")).status, 400);

  // The record of a game, PlayOK style.
  HttpResult pgn = http_get(port, "/api/games/" + iid + "/pgn");
  ASSERT_EQ(pgn.status, 200);
  EXPECT_NE(pgn.content_type.find("text/plain"), std::string::npos);
  EXPECT_NE(pgn.body.find("76(10)"), std::string::npos) << pgn.body;

  // The list, newest first, filtered by name.
  HttpResult all = http_get(port, "/api/games?limit=2");
  ASSERT_EQ(all.status, 200);
  EXPECT_EQ(jint(all.json().at("total")), 4);
  EXPECT_EQ(all.json().at("games").as_array().size(), 2u);
  EXPECT_EQ(jstr(all.json().at("games").at(0).at("id")), jstr(ip.json().at("id")));
  HttpResult byname = http_get(port, "/api/games?player=%41rma");  // "Arma", percent-encoded
  EXPECT_EQ(jint(byname.json().at("total")), 1) << byname.body;
  EXPECT_EQ(http_get(port, "/api/games?player=%25").json().at("total"), 0);  // '%' is literal
  EXPECT_EQ(http_get(port, "/api/games?result=maybe").status, 400);
  EXPECT_EQ(http_get(port, "/api/games?limit=-1").status, 400);

  // Analyze: the JSON of toguz analyze --json.
  HttpResult an = http_post(
      port, "/api/analyze",
      json::value(json::object{{"moves", json::array{7}}, {"multipv", 2}, {"time_ms", 50}}));
  ASSERT_EQ(an.status, 200) << an.body;
  json::value a = an.json();
  EXPECT_EQ(a.at("lines").as_array().size(), 2u);
  EXPECT_TRUE(a.at("bestmove").is_int64());
  EXPECT_TRUE(a.at("lines").at(0).as_object().contains("score_cp"));
  HttpResult anb =
      http_post(port, "/api/analyze", json::value(json::object{{"moves", json::array{7, 12}}}));
  EXPECT_EQ(anb.status, 400);
  EXPECT_NE(anb.body.find("moves[1]"), std::string::npos) << anb.body;

  // 404 and 413.
  EXPECT_EQ(http_get(port, "/api/nothing").status, 404);
  EXPECT_EQ(http_get(port, "/api/games/zzzzzzzz").status, 404);
  EXPECT_EQ(http_get(port, "/api/games/../../etc").status, 404);
  EXPECT_EQ(http_post(port, "/api/games", std::string(70 * 1024, ' ')).status, 413);
  // Without a built front end every page says how to build it.
  HttpResult page = http_get(port, "/");
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("make web"), std::string::npos);
}

TEST(ServerHttp, StaticFilesWithClientRouting) {
  TempDir dir;
  std::filesystem::create_directories(dir.path / "dist" / "assets");
  std::ofstream(dir.path / "dist" / "index.html") << "<html>app</html>";
  std::ofstream(dir.path / "dist" / "assets" / "app.js") << "console.log(1)";
  std::ofstream(dir.path / "secret.txt") << "secret";
  server::Config cfg;
  cfg.static_dir = (dir.path / "dist").string();
  TestServer srv((dir.path / "t.db").string(), cfg);
  HttpResult idx = http_get(srv.port, "/");
  EXPECT_EQ(idx.body, "<html>app</html>");
  HttpResult js = http_get(srv.port, "/assets/app.js");
  EXPECT_EQ(js.body, "console.log(1)");
  EXPECT_NE(js.content_type.find("javascript"), std::string::npos);
  EXPECT_EQ(http_get(srv.port, "/game/abc").body, "<html>app</html>");  // client routing
  EXPECT_EQ(http_get(srv.port, "/assets/missing.js").status, 404);
  EXPECT_EQ(http_get(srv.port, "/../secret.txt").body.find("secret"), std::string::npos);
  EXPECT_EQ(http_get(srv.port, "/%2e%2e/secret.txt").body.find("secret"), std::string::npos);
}

// Every kind of bad message gets an error and leaves the game as it was.
TEST(ServerHttp, BadMessagesChangeNothing) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  // White's hole 1 is empty: an illegal move to try.
  HttpResult c = http_post(
      port, "/api/games",
      json::value(json::object{{"mode", "online"},
                               {"position", "0,18,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w"}}));
  ASSERT_EQ(c.status, 200) << c.body;
  const std::string id = jstr(c.json().at("id")), wt = jstr(c.json().at("token"));
  HttpResult j = http_post(port, "/api/games/" + id + "/join",
                           json::value(json::object{{"invite", c.json().at("invite")}}));
  ASSERT_EQ(j.status, 200);
  const std::string bt = jstr(j.json().at("token"));
  // One move each so that stale plies can be tried.
  {
    WsClient w(port, id, wt), b(port, id, bt);
    w.send(json::object{{"type", "move"}, {"hole", 2}, {"ply", 0}});
    ASSERT_TRUE(b.read_state([](const json::object& g) { return jint(g.at("ply")) == 1; }));
    b.send(json::object{{"type", "move"}, {"hole", 1}, {"ply", 1}});
    ASSERT_TRUE(w.read_state([](const json::object& g) { return jint(g.at("ply")) == 2; }));
  }
  const std::string before = game_text(port, id);
  struct Case {
    std::string token, message, expect;  // expect: part of the error text
  };
  const std::string big = R"({"type":"ping","pad":")" + std::string(5000, 'x') + "\"}";
  const std::vector<Case> cases = {
      {wt, big, "4 KiB"},
      {wt, "{", "JSON"},
      {wt, "[1,2]", "object"},
      {wt, "{}", "type"},
      {wt, R"({"type":5})", "type"},
      {wt, R"({"type":"fly"})", "unknown"},
      {wt, R"({"type":"move","ply":2})", "hole"},
      {wt, R"({"type":"move","hole":"3","ply":2})", "hole"},
      {wt, R"({"type":"move","hole":0,"ply":2})", "hole"},
      {wt, R"({"type":"move","hole":10,"ply":2})", "hole"},
      {wt, R"({"type":"move","hole":1.5,"ply":2})", "hole"},
      {wt, R"({"type":"move","hole":3})", "ply"},
      {wt, R"({"type":"move","hole":3,"ply":1})", "stale"},
      {wt, R"({"type":"move","hole":1,"ply":2})", "empty"},
      {bt, R"({"type":"move","hole":3,"ply":2})", "turn"},
      {"", R"({"type":"move","hole":3,"ply":2})", "spectator"},
      {"wrongtoken", R"({"type":"move","hole":3,"ply":2})", "spectator"},
      {wt, R"({"type":"accept_takeback"})", "no takeback proposal"},  // (takeback proposes)
      {wt, R"({"type":"hint"})", "online"},
      {wt, R"({"type":"accept_draw"})", "offer"},
      {bt, R"({"type":"decline_draw"})", "offer"},
      {wt, R"({"type":"claim_win"})", "connected"},
      {wt, R"({"type":"rematch"})", "not over"},
      {wt, R"({"type":"analyze","multipv":"all"})", "no engine help"},  // a live online game
      {"", R"({"type":"review"})", "no engine help"},
      {wt, R"({"type":"chat","text":"hi"})", "signed in"},  // guests do not chat
      {"", R"({"type":"chat","text":"hi"})", "spectator"},
      {wt, R"({"type":"chat","text":5})", "string"},
      {wt, R"({"type":"chat_on","on":1})", "true or false"},
  };
  // While the game is played: each on a fresh connection (the rate limit is per connection),
  // with the opponent connected (claim_win).
  WsClient opponent(port, id, bt);
  for (const Case& k : cases) {
    WsClient ws(port, id, k.token);
    ASSERT_TRUE(ws.ok());
    ws.send(k.message);
    auto e = ws.read_type("error");
    ASSERT_TRUE(e) << k.message.substr(0, 80);
    EXPECT_NE(jstr(e->at("message")).find(k.expect), std::string::npos)
        << k.message.substr(0, 80) << " -> " << jstr(e->at("message"));
    EXPECT_EQ(game_text(port, id), before) << k.message.substr(0, 80);
  }
  // More than 20 messages in a second on one connection.
  {
    WsClient ws(port, id, wt);
    for (int i = 0; i < 30; ++i) ws.send(R"({"type":"ping"})");
    auto e = ws.read_type("error");
    ASSERT_TRUE(e);
    EXPECT_NE(jstr(e->at("message")).find("rate"), std::string::npos);
    EXPECT_EQ(game_text(port, id), before);
  }
  // After the end: a move is refused.
  {
    WsClient w(port, id, wt);
    w.send(R"({"type":"resign"})");
    // At ply 2 a resignation calls the game off (docs/accounts.md "Fair play").
    ASSERT_TRUE(
        w.read_state([](const json::object& g) { return jstr(g.at("status")) == "aborted"; }));
    const std::string ended = game_text(port, id);
    w.send(R"({"type":"move","hole":3,"ply":2})");
    auto e = w.read_type("error");
    ASSERT_TRUE(e);
    EXPECT_EQ(jstr(e->at("code")), "game_over") << json::serialize(*e);
    EXPECT_EQ(game_text(port, id), ended);
  }
}

// After a restart every unfinished game continues, with its clocks paused over the restart.
TEST(ServerHttp, RestartRecoveryFromTheDatabaseFile) {
  TempDir dir;
  const std::string db = (dir.path / "games.db").string();
  std::string id, wt, bt;
  {
    TestServer srv(db);
    HttpResult c =
        http_post(srv.port, "/api/games",
                  json::value(json::object{
                      {"mode", "online"},
                      {"name", "Aigerim"},
                      {"clock", json::object{{"initial_ms", 600000}, {"increment_ms", 2000}}}}));
    ASSERT_EQ(c.status, 200);
    id = jstr(c.json().at("id"));
    wt = jstr(c.json().at("token"));
    HttpResult j =
        http_post(srv.port, "/api/games/" + id + "/join",
                  json::value(json::object{{"invite", c.json().at("invite")}, {"name", "Bolat"}}));
    bt = jstr(j.json().at("token"));
    WsClient w(srv.port, id, wt), b(srv.port, id, bt);
    int ply = 0;
    for (int hole : {7, 3, 5}) {
      WsClient& m = ply % 2 == 0 ? w : b;
      m.send(json::object{{"type", "move"}, {"hole", hole}, {"ply", ply}});
      ++ply;
      ASSERT_TRUE(m.read_state([&](const json::object& g) { return jint(g.at("ply")) == ply; }));
    }
  }  // the server stops here (clean shutdown)
  TestServer srv(db);
  json::value g = game_of(srv.port, id);
  ASSERT_TRUE(g.is_object());
  EXPECT_EQ(jint(g.at("ply")), 3);
  EXPECT_EQ(jstr(g.at("status")), "playing");
  EXPECT_EQ(jstr(g.at("to_move")), "black");
  EXPECT_EQ(jstr(g.at("moves").at(2).at("side")), "white");
  EXPECT_EQ(jint(g.at("moves").at(0).at("hole")), 7);
  EXPECT_EQ(jstr(g.at("players").at("white").at("name")), "Aigerim");
  // Paused: not running, and the same time left on a second look.
  EXPECT_TRUE(g.at("clock").at("running").is_null());
  const int64_t black_ms = jint(g.at("clock").at("black_ms"));
  EXPECT_GT(black_ms, 0);
  EXPECT_LE(black_ms, 602000);
  EXPECT_EQ(jint(game_of(srv.port, id).at("clock").at("black_ms")), black_ms);
  // The tokens still work; the clock runs again once Black is back, and the game goes on.
  WsClient b(srv.port, id, bt);
  auto s = b.read_state([](const json::object& g) { return !g.at("legal").as_array().empty(); });
  ASSERT_TRUE(s);
  EXPECT_EQ(jstr(s->at("you")), "black");
  EXPECT_EQ(jstr(s->at("clock").at("running")), "black");
  b.send(json::object{{"type", "move"}, {"hole", 1}, {"ply", 3}});
  ASSERT_TRUE(b.read_state([](const json::object& g) { return jint(g.at("ply")) == 4; }));
  WsClient w(srv.port, id, wt);
  auto ws = w.read_state([](const json::object&) { return true; });
  ASSERT_TRUE(ws);
  EXPECT_EQ(jstr(ws->at("you")), "white");
  EXPECT_EQ(jint(ws->at("ply")), 4);
}

}  // namespace
}  // namespace toguz::test
