#include "server/store.h"

#include <sqlite3.h>

#include <boost/json.hpp>
#include <stdexcept>

namespace toguz::server {

namespace {

// A prepared statement that finalizes itself.
struct Stmt {
  sqlite3_stmt* s = nullptr;
  explicit Stmt(sqlite3_stmt* p) : s(p) {}
  ~Stmt() { sqlite3_finalize(s); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  void text(int i, const std::string& v) {
    sqlite3_bind_text(s, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
  }
  void i64(int i, int64_t v) { sqlite3_bind_int64(s, i, v); }
  std::string col_text(int i) {
    const unsigned char* t = sqlite3_column_text(s, i);
    return t ? std::string(reinterpret_cast<const char*>(t), size_t(sqlite3_column_bytes(s, i)))
             : std::string();
  }
  int64_t col_i64(int i) { return sqlite3_column_int64(s, i); }
};

constexpr const char* kSchema = R"SQL(
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
)SQL";

constexpr const char* kColumns =
    "id, mode, variant, tuz, play_out, start_position, white_name, black_name, white_token, "
    "black_token, invite, white_seated, black_seated, engine_side, level, clock_initial_ms, "
    "clock_increment_ms, white_ms, black_ms, status, winner, reason, score, moves, created_ms, "
    "updated_ms, review, tags";

std::string tags_json(const std::vector<std::pair<std::string, std::string>>& tags) {
  if (tags.empty()) return "";
  boost::json::array a;
  for (const auto& [k, v] : tags)
    a.push_back(boost::json::array{boost::json::string(k), boost::json::string(v)});
  return boost::json::serialize(a);
}

std::vector<std::pair<std::string, std::string>> tags_of(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  boost::json::error_code ec;
  boost::json::value v = boost::json::parse(text, ec);
  if (ec || !v.is_array()) return out;
  for (const auto& t : v.as_array())
    if (t.is_array() && t.as_array().size() == 2 && t.as_array()[0].is_string() &&
        t.as_array()[1].is_string())
      out.emplace_back(std::string(t.as_array()[0].as_string()),
                       std::string(t.as_array()[1].as_string()));
  return out;
}

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

GameRow read_row(Stmt& st) {
  GameRow g;
  int c = 0;
  g.id = st.col_text(c++);
  g.mode = st.col_text(c++);
  g.variant = st.col_text(c++);
  g.tuz = st.col_i64(c++) != 0;
  g.play_out = st.col_i64(c++) != 0;
  g.start_position = st.col_text(c++);
  g.white_name = st.col_text(c++);
  g.black_name = st.col_text(c++);
  g.white_token = st.col_text(c++);
  g.black_token = st.col_text(c++);
  g.invite = st.col_text(c++);
  g.white_seated = st.col_i64(c++) != 0;
  g.black_seated = st.col_i64(c++) != 0;
  g.engine_side = int(st.col_i64(c++));
  g.level = int(st.col_i64(c++));
  g.clock_initial_ms = st.col_i64(c++);
  g.clock_increment_ms = st.col_i64(c++);
  g.white_ms = st.col_i64(c++);
  g.black_ms = st.col_i64(c++);
  g.status = st.col_text(c++);
  g.winner = st.col_text(c++);
  g.reason = st.col_text(c++);
  g.score = st.col_text(c++);
  g.moves = int(st.col_i64(c++));
  g.created_ms = st.col_i64(c++);
  g.updated_ms = st.col_i64(c++);
  g.review = st.col_text(c++);
  g.tags = tags_of(st.col_text(c++));
  return g;
}

}  // namespace

std::string fold_case(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 'A' && c <= 'Z') {
      out += char(c + 32);
      continue;
    }
    // Two-byte characters U+0080-07FF: Latin-1 and Cyrillic.
    if ((c >> 5) == 6 && i + 1 < text.size() &&
        (static_cast<unsigned char>(text[i + 1]) >> 6) == 2) {
      uint32_t cp = uint32_t(c & 0x1f) << 6 | (static_cast<unsigned char>(text[i + 1]) & 0x3f);
      if (cp >= 0xc0 && cp <= 0xde && cp != 0xd7)
        cp += 0x20;  // À..Þ
      else if (cp >= 0x410 && cp <= 0x42f)
        cp += 0x20;  // А..Я
      else if (cp >= 0x400 && cp <= 0x40f)
        cp += 0x50;  // Ѐ..Џ (І, Ё)
      else if (cp == 0x4c0)
        cp = 0x4cf;  // Ӏ
      else if (cp >= 0x4c1 && cp <= 0x4ce)
        cp += cp % 2;  // Ӂ..Ӎ: odd upper
      else if (cp % 2 == 0 && ((cp >= 0x460 && cp <= 0x480) || (cp >= 0x48a && cp <= 0x4be) ||
                               (cp >= 0x4d0 && cp <= 0x4fe)))
        cp += 1;  // Ғ Қ Ң Ү Ұ Һ Ә Ө ...
      out += char(0xc0 | cp >> 6);
      out += char(0x80 | (cp & 0x3f));
      ++i;
      continue;
    }
    out += char(c);
  }
  return out;
}

