// Backups of a SQLite store while a real server plays a game on it (store/backup.h,
// docs/operations.md "Backups"): every copy taken during the game opens intact, and in each the
// game's move count agrees with its moves (a copy is the database as of one commit); the copy
// taken after the last move has every move; a restore makes a database that opens and loads
// the game as it was at its backup.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "server_client.h"
#include "store/backup.h"
#include "store/sqlite_store.h"

// A namespace of its own: the unit tests are compiled as unity files.
namespace toguz::test::backup {
namespace {

int64_t sqlite_scalar(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  int64_t v = -1;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    v = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return v;
}

// Games whose `moves` column disagrees with their rows in `moves`.
constexpr const char* kDisagreeing =
    "SELECT COUNT(*) FROM games g WHERE g.moves != "
    "(SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id)";

TEST(ServerBackup, CopiesTakenWhileMovesAreMadeAreConsistent) {
  TempDir dir;
  const std::string db = (dir.path / "live.db").string();
  server::Config cfg;
  cfg.max_messages_per_second = 100000;
  TestServer srv(db, cfg);
  HttpResult r = http_post(srv.port, "/api/games", json::value(json::object{{"mode", "local"}}));
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string id = jstr(r.json().at("id"));
  WsClient c(srv.port, id, jstr(r.json().at("token")));
  ASSERT_TRUE(c.ok());

  // The player moves as fast as the server answers while copies are taken.
  constexpr int kPlies = 40;
  std::atomic<bool> done{false};
  std::atomic<int> made{0};
  std::thread player([&] {
    for (int ply = 0; ply < kPlies; ++ply) {
      auto s = c.read_state([&](const json::object& g) {
        return jint(g.at("ply")) == ply && !g.at("legal").as_array().empty();
      });
      if (!s) break;
      c.send(json::object{{"type", "move"}, {"hole", first_legal(*s)}, {"ply", ply}});
      made = ply + 1;
    }
    c.read_state([&](const json::object& g) { return jint(g.at("ply")) >= made.load(); });
    done = true;
  });
  std::vector<std::string> copies;
  while (!done && copies.size() < 200) {
    copies.push_back((dir.path / ("copy" + std::to_string(copies.size()) + ".db")).string());
    EXPECT_NO_THROW(toguz::store::backup_sqlite(db, copies.back()));
  }
  player.join();
  ASSERT_EQ(made.load(), kPlies);
  ASSERT_GE(copies.size(), 1u);
  int64_t previous = 0;
  for (const std::string& copy : copies) {
    const toguz::store::CopyInfo info = toguz::store::check_sqlite_copy(copy);
    EXPECT_EQ(info.schema_version, toguz::store::kSchemaVersion);
    EXPECT_EQ(sqlite_scalar(copy, kDisagreeing), 0) << copy;
    const int64_t moves = sqlite_scalar(copy, "SELECT COUNT(*) FROM moves");
    EXPECT_GE(moves, previous) << copy;  // copies taken later hold no fewer moves
    previous = moves;
  }

  // After the last move: a copy with every move, which a restore makes a working database of.
  const std::string last = (dir.path / "last.db").string();
  EXPECT_EQ(toguz::store::backup_sqlite(db, last).moves, kPlies);
  EXPECT_THROW(toguz::store::backup_sqlite(db, last), std::runtime_error);  // never over a file
  const std::string restored = (dir.path / "restored.db").string();
  EXPECT_EQ(toguz::store::restore_sqlite(copies.front(), restored).moves,
            sqlite_scalar(copies.front(), "SELECT COUNT(*) FROM moves"));
  toguz::store::SqliteStore s(restored);
  auto g = s.load_game(id);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(int64_t(g->holes.size()), sqlite_scalar(copies.front(), "SELECT COUNT(*) FROM moves"));
}

}  // namespace
}  // namespace toguz::test::backup
