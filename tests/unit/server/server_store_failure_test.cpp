// A store that refuses a write: the move is not made, the client is told, the log says why,
// and the game goes on once the store takes writes again. A store locked by another process,
// made read-only or losing its WAL index pauses the games (their clocks stand still) and is
// answered with a reason, never a crash; an end it refuses is kept and stored once it can be.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <filesystem>
#include <thread>

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

// A second connection holding the database's write lock (BEGIN EXCLUSIVE), as another process
// would, until release() or the end of the scope.
class DbWriteLock {
 public:
  explicit DbWriteLock(const std::string& db) {
    EXPECT_EQ(sqlite3_open(db.c_str(), &h_), SQLITE_OK);
    sqlite3_busy_timeout(h_, 20000);
    EXPECT_EQ(sqlite3_exec(h_, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK)
        << sqlite3_errmsg(h_);
  }
  ~DbWriteLock() { release(); }
  DbWriteLock(const DbWriteLock&) = delete;
  DbWriteLock& operator=(const DbWriteLock&) = delete;
  // The first column of the first row of `query`, read inside the lock ("" for none).
  std::string text(const std::string& query) { return read_text(h_, query); }
  void release() {
    if (!h_) return;
    sqlite3_exec(h_, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(h_);
    h_ = nullptr;
  }
  static std::string read_text(sqlite3* h, const std::string& query) {
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(h, query.c_str(), -1, &st, nullptr), SQLITE_OK)
        << sqlite3_errmsg(h);
    std::string out;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
      out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return out;
  }

 private:
  sqlite3* h_ = nullptr;
};

// `query`'s first column from a connection of its own (the store as another process sees it).
std::string db_first_text(const std::string& db, const std::string& query) {
  sqlite3* h = nullptr;
  EXPECT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  const std::string out = DbWriteLock::read_text(h, query);
  sqlite3_close(h);
  return out;
}

json::value local_game_body(int64_t initial_ms) {
  json::object body{{"mode", "local"}};
  if (initial_ms > 0) body["clock"] = json::object{{"initial_ms", initial_ms}, {"increment_ms", 0}};
  return body;
}

json::object move_message(int hole, int ply) {
  return json::object{{"type", "move"}, {"hole", hole}, {"ply", ply}};
}

std::string running_side(const json::object& g) {
  const json::value& r = g.at("clock").at("running");
  return r.is_string() ? jstr(r) : "";
}

// The state without who is connected (that changes with every test connection).
std::string stored_game_text(uint16_t port, const std::string& id) {
  HttpResult r = http_get(port, "/api/games/" + id);
  EXPECT_EQ(r.status, 200) << r.body;
  json::value g = r.json().at("game");
  g.as_object().erase("players");
  g.as_object().erase("spectators");
  g.as_object().erase("store");  // the game pauses while the store refuses its writes
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

// Another process holds the database's write lock while a clock runs: the move is refused with
// the reason and everyone is told the game is paused; the clocks stand still however long the
// lock lasts (nothing ends on time); the IO thread answers other requests while a write waits
// for the lock, and a game created meanwhile is refused (503), not answered as created; once the
// lock is gone the clocks go on and so does the game.
TEST(ServerStore, ALockedStoreStopsTheClocksAndTheGameGoesOnAfter) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  server::Config cfg;
  cfg.store_busy_ms = 1500;  // each write waits this long for the lock before it is refused
  TestServer srv(db, cfg);
  HttpResult c = http_post(srv.port, "/api/games", local_game_body(3000));
  ASSERT_EQ(c.status, 200) << c.body;
  const std::string id = jstr(c.json().at("id"));
  WsClient ws(srv.port, id, jstr(c.json().at("token")));
  ws.send(move_message(7, 0));
  ASSERT_TRUE(ws.read_state(
      [](const json::object& g) { return jint(g.at("ply")) == 1 && running_side(g) == "black"; }));

  DbWriteLock lock(db);
  ws.send(move_message(3, 1));
  // While the move's write waits for the lock, another request is answered at once; a game
  // created meanwhile waits for its own write and is refused.
  std::atomic<bool> created_answered{false};
  HttpResult created;
  std::thread creator([&] {
    created = http_post(srv.port, "/api/games", local_game_body(0));
    created_answered = true;
  });
  const HttpResult read = http_get(srv.port, "/api/games/" + id);
  const bool read_first = !created_answered;
  creator.join();
  EXPECT_EQ(read.status, 200) << read.body;
  EXPECT_TRUE(read_first) << "the IO thread waited for the store";
  EXPECT_EQ(created.status, 503) << created.body;
  EXPECT_EQ(jstr(created.json().at("code")), "store_busy") << created.body;

  auto e = ws.read_type("error");
  ASSERT_TRUE(e);
  EXPECT_EQ(jstr(e->at("code")), "store_busy") << jstr(e->at("message"));
  auto paused = ws.read_state([](const json::object& g) { return g.at("store").is_string(); });
  ASSERT_TRUE(paused);
  EXPECT_EQ(jstr(paused->at("store")), "store_busy");
  EXPECT_EQ(running_side(*paused), "");
  EXPECT_EQ(jint(paused->at("ply")), 1);
  const int64_t black_ms = jint(paused->at("clock").at("black_ms"));
  // Longer than Black's whole clock: nothing ends, the clock does not move.
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(3500);
  while (std::chrono::steady_clock::now() < until) {
    HttpResult g = http_get(srv.port, "/api/games/" + id);
    ASSERT_EQ(g.status, 200) << g.body;
    const json::value body = g.json();
    const json::object& game = body.at("game").as_object();
    ASSERT_EQ(jstr(game.at("status")), "playing");
    ASSERT_EQ(jint(game.at("clock").at("black_ms")), black_ms);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the polling interval
  }

  lock.release();
  ASSERT_TRUE(ws.read_state(
      [](const json::object& g) { return g.at("store").is_null() && running_side(g) == "black"; }));
  ws.send(move_message(3, 1));
  ASSERT_TRUE(ws.read_state([](const json::object& g) { return jint(g.at("ply")) == 2; }));
  EXPECT_EQ(db_first_text(db, "SELECT moves FROM games WHERE id = '" + id + "'"), "2");
}

// An end the store refuses (a resignation while the database is locked) is kept pending: the
// game is not shown over, the players' requests are refused with the reason; once the lock is
// gone the end is stored and only then shown.
TEST(ServerStore, AnEndTheStoreRefusesIsStoredOnceItCan) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  TestServer srv(db);
  HttpResult c = http_post(srv.port, "/api/games", local_game_body(60000));
  ASSERT_EQ(c.status, 200) << c.body;
  const std::string id = jstr(c.json().at("id"));
  WsClient ws(srv.port, id, jstr(c.json().at("token")));
  ws.send(move_message(7, 0));
  ASSERT_TRUE(ws.read_state([](const json::object& g) { return jint(g.at("ply")) == 1; }));

