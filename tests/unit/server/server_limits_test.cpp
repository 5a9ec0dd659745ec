// How the server bounds what one client can cost the others: engine work scheduled and bounded,
// broadcasts bounded, connections capped (docs/server.md "Security checks").
#include <gtest/gtest.h>

#include <thread>

#include "server_client.h"

namespace toguz::test {
namespace {

using Clock = std::chrono::steady_clock;

// An analysis board (imported position): its id and token.
std::pair<std::string, std::string> analysis_board(uint16_t port) {
  HttpResult r = http_post(
      port, "/api/import",
      json::value(json::object{{"position", "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w"}}));
  EXPECT_EQ(r.status, 200) << r.body;
  return {jstr(r.json().at("id")), jstr(r.json().at("token"))};
}

// Engine moves go ahead of analysis: with background work for several seconds queued, the
// engine's reply comes in about its move time (one worker is kept for engine moves).
TEST(ServerLimits, EngineMovesGoAheadOfAnalysis) {
  TempDir dir;
  server::Config cfg;
  cfg.workers = 2;
  cfg.engine_movetime_ms = 200;
  TestServer srv((dir.path / "t.db").string(), cfg);
  HttpResult e = http_post(srv.port, "/api/games",
                           json::value(json::object{{"mode", "engine"}, {"level", 1}}));
  ASSERT_EQ(e.status, 200) << e.body;
  WsClient human(srv.port, jstr(e.json().at("id")), jstr(e.json().at("token")));
  ASSERT_TRUE(
      human.read_state([](const json::object& g) { return g.at("legal").as_array().size() > 0; }));
  // Six analysis streams of about 1 s each: 3 s or more of work for two workers.
  std::vector<std::unique_ptr<WsClient>> flood;
  for (int i = 0; i < 6; ++i) {
    auto [id, token] = analysis_board(srv.port);
    flood.push_back(std::make_unique<WsClient>(srv.port, id, token));
    ASSERT_TRUE(flood.back()->read_type("state"));
  }
  for (auto& f : flood) f->send(json::object{{"type", "analyze"}, {"multipv", 3}});
  const auto sent = Clock::now();
  human.send(json::object{{"type", "move"}, {"hole", 7}, {"ply", 0}});
  ASSERT_TRUE(human.read_state([](const json::object& g) { return jint(g.at("ply")) == 2; }));
  const double waited = std::chrono::duration<double>(Clock::now() - sent).count();
  EXPECT_LT(waited, 1.5) << "the engine's 0.2 s reply waited behind the analyses";
  for (auto& f : flood)
    EXPECT_TRUE(f->read_until(
        [](const json::object& m) { return is_type(m, "analysis") && m.at("done").as_bool(); }));
}

// The background queue is bounded: past it a request is refused with a clear error; and one
// connection has one hint at a time.
TEST(ServerLimits, BackgroundQueueIsBounded) {
  TempDir dir;
  server::Config cfg;
  cfg.workers = 1;
  cfg.max_queued_jobs = 1;
  TestServer srv((dir.path / "t.db").string(), cfg);
  std::vector<std::unique_ptr<WsClient>> c;
  for (int i = 0; i < 3; ++i) {
    auto [id, token] = analysis_board(srv.port);
    c.push_back(std::make_unique<WsClient>(srv.port, id, token));
    ASSERT_TRUE(c.back()->read_type("state"));
  }
  c[0]->send(json::object{{"type", "analyze"}});  // runs (about 1 s)
  ASSERT_TRUE(c[0]->read_type("analysis"));
  c[1]->send(json::object{{"type", "analyze"}});  // waits: the queue is full
  c[2]->send(json::object{{"type", "hint"}});     // refused
  auto busy = c[2]->read_until(
      [](const json::object& m) { return is_type(m, "error") || is_type(m, "hint"); });
  ASSERT_TRUE(busy);
  ASSERT_EQ(jstr(busy->at("type")), "error");
  EXPECT_NE(jstr(busy->at("message")).find("busy"), std::string::npos) << json::serialize(*busy);
  ASSERT_TRUE(c[1]->read_until(
      [](const json::object& m) { return is_type(m, "analysis") && m.at("done").as_bool(); }));
  // Idle again: a hint is accepted, a second one while it searches is not.
  c[2]->send(json::object{{"type", "hint"}});
  c[2]->send(json::object{{"type", "hint"}});
  auto second = c[2]->read_until(
      [](const json::object& m) { return is_type(m, "error") || is_type(m, "hint"); });
  ASSERT_TRUE(second);
  ASSERT_EQ(jstr(second->at("type")), "error");
  EXPECT_NE(jstr(second->at("message")).find("still being searched"), std::string::npos)
      << json::serialize(*second);
  EXPECT_TRUE(c[2]->read_type("hint"));
}

// POST /api/analyze: one at a time per address, and at most the set rate.
TEST(ServerLimits, HttpAnalyzeIsLimitedPerAddress) {
  TempDir dir;
  {
    server::Config cfg;
    cfg.analyze_per_minute = 100000;  // only the one-at-a-time rule here
    TestServer srv((dir.path / "a.db").string(), cfg);
    // The long analysis is written before any short one connects, so the server reads it
    // first; then short ones until one meets it.
    net::io_context ioc;
    beast::tcp_stream slow(ioc);
    slow.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), srv.port));
    http::request<http::string_body> req{http::verb::post, "/api/analyze", 11};
    req.set(http::field::host, "127.0.0.1");
    req.set(http::field::content_type, "application/json");
    req.body() = R"({"time_ms":2000})";
    req.prepare_payload();
    http::write(slow, req);
    HttpResult second;
    for (int i = 0; i < 200 && second.status != 429; ++i)
      second = http_post(srv.port, "/api/analyze", std::string(R"({"time_ms":10})"));
    ASSERT_EQ(second.status, 429) << second.body;
    EXPECT_NE(second.body.find("one analysis at a time"), std::string::npos) << second.body;
    beast::flat_buffer buffer;
    http::response<http::string_body> first;
    http::read(slow, buffer, first);
    EXPECT_EQ(first.result_int(), 200u) << first.body();
  }
  server::Config cfg;
  cfg.analyze_per_minute = 1;  // the bucket of 4 does not refill during the test
  TestServer srv((dir.path / "b.db").string(), cfg);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(http_post(srv.port, "/api/analyze", std::string(R"({"time_ms":10})")).status, 200);
  HttpResult limited = http_post(srv.port, "/api/analyze", std::string(R"({"time_ms":10})"));
  EXPECT_EQ(limited.status, 429);
  EXPECT_NE(limited.body.find("a minute"), std::string::npos) << limited.body;
}

