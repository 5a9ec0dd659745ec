// Fair play over real sockets against a real server (docs/accounts.md "Fair play"): an online
// game in which either side has made fewer than two moves is called off, never rated, when a
// player resigns, aborts or leaves; in a tournament the side that calls it off loses it, never
// the other; a first move not made in time aborts the game (a tournament's loss for that side);
// an arena ends at its end time with its unstarted games called off; a live game whose player
// to move stays away ends by abandonment and leaves memory, and is not loaded again at start.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <thread>

#include "server_client.h"

namespace toguz::test {
// Named, not anonymous: the unity build puts several test files in one translation unit.
namespace fair_play {

using std::chrono::milliseconds;

// A server whose new accounts may create tournaments (the rated-games minimum is 0).
server::Config open_tournaments() {
  server::Config cfg;
  cfg.tournament_min_rated_games = 0;
  return cfg;
}

HttpResult post_as(uint16_t port, const std::string& cookie, const std::string& target,
                   const json::value& body) {
  return http_call(port, http::verb::post, target, json::serialize(body),
                   {{http::field::cookie, cookie}});
}

json::object tournament(uint16_t port, const std::string& cookie, const std::string& id) {
  HttpResult r = http_call(port, http::verb::get, "/api/tournaments/" + id, "",
                           {{http::field::cookie, cookie}});
  EXPECT_EQ(r.status, 200) << r.body;
  json::value v = r.json();
  return v.is_object() ? v.at("tournament").as_object() : json::object{};
}

int64_t wall_ms() {
  return std::chrono::duration_cast<milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Polls `done` every 50 ms until it holds or 20 s pass (the server's own timers decide).
bool eventually(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(milliseconds(50));
  }
  return done();
}

// An online game by invite between two accounts (or guests with empty cookies): its id and the
// seats' tokens.
struct Game {
  std::string id, white_token, black_token;
};
Game invite_game(uint16_t port, const std::string& white, const std::string& black,
                 json::object extra = {}) {
  json::object create{{"mode", "online"}, {"color", "white"}};
  for (auto& kv : extra) create[kv.key()] = kv.value();
  HttpResult c = post_as(port, white, "/api/games", create);
  EXPECT_EQ(c.status, 200) << c.body;
  Game g{jstr(c.json().at("id")), jstr(c.json().at("token")), ""};
  HttpResult j = post_as(port, black, "/api/games/" + g.id + "/join",
                         json::object{{"invite", c.json().at("invite")}});
  EXPECT_EQ(j.status, 200) << j.body;
  g.black_token = jstr(j.json().at("token"));
  return g;
}

// Plays `n` plies from ply `from`, each side its first legal hole.
void play(WsClient& w, WsClient& b, int from, int n) {
  for (int ply = from; ply < from + n; ++ply) {
    WsClient& mover = ply % 2 == 0 ? w : b;
    auto s = mover.read_state([&](const json::object& g) {
      return jint(g.at("ply")) == ply && !g.at("legal").as_array().empty();
    });
    ASSERT_TRUE(s) << "ply " << ply;
    mover.send(json::object{{"type", "move"}, {"hole", first_legal(*s)}, {"ply", ply}});
  }
  ASSERT_TRUE(w.read_state([&](const json::object& g) { return jint(g.at("ply")) == from + n; }));
}

json::object finished_state(WsClient& ws) {
  auto s = ws.read_state([](const json::object& g) {
    return jstr(g.at("status")) == "over" || jstr(g.at("status")) == "aborted";
  });
  EXPECT_TRUE(s);
  return s ? *s : json::object{};
}

int64_t blitz_games(uint16_t port, const std::string& name) {
  return jint(http_get(port, "/api/users/" + name).json().at("ratings").at("blitz").at("games"));
}

const json::value kBlitz = json::object{{"initial_ms", 180000}, {"increment_ms", 2000}};

// 62 throwaway accounts resigning at once took one account from 1500 to 2259: a resignation, a
// departure claimed against or an agreed draw before each side made two moves is no result.
TEST(ServerFairPlay, EndsBeforeTwoMovesEachAreUnrated) {
  TempDir dir;
  server::Config cfg;
  cfg.abandon_seconds = 1;
  TestServer srv((dir.path / "t.db").string(), cfg);
  const uint16_t port = srv.port;
  const std::string a = sign_up_cookie(port, "Aigerim"), b = sign_up_cookie(port, "Bolat");
  const json::object rated{{"rated", true}, {"clock", kBlitz}};
  {
    // Resigned at ply 0.
    const Game g = invite_game(port, a, b, rated);
    WsClient w(port, g.id, "", {}, a), k(port, g.id, "", {}, b);
    ASSERT_TRUE(k.read_state([](const json::object& g) { return g.at("can_abort").as_bool(); }));
    k.send(json::object{{"type", "resign"}});
    const json::object end = finished_state(w);
    EXPECT_EQ(jstr(end.at("status")), "aborted");
    EXPECT_TRUE(end.at("result").at("winner").is_null());
    EXPECT_EQ(jstr(end.at("result").at("aborted_by")), "black");
    EXPECT_TRUE(end.at("players").at("white").at("rating_diff").is_null());
  }
  {
    // Left after three plies, claimed against: called off by the one who left.
    const Game g = invite_game(port, a, b, rated);
    WsClient w(port, g.id, "", {}, a);
    {
      WsClient k(port, g.id, "", {}, b);
      play(w, k, 0, 3);
    }
    ASSERT_TRUE(w.read_state([](const json::object& g) { return g.at("can_claim").as_bool(); }));
    w.send(json::object{{"type", "claim_win"}});
    const json::object end = finished_state(w);
    EXPECT_EQ(jstr(end.at("status")), "aborted");
    EXPECT_EQ(jstr(end.at("result").at("aborted_by")), "black");
  }
  EXPECT_EQ(blitz_games(port, "Aigerim"), 0);
  EXPECT_EQ(blitz_games(port, "Bolat"), 0);
  {
    // Two moves each: a resignation decides the game and is rated.
    const Game g = invite_game(port, a, b, rated);
    WsClient w(port, g.id, "", {}, a), k(port, g.id, "", {}, b);
    play(w, k, 0, 4);
    w.send(json::object{{"type", "abort"}});
    ASSERT_TRUE(w.read_type("error"));
    k.send(json::object{{"type", "resign"}});
    const json::object end = finished_state(w);
    EXPECT_EQ(jstr(end.at("status")), "over");
    EXPECT_EQ(jstr(end.at("result").at("winner")), "white");
    EXPECT_EQ(jint(end.at("players").at("white").at("rating_diff")), 162);
  }
  EXPECT_EQ(blitz_games(port, "Aigerim"), 1);
}

// A socket the server hears nothing from for silent_socket_seconds is closed (a network that
// stalled without closing it): its player is shown away to the opponent, whose pings keep his
// own socket open.
TEST(ServerFairPlay, ASilentSocketIsClosedAndItsPlayerShownAway) {
  TempDir dir;
  server::Config cfg;
  cfg.silent_socket_seconds = 1;
  TestServer srv((dir.path / "t.db").string(), cfg);
  const Game g = invite_game(srv.port, "", "");
  WsClient w(srv.port, g.id, g.white_token), k(srv.port, g.id, g.black_token);
  ASSERT_TRUE(k.read_type("state"));
  bool away = false;
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  while (!away && std::chrono::steady_clock::now() < deadline) {
    w.send(json::object{{"type", "ping"}});
    auto m = w.read_until([](const json::object& m) {
      return jstr(m.at("type")) == "pong" || jstr(m.at("type")) == "state";
    });
    ASSERT_TRUE(m) << "White's socket stays open while it pings";
    if (jstr(m->at("type")) == "state") {
      const json::object& black = m->at("game").at("players").at("black").as_object();
      away = !black.at("connected").as_bool() && black.at("away_ms").is_int64();
    } else {
      std::this_thread::sleep_for(milliseconds(200));
    }
  }
  EXPECT_TRUE(away) << "White saw Black away";
  EXPECT_TRUE(k.closed_by_server());
}

// The first-move rule: each side has first_move_seconds for its first move, by the server's
// clock; then the game is aborted with that side as the one who called it off.
TEST(ServerFairPlay, AFirstMoveNotMadeInTimeAbortsTheGame) {
  TempDir dir;
  server::Config cfg;
  cfg.first_move_seconds = 1;
  TestServer srv((dir.path / "t.db").string(), cfg);
  for (int white_moves = 0; white_moves < 2; ++white_moves) {
    const Game g = invite_game(srv.port, "", "", {{"clock", kBlitz}});
    WsClient w(srv.port, g.id, g.white_token), b(srv.port, g.id, g.black_token);
    auto s = w.read_state([](const json::object& g) { return g.at("status") == "playing"; });
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->at("first_move_ms").is_int64()) << json::serialize(*s);
    EXPECT_LE(jint(s->at("first_move_ms")), 1000);
    if (white_moves) play(w, b, 0, 1);
    const json::object end = finished_state(b);
    EXPECT_EQ(jstr(end.at("status")), "aborted");
    EXPECT_EQ(jstr(end.at("result").at("reason")), "no-start");
    EXPECT_EQ(jstr(end.at("result").at("aborted_by")), white_moves ? "black" : "white");
    EXPECT_EQ(jint(end.at("ply")), white_moves);
  }
}

// An arena with two accounts, both on its page: the id and the first game.
struct Arena {
  std::string id, game;
};
Arena arena_of_two(uint16_t port, const std::string& a, const std::string& b, int minutes = 30) {
  const json::object spec{
      {"name", "Fair"},    {"system", "arena"},           {"initial_ms", 180000},
      {"increment_ms", 0}, {"duration_minutes", minutes}, {"starts_at", wall_ms()}};
  HttpResult r = post_as(port, a, "/api/tournaments", spec);
  EXPECT_EQ(r.status, 200) << r.body;
  Arena out{jstr(r.json().at("id")), ""};
  for (const std::string& c : {a, b})
    EXPECT_EQ(post_as(port, c, "/api/tournaments/" + out.id + "/join", json::object{}).status, 200);
  const json::object t = tournament(port, a, out.id);
  EXPECT_TRUE(t.at("me").at("game").is_string()) << json::serialize(t);
  if (t.at("me").at("game").is_string()) out.game = jstr(t.at("me").at("game"));
  return out;
}

// The result of the tournament's game `game`, "" while none.
std::string result_of(uint16_t port, const std::string& cookie, const std::string& id,
                      const std::string& game) {
  const json::object t = tournament(port, cookie, id);  // kept: the loop reads into it
  for (const json::value& g : t.at("games").as_array())
    if (g.at("id").is_string() && jstr(g.at("id")) == game) return jstr(g.at("result"));
  return "";
}

// Aborting a tournament game is the aborter's loss: Black aborting at ply 0, and White aborting
// after his first move, each lose the game by forfeit (they used to win it).
TEST(ServerFairPlay, ATournamentAbortIsTheAbortersLoss) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string(), open_tournaments());
  const uint16_t port = srv.port;
  const std::string a = sign_up_cookie(port, "Aigerim"), b = sign_up_cookie(port, "Bolat");
  const Arena t = arena_of_two(port, a, b);
  ASSERT_FALSE(t.game.empty());
  std::string game = t.game;
  for (int round = 0; round < 2; ++round) {
    WsClient wa(port, game, "", {}, a), wb(port, game, "", {}, b);
    auto sa = wa.read_state([](const json::object&) { return true; });
    ASSERT_TRUE(sa);
    const bool a_white = jstr(sa->at("you")) == "white";
    WsClient& white = a_white ? wa : wb;
    WsClient& black = a_white ? wb : wa;
    if (round == 0) {
      black.send(json::object{{"type", "abort"}});  // at ply 0
    } else {
      play(white, black, 0, 1);
      white.send(json::object{{"type", "abort"}});  // after his first move
    }
    const json::object end = finished_state(wa);
    EXPECT_EQ(jstr(end.at("status")), "aborted");
    const std::string want = round == 0 ? "+-" : "-+";  // the other side's forfeit win
    ASSERT_TRUE(eventually([&] { return result_of(port, a, t.id, game) == want; }))
        << "round " << round << ": " << result_of(port, a, t.id, game);
    // Paired again at once: the next game.
    ASSERT_TRUE(eventually([&] {
      const json::value me = tournament(port, a, t.id).at("me").at("game");
      return me.is_string() && jstr(me) != game;
    }));
    game = jstr(tournament(port, a, t.id).at("me").at("game"));
  }
}

