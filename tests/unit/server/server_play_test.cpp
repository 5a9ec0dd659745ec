// Playing and watching between people over real sockets: the list of current games, takeback
// proposals in casual games, and the game chat.
#include <gtest/gtest.h>

#include "server_client.h"
#include "site/accounts/moderation.h"
#include "store/store.h"

namespace toguz::test {
namespace {

using Headers = std::vector<std::pair<http::field, std::string>>;

json::value clock_of(int64_t initial_ms) {
  return json::object{{"initial_ms", initial_ms}, {"increment_ms", 2000}};
}

// An online game created by `white_cookie` (or a guest) and joined by `black_cookie` (or a
// guest): {id, white token, black token}.
struct Pair {
  std::string id, white, black;
};
Pair online_pair(uint16_t port, json::object body, const std::string& white_cookie = "",
                 const std::string& black_cookie = "") {
  body["mode"] = "online";
  body["color"] = "white";
  Headers hw, hb;
  if (!white_cookie.empty()) hw.emplace_back(http::field::cookie, white_cookie);
  if (!black_cookie.empty()) hb.emplace_back(http::field::cookie, black_cookie);
  HttpResult c = http_call(port, http::verb::post, "/api/games", json::serialize(body), hw);
  EXPECT_EQ(c.status, 200) << c.body;
  if (c.status != 200) return {};
  Pair p{jstr(c.json().at("id")), jstr(c.json().at("token")), ""};
  const json::object join{{"invite", c.json().at("invite")}, {"name", "Bolat"}};
  HttpResult j =
      http_call(port, http::verb::post, "/api/games/" + p.id + "/join", json::serialize(join), hb);
  EXPECT_EQ(j.status, 200) << j.body;
  if (j.status == 200) p.black = jstr(j.json().at("token"));
  return p;
}

// The ids of GET /api/games/live, in order.
std::vector<std::string> live_ids(uint16_t port, json::array* games = nullptr) {
  HttpResult r = http_get(port, "/api/games/live");
  EXPECT_EQ(r.status, 200) << r.body;
  std::vector<std::string> ids;
  const json::value v = r.json();
  if (!v.is_object()) return {};
  const json::array& a = v.at("games").as_array();
  for (const json::value& g : a) ids.push_back(jstr(g.at("id")));
  if (games) *games = a;
  return ids;
}

TEST(ServerPlay, CurrentGamesListsLiveGamesBetweenPeopleTopRatedFirst) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  // Not listed: a game against the engine, a correspondence game, a game waiting for a player.
  ASSERT_EQ(http_post(port, "/api/games", json::value{{"mode", "engine"}, {"level", 1}}).status,
            200);
  online_pair(port, json::object{{"days_per_move", 3}});
  ASSERT_EQ(
      http_post(port, "/api/games", json::value{{"mode", "online"}, {"clock", clock_of(60000)}})
          .status,
      200);
  const Pair casual = online_pair(port, json::object{{"clock", clock_of(300000)}});
  EXPECT_EQ(live_ids(port), std::vector<std::string>{casual.id});
  // Two moves: the list says so.
  WsClient w(port, casual.id, casual.white), b(port, casual.id, casual.black);
  ASSERT_TRUE(play_plies(w, b, 0, 2));
  ASSERT_TRUE(w.read_state([](const json::object& g) { return jint(g.at("ply")) == 2; }));
  // A rated game comes first, with both ratings; the casual one has none.
  const std::string a = sign_up_cookie(port, "Aigerim"), c = sign_up_cookie(port, "Bolat");
  const Pair rated =
      online_pair(port, json::object{{"rated", true}, {"clock", clock_of(180000)}}, a, c);
  json::array games;
  EXPECT_EQ(live_ids(port, &games), (std::vector<std::string>{rated.id, casual.id}));
  ASSERT_EQ(games.size(), 2u);
  EXPECT_TRUE(games[0].at("rated").as_bool());
  EXPECT_EQ(jstr(games[0].at("white")), "Aigerim");
  EXPECT_GT(jint(games[0].at("white_rating")), 0);
  EXPECT_EQ(jint(games[0].at("initial_ms")), 180000);
  EXPECT_TRUE(games[1].at("white_rating").is_null());
  EXPECT_EQ(jint(games[1].at("moves")), 2);
  // Once over it leaves the list.
  w.send(json::object{{"type", "resign"}});
  ASSERT_TRUE(b.read_state([](const json::object& g) { return g.at("status") != "playing"; }));
  EXPECT_EQ(live_ids(port), std::vector<std::string>{rated.id});
}

// The next error's code on `ws`.
std::string error_code(WsClient& ws) {
  auto e = ws.read_type("error");
  return e ? jstr(e->at("code")) : "";
}

TEST(ServerPlay, TakebackProposalsInCasualGames) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const Pair g = online_pair(srv.port, json::object{{"clock", clock_of(300000)}});
  WsClient w(srv.port, g.id, g.white), b(srv.port, g.id, g.black);
  ASSERT_TRUE(play_plies(w, b, 0, 1));
  ASSERT_TRUE(w.read_state([](const json::object& s) { return jint(s.at("ply")) == 1; }));
  // Black has no move to take back; White proposes (Black to move: one ply).
  b.send(json::object{{"type", "takeback"}});
  EXPECT_EQ(error_code(b), "no_takeback");
  w.send(json::object{{"type", "takeback"}});
  ASSERT_TRUE(
      b.read_state([](const json::object& s) { return s.at("takeback_offer") == "white"; }));
  w.send(json::object{{"type", "takeback"}});
  EXPECT_EQ(error_code(w), "takeback_already");
  // Declined: not again before a move.
  b.send(json::object{{"type", "decline_takeback"}});
  ASSERT_TRUE(w.read_state([](const json::object& s) { return s.at("takeback_offer").is_null(); }));
  w.send(json::object{{"type", "takeback"}});
  EXPECT_EQ(error_code(w), "takeback_declined");
  // Black replies; White proposes again, Black accepts: both plies go, White to move at ply 0.
  ASSERT_TRUE(play_plies(w, b, 1, 1));
  ASSERT_TRUE(w.read_state([](const json::object& s) { return jint(s.at("ply")) == 2; }));
  w.send(json::object{{"type", "takeback"}});
  ASSERT_TRUE(
      b.read_state([](const json::object& s) { return s.at("takeback_offer") == "white"; }));
  b.send(json::object{{"type", "accept_takeback"}});
  auto back = w.read_state([](const json::object& s) { return jint(s.at("ply")) == 0; });
  ASSERT_TRUE(back);
  EXPECT_EQ(back->at("to_move"), "white");
  EXPECT_TRUE(back->at("moves").as_array().empty());
  EXPECT_TRUE(back->at("takeback_offer").is_null());
  // The store has the game as it is now.
  EXPECT_EQ(jint(http_get(srv.port, "/api/games/" + g.id).json().at("game").at("ply")), 0);
  // One ply: White moves and proposes at once, Black accepts.
  w.send(json::object{{"type", "move"}, {"hole", first_legal(*back)}, {"ply", 0}});
  ASSERT_TRUE(w.read_state([](const json::object& s) { return jint(s.at("ply")) == 1; }));
  w.send(json::object{{"type", "takeback"}});
  ASSERT_TRUE(
      b.read_state([](const json::object& s) { return s.at("takeback_offer") == "white"; }));
  b.send(json::object{{"type", "accept_takeback"}});
  ASSERT_TRUE(w.read_state([](const json::object& s) {
    return jint(s.at("ply")) == 0 && !s.at("legal").as_array().empty();
  }));
}