Store::Store(const std::string& path) : path_(path) {
  if (sqlite3_open_v2(path.c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                      nullptr) != SQLITE_OK) {
    std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("cannot open database " + path + ": " + why);
  }
  sqlite3_busy_timeout(db_, 5000);
  try {
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=NORMAL");
    exec(kSchema);
    // Added after the first schema: a database made before it gets the column.
    sqlite3_exec(db_, "ALTER TABLE games ADD COLUMN tags TEXT NOT NULL DEFAULT ''", nullptr,
                 nullptr, nullptr);
    sqlite3_create_function(db_, "toguz_fold", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                            sql_fold, nullptr, nullptr);
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

Store::~Store() {
  sqlite3_close(db_);
}

void Store::exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string why = err ? err : "error";
    sqlite3_free(err);
    throw std::runtime_error("database " + path_ + ": " + why);
  }
}

sqlite3_stmt* Store::prepare(const char* sql) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db_, sql, -1, &s, nullptr) != SQLITE_OK)
    throw std::runtime_error("database " + path_ + ": " + sqlite3_errmsg(db_));
  return s;
}

void Store::write_game(const GameRow& g) {
  static const std::string sql =
      std::string("INSERT OR REPLACE INTO games (") + kColumns +
      ") VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,"
      "?20,?21,?22,?23,?24,?25,?26,?27,?28)";
  Stmt st(prepare(sql.c_str()));
  int c = 1;
  st.text(c++, g.id);
  st.text(c++, g.mode);
  st.text(c++, g.variant);
  st.i64(c++, g.tuz);
  st.i64(c++, g.play_out);
  st.text(c++, g.start_position);
  st.text(c++, g.white_name);
  st.text(c++, g.black_name);
  st.text(c++, g.white_token);
  st.text(c++, g.black_token);
  st.text(c++, g.invite);
  st.i64(c++, g.white_seated);
  st.i64(c++, g.black_seated);
  st.i64(c++, g.engine_side);
  st.i64(c++, g.level);
  st.i64(c++, g.clock_initial_ms);
  st.i64(c++, g.clock_increment_ms);
  st.i64(c++, g.white_ms);
  st.i64(c++, g.black_ms);
  st.text(c++, g.status);
  st.text(c++, g.winner);
  st.text(c++, g.reason);
  st.text(c++, g.score);
  st.i64(c++, g.moves);
  st.i64(c++, g.created_ms);
  st.i64(c++, g.updated_ms);
  st.text(c++, g.review);
  st.text(c++, tags_json(g.tags));
  if (sqlite3_step(st.s) != SQLITE_DONE)
    throw std::runtime_error("database " + path_ + ": " + sqlite3_errmsg(db_));
}

void Store::save_game(const GameRow& g) {
  write_game(g);
}