// An online game with both players connected: id and the two clients.
struct OnlineGame {
  std::string id, white_token;
  std::unique_ptr<WsClient> white, black;
  explicit OnlineGame(uint16_t port) {
    HttpResult c = http_post(port, "/api/games", json::value(json::object{{"mode", "online"}}));
    EXPECT_EQ(c.status, 200) << c.body;
    id = jstr(c.json().at("id"));
    HttpResult j = http_post(port, "/api/games/" + id + "/join",
                             json::value(json::object{{"invite", c.json().at("invite")}}));
    EXPECT_EQ(j.status, 200) << j.body;
    white_token = jstr(c.json().at("token"));
    white = std::make_unique<WsClient>(port, id, white_token);
    black = std::make_unique<WsClient>(port, id, jstr(j.json().at("token")));
    auto both_here = [](const json::object& g) {
      return g.at("players").at("white").at("connected").as_bool() &&
             g.at("players").at("black").at("connected").as_bool();
    };
    EXPECT_TRUE(white->read_state(both_here));
    EXPECT_TRUE(black->read_state(both_here));
  }
};

// Counts what a player receives until his pong: states, presence messages and the last count.
struct Received {
  int states = 0, presence = 0, spectators = -1;
  bool pong = false;
};
Received drain_until_pong(WsClient& c) {
  Received r;
  c.send(json::object{{"type", "ping"}});
  for (;;) {
    auto m = c.read();
    if (!m) return r;
    if (is_type(*m, "pong")) {
      r.pong = true;
      return r;
    }
    if (is_type(*m, "state")) ++r.states;
    if (is_type(*m, "presence")) {
      ++r.presence;
      r.spectators = int(jint(m->at("spectators")));
    }
  }
}

