// Deltas over real sockets: a connection whose hello asks for them gets the whole state first,
// then after each change only what changed (the move, the board, the clocks, the result); a
// reconnect and a "sync" get the whole state again; a takeback sends the whole state; a
// connection without "deltas" keeps getting whole states.
#include <gtest/gtest.h>

#include "server_client.h"

namespace toguz::test {
namespace {

struct Seats {
  std::string id, white, black;
};

Seats delta_game(uint16_t port) {
  HttpResult r = http_post(port, "/api/games",
                           json::value(json::object{{"mode", "online"}, {"color", "white"}}));
  EXPECT_EQ(r.status, 200) << r.body;
  const json::value v = r.json();
  Seats s{jstr(v.at("id")), jstr(v.at("token")), ""};
  HttpResult j = http_post(port, "/api/games/" + s.id + "/join",
                           json::value(json::object{{"invite", v.at("invite")}}));
  EXPECT_EQ(j.status, 200) << j.body;
  s.black = jstr(j.json().at("token"));
  return s;
}

// A connection whose hello asks for deltas (token "" = a spectator).
std::unique_ptr<WsClient> delta_client(uint16_t port, const std::string& id,
                                       const std::string& token) {
  WsOptions o;
  o.hello = false;
  auto c = std::make_unique<WsClient>(port, id, "", o);
  c->send(json::object{{"type", "hello"},
                       {"token", token.empty() ? json::value(nullptr) : json::value(token)},
                       {"deltas", true}});
  return c;
}

// A server whose clients may send as fast as it answers.
server::Config unlimited() {
  server::Config cfg;
  cfg.max_messages_per_second = 100000;
  return cfg;
}

// The next state or delta (presence and the rest skipped).
std::optional<json::object> next_update(WsClient& c) {
  return c.read_until(
      [](const json::object& m) { return is_type(m, "state") || is_type(m, "delta"); });
}

TEST(ServerDelta, DeltaAfterAMoveAndTheWholeStateOnReconnect) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const Seats g = delta_game(srv.port);
  auto white = delta_client(srv.port, g.id, g.white);
  // The first message of a delta connection is the whole state.
  auto first = next_update(*white);
  ASSERT_TRUE(first);
  ASSERT_TRUE(is_type(*first, "state")) << json::serialize(*first);
  EXPECT_FALSE(first->at("game").at("legal").as_array().empty());

  WsClient black(srv.port, g.id, g.black);  // an old client: no "deltas" in its hello
  auto ready = next_update(*white);         // black's arrival: a delta without a move
  ASSERT_TRUE(ready);
  ASSERT_TRUE(is_type(*ready, "delta")) << json::serialize(*ready);
  EXPECT_TRUE(ready->at("move").is_null());
  EXPECT_TRUE(ready->at("game").at("players").at("black").at("connected").as_bool());
  EXPECT_TRUE(black.read_state(
      [](const json::object& s) { return s.at("players").at("black").at("connected").as_bool(); }));
  auto spectator = delta_client(srv.port, g.id, "");
  auto seen = next_update(*spectator);
  ASSERT_TRUE(seen);
  ASSERT_TRUE(is_type(*seen, "state"));

  const int hole = int(ready->at("game").at("legal").as_array().at(0).as_int64());
  white->send(json::object{{"type", "move"}, {"hole", hole}, {"ply", 0}});
  auto d = white->read_until(
      [](const json::object& m) { return is_type(m, "delta") && !m.at("move").is_null(); });
  ASSERT_TRUE(d) << "no delta after the move";
  const json::object& dg = d->at("game").as_object();
  EXPECT_EQ(jint(dg.at("ply")), 1);
  EXPECT_EQ(jint(d->at("move").at("hole")), hole);
  EXPECT_EQ(jstr(d->at("move").at("side")), "white");
  EXPECT_EQ(jstr(dg.at("to_move")), "black");
  EXPECT_EQ(jstr(dg.at("you")), "white");
  EXPECT_TRUE(dg.at("legal").as_array().empty());
  EXPECT_TRUE(dg.contains("board"));
  EXPECT_TRUE(dg.contains("clock"));
  EXPECT_TRUE(dg.contains("status"));
  EXPECT_FALSE(dg.contains("moves"));  // what grows with the game is not sent again
  EXPECT_FALSE(dg.contains("start_position"));
  EXPECT_EQ(jstr(dg.at("position")), jstr(d->at("move").at("position")));

  // The spectator gets the same move; the old client gets the whole state with its move list.
  auto sd = spectator->read_until(
      [](const json::object& m) { return is_type(m, "delta") && !m.at("move").is_null(); });
  ASSERT_TRUE(sd);
  EXPECT_EQ(jint(sd->at("game").at("ply")), 1);
  EXPECT_EQ(jstr(sd->at("game").at("you")), "spectator");
  auto bs = black.read_state([](const json::object& s) { return jint(s.at("ply")) == 1; });
  ASSERT_TRUE(bs);
  EXPECT_EQ(bs->at("moves").as_array().size(), 1u);
  EXPECT_FALSE(bs->at("legal").as_array().empty());

  // A reconnect starts again from the whole state.
  white->close();
  white = delta_client(srv.port, g.id, g.white);
  auto again = next_update(*white);
  ASSERT_TRUE(again);
  ASSERT_TRUE(is_type(*again, "state"));
  EXPECT_EQ(again->at("game").at("moves").as_array().size(), 1u);
  EXPECT_EQ(jint(again->at("game").at("moves").at(0).at("hole")), hole);