// Round events start the clock for the first move: White, who never moves, loses the round
// robin's only game by forfeit when the server's first-move time is up.
TEST(ServerFairPlay, NoFirstMoveLosesTheRoundGame) {
  TempDir dir;
  server::Config cfg = open_tournaments();
  cfg.first_move_seconds = 1;
  TestServer srv((dir.path / "t.db").string(), cfg);
  const uint16_t port = srv.port;
  const std::string a = sign_up_cookie(port, "Aigerim"), b = sign_up_cookie(port, "Bolat");
  const json::object spec{{"name", "Rounds"},  {"system", "round-robin"},
                          {"max_players", 2},  {"initial_ms", 180000},
                          {"increment_ms", 0}, {"starts_at", wall_ms() + 1500}};
  HttpResult r = post_as(port, a, "/api/tournaments", spec);
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string id = jstr(r.json().at("id"));
  for (const std::string& c : {a, b})
    ASSERT_EQ(post_as(port, c, "/api/tournaments/" + id + "/join", json::object{}).status, 200);
  json::object t;
  ASSERT_TRUE(eventually([&] {
    tournament(port, b, id);  // both on the page: present at the pairing
    t = tournament(port, a, id);
    return jstr(t.at("status")) == "finished";
  })) << json::serialize(t);
  const json::array& games = t.at("games").as_array();
  ASSERT_EQ(games.size(), 1u);
  const bool a_white = jstr(games[0].at("white_name")) == "Aigerim";
  EXPECT_EQ(jstr(games[0].at("result")), "-+");
  const json::object g =
      http_get(port, "/api/games/" + jstr(games[0].at("id"))).json().at("game").as_object();
  EXPECT_EQ(jstr(g.at("result").at("reason")), "no-start");
  EXPECT_EQ(jstr(g.at("result").at("aborted_by")), "white");
  EXPECT_EQ(jstr(t.at("standings").at(0).at("name")), a_white ? "Bolat" : "Aigerim");
  EXPECT_EQ(jstr(t.at("standings").at(0).at("points")), "1");
}

