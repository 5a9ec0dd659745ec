// The server over real sockets: whole games over WebSocket (online with two clients, against
// the engine), clocks, draws, rematch, abandon, review and analysis.
#include <gtest/gtest.h>

#include "server_client.h"

namespace toguz::test {
namespace {

struct Seat {
  std::string id, token, side;
};

Seat create(uint16_t port, const json::object& body) {
  HttpResult r = http_post(port, "/api/games", json::value(body));
  EXPECT_EQ(r.status, 200) << r.body;
  json::value v = r.json();
  if (!v.is_object()) return {};
  return {jstr(v.at("id")), jstr(v.at("token")), jstr(v.at("side"))};
}

// An online game with both seats taken: {white, black}.
std::pair<Seat, Seat> online_game(uint16_t port, json::object extra = {}) {
  json::object body{{"mode", "online"}, {"color", "white"}, {"name", "Aigerim"}};
  for (auto& kv : extra) body[kv.key()] = kv.value();
  HttpResult r = http_post(port, "/api/games", json::value(body));
  EXPECT_EQ(r.status, 200) << r.body;
  json::value v = r.json();
  Seat white{jstr(v.at("id")), jstr(v.at("token")), "white"};
  const std::string invite = jstr(v.at("invite"));
  HttpResult j = http_post(port, "/api/games/" + white.id + "/join",
                           json::value(json::object{{"invite", invite}, {"name", "Bolat"}}));
  EXPECT_EQ(j.status, 200) << j.body;
  Seat black{white.id, jstr(j.json().at("token")), jstr(j.json().at("side"))};
  EXPECT_EQ(black.side, "black");
  return {white, black};
}

TEST(ServerGame, OnlineWholeGameWithTwoClients) {
  TempDir dir;
  server::Config cfg;
  cfg.max_messages_per_second = 100000;  // the clients move as fast as the server answers
  TestServer srv((dir.path / "t.db").string(), cfg);
  json::object body{{"mode", "online"}, {"color", "white"}, {"name", "Aigerim"}};
  HttpResult r = http_post(srv.port, "/api/games", json::value(body));
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string id = jstr(r.json().at("id")), wtoken = jstr(r.json().at("token"));
  const std::string invite = jstr(r.json().at("invite"));
  EXPECT_EQ(jstr(r.json().at("side")), "white");

  // Before the join: waiting, and a move is refused.
  WsClient white(srv.port, id, wtoken);
  ASSERT_TRUE(white.ok());
  auto g = white.read_state([](const json::object&) { return true; });
  ASSERT_TRUE(g);
  EXPECT_EQ(jstr(g->at("status")), "waiting");
  EXPECT_EQ(jstr(g->at("you")), "white");
  EXPECT_TRUE(g->at("legal").as_array().empty());

  // Wrong invite, then the join, then the seat is taken.
  EXPECT_EQ(http_post(srv.port, "/api/games/" + id + "/join",
                      json::value(json::object{{"invite", "nope"}}))
                .status,
            403);
  HttpResult j = http_post(srv.port, "/api/games/" + id + "/join",
                           json::value(json::object{{"invite", invite}, {"name", "Bolat"}}));
  ASSERT_EQ(j.status, 200) << j.body;
  EXPECT_EQ(jstr(j.json().at("side")), "black");
  const std::string btoken = jstr(j.json().at("token"));
  EXPECT_EQ(http_post(srv.port, "/api/games/" + id + "/join",
                      json::value(json::object{{"invite", invite}}))
                .status,
            409);

  WsClient black(srv.port, id, btoken);
  ASSERT_TRUE(black.ok());
  // Play to the end: each side plays its first legal hole when the state says it may.
  int ply = 0;
  std::string status = "playing";
  json::object last;
  for (int guard = 0; guard < 2000 && status == "playing"; ++guard) {
    WsClient& mover = ply % 2 == 0 ? white : black;
    auto s = mover.read_state([&](const json::object& g) {
      return jint(g.at("ply")) == ply && jstr(g.at("status")) == "playing" &&
             !g.at("legal").as_array().empty();
    });
    ASSERT_TRUE(s) << "no playable state at ply " << ply;
    EXPECT_EQ(jstr(s->at("to_move")), ply % 2 == 0 ? "white" : "black");
    mover.send(json::object{{"type", "move"}, {"hole", first_legal(*s)}, {"ply", ply}});
    auto after =
        mover.read_state([&](const json::object& g) { return jint(g.at("ply")) == ply + 1; });
    ASSERT_TRUE(after);
    status = jstr(after->at("status"));
    last = *after;
    ++ply;
  }
  ASSERT_EQ(status, "over");
  ASSERT_TRUE(last.at("result").is_object());
  const std::string winner = jstr(last.at("result").at("winner"));
  EXPECT_TRUE(winner == "white" || winner == "black" || winner == "draw") << winner;
  EXPECT_TRUE(last.at("legal").as_array().empty());
  EXPECT_EQ(int(last.at("moves").as_array().size()), ply);

  // Both other clients see the same end.
  WsClient spectator(srv.port, id);
  ASSERT_TRUE(spectator.ok());
  WsClient& waiting = ply % 2 == 0 ? white : black;  // the one who did not make the last move
  for (WsClient* c : {&waiting, &spectator}) {
    auto e = c->read_state([&](const json::object& g) { return jint(g.at("ply")) == ply; });
    ASSERT_TRUE(e);
    EXPECT_EQ(jstr(e->at("status")), "over");
    EXPECT_EQ(jstr(e->at("result").at("winner")), winner);
  }

  // The list has it with its result; the record has every move.
  HttpResult list = http_get(srv.port, "/api/games?player=Bola&result=" + winner);
  ASSERT_EQ(list.status, 200);
  ASSERT_EQ(jint(list.json().at("total")), 1) << list.body;
  EXPECT_EQ(jstr(list.json().at("games").at(0).at("id")), id);
  EXPECT_EQ(jint(list.json().at("games").at(0).at("moves")), ply);
  const std::string other = winner == "white" ? "black" : "white";
  EXPECT_EQ(jint(http_get(srv.port, "/api/games?player=Bola&result=" + other).json().at("total")),
            0);
  HttpResult pgn = http_get(srv.port, "/api/games/" + id + "/pgn");
  ASSERT_EQ(pgn.status, 200);
  EXPECT_NE(pgn.body.find("[White \"Aigerim\"]"), std::string::npos) << pgn.body;
  EXPECT_NE(pgn.body.find("[Black \"Bolat\"]"), std::string::npos) << pgn.body;
}

TEST(ServerGame, EngineGameToTheEndAtLevel1WithHintAndTakeback) {
  TempDir dir;
  server::Config cfg;
  cfg.max_messages_per_second = 100000;  // the client moves as fast as the engine answers
  TestServer srv((dir.path / "t.db").string(), cfg);
  Seat me = create(
      srv.port, json::object{{"mode", "engine"}, {"color", "white"}, {"level", 1}, {"name", "A"}});
  ASSERT_EQ(me.side, "white");
  WsClient ws(srv.port, me.id, me.token);
  ASSERT_TRUE(ws.ok());
  auto g = ws.read_state([](const json::object& g) { return !g.at("legal").as_array().empty(); });
  ASSERT_TRUE(g);
  EXPECT_TRUE(g->at("players").at("black").at("engine").as_bool());
  EXPECT_EQ(jint(g->at("players").at("black").at("level")), 1);

  // A hint names a legal hole.
  ws.send(json::object{{"type", "hint"}});
  auto hint = ws.read_type("hint");
  ASSERT_TRUE(hint);
  EXPECT_GE(jint(hint->at("hole")), 1);
  EXPECT_LE(jint(hint->at("hole")), 9);
  EXPECT_TRUE(hint->at("score").as_object().contains("cp"));

  // One move, the engine answers, a takeback undoes both.
  ws.send(json::object{{"type", "move"}, {"hole", first_legal(*g)}, {"ply", 0}});
  auto answered = ws.read_state([](const json::object& g) { return jint(g.at("ply")) == 2; });
  ASSERT_TRUE(answered);
  EXPECT_EQ(jstr(answered->at("moves").at(1).at("side")), "black");
  ws.send(json::object{{"type", "takeback"}});
  auto back = ws.read_state([](const json::object& g) { return jint(g.at("ply")) == 0; });
  ASSERT_TRUE(back);
  EXPECT_FALSE(back->at("legal").as_array().empty());

  // Then to the end (the engine may also resign a proven loss).
  std::optional<json::object> s = back;
  std::string status = "playing";
  for (int guard = 0; guard < 1000; ++guard) {
    status = jstr(s->at("status"));
    if (status != "playing") break;
    const int ply = int(jint(s->at("ply")));
    EXPECT_EQ(jstr(s->at("to_move")), "white");
    ws.send(json::object{{"type", "move"}, {"hole", first_legal(*s)}, {"ply", ply}});
    s = ws.read_state([&](const json::object& g) {
      return jstr(g.at("status")) != "playing" ||
             (jint(g.at("ply")) > ply && !g.at("legal").as_array().empty());
    });
    ASSERT_TRUE(s) << "no answer after ply " << ply;
  }
  EXPECT_EQ(status, "over");
}

TEST(ServerGame, ClockTimeoutIsDetectedByTheServer) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  auto [white, black] = online_game(
      srv.port, json::object{{"clock", json::object{{"initial_ms", 300}, {"increment_ms", 0}}}});
  WsClient w(srv.port, white.id, white.token);
  ASSERT_TRUE(w.ok());
  auto g = w.read_state([](const json::object& g) { return !g.at("legal").as_array().empty(); });
  ASSERT_TRUE(g);
  EXPECT_TRUE(g->at("clock").at("running").is_null());  // runs once both sides have moved
  w.send(json::object{{"type", "move"}, {"hole", first_legal(*g)}, {"ply", 0}});
  auto one = w.read_state([](const json::object& g) { return jint(g.at("ply")) == 1; });
  ASSERT_TRUE(one);
  // Black's first move is timed by the first-move rule, not by his clock.
  EXPECT_TRUE(one->at("clock").at("running").is_null());
  EXPECT_EQ(jint(one->at("clock").at("black_ms")), 300);
  WsClient b(srv.port, black.id, black.token);
  ASSERT_TRUE(b.ok());
  auto bs = b.read_state([](const json::object& g) { return !g.at("legal").as_array().empty(); });
  ASSERT_TRUE(bs);
  EXPECT_EQ(jint(bs->at("clock").at("black_ms")), 300) << "no time lost before his first move";
  b.send(json::object{{"type", "move"}, {"hole", first_legal(*bs)}, {"ply", 1}});
  // White never moves again: the server's timer ends the game without another message. Before
  // two moves each a fallen flag calls the game off (docs/accounts.md "Fair play"), by White.
  auto over = w.read_state([](const json::object& g) { return jstr(g.at("status")) == "aborted"; });
  ASSERT_TRUE(over);
  EXPECT_EQ(jstr(over->at("result").at("reason")), "aborted");
  EXPECT_EQ(jstr(over->at("result").at("aborted_by")), "white");
  EXPECT_TRUE(over->at("result").at("winner").is_null());
  EXPECT_EQ(jint(over->at("clock").at("white_ms")), 0);
  EXPECT_TRUE(over->at("clock").at("running").is_null());
}

TEST(ServerGame, DrawOfferDeclineAcceptThenRematchWithColoursSwapped) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  auto [white, black] = online_game(srv.port);
  WsClient w(srv.port, white.id, white.token), b(srv.port, black.id, black.token);
  ASSERT_TRUE(w.ok() && b.ok());
  ASSERT_TRUE(play_plies(w, b, 0, 4));  // an agreement before two moves each calls the game off
  ASSERT_TRUE(w.read_state([](const json::object& g) { return jint(g.at("ply")) == 4; }));
  w.send(json::object{{"type", "offer_draw"}});
  ASSERT_TRUE(b.read_state([](const json::object& g) { return g.at("draw_offer") == "white"; }));
  b.send(json::object{{"type", "decline_draw"}});
  // White sees its offer, then the decline (the states before the offer also say null).
  ASSERT_TRUE(w.read_state([](const json::object& g) { return g.at("draw_offer") == "white"; }));
  ASSERT_TRUE(w.read_state([](const json::object& g) { return g.at("draw_offer").is_null(); }));
  // White may not offer again at once (offers cannot be repeated move after move); Black may.
  w.send(json::object{{"type", "offer_draw"}});
  auto refused = w.read_type("error");
  ASSERT_TRUE(refused);
  EXPECT_EQ(jstr(refused->at("code")), "draw_wait");
  b.send(json::object{{"type", "offer_draw"}});
  ASSERT_TRUE(w.read_state([](const json::object& g) { return g.at("draw_offer") == "black"; }));
  w.send(json::object{{"type", "accept_draw"}});
  auto over = w.read_state([](const json::object& g) { return jstr(g.at("status")) == "over"; });
  ASSERT_TRUE(over);
  EXPECT_EQ(jstr(over->at("result").at("winner")), "draw");
  EXPECT_EQ(jstr(over->at("result").at("reason")), "agreement");

