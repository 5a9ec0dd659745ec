// The lobby over real sockets (/ws/lobby on a real server): a seek accepted starts the game for
// both with tokens that open its seats, two accepts of one seek make one game, pools pair, a
// seek goes with its socket, the seek limit, rated games need an account, the Origin check and
// the message limits.
#include <gtest/gtest.h>

#include "server_client.h"

namespace toguz::test {
namespace {

const WsOptions kLobby{.hello = false};

// A lobby connection that has read its first message (the lobby's state).
struct LobbyClient {
  WsClient ws;
  json::object state;
  explicit LobbyClient(uint16_t port, const WsOptions& options = kLobby,
                       const std::string& cookie = "")
      : ws(port, "lobby", "", options, cookie) {
    auto m = ws.read();
    if (m) state = *m;
  }
  std::optional<json::object> read_type(const std::string& t) { return ws.read_type(t); }
};

json::object blitz_seek(json::object extra = {}) {
  json::object msg{{"type", "seek"},
                   {"variant", "standard"},
                   {"clock", json::object{{"initial_ms", 180000}, {"increment_ms", 2000}}},
                   {"days_per_move", nullptr},
                   {"rated", false},
                   {"color", "random"},
                   {"range", nullptr}};
  for (auto& kv : extra) msg[kv.key()] = kv.value();
  return msg;
}

std::string error_code_of(const std::optional<json::object>& m) {
  if (!m || !m->at("code").is_string()) return "";
  return jstr(m->at("code"));
}

// The first state of a game socket opened with `token` (and a session `cookie`: a seat bound to
// an account is that account's alone).
std::optional<json::object> seat_state(uint16_t port, const std::string& game,
                                       const std::string& token, const std::string& cookie = "") {
  WsClient ws(port, game, token, {}, cookie);
  return ws.read_state([](const json::object&) { return true; });
}

TEST(ServerLobby, FirstMessageIsTheLobby) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  LobbyClient a(srv.port);
  ASSERT_TRUE(a.ws.ok());
  EXPECT_EQ(a.ws.handshake_status(), 101);
  EXPECT_EQ(jstr(a.state.at("type")), "lobby");
  EXPECT_TRUE(a.state.at("you").is_null());
  EXPECT_EQ(a.state.at("pools").as_array().size(), 11u);
  EXPECT_GE(jint(a.state.at("online").as_object().at("players")), 1);
  a.ws.send(json::object{{"type", "ping"}});
  EXPECT_TRUE(a.read_type("pong"));
}

TEST(ServerLobby, SeekAcceptedStartsTheGameForBoth) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  LobbyClient a(srv.port), b(srv.port);
  a.ws.send(blitz_seek({{"color", "white"}}));
  auto created = a.read_type("seek_created");
  ASSERT_TRUE(created);
  const std::string id = jstr(created->at("id"));
  auto added = b.read_type("seek_added");
  ASSERT_TRUE(added);
  const json::object& seek = added->at("seek").as_object();
  EXPECT_EQ(jstr(seek.at("id")), id);
  EXPECT_EQ(jstr(seek.at("speed")), "blitz");
  EXPECT_FALSE(seek.at("mine").as_bool());

  b.ws.send(json::object{{"type", "accept"}, {"id", id}});
  auto sa = a.read_type("start");
  auto sb = b.read_type("start");
  ASSERT_TRUE(sa && sb);
  EXPECT_EQ(jstr(sa->at("game")), jstr(sb->at("game")));
  EXPECT_EQ(jstr(sa->at("side")), "white");
  EXPECT_EQ(jstr(sb->at("side")), "black");
  // The tokens open the game's seats: each player is his side, the game is playing with the
  // seek's clock.
  auto ga = seat_state(srv.port, jstr(sa->at("game")), jstr(sa->at("token")));
  auto gb = seat_state(srv.port, jstr(sb->at("game")), jstr(sb->at("token")));
  ASSERT_TRUE(ga && gb);
  EXPECT_EQ(jstr(ga->at("you")), "white");
  EXPECT_EQ(jstr(gb->at("you")), "black");
  EXPECT_EQ(jstr(ga->at("status")), "playing");
  EXPECT_FALSE(ga->at("legal").as_array().empty());
  EXPECT_FALSE(ga->at("clock").is_null());
  // Accepted, the seek is gone for everyone.
  auto removed = b.read_type("seek_removed");
  ASSERT_TRUE(removed);
  EXPECT_EQ(jstr(removed->at("id")), id);
}