  // The end: a delta without a move, with the result (a resignation this early calls the game
  // off, docs/accounts.md "Fair play").
  black.send(json::object{{"type", "resign"}});
  auto end = white->read_until([](const json::object& m) {
    return is_type(m, "delta") && m.at("game").at("status").as_string() == "aborted";
  });
  ASSERT_TRUE(end);
  EXPECT_TRUE(end->at("move").is_null());
  EXPECT_EQ(jint(end->at("game").at("ply")), 1);
  EXPECT_TRUE(end->at("game").at("result").at("winner").is_null());
  EXPECT_EQ(jstr(end->at("game").at("result").at("reason")), "aborted");
  EXPECT_EQ(jstr(end->at("game").at("result").at("aborted_by")), "black");
}

TEST(ServerDelta, SyncGivesTheWholeStateAndABadDeltasFieldIsRefused) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string(), unlimited());
  const Seats g = delta_game(srv.port);
  auto white = delta_client(srv.port, g.id, g.white);
  auto black = delta_client(srv.port, g.id, g.black);
  // Three moves, each answered by a delta.
  for (int ply = 0; ply < 3; ++ply) {
    WsClient& mover = ply % 2 == 0 ? *white : *black;
    auto s = mover.read_until([&](const json::object& m) {
      return (is_type(m, "state") || is_type(m, "delta")) && jint(m.at("game").at("ply")) == ply &&
             !m.at("game").at("legal").as_array().empty();
    });
    ASSERT_TRUE(s) << "no playable update at ply " << ply;
    const int hole = int(s->at("game").at("legal").as_array().at(0).as_int64());
    mover.send(json::object{{"type", "move"}, {"hole", hole}, {"ply", ply}});
    auto d = mover.read_until([&](const json::object& m) {
      return is_type(m, "delta") && jint(m.at("game").at("ply")) == ply + 1;
    });
    ASSERT_TRUE(d) << "no delta for ply " << ply + 1;
    EXPECT_FALSE(d->at("move").is_null());
  }
  // A client that found a gap asks for the whole state: every move, and it may go on.
  black->send(json::object{{"type", "sync"}});
  auto whole = black->read_type("state");
  ASSERT_TRUE(whole);
  EXPECT_EQ(jint(whole->at("game").at("ply")), 3);
  EXPECT_EQ(whole->at("game").at("moves").as_array().size(), 3u);
  EXPECT_FALSE(whole->at("game").at("legal").as_array().empty());
  // A spectator may ask too.
  auto watcher = delta_client(srv.port, g.id, "");
  ASSERT_TRUE(watcher->read_type("state"));
  watcher->send(json::object{{"type", "sync"}});
  auto w = watcher->read_type("state");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->at("game").at("moves").as_array().size(), 3u);

  WsOptions o;
  o.hello = false;
  WsClient bad(srv.port, g.id, "", o);
  bad.send(json::object{{"type", "hello"}, {"token", g.white}, {"deltas", "yes"}});
  auto err = bad.read();
  ASSERT_TRUE(err);
  ASSERT_TRUE(is_type(*err, "error")) << json::serialize(*err);
  EXPECT_NE(jstr(err->at("message")).find("deltas"), std::string::npos);
  // Refused, not seated: a proper hello still works on the same socket.
  bad.send(json::object{{"type", "hello"}, {"token", g.white}, {"deltas", true}});
  auto st = bad.read_type("state");
  ASSERT_TRUE(st);
  EXPECT_EQ(jstr(st->at("game").at("you")), "white");
}

TEST(ServerDelta, ATakebackSendsTheWholeState) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string(), unlimited());
  HttpResult r = http_post(srv.port, "/api/games", json::value(json::object{{"mode", "local"}}));
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string id = jstr(r.json().at("id")), token = jstr(r.json().at("token"));
  auto c = delta_client(srv.port, id, token);
  auto s = c->read_type("state");
  ASSERT_TRUE(s);
  for (int ply = 0; ply < 2; ++ply) {  // White's 9 captures Black's 8: Black plays 7
    c->send(json::object{{"type", "move"}, {"hole", 9 - 2 * ply}, {"ply", ply}});
    auto d = c->read_type("delta");
    ASSERT_TRUE(d);
    EXPECT_EQ(jint(d->at("game").at("ply")), ply + 1);
    EXPECT_EQ(jint(d->at("move").at("hole")), 9 - 2 * ply);
  }
  c->send(json::object{{"type", "takeback"}});
  auto back = next_update(*c);
  ASSERT_TRUE(back);
  ASSERT_TRUE(is_type(*back, "state")) << "a shorter history comes whole";
  EXPECT_EQ(jint(back->at("game").at("ply")), 1);
  EXPECT_EQ(back->at("game").at("moves").as_array().size(), 1u);
  // The next move is a delta again, from the history after the takeback.
  c->send(json::object{{"type", "move"}, {"hole", 1}, {"ply", 1}});
  auto d = c->read_type("delta");
  ASSERT_TRUE(d);
  EXPECT_EQ(jint(d->at("game").at("ply")), 2);
  EXPECT_EQ(jint(d->at("move").at("hole")), 1);
}

}  // namespace
}  // namespace toguz::test