  w.send(json::object{{"type", "rematch"}});
  ASSERT_TRUE(b.read_state([](const json::object& g) { return g.at("rematch_offer") == "white"; }));
  b.send(json::object{{"type", "rematch"}});
  auto rw = w.read_type("rematch");
  auto rb = b.read_type("rematch");
  ASSERT_TRUE(rw && rb);
  EXPECT_EQ(rw->at("id"), rb->at("id"));
  EXPECT_EQ(jstr(rw->at("side")), "black");
  EXPECT_EQ(jstr(rb->at("side")), "white");
  WsClient nb(srv.port, jstr(rb->at("id")), jstr(rb->at("token")));
  auto ng = nb.read_state([](const json::object&) { return true; });
  ASSERT_TRUE(ng);
  EXPECT_EQ(jstr(ng->at("you")), "white");
  EXPECT_EQ(jstr(ng->at("players").at("white").at("name")), "Bolat");
  EXPECT_EQ(jstr(ng->at("status")), "playing");
  EXPECT_EQ(jint(ng->at("ply")), 0);
}

// Plays the first four plies (two moves each, docs/accounts.md "Fair play": before them a
// resignation or a departure calls the game off).
void two_moves_each(WsClient& w, WsClient& b) {
  for (int ply = 0; ply < 4; ++ply) {
    WsClient& mover = ply % 2 == 0 ? w : b;
    auto s = mover.read_state([&](const json::object& g) {
      return jint(g.at("ply")) == ply && !g.at("legal").as_array().empty();
    });
    ASSERT_TRUE(s) << "ply " << ply;
    mover.send(json::object{{"type", "move"}, {"hole", first_legal(*s)}, {"ply", ply}});
  }
  ASSERT_TRUE(b.read_state([](const json::object& g) { return jint(g.at("ply")) == 4; }));
}

