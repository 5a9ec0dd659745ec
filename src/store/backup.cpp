#include "store/backup.h"

#include <sqlite3.h>

#include <filesystem>
#include <memory>
#include <stdexcept>

#include "store/store.h"

namespace toguz::store {

namespace {

struct Db {
  sqlite3* h = nullptr;
  Db(const std::string& path, int flags) {
    if (sqlite3_open_v2(path.c_str(), &h, flags, nullptr) != SQLITE_OK) {
      const std::string why = h ? sqlite3_errmsg(h) : "out of memory";
      sqlite3_close(h);
      throw std::runtime_error("cannot open " + path + ": " + why);
    }
    sqlite3_busy_timeout(h, 5000);
  }
  ~Db() { sqlite3_close(h); }
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
};

// The first column of the first row of `sql` as text ("" for none); throws naming `path`.
std::string scalar(Db& db, const std::string& sql, const std::string& path) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db.h, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
    throw std::runtime_error(path + ": " + sqlite3_errmsg(db.h));
  std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> owned(st, sqlite3_finalize);
  const int rc = sqlite3_step(st);
  if (rc == SQLITE_DONE) return "";
  if (rc != SQLITE_ROW) throw std::runtime_error(path + ": " + sqlite3_errmsg(db.h));
  const unsigned char* t = sqlite3_column_text(st, 0);
  return t ? reinterpret_cast<const char*>(t) : "";
}

void exec(Db& db, const std::string& sql, const std::string& path) {
  char* err = nullptr;
  if (sqlite3_exec(db.h, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string why = err ? err : sqlite3_errmsg(db.h);
    sqlite3_free(err);
    throw std::runtime_error(path + ": " + why);
  }
}

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

}  // namespace

CopyInfo check_sqlite_copy(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) throw std::runtime_error(path + ": no such file");
  Db db(path, SQLITE_OPEN_READONLY);
  const std::string ok = scalar(db, "PRAGMA integrity_check", path);
  if (ok != "ok") throw std::runtime_error(path + ": not intact: " + ok);
  CopyInfo info;
  if (scalar(db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'schema_version'", path) != "1")
    throw std::runtime_error(path + ": not a toguz database (no schema_version table)");
  info.schema_version =
      std::stoi(scalar(db, "SELECT COALESCE(MAX(version), 0) FROM schema_version", path));
  if (info.schema_version > kSchemaVersion)
    throw std::runtime_error(path + ": schema version " + std::to_string(info.schema_version) +
                             " is newer than this program's (" + std::to_string(kSchemaVersion) +
                             ")");
  info.games = std::stoll(scalar(db, "SELECT COUNT(*) FROM games", path));
  info.moves = std::stoll(scalar(db, "SELECT COUNT(*) FROM moves", path));
  return info;
}

CopyInfo backup_sqlite(const std::string& db, const std::string& to) {
  if (std::filesystem::exists(to))
    throw std::runtime_error(to + ": exists; a backup makes a new file");
  if (!std::filesystem::is_regular_file(db)) throw std::runtime_error(db + ": no such database");
  {
    Db src(db, SQLITE_OPEN_READONLY);
    exec(src, "VACUUM INTO " + quoted(to), db);
  }
  return check_sqlite_copy(to);
}

CopyInfo restore_sqlite(const std::string& from, const std::string& db) {
  const CopyInfo info = check_sqlite_copy(from);
  Db src(from, SQLITE_OPEN_READONLY);
  Db dst(db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  sqlite3_backup* b = sqlite3_backup_init(dst.h, "main", src.h, "main");
  if (!b) throw std::runtime_error(db + ": " + sqlite3_errmsg(dst.h));
  const int rc = sqlite3_backup_step(b, -1);
  sqlite3_backup_finish(b);
  if (rc != SQLITE_DONE)
    throw std::runtime_error(
        db + ": restore failed: " + sqlite3_errstr(rc) +
        (rc == SQLITE_BUSY || rc == SQLITE_LOCKED ? " (stop the server first)" : ""));
  return info;
}

}  // namespace toguz::store
