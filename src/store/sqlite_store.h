// The SQLite backend: one file in WAL mode (synchronous=NORMAL), one connection.
#pragma once

#include <string>

#include "store/store.h"

struct sqlite3;
struct sqlite3_stmt;

namespace toguz::store {

class SqliteStore final : public Store {
 public:
  // Opens (creating if needed) the database file at `path` in WAL mode and migrates its schema
  // to kSchemaVersion; a file made before the schema was versioned is taken as the version its
  // tables show. Throws std::runtime_error naming the file on failure or a newer schema.
  explicit SqliteStore(const std::string& path);
  ~SqliteStore() override;
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;

  void save_game(const GameRow& g) override;
  void add_move(const GameRow& g, int ply, int hole) override;
  void truncate_moves(const GameRow& g, int keep) override;
  void save_review(const std::string& id, const std::string& review_json) override;
  std::optional<GameRow> load_game(const std::string& id) override;
  std::vector<std::string> unfinished_ids() override;
  void expire_stale(int64_t waiting_before_ms, int64_t analysis_before_ms) override;
  std::vector<GameRow> list_games(const ListQuery& q, int64_t* total) override;

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
  void exec(const char* sql);
  sqlite3_stmt* prepare(const char* sql);
  void migrate();
  // Runs `body` in one transaction (BEGIN `mode`), rolled back when it throws.
  template <class F>
  void transaction(const char* begin, F&& body);
};

}  // namespace toguz::store