TEST(ServerGame, ResignAbortAndClaimWinAfterAbandon) {
  TempDir dir;
  server::Config cfg;
  cfg.abandon_seconds = 1;
  TestServer srv((dir.path / "t.db").string(), cfg);
  {
    auto [white, black] = online_game(srv.port);
    WsClient w(srv.port, white.id, white.token);
    w.send(json::object{{"type", "abort"}});
    auto g = w.read_state([](const json::object& g) { return jstr(g.at("status")) != "playing"; });
    ASSERT_TRUE(g);
    EXPECT_EQ(jstr(g->at("status")), "aborted");
    EXPECT_EQ(jstr(g->at("result").at("reason")), "aborted");
    EXPECT_EQ(jstr(g->at("result").at("aborted_by")), "white");
  }
  {
    auto [white, black] = online_game(srv.port);
    WsClient w(srv.port, white.id, white.token), b(srv.port, black.id, black.token);
    two_moves_each(w, b);
    b.send(json::object{{"type", "resign"}});
    auto g = b.read_state([](const json::object& g) { return jstr(g.at("status")) == "over"; });
    ASSERT_TRUE(g);
    EXPECT_EQ(jstr(g->at("result").at("winner")), "white");
    EXPECT_EQ(jstr(g->at("result").at("reason")), "resign");
  }
  {
    auto [white, black] = online_game(srv.port);
    WsClient w(srv.port, white.id, white.token);
    {
      WsClient b(srv.port, black.id, black.token);
      two_moves_each(w, b);
      ASSERT_TRUE(w.read_state([](const json::object& g) {
        return g.at("players").at("black").at("connected").as_bool();
      }));
      // Too early to claim while Black is connected.
      w.send(json::object{{"type", "claim_win"}});
      ASSERT_TRUE(w.read_type("error"));
      b.close();
    }
    // The server tells White when the claim becomes possible (abandon timer).
    auto g = w.read_state([](const json::object& g) { return g.at("can_claim").as_bool(); });
    ASSERT_TRUE(g);
    EXPECT_FALSE(g->at("players").at("black").at("connected").as_bool());
    w.send(json::object{{"type", "claim_win"}});
    auto over = w.read_state([](const json::object& g) { return jstr(g.at("status")) == "over"; });
    ASSERT_TRUE(over);
    EXPECT_EQ(jstr(over->at("result").at("winner")), "white");
    EXPECT_EQ(jstr(over->at("result").at("reason")), "abandon");
  }
}