  DbWriteLock lock(db);
  ws.send(json::object{{"type", "resign"}});
  ws.send(move_message(3, 1));  // waits for the end's write, then is refused: the end is pending
  auto e = ws.read_type("error");
  ASSERT_TRUE(e);
  EXPECT_EQ(jstr(e->at("code")), "store_busy") << jstr(e->at("message"));
  HttpResult g = http_get(srv.port, "/api/games/" + id);
  ASSERT_EQ(g.status, 200) << g.body;
  EXPECT_EQ(jstr(g.json().at("game").at("status")), "playing") << g.body;
  EXPECT_EQ(jstr(g.json().at("game").at("store")), "store_busy") << g.body;
  EXPECT_EQ(lock.text("SELECT status FROM games WHERE id = '" + id + "'"), "playing");

  lock.release();
  auto over = ws.read_state([](const json::object& g) { return jstr(g.at("status")) == "over"; });
  ASSERT_TRUE(over);
  EXPECT_EQ(jstr(over->at("result").at("reason")), "resign");
  EXPECT_TRUE(over->at("store").is_null());
  EXPECT_EQ(db_first_text(db, "SELECT status || ' ' || reason FROM games WHERE id = '" + id + "'"),
            "over resign");
}

// A database file made read-only under the server: writes are refused with the reason (503 for
// a new game or account, an error and a paused game for a move), logged, and reads go on; once
// it is writable again the game goes on.
TEST(ServerStore, ADatabaseMadeReadOnlyIsRefusedWithAReasonAndReadsGoOn) {
  namespace fs = std::filesystem;
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  TestServer srv(db);
  HttpResult c = http_post(srv.port, "/api/games", local_game_body(0));
  ASSERT_EQ(c.status, 200) << c.body;
  const std::string id = jstr(c.json().at("id"));
  WsClient ws(srv.port, id, jstr(c.json().at("token")));
  ws.send(move_message(7, 0));
  ASSERT_TRUE(ws.read_state([](const json::object& g) { return jint(g.at("ply")) == 1; }));

  fs::permissions(db, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  testing::internal::CaptureStderr();
  HttpResult created = http_post(srv.port, "/api/games", local_game_body(0));
  HttpResult signed_up = http_post(
      srv.port, "/api/signup",
      json::value(json::object{{"username", "reader"}, {"password", "a long enough passphrase"}}));
  ws.send(move_message(3, 1));
  auto e = ws.read_type("error");
  auto paused = ws.read_state([](const json::object& g) { return g.at("store").is_string(); });
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_EQ(created.status, 503) << created.body;
  EXPECT_EQ(jstr(created.json().at("code")), "store_read_only") << created.body;
  EXPECT_EQ(signed_up.status, 503) << signed_up.body;
  EXPECT_EQ(jstr(signed_up.json().at("code")), "store_read_only") << signed_up.body;
  ASSERT_TRUE(e);
  EXPECT_EQ(jstr(e->at("code")), "store_read_only") << jstr(e->at("message"));
  ASSERT_TRUE(paused);
  EXPECT_EQ(jstr(paused->at("store")), "store_read_only");
  EXPECT_NE(log.find("read-only"), std::string::npos) << log;
  // Reads go on: the list comes from the store.
  HttpResult list = http_get(srv.port, "/api/games?status=playing");
  ASSERT_EQ(list.status, 200) << list.body;
  EXPECT_NE(list.body.find(id), std::string::npos) << list.body;
  EXPECT_EQ(db_first_text(db, "SELECT COUNT(*) FROM games"), "1");

  fs::permissions(db, fs::perms::owner_write, fs::perm_options::add);
  ASSERT_TRUE(ws.read_state([](const json::object& g) { return g.at("store").is_null(); }));
  ws.send(move_message(3, 1));
  ASSERT_TRUE(ws.read_state([](const json::object& g) { return jint(g.at("ply")) == 2; }));
}

// Another process truncates the WAL index (<db>-shm) the server has mapped: its next write
// reopens the database instead of touching the mapping (SIGBUS), and the move is made.
TEST(ServerStore, AWalIndexTruncatedUnderTheServerIsNoCrash) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  std::string id;
  {
    TestServer srv(db);
    HttpResult c = http_post(srv.port, "/api/games", local_game_body(0));
    ASSERT_EQ(c.status, 200) << c.body;
    id = jstr(c.json().at("id"));
    WsClient ws(srv.port, id, jstr(c.json().at("token")));
    ws.send(move_message(7, 0));
    ASSERT_TRUE(ws.read_state([](const json::object& g) { return jint(g.at("ply")) == 1; }));
    ASSERT_GE(std::filesystem::file_size(db + "-shm"), 32768u);
    std::filesystem::resize_file(db + "-shm", 0);
    ws.send(move_message(3, 1));
    ASSERT_TRUE(ws.read_state([](const json::object& g) { return jint(g.at("ply")) == 2; }));
    EXPECT_EQ(http_get(srv.port, "/api/games?status=playing").status, 200);
  }
  EXPECT_EQ(db_first_text(db, "SELECT COUNT(*) FROM moves WHERE game_id = '" + id + "'"), "2");
}

}  // namespace
}  // namespace toguz::test
