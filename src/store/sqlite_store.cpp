#include "store/sqlite_store.h"

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <stdexcept>

#include "store/common.h"

namespace toguz::store {

namespace {

// A prepared statement from the connection's cache (SqliteStore::prepare): reset and handed
// back when done, or finalized when it was prepared for this use alone. Binds parameters in
// order from 1 (put_row) and reads columns in order from 0 (get_row).
struct Stmt {
  sqlite3_stmt* s = nullptr;
  bool* in_use = nullptr;  // the cache's mark, or null: finalized here
  int param = 1, column = 0;
  explicit Stmt(SqliteStore::Prepared p) : s(p.stmt), in_use(p.in_use) {}
  ~Stmt() {
    if (!in_use) {
      sqlite3_finalize(s);
      return;
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    *in_use = false;
  }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  void text(const std::string& v) {
    sqlite3_bind_text(s, param++, v.data(), int(v.size()), SQLITE_TRANSIENT);
  }
  void i64(int64_t v) { sqlite3_bind_int64(s, param++, v); }
  void flag(bool v) { i64(v); }
  void real(double v) { sqlite3_bind_double(s, param++, v); }

  std::string text() {
    const int i = column++;
    const unsigned char* t = sqlite3_column_text(s, i);
    return t ? std::string(reinterpret_cast<const char*>(t), size_t(sqlite3_column_bytes(s, i)))
             : std::string();
  }
  int64_t i64() { return sqlite3_column_int64(s, column++); }
  bool flag() { return i64() != 0; }
  double real() { return sqlite3_column_double(s, column++); }
  bool row() {
    column = 0;
    return sqlite3_step(s) == SQLITE_ROW;
  }
};

// The schema, version by version.
constexpr detail::Migration kMigrations[] = {
    {1, R"SQL(
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY, mode TEXT NOT NULL, variant TEXT NOT NULL, tuz INTEGER NOT NULL,
  play_out INTEGER NOT NULL, start_position TEXT NOT NULL,
  white_name TEXT NOT NULL, black_name TEXT NOT NULL, white_token TEXT NOT NULL,
  black_token TEXT NOT NULL, invite TEXT NOT NULL, white_seated INTEGER NOT NULL,
  black_seated INTEGER NOT NULL, engine_side INTEGER NOT NULL, level INTEGER NOT NULL,
  clock_initial_ms INTEGER NOT NULL, clock_increment_ms INTEGER NOT NULL,
  white_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL, status TEXT NOT NULL,
  winner TEXT NOT NULL, reason TEXT NOT NULL, score TEXT NOT NULL, moves INTEGER NOT NULL,
  created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL, review TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS games_created ON games(created_ms);
CREATE INDEX IF NOT EXISTS games_status ON games(status);
CREATE TABLE IF NOT EXISTS moves (
  game_id TEXT NOT NULL, ply INTEGER NOT NULL, hole INTEGER NOT NULL,
  white_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL,
  PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
)SQL"},
    {2, "ALTER TABLE games ADD COLUMN tags TEXT NOT NULL DEFAULT ''"},
    {3, nullptr},  // detail::accounts_migration
    {4,
     "CREATE TABLE IF NOT EXISTS game_fences (game_id TEXT PRIMARY KEY, token INTEGER NOT NULL)"},
    {5, detail::kEventsMigration},
    {6, detail::kTournamentsMigration},
    {7, nullptr},  // detail::puzzle_ratings_migration
    {8, detail::kFairPlayMigration},
    {9, nullptr},  // detail::moderation_migration
    {10, detail::kMailMigration},
    {11, nullptr},  // detail::chat_migration
    {12, detail::kSettingsMigration},
};

// The SQL of a migration: its own text, or the dialect's of a shared one.
std::string migration_sql(const detail::Migration& m) {
  if (m.sql) return m.sql;
  if (m.version == 3)
    return detail::accounts_migration("INTEGER PRIMARY KEY AUTOINCREMENT", "REAL", "INTEGER", "0");
  if (m.version == 7) return detail::puzzle_ratings_migration("REAL", "INTEGER", "0");
  if (m.version == 11) return detail::chat_migration("INTEGER PRIMARY KEY AUTOINCREMENT");
  return detail::moderation_migration("INTEGER PRIMARY KEY AUTOINCREMENT", "INTEGER", "0");
}
static_assert(detail::versions_ascend(kMigrations, std::size(kMigrations)),
              "the migrations' versions ascend to kSchemaVersion");

// SQL toguz_fold(text): fold_case for the games search.
void sql_fold(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const unsigned char* t = sqlite3_value_text(argv[0]);
  if (!t) {
    sqlite3_result_null(ctx);
    return;
  }
  const std::string out = fold_case(
      std::string_view(reinterpret_cast<const char*>(t), size_t(sqlite3_value_bytes(argv[0]))));
  sqlite3_result_text(ctx, out.data(), int(out.size()), SQLITE_TRANSIENT);
}

}  // namespace

SqliteStore::SqliteStore(const std::string& path) : path_(path) {
  open();
  try {
    // Opening may wait for another process's migration; a write later waits a short time only.
    sqlite3_busy_timeout(db_, 5000);
    migrate();
    sqlite3_busy_timeout(db_, busy_ms_);
  } catch (...) {
    close();
    throw;
  }
}

void SqliteStore::set_busy_ms(int ms) {
  busy_ms_ = std::max(0, ms);
  sqlite3_busy_timeout(db_, busy_ms_);
}

void SqliteStore::open() {
  if (sqlite3_open_v2(path_.c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                      nullptr) != SQLITE_OK) {
    std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw StoreUnavailable(StoreFault::Unavailable, "cannot open database " + path_ + ": " + why);
  }
  sqlite3_busy_timeout(db_, busy_ms_);
  try {
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=NORMAL");
    exec("PRAGMA mmap_size=0");  // the database file is read, never mapped
    sqlite3_create_function(db_, "toguz_fold", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                            sql_fold, nullptr, nullptr);
  } catch (...) {
    close();
    throw;
  }
  shm_ok_ = false;
}

// A database file whose mode allows no writes (chmod a-w) is read-only for this server too,
// even when it runs as root (which SQLite would let write it).
// The WAL index (<file>-shm) is mapped into memory by SQLite, and a mapped page beyond the end
// of a file kills the process with SIGBUS: when another process truncated it (or removed it),
// the connection is closed without touching the mapping, and opened again (SQLite rebuilds the
// index from the WAL).
void SqliteStore::check_files() {
  if (!db_) reopen();
  std::error_code ec;
  const auto perms = std::filesystem::status(path_, ec).permissions();
  using P = std::filesystem::perms;
  if (!ec && (perms & (P::owner_write | P::group_write | P::others_write)) == P::none)
    throw StoreUnavailable(StoreFault::ReadOnly, "database " + path_ +
                                                     ": the file is read-only (its mode allows no "
                                                     "writes)");
  const auto size = std::filesystem::file_size(path_ + "-shm", ec);
  const bool whole = !ec && size >= 32768;  // SQLite's first region of the index
  if (whole || !shm_ok_) {
    shm_ok_ = shm_ok_ || whole;
    return;
  }
  sqlite3_db_config(db_, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
  close();
  reopen();
}

void SqliteStore::reopen() {
  try {
    open();
  } catch (const std::exception& e) {
    throw StoreUnavailable(StoreFault::Unavailable,
                           std::string("the connection cannot be opened again: ") + e.what());
  }
}

SqliteStore::~SqliteStore() {
  close();
}

// The cached statements first: sqlite3_close refuses a connection with statements left.
void SqliteStore::close() {
  for (auto& [sql, c] : cache_) sqlite3_finalize(c.stmt);
  cache_.clear();
  sqlite3_close(db_);
  db_ = nullptr;
}

void SqliteStore::exec(const char* sql) {
  if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail();
}

void SqliteStore::fail() {
  const std::string what = "database " + path_ + ": " + sqlite3_errmsg(db_);
  switch (sqlite3_errcode(db_) & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      throw StoreUnavailable(StoreFault::Busy, what);
    case SQLITE_READONLY:
      throw StoreUnavailable(StoreFault::ReadOnly, what);
    case SQLITE_FULL:
      throw StoreUnavailable(StoreFault::Full, what);
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
      throw StoreUnavailable(StoreFault::Unavailable, what);
    default:
      throw std::runtime_error(what);
  }
}

SqliteStore::Prepared SqliteStore::prepare(const char* sql) {
  auto compile = [&] {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &s, nullptr) != SQLITE_OK) fail();
    return s;
  };
  auto [it, added] = cache_.try_emplace(sql);
  Cached& c = it->second;
  if (added) {
    try {
      c.stmt = compile();
    } catch (...) {
      cache_.erase(it);
      throw;
    }
  }
  // The same statement already in use further up (a nested call): one of its own.
  if (c.in_use) return {compile(), nullptr};
  c.in_use = true;
  return {c.stmt, &c.in_use};
}

void SqliteStore::run(const char* sql) {
  Stmt st(prepare(sql));
  step(st.s);
}

void SqliteStore::rollback() {
  if (sqlite3_get_autocommit(db_)) return;  // SQLite rolled it back itself (a full disk...)
  try {
    run("ROLLBACK");
  } catch (const std::exception&) {
    // nothing more to undo here: the connection stays usable for the next transaction
  }
}

template <class F>
void SqliteStore::transaction(const char* begin, F&& body) {
  // In a group the group's savepoint around each write is this write's transaction.
  if (in_group_) return body();
  run(begin);
  try {
    body();
    run("COMMIT");
  } catch (...) {
    rollback();
    throw;
  }
}

void SqliteStore::write_group(const std::vector<std::function<void()>>& writes,
                              std::vector<std::exception_ptr>* errors) {
  errors->assign(writes.size(), nullptr);
  auto all_fail = [&](std::exception_ptr e) {
    for (auto& err : *errors)
      if (!err) err = e;
  };
  try {
    check_files();
    run("BEGIN IMMEDIATE");
  } catch (const StoreUnavailable& refused) {
    if (!db_) return all_fail(std::current_exception());  // not open again yet
    return reads_only(writes, errors, refused);
  } catch (...) {
    return all_fail(std::current_exception());
  }
  in_group_ = true;
  for (size_t i = 0; i < writes.size(); ++i) {
    // An error that ended the whole transaction (SQLITE_FULL, an IO error): the writes after it
    // would run each in its own autocommit; they are refused instead, as are those before.
    if (sqlite3_get_autocommit(db_)) break;
    try {
      run("SAVEPOINT w");
      writes[i]();
      run("RELEASE w");
    } catch (...) {
      (*errors)[i] = std::current_exception();
      if (!sqlite3_get_autocommit(db_)) {
        sqlite3_exec(db_, "ROLLBACK TO w", nullptr, nullptr, nullptr);
        sqlite3_exec(db_, "RELEASE w", nullptr, nullptr, nullptr);
      }
    }
  }
  in_group_ = false;
  if (sqlite3_get_autocommit(db_)) {
    // Rolled back by SQLite for the fault of the write that ended it (a full disk...).
    std::optional<StoreFault> fault;
    for (const auto& e : *errors)
      if (!fault) fault = fault_of(e);
    const std::string what = "database " + path_ + ": the transaction was rolled back";
    all_fail(fault ? std::make_exception_ptr(StoreUnavailable(*fault, what))
                   : std::make_exception_ptr(std::runtime_error(what)));
    return;
  }
  try {
    run("COMMIT");
  } catch (...) {
    rollback();
    all_fail(std::current_exception());
  }
}

void SqliteStore::reads_only(const std::vector<std::function<void()>>& writes,
                             std::vector<std::exception_ptr>* errors,
                             const StoreUnavailable& refused) {
  // query_only: a write fails at once (SQLITE_READONLY) instead of waiting for the lock again.
  sqlite3_exec(db_, "PRAGMA query_only=1", nullptr, nullptr, nullptr);
  for (size_t i = 0; i < writes.size(); ++i) {
    try {
      run("BEGIN");
      in_group_ = true;
      writes[i]();
      in_group_ = false;
      run("COMMIT");
    } catch (const StoreUnavailable&) {
      in_group_ = false;
      rollback();
      (*errors)[i] = std::make_exception_ptr(StoreUnavailable(refused.fault, refused.what()));
    } catch (...) {
      in_group_ = false;
      rollback();
      (*errors)[i] = std::current_exception();
    }
  }
  sqlite3_exec(db_, "PRAGMA query_only=0", nullptr, nullptr, nullptr);
}

void SqliteStore::migrate() {
  // IMMEDIATE: a second process opening the same file waits instead of migrating twice.
  transaction("BEGIN IMMEDIATE", [&] {
    exec(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"
        " applied_ms INTEGER NOT NULL)");
    auto record = [&](int version) {
      Stmt st(prepare("INSERT INTO schema_version (version, applied_ms) VALUES (?1, ?2)"));
      st.i64(version);
      st.i64(detail::now_ms());
      step(st.s);
    };
    int have = 0;
    {
      Stmt st(prepare("SELECT COALESCE(MAX(version), 0) FROM schema_version"));
      if (st.row()) have = int(st.i64());
    }
    if (have == 0) {
      // A file from before the versions: its tables say which schema it has.
      Stmt games(
          prepare("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = "
                  "'games'"));
      Stmt tags(prepare("SELECT COUNT(*) FROM pragma_table_info('games') WHERE name = 'tags'"));
      if (games.row() && games.i64() > 0) {
        have = tags.row() && tags.i64() > 0 ? 2 : 1;
        for (int v = 1; v <= have; ++v) record(v);
      }
    }
    detail::check_schema_version(path_, have);
    for (const detail::Migration& m : kMigrations) {
      if (m.version <= have) continue;
      exec(migration_sql(m).c_str());
      record(m.version);
    }
  });
}

void SqliteStore::check_fence(const std::string& id, int64_t token) {
  Stmt st(
      prepare("INSERT INTO game_fences (game_id, token) VALUES (?1, ?2) ON CONFLICT (game_id) DO "
              "UPDATE SET token = excluded.token WHERE game_fences.token <= excluded.token"));
  st.text(id);
  st.i64(token);
  if (sqlite3_step(st.s) != SQLITE_DONE) fail();
  if (sqlite3_changes(db_) == 0)
    throw FenceError("database " + path_ + ": game " + id + ": fencing token " +
                     std::to_string(token) + " is older than the game's");
}

int64_t SqliteStore::fence_of(const std::string& id) {
  Stmt st(prepare("SELECT token FROM game_fences WHERE game_id = ?1"));
  st.text(id);
  return st.row() ? st.i64() : 0;
}

void SqliteStore::claim_fence(const std::string& id, int64_t token) {
  transaction("BEGIN IMMEDIATE", [&] { check_fence(id, token); });
}

void SqliteStore::save_game(const GameRow& g) {
  if (g.fence == 0) return write_game(g);
  transaction("BEGIN IMMEDIATE", [&] {
    check_fence(g.id, g.fence);
    write_game(g);
  });
}

void SqliteStore::write_game(const GameRow& g) {
  static const std::string sql = [] {
    std::string s = std::string("INSERT OR REPLACE INTO games (") + detail::kColumns + ") VALUES (";
    for (int i = 1; i <= detail::kColumnCount; ++i) s += (i > 1 ? ",?" : "?") + std::to_string(i);
    return s + ")";
  }();
  Stmt st(prepare(sql.c_str()));
  detail::put_row(g, st);
  if (sqlite3_step(st.s) != SQLITE_DONE) fail();
}

void SqliteStore::put_move(const GameRow& g, int ply, int hole) {
  Stmt st(
      prepare("INSERT OR REPLACE INTO moves (game_id, ply, hole, white_ms, black_ms) VALUES "
              "(?1,?2,?3,?4,?5)"));
  st.text(g.id);
  st.i64(ply);
  st.i64(hole);
  st.i64(g.white_ms);
  st.i64(g.black_ms);
  step(st.s);
}

void SqliteStore::add_move(const GameRow& g, int ply, int hole) {
  transaction("BEGIN IMMEDIATE", [&] {
    if (g.fence != 0) check_fence(g.id, g.fence);
    put_move(g, ply, hole);
    // Only what a move changes; the whole row when it is not stored yet.
    Stmt st(prepare(detail::kMoveUpdateSql));
    detail::put_move_update(g, st);
    step(st.s);
    if (sqlite3_changes(db_) == 0) write_game(g);
  });
}

void SqliteStore::truncate_moves(const GameRow& g, int keep) {
  transaction("BEGIN IMMEDIATE", [&] {
    if (g.fence != 0) check_fence(g.id, g.fence);
    Stmt st(prepare("DELETE FROM moves WHERE game_id = ?1 AND ply > ?2"));
    st.text(g.id);
    st.i64(keep);
    if (sqlite3_step(st.s) != SQLITE_DONE) fail();
    write_game(g);
  });
}

void SqliteStore::save_review(const std::string& id, const std::string& review_json) {
  Stmt st(prepare("UPDATE games SET review = ?2 WHERE id = ?1"));
  st.text(id);
  st.text(review_json);
  if (sqlite3_step(st.s) != SQLITE_DONE) fail();
}

std::optional<GameRow> SqliteStore::load_game(const std::string& id) {
  static const std::string sql =
      std::string("SELECT ") + detail::kColumns + " FROM games WHERE id = ?1";
  Stmt st(prepare(sql.c_str()));
  st.text(id);
  if (!st.row()) return std::nullopt;
  GameRow g = detail::get_row(st);
  Stmt mv(prepare("SELECT hole FROM moves WHERE game_id = ?1 ORDER BY ply"));
  mv.text(id);
  while (mv.row()) g.holes.push_back(int(mv.i64()));
  return g;
}

std::vector<std::string> SqliteStore::unfinished_ids() {
  Stmt st(prepare(
      "SELECT id FROM games WHERE status IN ('waiting', 'playing') AND mode IN ('online', 'engine')"
      " ORDER BY created_ms"));
  std::vector<std::string> out;
  while (st.row()) out.push_back(st.text());
  return out;
}

void SqliteStore::expire_stale(int64_t waiting_before_ms, int64_t analysis_before_ms) {
  Stmt st(prepare(
      "UPDATE games SET status = 'aborted', reason = 'expired', winner = '' WHERE updated_ms < ?1 "
      "AND"
      " (status = 'waiting' OR (status = 'playing' AND moves = 0 AND mode != 'analysis'))"));
  st.i64(waiting_before_ms);
  if (sqlite3_step(st.s) != SQLITE_DONE) fail();
  Stmt board(
      prepare("UPDATE games SET status = 'aborted', reason = 'expired', winner = '' WHERE "
              "updated_ms < ?1 AND"
              " status = 'playing' AND mode = 'analysis'"));
  board.i64(analysis_before_ms);
  if (sqlite3_step(board.s) != SQLITE_DONE) fail();
}

std::vector<GameRow> SqliteStore::list_games(const ListQuery& q, int64_t* total) {
  const std::string pattern = detail::like_pattern(q.player);
  const char* where =
      " FROM games WHERE (?1 = '' OR toguz_fold(white_name) LIKE ?2 ESCAPE '\\' OR"
      " toguz_fold(black_name) LIKE ?2 ESCAPE '\\')"
      " AND (?3 = '' OR winner = ?3) AND (?4 = 0 OR white_user = ?4 OR black_user = ?4)"
      " AND (?5 = '' OR status = ?5)";
  {
    Stmt st(prepare((std::string("SELECT COUNT(*)") + where).c_str()));
    st.text(q.player);
    st.text(pattern);
    st.text(q.result);
    st.i64(q.account);
    st.text(q.status);
    *total = st.row() ? st.i64() : 0;
  }
  Stmt st(prepare((std::string("SELECT ") + detail::kColumns + where +
                   " ORDER BY created_ms DESC, rowid DESC LIMIT ?6 OFFSET ?7")
                      .c_str()));
  st.text(q.player);
  st.text(pattern);
  st.text(q.result);
  st.i64(q.account);
  st.text(q.status);
  st.i64(q.limit);
  st.i64(q.offset);
  std::vector<GameRow> out;
  while (st.row()) out.push_back(detail::get_row(st));
  return out;
}

void SqliteStore::step(sqlite3_stmt* st) {
  if (sqlite3_step(st) != SQLITE_DONE) fail();
}

std::optional<RatingRow> SqliteStore::rating_of(int64_t user_id, const std::string& category) {
  Stmt st(prepare((std::string(detail::kRatingSelect) + " AND category = $2").c_str()));
  st.i64(user_id);
  st.text(category);
  if (!st.row()) return std::nullopt;
  return detail::get_rating(st);
}

void SqliteStore::write_rating(int64_t user_id, const std::string& category, const RatingRow& r) {
  Stmt up(
      prepare("INSERT OR REPLACE INTO ratings (user_id, category, rating, rd, volatility, games,"
              " updated_ms) VALUES (?1,?2,?3,?4,?5,?6,?7)"));
  up.i64(user_id);
  up.text(category);
  detail::put_rating(r, up);
  step(up.s);
}

bool SqliteStore::finish_game(GameRow& g, const RateGame& rate, int ply, int hole) {
  bool written = false;
  // IMMEDIATE: the check and the writes see no other writer between them.
  transaction("BEGIN IMMEDIATE", [&] {
    if (g.fence != 0) check_fence(g.id, g.fence);
    {
      Stmt st(prepare("SELECT status FROM games WHERE id = ?1"));
      st.text(g.id);
      if (st.row()) {
        const std::string status = st.text();
        if (status == "over" || status == "aborted") return;
      }
    }
    if (ply > 0) put_move(g, ply, hole);
    if (rate && g.rated && g.white_user > 0 && g.black_user > 0 && !g.speed.empty()) {
      const int64_t users[2] = {g.white_user, g.black_user};
      const std::optional<RatingRow> before[2] = {rating_of(users[0], g.speed),
                                                  rating_of(users[1], g.speed)};
      const auto [white, black] = rate(before[0], before[1]);
      const RatingRow after[2] = {white, black};
      for (int s = 0; s < 2; ++s) {
        write_rating(users[s], g.speed, after[s]);
        // A second change for the same game and player violates the key: nothing is written.
        Stmt ch(prepare(
            "INSERT INTO rating_changes (game_id, user_id, category, rating_before, rating_after,"
            " rd_before, rd_after, time_ms) VALUES (?1,?2,?3,?4,?5,?6,?7,?8)"));
        detail::put_change(detail::change_of(g, users[s], before[s], after[s]), ch);
        step(ch.s);
      }
      detail::set_rating_fields(g, before, after);
    }
    write_game(g);
    written = true;
  });
  return written;
}

int64_t SqliteStore::create_user(const UserRow& u) {
  Stmt st(
      prepare("INSERT OR IGNORE INTO users (username, username_key, password_hash, created_ms, bot)"
              " VALUES (?1,?2,?3,?4,?5)"));
  st.text(u.username);
  st.text(u.username_key);
  st.text(u.password_hash);
  st.i64(u.created_ms);
  st.flag(u.bot);
  step(st.s);
  return sqlite3_changes(db_) == 1 ? sqlite3_last_insert_rowid(db_) : 0;
}

std::optional<UserRow> SqliteStore::find_user(const std::string& username_key) {
  Stmt st(prepare((std::string(detail::kUserColumns) + "username_key = ?1").c_str()));
  st.text(username_key);
  if (!st.row()) return std::nullopt;
  return detail::get_user(st);
}

std::optional<UserRow> SqliteStore::user_by_id(int64_t id) {
  Stmt st(prepare((std::string(detail::kUserColumns) + "id = ?1").c_str()));
  st.i64(id);
  if (!st.row()) return std::nullopt;
  return detail::get_user(st);
}

void SqliteStore::set_password(int64_t user_id, const std::string& password_hash) {
  Stmt st(prepare("UPDATE users SET password_hash = ?2 WHERE id = ?1"));
  st.i64(user_id);
  st.text(password_hash);
  step(st.s);
}

void SqliteStore::add_session(const std::string& token_hash, int64_t user_id, int64_t expires_ms) {
  Stmt st(prepare("INSERT INTO sessions (token_hash, user_id, expires_ms) VALUES (?1,?2,?3)"));
  st.text(token_hash);
  st.i64(user_id);
  st.i64(expires_ms);
  step(st.s);
}

std::optional<SessionRow> SqliteStore::find_session(const std::string& token_hash) {
  Stmt st(prepare("SELECT user_id, expires_ms FROM sessions WHERE token_hash = ?1"));
  st.text(token_hash);
  if (!st.row()) return std::nullopt;
  SessionRow r;
  r.user_id = st.i64();
  r.expires_ms = st.i64();
  return r;
}

void SqliteStore::delete_session(const std::string& token_hash) {
  Stmt st(prepare("DELETE FROM sessions WHERE token_hash = ?1"));
  st.text(token_hash);
  step(st.s);
}

void SqliteStore::delete_other_sessions(int64_t user_id, const std::string& keep, int64_t now_ms) {
  Stmt st(prepare(
      "DELETE FROM sessions WHERE (user_id = ?1 AND token_hash != ?2) OR expires_ms <= ?3"));
  st.i64(user_id);
  st.text(keep);
  st.i64(now_ms);
  step(st.s);
}

std::vector<RatingRow> SqliteStore::ratings(int64_t user_id) {
  Stmt st(prepare((std::string(detail::kRatingSelect) + " ORDER BY category").c_str()));
  st.i64(user_id);
  std::vector<RatingRow> out;
  while (st.row()) out.push_back(detail::get_rating(st));
  return out;
}

std::vector<RatingChange> SqliteStore::rating_history(int64_t user_id) {
  Stmt st(prepare(
      "SELECT game_id, user_id, category, rating_before, rating_after, rd_before, rd_after, time_ms"
      " FROM rating_changes WHERE user_id = ?1 ORDER BY time_ms, game_id"));
  st.i64(user_id);
  std::vector<RatingChange> out;
  while (st.row()) out.push_back(detail::get_change(st));
  return out;
}

std::vector<LeaderRow> SqliteStore::leaderboard(const std::string& category, double max_rd,
                                                int limit) {
  static const std::string sql =
      "SELECT u.username, r.rating, r.rd, r.games FROM ratings r JOIN users u ON u.id = r.user_id"
      " WHERE r.category = ?1 AND r.rd <= ?2" +
      std::string(detail::kNotMarked) + " ORDER BY r.rating DESC, u.id LIMIT ?3";
  Stmt st(prepare(sql.c_str()));
  st.text(category);
  st.real(max_rd);
  st.i64(limit);
  std::vector<LeaderRow> out;
  while (st.row()) {
    LeaderRow r;
    r.username = st.text();
    r.rating = st.real();
    r.rd = st.real();
    r.games = int(st.i64());
    out.push_back(std::move(r));
  }
  return out;
}

ResultCounts SqliteStore::result_counts(int64_t user_id) {
  Stmt st(prepare(detail::kResultCountsSql));
  st.i64(user_id);
  ResultCounts c;
  while (st.row()) {
    const int side = int(st.i64());
    const std::string winner = st.text();
    detail::count_result(c, side, winner, st.i64());
  }
  return c;
}

void SqliteStore::save_event(const EventRow& e) {
  static const std::string sql = std::string("INSERT OR REPLACE INTO events (") +
                                 detail::kEventColumns + ") VALUES (?1,?2,?3,?4,?5)";
  Stmt st(prepare(sql.c_str()));
  detail::put_event_row(e, st);
  if (sqlite3_step(st.s) != SQLITE_DONE) fail();
}

std::optional<EventRow> SqliteStore::load_event(const std::string& id) {
  static const std::string sql =
      std::string("SELECT ") + detail::kEventColumns + " FROM events WHERE id = ?1";
  Stmt st(prepare(sql.c_str()));
  st.text(id);
  if (!st.row()) return std::nullopt;
  return detail::get_event_row(st);
}

void SqliteStore::save_tournament(const TournamentRow& t) {
  static const std::string sql = std::string("INSERT OR REPLACE INTO tournaments (") +
                                 detail::kTournamentColumns + ") VALUES (?1,?2,?3,?4,?5,?6)";
  Stmt st(prepare(sql.c_str()));
  detail::put_tournament_row(t, st);
  if (sqlite3_step(st.s) != SQLITE_DONE) fail();
}

std::optional<TournamentRow> SqliteStore::load_tournament(const std::string& id) {
  static const std::string sql =
      std::string("SELECT ") + detail::kTournamentColumns + " FROM tournaments WHERE id = ?1";
  Stmt st(prepare(sql.c_str()));
  st.text(id);
  if (!st.row()) return std::nullopt;
  return detail::get_tournament_row(st);
}

std::vector<TournamentRow> SqliteStore::list_tournaments(int finished) {
  static const std::string open_sql =
      std::string("SELECT ") + detail::kTournamentColumns + detail::kOpenTournamentsWhere;
  static const std::string done_sql = std::string("SELECT ") + detail::kTournamentColumns +
                                      detail::kDoneTournamentsWhere + " LIMIT ?1";
  std::vector<TournamentRow> out;
  {
    Stmt st(prepare(open_sql.c_str()));
    while (st.row()) out.push_back(detail::get_tournament_row(st));
  }
  Stmt st(prepare(done_sql.c_str()));
  st.i64(std::max(0, finished));
  while (st.row()) out.push_back(detail::get_tournament_row(st));
  return out;
}

std::optional<RatingRow> SqliteStore::puzzle_player_rating(int64_t user_id) {
  Stmt st(prepare(detail::kPuzzlePlayerSelect));
  st.i64(user_id);
  if (!st.row()) return std::nullopt;
  return detail::get_rating(st);
}

std::optional<RatingRow> SqliteStore::puzzle_rating(const std::string& puzzle_id) {
  Stmt st(prepare((std::string(detail::kPuzzleSelect) + " WHERE puzzle_id = ?1").c_str()));
  st.text(puzzle_id);
  if (!st.row()) return std::nullopt;
  return detail::get_rating(st);
}

std::vector<RatingRow> SqliteStore::puzzle_ratings() {
  Stmt st(prepare((std::string(detail::kPuzzleSelect) + " ORDER BY puzzle_id").c_str()));
  std::vector<RatingRow> out;
  while (st.row()) out.push_back(detail::get_rating(st));
  return out;
}

void SqliteStore::add_puzzle_served(int64_t user_id, const std::string& puzzle_id,
                                    int64_t time_ms) {
  Stmt st(prepare(
      "INSERT OR IGNORE INTO puzzle_served (user_id, puzzle_id, served_ms) VALUES (?1, ?2, ?3)"));
  st.i64(user_id);
  st.text(puzzle_id);
  st.i64(time_ms);
  step(st.s);
}

bool SqliteStore::puzzle_was_served(int64_t user_id, const std::string& puzzle_id) {
  Stmt st(prepare("SELECT 1 FROM puzzle_served WHERE user_id = ?1 AND puzzle_id = ?2"));
  st.i64(user_id);
  st.text(puzzle_id);
  return st.row();
}

std::vector<std::string> SqliteStore::attempted_puzzles(int64_t user_id) {
  Stmt st(prepare("SELECT puzzle_id FROM puzzle_attempts WHERE user_id = ?1 ORDER BY puzzle_id"));
  st.i64(user_id);
  std::vector<std::string> out;
  while (st.row()) out.push_back(st.text());
  return out;
}

AttemptResult SqliteStore::rate_puzzle_attempt(const PuzzleAttempt& a,
                                               const RatingRow& player_start,
                                               const RatingRow& puzzle_start,
                                               const RateAttempt& rate) {
  AttemptResult out;
  // IMMEDIATE: the check for an earlier attempt and the writes see no other writer between.
  transaction("BEGIN IMMEDIATE", [&] {
    const RatingRow player = puzzle_player_rating(a.user_id).value_or(player_start);
    const RatingRow puzzle = puzzle_rating(a.puzzle_id).value_or(puzzle_start);
    {
      Stmt st(prepare((std::string("SELECT ") + detail::kAttemptColumns +
                       " FROM puzzle_attempts WHERE user_id = ?1 AND puzzle_id = ?2")
                          .c_str()));
      st.i64(a.user_id);
      st.text(a.puzzle_id);
      if (st.row()) {
        out = {false, detail::get_attempt(st), player, puzzle};
        return;
      }
    }
    const auto [player_after, puzzle_after] = rate(player, puzzle);
    Stmt up(prepare(
        "INSERT OR REPLACE INTO puzzle_player_ratings (user_id, rating, rd, volatility, games,"
        " updated_ms) VALUES (?1,?2,?3,?4,?5,?6)"));
    up.i64(a.user_id);
    detail::put_rating(player_after, up);
    step(up.s);
    Stmt pz(
        prepare("INSERT OR REPLACE INTO puzzle_ratings (puzzle_id, rating, rd, volatility, games,"
                " updated_ms) VALUES (?1,?2,?3,?4,?5,?6)"));
    pz.text(a.puzzle_id);
    detail::put_rating(puzzle_after, pz);
    step(pz.s);
    const PuzzleAttempt stored =
        detail::rated_attempt(a, player, puzzle, player_after, puzzle_after);
    Stmt at(prepare((std::string("INSERT INTO puzzle_attempts (") + detail::kAttemptColumns +
                     ") VALUES (?1,?2,?3,?4,?5,?6,?7,?8)")
                        .c_str()));
    detail::put_attempt(stored, at);
    step(at.s);
    out = {true, stored, player_after, puzzle_after};
    out.player.category = "puzzle";
    out.puzzle.category = a.puzzle_id;
  });
  return out;
}

// ---- moderation ----

Standing SqliteStore::standing(int64_t user_id) {
  Stmt st(prepare("SELECT moderator, marked, closed FROM account_standing WHERE user_id = ?1"));
  st.i64(user_id);
  Standing out;
  if (st.row()) {
    out.moderator = st.flag();
    out.marked = st.flag();
    out.closed = st.flag();
  }
  return out;
}

void SqliteStore::set_standing(int64_t user_id, const Standing& s) {
  Stmt st(
      prepare("INSERT OR REPLACE INTO account_standing (user_id, moderator, marked, closed) VALUES"
              " (?1,?2,?3,?4)"));
  st.i64(user_id);
  st.flag(s.moderator);
  st.flag(s.marked);
  st.flag(s.closed);
  step(st.s);
}

void SqliteStore::delete_sessions(int64_t user_id) {
  Stmt st(prepare("DELETE FROM sessions WHERE user_id = ?1"));
  st.i64(user_id);
  step(st.s);
}

int64_t SqliteStore::add_report(const ReportRow& r) {
  Stmt st(prepare((std::string("INSERT INTO reports (") + detail::kReportColumns +
                   ") VALUES (?1,?2,?3,?4,?5,?6,?7,?8)")
                      .c_str()));
  detail::put_report(r, st);
  step(st.s);
  return sqlite3_last_insert_rowid(db_);
}

std::vector<ReportRow> SqliteStore::list_reports(bool resolved_too, int limit) {
  Stmt st(prepare(detail::kListReportsSql));
  st.i64(resolved_too ? 1 : 0);
  st.i64(limit);
  std::vector<ReportRow> out;
  while (st.row()) out.push_back(detail::get_report(st));
  return out;
}

bool SqliteStore::resolve_report(int64_t id) {
  Stmt st(prepare("UPDATE reports SET resolved = 1 WHERE id = ?1"));
  st.i64(id);
  step(st.s);
  return sqlite3_changes(db_) > 0;
}

bool SqliteStore::open_flag(int64_t target, int64_t about) {
  Stmt st(prepare(
      "SELECT COUNT(*) FROM reports WHERE target = ?1 AND about = ?2 AND reporter = 0 AND NOT"
      " resolved"));
  st.i64(target);
  st.i64(about);
  return st.row() && st.i64() > 0;
}

void SqliteStore::set_block(int64_t user, int64_t blocked, bool on, int64_t now_ms) {
  Stmt st(prepare(on ? "INSERT OR IGNORE INTO blocks (user_id, blocked, created_ms) VALUES"
                       " (?1,?2,?3)"
                     : "DELETE FROM blocks WHERE user_id = ?1 AND blocked = ?2"));
  st.i64(user);
  st.i64(blocked);
  if (on) st.i64(now_ms);
  step(st.s);
}

std::vector<std::pair<int64_t, std::string>> SqliteStore::blocks(int64_t user) {
  Stmt st(prepare(
      "SELECT u.id, u.username FROM blocks b JOIN users u ON u.id = b.blocked WHERE b.user_id ="
      " ?1 ORDER BY u.username_key"));
  st.i64(user);
  std::vector<std::pair<int64_t, std::string>> out;
  while (st.row()) {
    const int64_t id = st.i64();
    out.emplace_back(id, st.text());
  }
  return out;
}

std::vector<int64_t> SqliteStore::blocked_either_way(int64_t user) {
  Stmt st(
      prepare("SELECT blocked FROM blocks WHERE user_id = ?1 UNION SELECT user_id FROM blocks WHERE"
              " blocked = ?1"));
  st.i64(user);
  std::vector<int64_t> out;
  while (st.row()) out.push_back(st.i64());
  return out;
}

int SqliteStore::rated_games_between(int64_t a, int64_t b, int64_t since_ms) {
  Stmt st(prepare(detail::kRatedBetweenSql));
  st.i64(a);
  st.i64(b);
  st.i64(since_ms);
  return st.row() ? int(st.i64()) : 0;
}

LossCounts SqliteStore::losses_to(int64_t loser, int64_t winner, int64_t since_ms) {
  Stmt st(prepare(detail::kLossesToSql));
  st.i64(loser);
  st.i64(winner);
  st.i64(since_ms);
  LossCounts out;
  if (st.row()) {
    out.losses = int(st.i64());
    out.resignations = int(st.i64());
  }
  return out;
}

bool SqliteStore::void_game(const std::string& game_id, const RateOne& rate) {
  bool voided = false;
  transaction("BEGIN IMMEDIATE", [&] {
    std::vector<std::pair<int64_t, std::string>> players;  // (user, category)
    {
      Stmt st(prepare("SELECT user_id, category FROM rating_changes WHERE game_id = ?1"));
      st.text(game_id);
      while (st.row()) {
        const int64_t user = st.i64();
        players.emplace_back(user, st.text());
      }
    }
    if (players.empty()) return;
    {
      Stmt del(prepare("DELETE FROM rating_changes WHERE game_id = ?1"));
      del.text(game_id);
      step(del.s);
      Stmt up(prepare("UPDATE games SET rated = 0, white_diff = 0, black_diff = 0 WHERE id = ?1"));
      up.text(game_id);
      step(up.s);
    }
    // Both players' games are read before either is rewritten: each is replayed against the
    // other's ratings as recorded.
    std::vector<std::vector<ReplayGame>> games(players.size());
    for (size_t i = 0; i < players.size(); ++i) {
      Stmt st(prepare(detail::kReplaySql));
      st.i64(players[i].first);
      st.text(players[i].second);
      while (st.row()) games[i].push_back(detail::get_replay_game(st));
    }
    for (size_t i = 0; i < players.size(); ++i) {
      const auto& [user, category] = players[i];
      const detail::Replayed r = detail::replay_ratings(user, category, games[i], rate);
      for (const RatingChange& c : r.changes) {
        Stmt ch(prepare(
            "UPDATE rating_changes SET rating_before = ?3, rating_after = ?4, rd_before = ?5,"
            " rd_after = ?6 WHERE game_id = ?1 AND user_id = ?2"));
        ch.text(c.game_id);
        ch.i64(c.user_id);
        ch.real(c.rating_before);
        ch.real(c.rating_after);
        ch.real(c.rd_before);
        ch.real(c.rd_after);
        step(ch.s);
      }
      if (r.rating) {
        write_rating(user, category, *r.rating);
      } else {
        Stmt del(prepare("DELETE FROM ratings WHERE user_id = ?1 AND category = ?2"));
        del.i64(user);
        del.text(category);
        step(del.s);
      }
    }
    voided = true;
  });
  return voided;
}

// ---- mail ----

namespace {
// A statement shared with PostgreSQL ($n) with SQLite's numbered parameters (?n): SQLite
// numbers "$n" in order of appearance, not by n.
std::string numbered(const char* sql) {
  std::string s = sql;
  for (char& c : s)
    if (c == '$') c = '?';
  return s;
}
}  // namespace

void SqliteStore::set_email(int64_t user_id, const std::string& email, bool verified,
                            const std::string& lang) {
  Stmt st(prepare(numbered(detail::kSetEmailSql).c_str()));
  st.i64(user_id);
  st.text(email);
  st.i64(verified ? detail::now_ms() : 0);
  st.text(lang);
  step(st.s);
}

void SqliteStore::set_notices(int64_t user_id, int notices) {
  Stmt st(prepare(numbered(detail::kSetNoticesSql).c_str()));
  st.i64(user_id);
  st.i64(notices);
  step(st.s);
}

std::vector<UserRow> SqliteStore::users_by_email(const std::string& email, int limit) {
  Stmt st(prepare((std::string(detail::kUserColumns) + "email = ?1 ORDER BY id LIMIT ?2").c_str()));
  st.text(email);
  st.i64(limit);
  std::vector<UserRow> out;
  while (st.row()) out.push_back(detail::get_user(st));
  return out;
}

void SqliteStore::add_mail_token(const MailToken& t) {
  Stmt st(prepare(numbered(detail::kAddMailTokenSql).c_str()));
  st.text(t.token_hash);
  st.i64(t.user_id);
  st.text(t.purpose);
  st.text(t.email);
  st.i64(t.expires_ms);
  step(st.s);
}

std::optional<MailToken> SqliteStore::take_mail_token(const std::string& token_hash,
                                                      const std::string& purpose, int64_t now) {
  std::optional<MailToken> out;
  transaction("BEGIN IMMEDIATE", [&] {
    {
      Stmt st(prepare(numbered(detail::kFindMailTokenSql).c_str()));
      st.text(token_hash);
      st.text(purpose);
      if (st.row()) out = detail::get_mail_token(st);
    }
    Stmt del(
        prepare(numbered(out ? detail::kDropMailTokensSql : detail::kExpireMailTokensSql).c_str()));
    if (out) {
      del.i64(out->user_id);
      del.text(purpose);
    }
    del.i64(now);
    step(del.s);
  });
  if (out && out->expires_ms <= now) out.reset();
  return out;
}

// ---- settings ----

std::string SqliteStore::settings(int64_t user_id) {
  Stmt st(prepare(numbered(detail::kSettingsSql).c_str()));
  st.i64(user_id);
  return st.row() ? st.text() : "";
}

void SqliteStore::set_settings(int64_t user_id, const std::string& json, int64_t now_ms) {
  Stmt st(prepare(numbered(detail::kSetSettingsSql).c_str()));
  st.i64(user_id);
  st.text(json);
  st.i64(now_ms);
  step(st.s);
}

std::vector<int> sqlite_schema_versions() {
  std::vector<int> out;
  for (const detail::Migration& m : kMigrations) out.push_back(m.version);
  return out;
}

std::string sqlite_migration_sql(int version) {
  for (const detail::Migration& m : kMigrations)
    if (m.version == version) return migration_sql(m);
  throw std::out_of_range("no SQLite migration of version " + std::to_string(version));
}

int64_t SqliteStore::add_chat(const ChatRow& m) {
  Stmt st(prepare(
      (std::string("INSERT INTO chat (") + detail::kChatColumns + ") VALUES (?1,?2,?3,?4,?5,?6)")
          .c_str()));
  detail::put_chat(m, st);
  step(st.s);
  return sqlite3_last_insert_rowid(db_);
}

std::vector<ChatRow> SqliteStore::game_chat(const std::string& game_id) {
  Stmt st(prepare(detail::kGameChatSql));
  st.text(game_id);
  std::vector<ChatRow> out;
  while (st.row()) out.push_back(detail::get_chat(st));
  return out;
}

std::optional<ChatRow> SqliteStore::chat_message(int64_t id) {
  Stmt st(prepare(detail::kChatMessageSql));
  st.i64(id);
  if (!st.row()) return std::nullopt;
  return detail::get_chat(st);
}

}  // namespace toguz::store