TEST(ServerGame, AnalyzeStreamAndReview) {
  TempDir dir;
  server::Config cfg;
  cfg.review_nodes = 2000;
  TestServer srv((dir.path / "t.db").string(), cfg);
  HttpResult imp = http_post(
      srv.port, "/api/import",
      json::value(
          json::object{{"record", "[White \"P1\"]\n[Black \"P2\"]\n\n1. 76(10) 22(10) *\n"}}));
  ASSERT_EQ(imp.status, 200) << imp.body;
  const std::string id = jstr(imp.json().at("id"));
  EXPECT_EQ(jstr(imp.json().at("side")), "both");
  WsClient spectator(srv.port, id);
  auto g = spectator.read_state([](const json::object&) { return true; });
  ASSERT_TRUE(g);
  EXPECT_EQ(jstr(g->at("mode")), "analysis");
  EXPECT_EQ(jint(g->at("ply")), 2);
  EXPECT_EQ(jstr(g->at("players").at("white").at("name")), "P1");

  spectator.send(json::object{{"type", "analyze"}, {"multipv", 2}});
  auto a = spectator.read_type("analysis");
  ASSERT_TRUE(a);
  EXPECT_EQ(jint(a->at("ply")), 2);
  ASSERT_GE(a->at("lines").as_array().size(), 1u);
  const json::object& line = a->at("lines").at(0).as_object();
  EXPECT_FALSE(line.at("pv").as_array().empty());
  EXPECT_EQ(line.at("pv").as_array().size(), line.at("pv_notation").as_array().size());
  EXPECT_TRUE(line.at("score").as_object().contains("white_cp"));
  spectator.send(json::object{{"type", "analyze_stop"}});

  spectator.send(json::object{{"type", "review"}});
  auto r = spectator.read_until(
      [](const json::object& m) { return m.at("type") == "review" && m.at("done").as_bool(); });
  ASSERT_TRUE(r);
  const json::array& moves = r->at("moves").as_array();
  ASSERT_EQ(moves.size(), 2u);
  EXPECT_EQ(jint(moves[0].at("hole")), 7);
  EXPECT_EQ(jstr(moves[1].at("side")), "black");
  for (const auto& m : moves) {
    EXPECT_GE(jint(m.at("loss_cp")), 0);
    EXPECT_GE(jint(m.at("best")), 1);
  }
}

