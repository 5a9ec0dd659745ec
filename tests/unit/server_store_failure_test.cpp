// A store that refuses a write: the move is not made, the client is told, the log says why,
// and the game goes on once the store takes writes again.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "server_client.h"

namespace toguz::test {
namespace {

// Runs one statement on the server's database from a second connection (as an operator would).
void sql(const std::string& db, const char* statement) {
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(h, statement, nullptr, nullptr, &err);
  EXPECT_EQ(rc, SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(h);
}

// The state without who is connected (that changes with every test connection).
std::string stored_game_text(uint16_t port, const std::string& id) {
  HttpResult r = http_get(port, "/api/games/" + id);
  EXPECT_EQ(r.status, 200) << r.body;
  json::value g = r.json().at("game");
  g.as_object().erase("players");
  g.as_object().erase("spectators");
  return json::serialize(g);
}

TEST(ServerStore, AMoveTheStoreRefusesIsNotMade) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  std::string id;
  {
    TestServer srv(db);
    HttpResult c = http_post(srv.port, "/api/games", json::value(json::object{{"mode", "local"}}));
    ASSERT_EQ(c.status, 200) << c.body;
    id = jstr(c.json().at("id"));
    WsClient ws(srv.port, id, jstr(c.json().at("token")));
    ws.send(json::object{{"type", "move"}, {"hole", 7}, {"ply", 0}});
    ASSERT_TRUE(ws.read_state([](const json::object& g) { return jint(g.at("ply")) == 1; }));
    const std::string before = stored_game_text(srv.port, id);

    sql(db,
        "CREATE TRIGGER refuse_moves BEFORE INSERT ON moves "
        "BEGIN SELECT RAISE(ABORT, 'the disk is full'); END");
    testing::internal::CaptureStderr();
    ws.send(json::object{{"type", "move"}, {"hole", 3}, {"ply", 1}});
    auto e = ws.read_type("error");
    const std::string log = testing::internal::GetCapturedStderr();
    ASSERT_TRUE(e);
    EXPECT_EQ(jstr(e->at("code")), "server_error") << jstr(e->at("message"));
    EXPECT_NE(jstr(e->at("message")).find("not made"), std::string::npos);
    EXPECT_EQ(stored_game_text(srv.port, id), before);
    EXPECT_NE(log.find("error [game " + id + "] cannot save move 2"), std::string::npos) << log;
    EXPECT_NE(log.find("the disk is full"), std::string::npos) << log;

    // The store takes writes again: the same move is made.
    sql(db, "DROP TRIGGER refuse_moves");
    ws.send(json::object{{"type", "move"}, {"hole", 3}, {"ply", 1}});
    ASSERT_TRUE(ws.read_state([](const json::object& g) { return jint(g.at("ply")) == 2; }));
  }
  // Only the moves that were made are stored.
  TestServer srv(db);
  HttpResult r = http_get(srv.port, "/api/games/" + id);
  ASSERT_EQ(r.status, 200);
  const json::value g = r.json();
  const json::array& moves = g.at("game").at("moves").as_array();
  ASSERT_EQ(moves.size(), 2u);
  EXPECT_EQ(jint(moves[0].at("hole")), 7);
  EXPECT_EQ(jint(moves[1].at("hole")), 3);
}

}  // namespace
}  // namespace toguz::test