TEST(ServerPlay, TakebackRefusedInRatedGames) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const std::string a = sign_up_cookie(srv.port, "Aigerim"), c = sign_up_cookie(srv.port, "Bolat");
  const Pair g =
      online_pair(srv.port, json::object{{"rated", true}, {"clock", clock_of(180000)}}, a, c);
  WsClient w(srv.port, g.id, g.white, {}, a), b(srv.port, g.id, g.black, {}, c);
  ASSERT_TRUE(play_plies(w, b, 0, 1));
  ASSERT_TRUE(w.read_state([](const json::object& s) { return jint(s.at("ply")) == 1; }));
  w.send(json::object{{"type", "takeback"}});
  EXPECT_EQ(error_code(w), "takeback_rated");
  b.send(json::object{{"type", "accept_takeback"}});
  EXPECT_EQ(error_code(b), "takeback_rated");
}

// ---- the chat ----

// `cookie`'s POST of `body` to `target`.
HttpResult chat_post(uint16_t port, const std::string& target, const json::value& body,
                     const std::string& cookie) {
  return http_call(port, http::verb::post, target, json::serialize(body),
                   {{http::field::cookie, cookie}});
}

// The next chat message or pong on `ws`: after a ping, whether a chat message came first.
std::optional<json::object> chat_or_pong(WsClient& ws) {
  ws.send(json::object{{"type", "ping"}});
  return ws.read_until([](const json::object& m) {
    return m.at("type") == "chat" || m.at("type") == "chat_log" || m.at("type") == "pong";
  });
}