// Spectators coming and going send the players at most a small presence count, never the whole
// state; the players stay connected through the churn.
TEST(ServerLimits, SpectatorChurnSendsPresenceNotState) {
  TempDir dir;
  server::Config cfg;
  cfg.max_connections_per_address = 1000;
  TestServer srv((dir.path / "t.db").string(), cfg);
  OnlineGame game(srv.port);
  for (int round = 0; round < 2; ++round) {
    std::vector<std::unique_ptr<WsClient>> watchers;
    for (int i = 0; i < 100; ++i) {
      watchers.push_back(std::make_unique<WsClient>(srv.port, game.id));
      ASSERT_TRUE(watchers.back()->read_type("state"));  // a newcomer gets the state itself
    }
    auto presence = game.white->read_type("presence");
    ASSERT_TRUE(presence);
    for (auto& w : watchers) w->close();
    watchers.clear();
    Received r = drain_until_pong(*game.white);
    ASSERT_TRUE(r.pong) << "white was disconnected";
    EXPECT_EQ(r.states, 0) << "spectators made the server send white " << r.states << " states";
    EXPECT_LE(r.presence, 20);
  }
  // The count settles at zero, and it is in the state as well.
  auto zero = game.black->read_until([](const json::object& m) {
    return is_type(m, "presence") && jint(m.at("spectators")) == 0;
  });
  ASSERT_TRUE(zero);
  game.white->send(json::object{{"type", "move"}, {"hole", 7}, {"ply", 0}});
  auto g = game.black->read_state([](const json::object& g) { return jint(g.at("ply")) == 1; });
  ASSERT_TRUE(g);
  EXPECT_EQ(jint(g->at("spectators")), 0);
}

// Connections are capped per address and spectators per game; players always get in.
TEST(ServerLimits, ConnectionCaps) {
  TempDir dir;
  server::Config cfg;
  cfg.max_connections_per_address = 4;
  cfg.max_spectators_per_room = 1;
  TestServer srv((dir.path / "t.db").string(), cfg);
  OnlineGame game(srv.port);  // two connections
  WsClient first(srv.port, game.id);
  ASSERT_TRUE(first.read_type("state"));
  WsClient second(srv.port, game.id);  // the room is full of spectators: refused and closed
  auto refused = second.read();
  ASSERT_TRUE(refused);
  EXPECT_EQ(jstr(refused->at("type")), "error");
  EXPECT_NE(jstr(refused->at("message")).find("spectators"), std::string::npos)
      << json::serialize(*refused);
  EXPECT_FALSE(second.read());
  WsClient player(srv.port, game.id, game.white_token);  // a player's fourth connection gets in
  auto seated = player.read_state([](const json::object&) { return true; });
  ASSERT_TRUE(seated);
  EXPECT_EQ(jstr(seated->at("you")), "white");
  WsClient fifth(srv.port, game.id);
  EXPECT_FALSE(fifth.ok());
  EXPECT_EQ(fifth.handshake_status(), 503);
}