TEST(ServerLobby, TwoAcceptsAtTheSameInstantMakeOneGame) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  LobbyClient a(srv.port), b(srv.port), c(srv.port);
  a.ws.send(blitz_seek());
  auto created = a.read_type("seek_created");
  ASSERT_TRUE(created);
  const std::string id = jstr(created->at("id"));
  ASSERT_TRUE(b.read_type("seek_added"));
  ASSERT_TRUE(c.read_type("seek_added"));
  // Both accepts are on the wire before either answer is read.
  b.ws.send(json::object{{"type", "accept"}, {"id", id}});
  c.ws.send(json::object{{"type", "accept"}, {"id", id}});
  auto answer = [](LobbyClient& x) {
    return x.ws.read_until([](const json::object& m) {
      return m.at("type").as_string() == "start" || m.at("type").as_string() == "error";
    });
  };
  auto ab = answer(b), ac = answer(c);
  ASSERT_TRUE(ab && ac);
  const int starts = (jstr(ab->at("type")) == "start") + (jstr(ac->at("type")) == "start");
  EXPECT_EQ(starts, 1);
  const auto& refused = jstr(ab->at("type")) == "error" ? ab : ac;
  EXPECT_EQ(error_code_of(refused), "no_seek");
  EXPECT_TRUE(a.read_type("start"));
  // One game in the list.
  HttpResult list = http_get(srv.port, "/api/games");
  ASSERT_EQ(list.status, 200) << list.body;
  EXPECT_EQ(jint(list.json().at("total")), 1) << list.body;
}

TEST(ServerLobby, SeekGoesWhenItsSocketCloses) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  LobbyClient a(srv.port), w(srv.port);
  a.ws.send(blitz_seek());
  auto added = w.read_type("seek_added");
  ASSERT_TRUE(added);
  const std::string id = jstr(added->at("seek").as_object().at("id"));
  a.ws.close();
  auto removed = w.read_type("seek_removed");
  ASSERT_TRUE(removed);
  EXPECT_EQ(jstr(removed->at("id")), id);
  LobbyClient late(srv.port);
  EXPECT_TRUE(late.state.at("seeks").as_array().empty());
}

TEST(ServerLobby, TooManySeeksAndRatedNeedsAnAccount) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  LobbyClient a(srv.port);
  a.ws.send(blitz_seek({{"rated", true}}));
  EXPECT_EQ(error_code_of(a.read_type("error")), "rated_needs_account");
  for (int i = 0; i < 3; ++i) {
    a.ws.send(blitz_seek());
    ASSERT_TRUE(a.read_type("seek_created"));
  }
  a.ws.send(blitz_seek());
  auto e = a.read_type("error");
  EXPECT_EQ(error_code_of(e), "too_many_seeks");
  EXPECT_EQ(jstr(e->at("params").as_object().at("n")), "3");
  LobbyClient late(srv.port);
  EXPECT_EQ(late.state.at("seeks").as_array().size(), 3u);
}

TEST(ServerLobby, AnonymousPlayersPairInAPool) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  LobbyClient a(srv.port), b(srv.port);
  a.ws.send(json::object{{"type", "pool_join"}, {"pool", "5+3"}, {"range", nullptr}});
  b.ws.send(json::object{{"type", "pool_join"}, {"pool", "5+3"}, {"range", nullptr}});
  auto sa = a.read_type("start"), sb = b.read_type("start");
  ASSERT_TRUE(sa && sb);
  EXPECT_EQ(jstr(sa->at("game")), jstr(sb->at("game")));
  EXPECT_NE(jstr(sa->at("side")), jstr(sb->at("side")));
  auto g = seat_state(srv.port, jstr(sa->at("game")), jstr(sa->at("token")));
  ASSERT_TRUE(g);
  EXPECT_EQ(jint(g->at("clock").as_object().at("initial_ms")), 300000);
  a.ws.send(json::object{{"type", "pool_join"}, {"pool", "7+7"}});
  EXPECT_EQ(error_code_of(a.read_type("error")), "no_pool");
}

TEST(ServerLobby, OriginAndMessageLimits) {
  TempDir dir;
  server::Config cfg;
  cfg.max_messages_per_second = 5;
  TestServer srv((dir.path / "t.db").string(), cfg);
  WsOptions evil = kLobby;
  evil.origin = "http://evil.example";
  WsClient refused(srv.port, "lobby", "", evil);
  EXPECT_FALSE(refused.ok());
  EXPECT_EQ(refused.handshake_status(), 403);
  WsOptions own = kLobby;
  own.origin = "http://127.0.0.1:" + std::to_string(srv.port);
  LobbyClient a(srv.port, own);
  ASSERT_TRUE(a.ws.ok());
  a.ws.send(std::string(5000, ' '));
  EXPECT_EQ(error_code_of(a.read_type("error")), "too_long");
  a.ws.send("{not json");
  EXPECT_EQ(error_code_of(a.read_type("error")), "bad_message");
  for (int i = 0; i < 30; ++i) a.ws.send(json::object{{"type", "ping"}});
  EXPECT_EQ(error_code_of(a.read_type("error")), "rate_limit");
}