// The text of a {"type":"chat"} message.
std::string chat_text(const std::optional<json::object>& m) {
  return m && m->at("type") == "chat" ? jstr(m->at("message").at("text")) : "";
}

TEST(ServerPlay, ChatInCasualGamesForPlayersAndSpectatorsStoredAcrossARestart) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  Pair g;
  std::string a, c;
  {
    TestServer srv(db);
    a = sign_up_cookie(srv.port, "Aigerim");
    c = sign_up_cookie(srv.port, "Bolat");
    g = online_pair(srv.port, json::object{{"clock", clock_of(300000)}}, a, c);
    WsClient w(srv.port, g.id, g.white, {}, a), b(srv.port, g.id, g.black, {}, c),
        spec(srv.port, g.id);
    auto log = w.read_type("chat_log");
    ASSERT_TRUE(log);
    EXPECT_TRUE(log->at("post").as_bool());
    EXPECT_TRUE(log->at("messages").as_array().empty());
    log = spec.read_type("chat_log");
    ASSERT_TRUE(log);
    EXPECT_FALSE(log->at("post").as_bool());
    // The game as it stands (the first-move countdown aside).
    auto game_now = [&] {
      json::value v = http_get(srv.port, "/api/games/" + g.id).json();
      v.at("game").as_object().erase("first_move_ms");
      return json::serialize(v);
    };
    const std::string before = game_now();
    // Cleaned (controls out, white space one space), kept as typed otherwise: the page escapes.
    w.send(json::object{{"type", "chat"}, {"text", " hi\x01\n <img src=x onerror=alert(1)> "}});
    for (WsClient* ws : {&w, &b, &spec}) {
      auto m = ws->read_type("chat");
      ASSERT_TRUE(m);
      const json::object& msg = m->at("message").as_object();
      EXPECT_EQ(jstr(msg.at("text")), "hi <img src=x onerror=alert(1)>");
      EXPECT_EQ(jstr(msg.at("name")), "Aigerim");
      EXPECT_EQ(jstr(msg.at("side")), "white");
    }
    spec.send(json::object{{"type", "chat"}, {"text", "hello"}});
    EXPECT_EQ(error_code(spec), "spectator");
    // 140 characters (two bytes each) pass, 141 do not; nothing but controls is empty.
    std::string long_text;
    for (int i = 0; i < 140; ++i) long_text += "ә";
    b.send(json::object{{"type", "chat"}, {"text", long_text}});
    EXPECT_EQ(chat_text(w.read_type("chat")), long_text);
    b.send(json::object{{"type", "chat"}, {"text", long_text + "x"}});
    EXPECT_EQ(error_code(b), "chat_too_long");
    b.send(json::object{{"type", "chat"}, {"text", "\x01\x02 \t"}});
    EXPECT_EQ(error_code(b), "chat_empty");
    // Five messages per 10 s per account: of eight at once some are refused.
    for (int i = 0; i < 8; ++i) b.send(json::object{{"type", "chat"}, {"text", "r"}});
    EXPECT_EQ(error_code(b), "chat_rate");
    // The game is as it was.
    EXPECT_EQ(game_now(), before);
  }
  // After a restart the chat is read back from the store.
  TestServer srv(db);
  WsClient w(srv.port, g.id, g.white, {}, a);
  auto log = w.read_type("chat_log");
  ASSERT_TRUE(log);
  const json::array& messages = log->at("messages").as_array();
  ASSERT_GE(messages.size(), 3u);
  ASSERT_LT(messages.size(), 10u);
  EXPECT_EQ(jstr(messages[0].at("text")), "hi <img src=x onerror=alert(1)>");
  EXPECT_EQ(jstr(messages[1].at("side")), "black");
  EXPECT_EQ(jstr(messages[2].at("text")), "r");
}