void Store::add_move(const GameRow& g, int ply, int hole) {
  exec("BEGIN");
  try {
    Stmt st(
        prepare("INSERT OR REPLACE INTO moves (game_id, ply, hole, white_ms, black_ms) VALUES "
                "(?1,?2,?3,?4,?5)"));
    st.text(1, g.id);
    st.i64(2, ply);
    st.i64(3, hole);
    st.i64(4, g.white_ms);
    st.i64(5, g.black_ms);
    if (sqlite3_step(st.s) != SQLITE_DONE) throw std::runtime_error(sqlite3_errmsg(db_));
    write_game(g);
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void Store::truncate_moves(const GameRow& g, int keep) {
  exec("BEGIN");
  try {
    Stmt st(prepare("DELETE FROM moves WHERE game_id = ?1 AND ply > ?2"));
    st.text(1, g.id);
    st.i64(2, keep);
    if (sqlite3_step(st.s) != SQLITE_DONE) throw std::runtime_error(sqlite3_errmsg(db_));
    write_game(g);
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void Store::save_review(const std::string& id, const std::string& review_json) {
  Stmt st(prepare("UPDATE games SET review = ?2 WHERE id = ?1"));
  st.text(1, id);
  st.text(2, review_json);
  if (sqlite3_step(st.s) != SQLITE_DONE)
    throw std::runtime_error("database " + path_ + ": " + sqlite3_errmsg(db_));
}

std::optional<GameRow> Store::load_game(const std::string& id) {
  static const std::string sql = std::string("SELECT ") + kColumns + " FROM games WHERE id = ?1";
  Stmt st(prepare(sql.c_str()));
  st.text(1, id);
  if (sqlite3_step(st.s) != SQLITE_ROW) return std::nullopt;
  GameRow g = read_row(st);
  Stmt mv(prepare("SELECT hole FROM moves WHERE game_id = ?1 ORDER BY ply"));
  mv.text(1, id);
  while (sqlite3_step(mv.s) == SQLITE_ROW) g.holes.push_back(int(mv.col_i64(0)));
  return g;
}

std::vector<std::string> Store::unfinished_ids() {
  Stmt st(prepare(
      "SELECT id FROM games WHERE status IN ('waiting', 'playing') AND mode IN ('online', 'engine')"
      " ORDER BY created_ms"));
  std::vector<std::string> out;
  while (sqlite3_step(st.s) == SQLITE_ROW) out.push_back(st.col_text(0));
  return out;
}

void Store::expire_stale(int64_t waiting_before_ms, int64_t analysis_before_ms) {
  Stmt st(prepare(
      "UPDATE games SET status = 'aborted', reason = 'expired', winner = '' WHERE updated_ms < ?1 "
      "AND"
      " (status = 'waiting' OR (status = 'playing' AND moves = 0 AND mode != 'analysis'))"));
  st.i64(1, waiting_before_ms);
  if (sqlite3_step(st.s) != SQLITE_DONE)
    throw std::runtime_error("database " + path_ + ": " + sqlite3_errmsg(db_));
  Stmt board(
      prepare("UPDATE games SET status = 'aborted', reason = 'expired', winner = '' WHERE "
              "updated_ms < ?1 AND"
              " status = 'playing' AND mode = 'analysis'"));
  board.i64(1, analysis_before_ms);
  if (sqlite3_step(board.s) != SQLITE_DONE)
    throw std::runtime_error("database " + path_ + ": " + sqlite3_errmsg(db_));
}

std::vector<GameRow> Store::list_games(const ListQuery& q, int64_t* total) {
  // The name filter is a LIKE pattern with the user's text escaped (\ % _ are literal).
  std::string pattern = "%";
  for (char ch : fold_case(q.player)) {
    if (ch == '%' || ch == '_' || ch == '\\') pattern += '\\';
    pattern += ch;
  }
  pattern += '%';
  const char* where =
      " FROM games WHERE (?1 = '' OR toguz_fold(white_name) LIKE ?2 ESCAPE '\\' OR"
      " toguz_fold(black_name) LIKE ?2 ESCAPE '\\')"
      " AND (?3 = '' OR winner = ?3)";
  {
    Stmt st(prepare((std::string("SELECT COUNT(*)") + where).c_str()));
    st.text(1, q.player);
    st.text(2, pattern);
    st.text(3, q.result);
    *total = sqlite3_step(st.s) == SQLITE_ROW ? st.col_i64(0) : 0;
  }
  Stmt st(prepare((std::string("SELECT ") + kColumns + where +
                   " ORDER BY created_ms DESC, rowid DESC LIMIT ?4 OFFSET ?5")
                      .c_str()));
  st.text(1, q.player);
  st.text(2, pattern);
  st.text(3, q.result);
  st.i64(4, q.limit);
  st.i64(5, q.offset);
  std::vector<GameRow> out;
  while (sqlite3_step(st.s) == SQLITE_ROW) out.push_back(read_row(st));
  return out;
}

}  // namespace toguz::server
