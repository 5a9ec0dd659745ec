// An over-the-board event's broadcast over real sockets (site/arbiter/broadcast.h): a board
// keeper's token opens its board only, a revoked one nothing, a wrong move is refused with the
// board unchanged, and a followed file sets the boards, is reported with its line when
// malformed, and is refused outside the allowed folder; links, clocks and settings outlive a
// restart; the spectators' evaluation is never of a position younger than the delay; a
// followed URL is polled; a finished board is a site game, replaced when corrected.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <functional>

#include "file_http_server.h"
#include "server_client.h"

namespace toguz::test {
namespace {

struct LiveEvent {
  uint16_t port;
  std::string id, key;

  HttpResult post(const std::string& action, json::object body) const {
    if (!body.contains("token") && !body.contains("key")) body["key"] = key;
    return http_post(port, "/api/events/" + id + "/" + action, json::value(std::move(body)));
  }
  // The round's boards as the broadcast shows them.
  json::object live() const {
    HttpResult r = http_get(port, "/api/events/" + id + "/live");
    EXPECT_EQ(r.status, 200) << r.body;
    json::value v = r.json();
    return v.is_object() ? v.at("live").as_object() : json::object{};
  }
  size_t moves(int board) const {
    return live().at("boards").as_array().at(board - 1).at("moves").as_array().size();
  }
  // A player's name: `side` "white" or "black" of `board`.
  std::string name(int board, const char* side) const {
    json::value ev = http_get(port, "/api/events/" + id).json().at("event");
    const int64_t p = jint(ev.at("played").at(0).at("boards").at(board - 1).at(side));
    return jstr(ev.at("players").at(p).at("name"));
  }
};

// An event of four players with round 1 paired: two boards.
LiveEvent live_event(uint16_t port) {
  json::value v =
      http_post(port, "/api/events",
                json::value(json::object{{"name", "Live"}, {"system", "swiss"}, {"rounds", 3}}))
          .json();
  LiveEvent e{port, jstr(v.at("id")), jstr(v.at("key"))};
  for (const char* name : {"Asan", "Bolot", "Chyngyz", "Daniyar"})
    EXPECT_EQ(e.post("players", json::object{{"name", name}}).status, 200);
  EXPECT_EQ(e.post("pair", {}).status, 200);
  return e;
}

std::string keeper_of(const LiveEvent& e, int board) {
  HttpResult r = e.post("keeper", json::object{{"board", board}});
  EXPECT_EQ(r.status, 200) << r.body;
  return jstr(r.json().at("token"));
}

TEST(Broadcast, KeeperTokenOpensOnlyItsBoard) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const LiveEvent e = live_event(srv.port);
  const std::string token = keeper_of(e, 1);
  EXPECT_EQ(token.size(), 43u);
  // The board named in the body is ignored: the token's board gets the move.
  HttpResult r = e.post("move", json::object{{"token", token}, {"board", 2}, {"move", "65"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(e.moves(1), 1u);
  EXPECT_EQ(e.moves(2), 0u);
  EXPECT_EQ(jint(e.live().at("boards").at(0).at("keepers")), 1);
  // Nothing but its board's entries: no pairing, no results typed in full, no other event.
  for (const char* action : {"pair", "result", "keeper", "follow", "revoke"})
    EXPECT_EQ(code_of(e.post(action, json::object{{"token", token}})), "keeper_token") << action;
  const LiveEvent other = live_event(srv.port);
  EXPECT_EQ(code_of(other.post("move", json::object{{"token", token}, {"move", "65"}})),
            "keeper_token");
  EXPECT_EQ(other.moves(1), 0u);
  // The keeper corrects his last move, sets the clocks, and the arbiter also enters moves.
  ASSERT_EQ(e.post("undo", json::object{{"token", token}}).status, 200);
  EXPECT_EQ(e.moves(1), 0u);
  ASSERT_EQ(
      e.post("clock", json::object{{"token", token}, {"white", "1:29:30"}, {"black", "58:07"}})
          .status,
      200);
  EXPECT_EQ(code_of(e.post("clock", json::object{{"token", token}, {"white", "1:75"}})),
            "broadcast_clock");
  EXPECT_EQ(jstr(e.live().at("boards").at(0).at("clocks").at("black")), "58:07");
  ASSERT_EQ(e.post("move", json::object{{"board", 2}, {"move", "65"}}).status, 200);
  EXPECT_EQ(e.moves(2), 1u);
  EXPECT_EQ(code_of(e.post("move", json::object{{"board", 2}, {"move", "87"}, {"key", "x"}})),
            "wrong_key");
  // A result entered by the keeper is the event's: its standings and its TGK file have it.
  ASSERT_EQ(e.post("finish", json::object{{"token", token}, {"result", "0-1"}}).status, 200);
  EXPECT_EQ(code_of(e.post("move", json::object{{"token", token}, {"move", "65"}})),
            "board_finished");
  const std::string tgk = http_get(srv.port, "/api/events/" + e.id + "/tgk").body;
  EXPECT_NE(tgk.find("[Result \"0-1\"]"), std::string::npos) << tgk;
  EXPECT_NE(tgk.find("1. 65"), std::string::npos) << tgk;  // board 2's move, live
}

TEST(Broadcast, RevokedTokenAndEarlierRoundsTokenRefused) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const LiveEvent e = live_event(srv.port);
  const std::string a = keeper_of(e, 1), b = keeper_of(e, 2);
  ASSERT_EQ(e.post("revoke", json::object{{"board", 1}}).status, 200);
  EXPECT_EQ(code_of(e.post("move", json::object{{"token", a}, {"move", "65"}})), "keeper_token");
  EXPECT_EQ(e.moves(1), 0u);
  ASSERT_EQ(e.post("move", json::object{{"token", b}, {"move", "65"}}).status, 200);
  // Round 2 paired: round 1's token opens nothing.
  for (int board : {1, 2})
    ASSERT_EQ(e.post("result", json::object{{"board", board}, {"result", "1/2-1/2"}}).status, 200);
  ASSERT_EQ(e.post("pair", {}).status, 200);
  EXPECT_EQ(code_of(e.post("move", json::object{{"token", b}, {"move", "65"}})), "keeper_token");
}

TEST(Broadcast, WrongMoveRefusedAndTheBoardUnchanged) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const LiveEvent e = live_event(srv.port);
  const std::string token = keeper_of(e, 1);
  ASSERT_EQ(e.post("move", json::object{{"token", token}, {"move", "65"}}).status, 200);
  const HttpResult r = e.post("move", json::object{{"token", token}, {"move", "99(30)"}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(code_of(r), "typed_move") << r.body;
  EXPECT_EQ(jstr(r.json().at("params").at("n")), "1");
  EXPECT_EQ(jstr(r.json().at("params").at("side")), "Black");
  EXPECT_EQ(code_of(e.post("move", json::object{{"token", token}, {"move", "x"}})), "typed_move");
  EXPECT_EQ(e.moves(1), 1u);
  EXPECT_EQ(jstr(e.live().at("boards").at(0).at("moves").at(0)), "65(10)");
}

void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

std::string tgk_record(const LiveEvent& e, int board, const std::string& moves) {
  return "[LiveEvent \"Live\"]\n[Round \"1\"]\n[White \"" + e.name(board, "white") +
         "\"]\n[Black \"" + e.name(board, "black") + "\"]\n[Result \"*\"]\n\n" + moves + "\n\n";
}

TEST(Broadcast, FollowedFileSetsTheBoardsAndAMalformedOneIsReported) {
  TempDir dir;
  server::Config cfg;
  cfg.broadcast_dir = (dir.path / "live").string();
  std::filesystem::create_directories(cfg.broadcast_dir);
  TestServer srv((dir.path / "t.db").string(), cfg);
  const LiveEvent e = live_event(srv.port);
  const auto file = dir.path / "live" / "round.tgk";
  write_file(file, tgk_record(e, 1, "1. 65 87 2. 55 *") + tgk_record(e, 2, "1. 65 *"));
  ASSERT_EQ(e.post("follow", json::object{{"path", "round.tgk"}}).status, 200);
  json::object live = e.live();
  EXPECT_TRUE(live.at("following").as_bool());
  EXPECT_FALSE(live.contains("follow_error"));
  EXPECT_EQ(e.moves(1), 3u);
  EXPECT_EQ(e.moves(2), 1u);
  // Board 2's record is malformed on line 15 (its moves): reported, nothing changed.
  write_file(file,
             tgk_record(e, 1, "1. 65 87 2. 55 99(12) *") + tgk_record(e, 2, "1. 65 99(30) *"));
  ASSERT_EQ(e.post("follow", json::object{{"path", file.string()}}).status, 200);
  live = e.live();
  ASSERT_TRUE(live.contains("follow_error")) << json::serialize(live);
  EXPECT_EQ(jint(live.at("follow_error").at("line")), 15) << json::serialize(live);
  EXPECT_NE(jstr(live.at("follow_error").at("detail")).find("99(30)"), std::string::npos);
  EXPECT_EQ(e.moves(1), 3u);
  EXPECT_EQ(e.moves(2), 1u);
  // A pairing the round does not have is named at its White tag's line.
  write_file(file, "[Round \"1\"]\n[White \"Nobody\"]\n[Black \"Else\"]\n\n1. 65 *\n");
  ASSERT_EQ(e.post("follow", json::object{{"path", "round.tgk"}}).status, 200);
  EXPECT_EQ(jint(e.live().at("follow_error").at("line")), 2);
}

TEST(Broadcast, PathOutsideTheAllowedFolderRefused) {
  TempDir dir;
  server::Config cfg;
  cfg.broadcast_dir = (dir.path / "live").string();
  std::filesystem::create_directories(cfg.broadcast_dir);
  write_file(dir.path / "secret.tgk", "[Round \"1\"]\n");
  std::filesystem::create_symlink(dir.path / "secret.tgk", dir.path / "live" / "link.tgk");
  TestServer srv((dir.path / "t.db").string(), cfg);
  const LiveEvent e = live_event(srv.port);
  const std::vector<std::string> outside = {"../secret.tgk",
                                            (dir.path / "secret.tgk").string(),
                                            "/etc/passwd",
                                            "link.tgk",
                                            ".",
                                            (dir.path / "live").string()};
  for (const std::string& path : outside)
    EXPECT_EQ(code_of(e.post("follow", json::object{{"path", path}})), "broadcast_path") << path;
  EXPECT_FALSE(e.live().at("following").as_bool());
  TestServer closed((dir.path / "u.db").string());
  const LiveEvent f = live_event(closed.port);
  EXPECT_EQ(code_of(f.post("follow", json::object{{"path", "round.tgk"}})), "broadcast_dir_off");
}

// The live view, read until `done` holds (at most 30 s: a loaded machine); every view read is
// passed to `each` first. The last view read.
json::object broadcast_wait_for(const LiveEvent& e,
                                const std::function<bool(const json::object&)>& done,
                                const std::function<void(const json::object&)>& each = nullptr) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  json::object live;
  do {
    live = e.live();
    if (each) each(live);
    if (done(live)) return live;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  } while (std::chrono::steady_clock::now() < until);
  ADD_FAILURE() << "never reached: " << json::serialize(live);
  return live;
}

TEST(Broadcast, KeeperLinksClocksAndDelaySurviveARestart) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  std::optional<TestServer> srv(std::in_place, db);
  LiveEvent e = live_event(srv->port);
  const std::string token = keeper_of(e, 1);
  ASSERT_EQ(
      e.post("clock", json::object{{"token", token}, {"white", "1:29:30"}, {"black", "58:07"}})
          .status,
      200);
  ASSERT_EQ(e.post("settings", json::object{{"eval_delay", 4}}).status, 200);
  srv.reset();
  srv.emplace(db);
  e.port = srv->port;
  const json::object live = e.live();
  EXPECT_EQ(jstr(live.at("boards").at(0).at("clocks").at("white")), "1:29:30");
  EXPECT_EQ(jstr(live.at("boards").at(0).at("clocks").at("black")), "58:07");
  EXPECT_EQ(jint(live.at("boards").at(0).at("keepers")), 1);
  EXPECT_EQ(jint(live.at("eval_delay")), 4);
  ASSERT_EQ(e.post("move", json::object{{"token", token}, {"move", "65"}}).status, 200);
  EXPECT_EQ(e.moves(1), 1u);
  // Revoked after the restart: refused, and still after another.
  ASSERT_EQ(e.post("revoke", json::object{{"board", 1}}).status, 200);
  srv.reset();
  srv.emplace(db);
  e.port = srv->port;
  EXPECT_EQ(code_of(e.post("move", json::object{{"token", token}, {"move", "87"}})),
            "keeper_token");
}

TEST(Broadcast, EvaluationNeverOfAPositionYoungerThanTheDelay) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const LiveEvent e = live_event(srv.port);
  const std::string token = keeper_of(e, 1);
  // Off by default: no board has an evaluation.
  ASSERT_EQ(e.post("move", json::object{{"token", token}, {"move", "65"}}).status, 200);
  EXPECT_EQ(jint(e.live().at("eval_delay")), 0);
  EXPECT_TRUE(e.live().at("boards").at(0).at("eval").is_null());
  EXPECT_EQ(code_of(e.post("settings", json::object{{"eval_delay", 41}})), "field_range");
  ASSERT_EQ(e.post("settings", json::object{{"eval_delay", 2}}).status, 200);
  // Every answer's evaluation is of the position two moves before the board's current one.
  auto check = [](const json::object& live) {
    for (const json::value& b : live.at("boards").as_array()) {
      const json::value& eval = b.at("eval");
      const int64_t moves = int64_t(b.at("moves").as_array().size());
      if (moves < 2) {
        EXPECT_TRUE(eval.is_null()) << json::serialize(b);
      }
      if (!eval.is_null()) {
        EXPECT_EQ(jint(eval.at("ply")), moves - 2) << json::serialize(b);
      }
    }
  };
  int64_t entered = 1;
  for (const char* move : {"87", "55", "99(12)"}) {
    const HttpResult r = e.post("move", json::object{{"token", token}, {"move", move}});
    ASSERT_EQ(r.status, 200) << r.body;
    check(r.json().at("live").as_object());  // the keeper's answer too
    ++entered;
    const json::object live = broadcast_wait_for(
        e, [](const json::object& l) { return !l.at("boards").at(0).at("eval").is_null(); }, check);
    EXPECT_EQ(jint(live.at("boards").at(0).at("eval").at("ply")), entered - 2);
    EXPECT_TRUE(live.at("boards").at(0).at("eval").at("score").as_object().contains("white_cp"));
  }
}

TEST(Broadcast, FollowedUrlIsPolledAndABadAnswerReported) {
  TempDir dir;
  FileHttpServer files;
  server::Config cfg;
  cfg.broadcast_urls = true;
  TestServer srv((dir.path / "t.db").string(), cfg);
  const LiveEvent e = live_event(srv.port);
  files.set(tgk_record(e, 1, "1. 65 *"));
  const std::string url = files.url("/round.tgk");
  ASSERT_EQ(e.post("follow", json::object{{"path", url}}).status, 200);
  auto moves_are = [](size_t n) {
    return [n](const json::object& l) {
      return l.at("boards").at(0).at("moves").as_array().size() == n;
    };
  };
  EXPECT_TRUE(broadcast_wait_for(e, moves_are(1)).at("following").as_bool());
  // The other tool rewrites the file: a later poll takes it.
  files.set(tgk_record(e, 1, "1. 65 87 *"));
  broadcast_wait_for(e, moves_are(2));
  // A malformed file (line 7: the moves) and an HTTP error are reported; the boards stay.
  auto reported = [](const json::object& l) { return l.contains("follow_error"); };
  files.set(tgk_record(e, 1, "1. 65 87 2. 55 99(30) *"));
  ASSERT_EQ(e.post("follow", json::object{{"path", url}}).status, 200);
  json::object live = broadcast_wait_for(e, reported);
  EXPECT_EQ(jint(live.at("follow_error").at("line")), 7) << json::serialize(live);
  EXPECT_EQ(e.moves(1), 2u);
  files.set("gone", 404);
  ASSERT_EQ(e.post("follow", json::object{{"path", url}}).status, 200);
  live = broadcast_wait_for(e, reported);
  EXPECT_NE(jstr(live.at("follow_error").at("detail")).find("404"), std::string::npos);
  EXPECT_EQ(e.moves(1), 2u);
  for (const char* bad :
       {"ftp://127.0.0.1/round.tgk", "file:///etc/passwd", "http://", "http:///x", "gopher://x/"})
    EXPECT_EQ(code_of(e.post("follow", json::object{{"path", bad}})), "broadcast_url") << bad;
  TestServer closed((dir.path / "u.db").string());
  const LiveEvent f = live_event(closed.port);
  EXPECT_EQ(code_of(f.post("follow", json::object{{"path", url}})), "broadcast_urls_off");
}

// The site's games whose player's name holds `name`: {"games", "total"}.
json::value broadcast_games_of(uint16_t port, const std::string& name) {
  return http_get(port, "/api/games?player=" + name).json();
}

TEST(Broadcast, FinishedBoardIsASiteGameReplacedWhenCorrected) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const LiveEvent e = live_event(srv.port);
  const std::string white = e.name(1, "white"), token = keeper_of(e, 1);
  for (const char* move : {"65", "87"})
    ASSERT_EQ(e.post("move", json::object{{"token", token}, {"move", move}}).status, 200);
  EXPECT_EQ(jint(broadcast_games_of(srv.port, white).at("total")), 0);  // not over yet
  ASSERT_EQ(e.post("finish", json::object{{"token", token}, {"result", "1-0"}}).status, 200);
  json::value list = broadcast_games_of(srv.port, white);
  ASSERT_EQ(jint(list.at("total")), 1) << json::serialize(list);
  const json::value& g = list.at("games").at(0);
  EXPECT_EQ(jstr(g.at("id")), e.id + "r1b1");
  EXPECT_EQ(jstr(g.at("status")), "over");
  EXPECT_EQ(jstr(g.at("result")), "white");
  EXPECT_EQ(jint(g.at("moves")), 2);
  EXPECT_FALSE(g.at("rated").as_bool());
  EXPECT_EQ(jstr(g.at("black")), e.name(1, "black"));
  // The arbiter corrects the result: the same game, replaced.
  ASSERT_EQ(e.post("result", json::object{{"board", 1}, {"result", "0-1"}}).status, 200);
  list = broadcast_games_of(srv.port, white);
  ASSERT_EQ(jint(list.at("total")), 1);
  EXPECT_EQ(jstr(list.at("games").at(0).at("result")), "black");
  const HttpResult pgn = http_get(srv.port, "/api/games/" + e.id + "r1b1/pgn");
  EXPECT_NE(pgn.body.find("[Event \"Live\"]"), std::string::npos) << pgn.body;
  EXPECT_NE(pgn.body.find("[Round \"1.1\"]"), std::string::npos) << pgn.body;
  EXPECT_NE(pgn.body.find("1. 65"), std::string::npos) << pgn.body;
  // A forfeit is no game.
  ASSERT_EQ(e.post("result", json::object{{"board", 2}, {"result", "+-"}}).status, 200);
  EXPECT_EQ(jint(broadcast_games_of(srv.port, e.name(2, "white")).at("total")), 0);
}

}  // namespace
}  // namespace toguz::test