TEST(ServerPlay, ChatInRatedGamesOnlyForPlayersWhoSwitchItOn) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const std::string a = sign_up_cookie(srv.port, "Aigerim"), c = sign_up_cookie(srv.port, "Bolat");
  const Pair g =
      online_pair(srv.port, json::object{{"rated", true}, {"clock", clock_of(180000)}}, a, c);
  WsClient w(srv.port, g.id, g.white, {}, a), b(srv.port, g.id, g.black, {}, c),
      spec(srv.port, g.id);
  // Off by default: no chat sent, none taken.
  EXPECT_EQ(chat_or_pong(w)->at("type"), "pong");
  w.send(json::object{{"type", "chat"}, {"text", "hi"}});
  EXPECT_EQ(error_code(w), "chat_off");
  w.send(json::object{{"type", "chat_on"}, {"on", true}});
  auto log = w.read_type("chat_log");
  ASSERT_TRUE(log);
  EXPECT_TRUE(log->at("post").as_bool());
  w.send(json::object{{"type", "chat"}, {"text", "hi"}});
  EXPECT_EQ(chat_text(w.read_type("chat")), "hi");
  // Black has it off: nothing comes to him until he switches it on; a spectator never reads.
  EXPECT_EQ(chat_or_pong(b)->at("type"), "pong");
  b.send(json::object{{"type", "chat_on"}, {"on", true}});
  log = b.read_type("chat_log");
  ASSERT_TRUE(log);
  ASSERT_EQ(log->at("messages").as_array().size(), 1u);
  spec.send(json::object{{"type", "chat_on"}, {"on", true}});
  EXPECT_EQ(chat_or_pong(spec)->at("type"), "pong");
  // Switched off again: no more.
  b.send(json::object{{"type", "chat_on"}, {"on", false}});
  w.send(json::object{{"type", "chat"}, {"text", "again"}});
  EXPECT_EQ(chat_text(w.read_type("chat")), "again");
  EXPECT_EQ(chat_or_pong(b)->at("type"), "pong");
}

// The operator's `toguz admin grant` on the running server's database.
void chat_grant_moderator(const std::string& db, const std::string& name) {
  auto st = store::open_store(db);
  ASSERT_EQ(site::moderation::set_moderator(*st, name, true), "");
}

TEST(ServerPlay, ChatOfABlockedPlayerIsNotDeliveredAndItsReportKeepsTheText) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  TestServer srv(db);
  const std::string a = sign_up_cookie(srv.port, "Aigerim"), c = sign_up_cookie(srv.port, "Bolat");
  const std::string m = sign_up_cookie(srv.port, "Sultan");
  const Pair g = online_pair(srv.port, json::object{{"clock", clock_of(300000)}}, a, c);
  WsClient w(srv.port, g.id, g.white, {}, a), b(srv.port, g.id, g.black, {}, c);
  ASSERT_EQ(chat_post(srv.port, "/api/account/blocks",
                      json::object{{"username", "Bolat"}, {"block", true}}, a)
                .status,
            200);
  b.send(json::object{{"type", "chat"}, {"text", "rude words"}});
  auto said = b.read_type("chat");
  ASSERT_TRUE(said);
  const int64_t message = jint(said->at("message").at("id"));
  w.read_type("chat_log");
  EXPECT_EQ(chat_or_pong(w)->at("type"), "pong");
  {  // nor when White comes back
    WsClient again(srv.port, g.id, g.white, {}, a);
    auto log = again.read_type("chat_log");
    ASSERT_TRUE(log);
    EXPECT_TRUE(log->at("messages").as_array().empty());
  }
  // White reports it: the moderators read the message's text, and the game's chat.
  const json::object report{{"username", "Bolat"}, {"chat", message}};
  EXPECT_EQ(chat_post(srv.port, "/api/account/reports",
                      json::object{{"username", "Aigerim"}, {"chat", message}}, c)
                .status,
            404);  // not Aigerim's message
  EXPECT_EQ(chat_post(srv.port, "/api/account/reports", report, a).status, 201);
  chat_grant_moderator(db, "Sultan");
  const HttpResult list =
      http_call(srv.port, http::verb::get, "/api/moderation", "", {{http::field::cookie, m}});
  ASSERT_EQ(list.status, 200) << list.body;
  const json::value r = list.json().at("reports").as_array().at(0);
  EXPECT_EQ(jstr(r.at("chat")), "rude words");
  EXPECT_EQ(jstr(r.at("game")), g.id);
  const HttpResult chat = http_call(srv.port, http::verb::get, "/api/moderation/chat/" + g.id, "",
                                    {{http::field::cookie, m}});
  ASSERT_EQ(chat.status, 200) << chat.body;
  EXPECT_EQ(jstr(chat.json().at("messages").as_array().at(0).at("text")), "rude words");
  EXPECT_EQ(http_call(srv.port, http::verb::get, "/api/moderation/chat/" + g.id, "",
                      {{http::field::cookie, a}})
                .status,
            403);
}

}  // namespace
}  // namespace toguz::test
