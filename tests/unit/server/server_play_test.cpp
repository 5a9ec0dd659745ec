// Playing and watching between people over real sockets: the list of current games, takeback
// proposals in casual games, and the game chat.
#include <gtest/gtest.h>

#include "server_client.h"

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

}  // namespace
}  // namespace toguz::test