// One text column of the first row of `sql` on the SQLite file `db` (the server stopped).
std::string sqlite_text(const std::string& db, const std::string& sql) {
  sqlite3* h = nullptr;
  EXPECT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  std::string out;
  if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  sqlite3_close(h);
  return out;
}

// An arena ends at its end time: a paired game nobody started is called off (no result, no
// points) instead of holding the arena "running" for up to a day.
TEST(ServerFairPlay, AnArenaEndsOnTimeWithAnUnstartedGame) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  Arena t;
  std::string a, b;
  {
    TestServer srv(db, open_tournaments());
    a = sign_up_cookie(srv.port, "Aigerim");
    b = sign_up_cookie(srv.port, "Bolat");
    t = arena_of_two(srv.port, a, b, 1);
    ASSERT_FALSE(t.game.empty());
  }
  // The arena's minute has passed while the server was down: its start moved back so that the
  // pairing was its last moment (the stored arena log replays as it was).
  json::value state =
      json::parse(sqlite_text(db, "SELECT state FROM tournaments WHERE id = '" + t.id + "'"));
  int64_t paired = 0;
  for (const json::value& step : state.at("arena_log").as_array())
    if (jstr(step.at(0)) == "pair") paired = jint(step.at(1));
  ASSERT_GT(paired, 0);
  const int64_t start = paired - 60000 + 1;
  state.as_object()["starts_ms"] = start;
  sqlite_run(db, "UPDATE tournaments SET starts_ms = " + std::to_string(start) + ", state = '" +
                     json::serialize(state) + "' WHERE id = '" + t.id + "'");
  TestServer srv(db, open_tournaments());
  json::object view;
  ASSERT_TRUE(eventually([&] {
    view = tournament(srv.port, a, t.id);
    return jstr(view.at("status")) == "finished";
  })) << json::serialize(view);
  const json::array& games = view.at("games").as_array();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_TRUE(games[0].at("called_off").as_bool());
  for (const json::value& s : view.at("standings").as_array()) {
    EXPECT_EQ(jstr(s.at("points")), "0");
    EXPECT_EQ(jint(s.at("games")), 0);
  }
  const json::object g = http_get(srv.port, "/api/games/" + t.game).json().at("game").as_object();
  EXPECT_EQ(jstr(g.at("status")), "aborted");
  EXPECT_TRUE(g.at("result").at("aborted_by").is_null());
}

