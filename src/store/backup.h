// Copies of a SQLite store (`toguz admin backup` / `restore`, docs/operations.md "Backups"). A
// backup is taken while a server plays games on the file: `VACUUM INTO` reads the database in
// one read transaction, so the copy is the database as of one commit (every move committed
// before it, none after), and in WAL mode the server's writes go on meanwhile. A restore
// replaces a database with a checked copy through SQLite's backup API, which takes the
// database's locks; the server must be stopped first (it keeps its games in memory). A
// PostgreSQL store is copied with pg_dump and pg_restore.
#pragma once

#include <cstdint>
#include <string>

namespace toguz::store {

// What a copy holds.
struct CopyInfo {
  int schema_version = 0;
  int64_t games = 0, moves = 0;
};

// Writes a consistent copy of the SQLite database `db` to the new file `to` (refused when it
// exists), then checks the copy (PRAGMA integrity_check). Throws std::runtime_error naming the
// file.
CopyInfo backup_sqlite(const std::string& db, const std::string& to);

// Checks the copy `from` (integrity, a schema this program knows) and makes the SQLite database
// `db` (created when missing) a copy of it. Throws std::runtime_error naming the file.
CopyInfo restore_sqlite(const std::string& from, const std::string& db);

// Opens `path` read-only and checks it: integrity, schema version (not newer than this
// program's), the counts. Throws std::runtime_error naming the file.
CopyInfo check_sqlite_copy(const std::string& path);

}  // namespace toguz::store