// No engine help in a live game between people: players and spectators alike are refused
// analysis, reviews and hints until the game is over; then analysis works.
TEST(ServerGame, NoEngineHelpInLiveOnlineGames) {
  TempDir dir;
  server::Config cfg;
  cfg.review_nodes = 2000;
  TestServer srv((dir.path / "t.db").string(), cfg);
  HttpResult c = http_post(srv.port, "/api/games", json::value(json::object{{"mode", "online"}}));
  ASSERT_EQ(c.status, 200) << c.body;
  const std::string id = jstr(c.json().at("id")), wt = jstr(c.json().at("token"));
  WsClient early(srv.port, id);  // a spectator while the game waits for its opponent
  ASSERT_TRUE(early.read_type("state"));
  early.send(json::object{{"type", "analyze"}});
  auto refused = early.read_type("error");
  ASSERT_TRUE(refused);
  EXPECT_NE(jstr(refused->at("message")).find("no engine help"), std::string::npos)
      << json::serialize(*refused);
  HttpResult j = http_post(srv.port, "/api/games/" + id + "/join",
                           json::value(json::object{{"invite", c.json().at("invite")}}));
  ASSERT_EQ(j.status, 200) << j.body;
  const std::string bt = jstr(j.json().at("token"));
  WsClient w(srv.port, id, wt), b(srv.port, id, bt), spectator(srv.port, id);
  for (WsClient* client : {&w, &b, &spectator}) {
    ASSERT_TRUE(
        client->read_state([](const json::object& g) { return g.at("status") == "playing"; }));
    for (const char* type : {"analyze", "review", "hint"}) {
      client->send(json::object{{"type", type}});
      auto e = client->read_until([](const json::object& m) {
        return m.at("type") == "error" || m.at("type") == "analysis" || m.at("type") == "review" ||
               m.at("type") == "hint";
      });
      ASSERT_TRUE(e) << type;
      EXPECT_EQ(jstr(e->at("type")), "error") << type << ": " << json::serialize(*e);
      if (e->at("type") == "error") {
        EXPECT_NE(jstr(e->at("message")).find("no engine help"), std::string::npos)
            << json::serialize(*e);
      }
    }
  }
  // A resignation before two moves each would call the game off: four plies first (White's
  // first state was read above, and every hole of the start is legal).
  w.send(json::object{{"type", "move"}, {"hole", 1}, {"ply", 0}});
  ASSERT_TRUE(play_plies(w, b, 1, 3));
  ASSERT_TRUE(w.read_state([](const json::object& g) { return jint(g.at("ply")) == 4; }));
  w.send(json::object{{"type", "resign"}});
  ASSERT_TRUE(spectator.read_state([](const json::object& g) { return g.at("status") == "over"; }));
  spectator.send(json::object{{"type", "analyze"}, {"multipv", 1}});
  auto a = spectator.read_until(
      [](const json::object& m) { return m.at("type") == "analysis" || m.at("type") == "error"; });
  ASSERT_TRUE(a);
  EXPECT_EQ(jstr(a->at("type")), "analysis") << json::serialize(*a);
}

}  // namespace
}  // namespace toguz::test