// Started then abandoned (30,000 such games from one client stayed in memory and were loaded at
// every start): a game nobody starts is aborted by the first-move rule, one whose player to move
// stays away ends by abandonment, against a person or the engine; all leave memory, and a
// restart loads none of them.
TEST(ServerFairPlay, AbandonedGamesEndAndLeaveMemory) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  server::Config cfg;
  cfg.first_move_seconds = 1;
  cfg.idle_game_seconds = 1;
  cfg.idle_room_seconds = 1;
  cfg.engine_movetime_ms = 50;
  std::vector<std::string> ids;
  {
    TestServer srv(db, cfg);
    const uint16_t port = srv.port;
    ids.push_back(invite_game(port, "", "").id);  // never started
    {
      const Game g = invite_game(port, "", "", {{"clock", kBlitz}});  // four plies, then gone
      ids.push_back(g.id);
      WsClient w(port, g.id, g.white_token), k(port, g.id, g.black_token);
      play(w, k, 0, 4);
    }
    {
      HttpResult e = http_post(port, "/api/games",
                               json::value(json::object{{"mode", "engine"}, {"level", 1}}));
      ASSERT_EQ(e.status, 200) << e.body;
      ids.push_back(jstr(e.json().at("id")));
      WsClient h(port, ids.back(), jstr(e.json().at("token")));
      auto s =
          h.read_state([](const json::object& g) { return !g.at("legal").as_array().empty(); });
      ASSERT_TRUE(s);
      h.send(json::object{{"type", "move"}, {"hole", first_legal(*s)}, {"ply", 0}});
      ASSERT_TRUE(h.read_state([](const json::object& g) { return jint(g.at("ply")) == 2; }));
    }
    auto rooms = [&] { return jint(http_get(port, "/api/health").json().at("rooms")); };
    EXPECT_TRUE(eventually([&] { return rooms() == 0; })) << rooms() << " rooms in memory";
  }
  TestServer srv(db, cfg);
  EXPECT_EQ(jint(http_get(srv.port, "/api/health").json().at("rooms")), 0);
  auto game = [&](const std::string& id) {
    return http_get(srv.port, "/api/games/" + id).json().at("game").as_object();
  };
  const json::object never = game(ids[0]), gone = game(ids[1]), engine = game(ids[2]);
  EXPECT_EQ(jstr(never.at("status")), "aborted");
  EXPECT_EQ(jstr(never.at("result").at("reason")), "no-start");
  EXPECT_EQ(jstr(gone.at("status")), "over");
  EXPECT_EQ(jstr(gone.at("result").at("reason")), "abandon");
  EXPECT_EQ(jstr(gone.at("result").at("winner")), "black");  // White was to move
  EXPECT_EQ(jstr(engine.at("status")), "over");
  EXPECT_EQ(jstr(engine.at("result").at("reason")), "abandon");
}

}  // namespace fair_play
}  // namespace toguz::test