// Bad input that still got through: names, finished positions, imported results and tags,
// the search over Cyrillic names.
TEST(ServerInput, NamesAreCutOnCharactersAndCleaned) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  std::string cyrillic;
  for (int i = 0; i < 30; ++i) cyrillic += "Жа";  // 60 characters, 120 bytes
  const std::string bidi =
      "\xE2\x80\xAE"
      "evil\xE2\x81\xA6"
      "name\xE2\x80\x8F";  // RLO, LRI, RLM
  HttpResult c =
      http_post(srv.port, "/api/games",
                json::value(json::object{{"mode", "local"}, {"white", cyrillic}, {"black", bidi}}));
  ASSERT_EQ(c.status, 200) << c.body;
  WsClient w(srv.port, jstr(c.json().at("id")), jstr(c.json().at("token")));
  auto g =
      w.read_state([](const json::object&) { return true; });  // a frame that parses: valid UTF-8
  ASSERT_TRUE(g);
  std::string expected;
  for (int i = 0; i < 20; ++i) expected += "Жа";
  EXPECT_EQ(jstr(g->at("players").at("white").at("name")), expected);
  EXPECT_EQ(jstr(g->at("players").at("black").at("name")), "evilname");
  // An odd cut at the byte limit of an import never splits a character either.
  std::string long_tag;
  for (int i = 0; i < 50; ++i) long_tag += "Ә";
  HttpResult imp = http_post(
      srv.port, "/api/import",
      json::value(json::object{{"record", "[White \"" + long_tag + "\"]\n\n1. 76(10) *\n"}}));
  ASSERT_EQ(imp.status, 200) << imp.body;
  WsClient i(srv.port, jstr(imp.json().at("id")));
  auto ig = i.read_state([](const json::object&) { return true; });
  ASSERT_TRUE(ig);
  EXPECT_EQ(jstr(ig->at("players").at("white").at("name")).size(), 80u);  // 40 two-byte letters
}

TEST(ServerInput, FinishedPositionsImportedResultsAndTags) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  // White has 82: the game is decided before a move is made.
  const std::string decided = "5,5,5,5,5,5,5,5,0/5,5,5,5,5,5,5,5,0 82 0 w";
  for (const char* mode : {"local", "engine", "online"}) {
    HttpResult c = http_post(srv.port, "/api/games",
                             json::value(json::object{{"mode", mode}, {"position", decided}}));
    if (c.status != 200) {
      EXPECT_EQ(c.status, 400) << mode << ": " << c.body;  // a refusal is fine; a live game is not
      continue;
    }
    HttpResult g = http_get(srv.port, "/api/games/" + jstr(c.json().at("id")));
    EXPECT_EQ(jstr(g.json().at("game").at("status")), "over") << mode << ": " << g.body;
    EXPECT_EQ(jstr(g.json().at("game").at("result").at("winner")), "white") << mode;
  }
  // An imported resignation keeps its result and its tags, and exports them again.
  const std::string record =
      "[Event \"Kazakhstan Cup\"]\n[Site \"Almaty\"]\n[Date \"2024.05.01\"]\n[White \"A\"]\n"
      "[Black \"B\"]\n[Result \"0-1\"]\n\n1. 76(10) 22(10) 0-1\n";
  HttpResult imp =
      http_post(srv.port, "/api/import", json::value(json::object{{"record", record}}));
  ASSERT_EQ(imp.status, 200) << imp.body;
  const std::string id = jstr(imp.json().at("id"));
  HttpResult g = http_get(srv.port, "/api/games/" + id);
  EXPECT_EQ(jstr(g.json().at("game").at("status")), "over") << g.body;
  EXPECT_EQ(jstr(g.json().at("game").at("result").at("winner")), "black") << g.body;
  HttpResult pgn = http_get(srv.port, "/api/games/" + id + "/pgn");
  ASSERT_EQ(pgn.status, 200);
  for (const char* want : {"[Event \"Kazakhstan Cup\"]", "[Site \"Almaty\"]",
                           "[Date \"2024.05.01\"]", "[Result \"0-1\"]", "0-1\n"})
    EXPECT_NE(pgn.body.find(want), std::string::npos) << want << " in\n" << pgn.body;
  EXPECT_EQ(pgn.body.find("toguz serve"), std::string::npos) << pgn.body;
  EXPECT_NE(pgn.body.find("[Termination \"normal\"]"), std::string::npos) << pgn.body;
  // A game of the server: its date, time control and termination.
  HttpResult c =
      http_post(srv.port, "/api/games",
                json::value(json::object{
                    {"mode", "local"},
                    {"clock", json::object{{"initial_ms", 300000}, {"increment_ms", 5000}}}}));
  ASSERT_EQ(c.status, 200) << c.body;
  HttpResult own = http_get(srv.port, "/api/games/" + jstr(c.json().at("id")) + "/pgn");
  for (const char* want : {"[Event \"toguz serve\"]", "[Date \"20", "[TimeControl \"300+5\"]",
                           "[Termination \"unterminated\"]"})
    EXPECT_NE(own.body.find(want), std::string::npos) << want << " in\n" << own.body;
}