TEST(ServerLobby, AccountsSeekRatedAndChallenge) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const std::string ca = sign_up_cookie(srv.port, "Aigerim"),
                    cb = sign_up_cookie(srv.port, "Bolat");
  LobbyClient a(srv.port, kLobby, ca), b(srv.port, kLobby, cb), anon(srv.port);
  EXPECT_EQ(jstr(a.state.at("you")), "Aigerim");
  EXPECT_EQ(jstr(b.state.at("you")), "Bolat");
  // A rated seek: an anonymous accepter is refused, an account's accept starts a rated game.
  a.ws.send(blitz_seek({{"rated", true}, {"color", "black"}}));
  auto created = a.read_type("seek_created");
  ASSERT_TRUE(created);
  const std::string id = jstr(created->at("id"));
  auto seen = anon.read_type("seek_added");
  ASSERT_TRUE(seen);
  EXPECT_EQ(jstr(seen->at("seek").as_object().at("username")), "Aigerim");
  EXPECT_EQ(jint(seen->at("seek").as_object().at("rating")), 1500);
  EXPECT_TRUE(seen->at("seek").as_object().at("provisional").as_bool());
  anon.ws.send(json::object{{"type", "accept"}, {"id", id}});
  EXPECT_EQ(error_code_of(anon.read_type("error")), "rated_needs_account");
  b.ws.send(json::object{{"type", "accept"}, {"id", id}});
  auto sa = a.read_type("start"), sb = b.read_type("start");
  ASSERT_TRUE(sa && sb);
  EXPECT_EQ(jstr(sa->at("side")), "black");
  // The seat is Bolat's: his token opens it with his session, not without.
  auto g = seat_state(srv.port, jstr(sb->at("game")), jstr(sb->at("token")), cb);
  ASSERT_TRUE(g);
  EXPECT_EQ(jstr(g->at("you")), "white");
  EXPECT_EQ(jstr(seat_state(srv.port, jstr(sb->at("game")), jstr(sb->at("token")))->at("you")),
            "spectator");
  EXPECT_TRUE(g->at("rated").as_bool());

  // A challenge by name (any case), declined, then one accepted.
  json::object challenge{{"type", "challenge"},
                         {"to", "bolat"},
                         {"variant", "standard"},
                         {"clock", json::object{{"initial_ms", 300000}, {"increment_ms", 3000}}},
                         {"days_per_move", nullptr},
                         {"rated", false},
                         {"color", "white"}};
  a.ws.send(challenge);
  auto made = a.read_type("challenge_created");
  auto got = b.read_type("challenge");
  ASSERT_TRUE(made && got);
  EXPECT_EQ(jstr(got->at("challenge").as_object().at("from")), "Aigerim");
  b.ws.send(json::object{{"type", "challenge_decline"}, {"id", made->at("id")}});
  auto gone = a.read_type("challenge_gone");
  ASSERT_TRUE(gone);
  EXPECT_EQ(jstr(gone->at("reason")), "declined");
  a.ws.send(challenge);
  made = a.read_type("challenge_created");
  ASSERT_TRUE(made);
  b.ws.send(json::object{{"type", "challenge_accept"}, {"id", made->at("id")}});
  sa = a.read_type("start");
  sb = b.read_type("start");
  ASSERT_TRUE(sa && sb);
  EXPECT_EQ(jstr(sa->at("side")), "white");
  EXPECT_EQ(jstr(sa->at("game")), jstr(sb->at("game")));
  a.ws.send(json::object{{"type", "challenge"}, {"to", "Nobody"}});
  EXPECT_EQ(error_code_of(a.read_type("error")), "no_user");
  anon.ws.send(json::object{{"type", "challenge"}, {"to", "Bolat"}});
  EXPECT_EQ(error_code_of(anon.read_type("error")), "not_logged_in");
}

TEST(ServerLobby, AccountsPairInARatedPool) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const std::string ca = sign_up_cookie(srv.port, "Aigerim"),
                    cb = sign_up_cookie(srv.port, "Bolat");
  LobbyClient a(srv.port, kLobby, ca), b(srv.port, kLobby, cb), anon(srv.port);
  // The anonymous player waits in the same pool but is not paired with an account.
  anon.ws.send(json::object{{"type", "pool_join"}, {"pool", "3+2"}});
  a.ws.send(json::object{{"type", "pool_join"}, {"pool", "3+2"}});
  b.ws.send(json::object{{"type", "pool_join"}, {"pool", "3+2"}});
  auto sa = a.read_type("start"), sb = b.read_type("start");
  ASSERT_TRUE(sa && sb);
  auto g = seat_state(srv.port, jstr(sa->at("game")), jstr(sa->at("token")), ca);
  ASSERT_TRUE(g);
  EXPECT_TRUE(g->at("rated").as_bool());
  EXPECT_EQ(jstr(g->at("you")), jstr(sa->at("side")));
  auto pools = anon.ws.read_until([](const json::object& m) {
    return m.at("type").as_string() == "pools" &&
           m.at("pools").as_array()[3].as_object().at("waiting").as_int64() == 1;
  });
  EXPECT_TRUE(pools);
}

}  // namespace
}  // namespace toguz::test