TEST(ServerInput, GamesSearchFoldsCyrillicAndKazakhCase) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  for (const char* name : {"Айгерим", "ҚАНАТ Әлиев", "Ivan"})
    ASSERT_EQ(http_post(srv.port, "/api/games",
                        json::value(json::object{{"mode", "engine"}, {"name", name}}))
                  .status,
              200);
  auto count = [&](const std::string& q) {
    HttpResult r = http_get(srv.port, "/api/games?player=" + q);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json().is_object() ? jint(r.json().at("total")) : -1;
  };
  auto enc = [](const std::string& s) {
    std::string out;
    static const char* hex = "0123456789ABCDEF";
    for (unsigned char c : s) {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
    return out;
  };
  EXPECT_EQ(count(enc("айгерим")), 1);
  EXPECT_EQ(count(enc("АЙГЕРИМ")), 1);
  EXPECT_EQ(count(enc("қанат")), 1);
  EXPECT_EQ(count(enc("әлиев")), 1);
  EXPECT_EQ(count(enc("IVAN")), 1);
  EXPECT_EQ(count(enc("Жан")), 0);
}

// Games nobody joined or started expire, and rooms nobody is in leave memory.
TEST(ServerInput, StaleGamesExpireAndRoomsLeaveMemory) {
  TempDir dir;
  server::Config cfg;
  cfg.expire_waiting_seconds = 1;
  cfg.expire_analysis_seconds = 1;
  cfg.idle_room_seconds = 1;
  TestServer srv((dir.path / "t.db").string(), cfg);
  HttpResult waiting =
      http_post(srv.port, "/api/games", json::value(json::object{{"mode", "online"}}));
  ASSERT_EQ(waiting.status, 200);
  HttpResult board = http_post(
      srv.port, "/api/import",
      json::value(json::object{{"position", "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w"}}));
  ASSERT_EQ(board.status, 200);
  auto health = [&] { return http_get(srv.port, "/api/health").json(); };
  // Wait (polling, with a deadline) for the sweep.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (jint(health().at("rooms")) > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(jint(health().at("rooms")), 0);
  for (const HttpResult* c : {&waiting, &board}) {
    HttpResult g = http_get(srv.port, "/api/games/" + jstr(c->json().at("id")));  // loaded again
    EXPECT_EQ(jstr(g.json().at("game").at("status")), "aborted") << g.body;
    EXPECT_EQ(jstr(g.json().at("game").at("result").at("reason")), "expired") << g.body;
  }
  HttpResult join = http_post(srv.port, "/api/games/" + jstr(waiting.json().at("id")) + "/join",
                              json::value(json::object{{"invite", waiting.json().at("invite")}}));
  EXPECT_EQ(join.status, 409) << join.body;
}

}  // namespace
}  // namespace toguz::test
