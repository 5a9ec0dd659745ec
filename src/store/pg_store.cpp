#include "store/pg_store.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <pqxx/pqxx>
#include <stdexcept>
#include <type_traits>

namespace toguz::store {

namespace {

// Text as PostgreSQL takes it: well-formed UTF-8 (a byte that is not becomes U+FFFD) without
// NUL (dropped). Text the server stores is UTF-8 already; this keeps a stray byte from failing
// a whole write.
std::string pg_text(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size();) {
    const unsigned char c = static_cast<unsigned char>(in[i]);
    const size_t len = c < 0x80         ? 1
                       : (c >> 5) == 6  ? 2
                       : (c >> 4) == 14 ? 3
                       : (c >> 3) == 30 ? 4
                                        : 0;
    bool ok = len > 0 && i + len <= in.size();
    uint32_t cp = len == 1 ? c : c & (0x7f >> len);
    for (size_t k = 1; ok && k < len; ++k) {
      const unsigned char d = static_cast<unsigned char>(in[i + k]);
      ok = (d >> 6) == 2;
      cp = cp << 6 | (d & 0x3f);
    }
    static constexpr uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (ok && (cp < kMin[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))) ok = false;
    if (!ok) {
      out += "\xef\xbf\xbd";
      ++i;
      continue;
    }
    if (c != 0) out.append(in.substr(i, len));
    i += len;
  }
  return out;
}

// Statement parameters in order, as text (PostgreSQL converts them to the column types).
struct Params {
  std::vector<std::string> v;
  void text(const std::string& s) { v.push_back(pg_text(s)); }
  void i64(int64_t x) { v.push_back(std::to_string(x)); }
  void flag(bool b) { v.push_back(b ? "true" : "false"); }
  void real(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    v.push_back(buf);
  }
  auto dynamic() const { return pqxx::prepare::make_dynamic_params(v); }
};

// The columns of a result row in order (get_row).
struct Columns {
  const pqxx::row& r;
  pqxx::row::size_type i = 0;
  std::string text() { return r[i++].as<std::string>(); }
  int64_t i64() { return r[i++].as<int64_t>(); }
  bool flag() { return r[i++].as<bool>(); }
  double real() { return r[i++].as<double>(); }
};

// Held for the whole migration: instances that start together migrate one after the other.
constexpr int64_t kMigrationLock = 0x746f67757a;  // "toguz"

const std::string& upsert_game_sql() {
  static const std::string sql = [] {
    std::string s = std::string("INSERT INTO games (") + detail::kColumns +
                    ", white_fold, black_fold) VALUES (";
    for (int i = 1; i <= detail::kColumnCount + 2; ++i)
      s += (i > 1 ? ",$" : "$") + std::to_string(i);
    s += ") ON CONFLICT (id) DO UPDATE SET ";
    const std::string cols = std::string(detail::kColumns) + ", white_fold, black_fold";
    bool first = true;
    for (size_t at = 0; at < cols.size();) {
      size_t end = cols.find(", ", at);
      if (end == std::string::npos) end = cols.size();
      const std::string c = cols.substr(at, end - at);
      if (c != "id") {
        s += (first ? "" : ", ") + c + " = EXCLUDED." + c;
        first = false;
      }
      at = end + 2;
    }
    return s;
  }();
  return sql;
}

const char* kListWhere =
    " FROM games WHERE ($1 = '' OR white_fold LIKE $2 ESCAPE '\\' OR black_fold LIKE $2 ESCAPE "
    "'\\') AND ($3 = '' OR winner = $3) AND ($4::BIGINT = 0 OR white_user = $4 OR black_user = "
    "$4) AND ($5 = '' OR status = $5)";
// An account's rating row of a category, inserted or replaced (Params: user, category, then
// put_rating's values).
const char* kUpsertRating =
    "INSERT INTO ratings (user_id, category, rating, rd, volatility, games, updated_ms)"
    " VALUES ($1,$2,$3,$4,$5,$6,$7) ON CONFLICT (user_id, category) DO UPDATE SET"
    " rating = EXCLUDED.rating, rd = EXCLUDED.rd, volatility = EXCLUDED.volatility,"
    " games = EXCLUDED.games, updated_ms = EXCLUDED.updated_ms";
const char* kExpire = "UPDATE games SET status = 'aborted', reason = 'expired', winner = ''";

}  // namespace

const std::vector<detail::Migration>& pg_migrations() {
  static const std::string accounts_sql =
      detail::accounts_migration("BIGSERIAL PRIMARY KEY", "DOUBLE PRECISION", "BOOLEAN", "false");
  static const std::string puzzle_sql =
      detail::puzzle_ratings_migration("DOUBLE PRECISION", "BOOLEAN", "false");
  static const std::string moderation_sql =
      detail::moderation_migration("BIGSERIAL PRIMARY KEY", "BOOLEAN", "false");
  static const std::string chat_sql = detail::chat_migration("BIGSERIAL PRIMARY KEY");
  static const std::vector<detail::Migration> m = {
      {1, R"SQL(
CREATE TABLE games (
  id TEXT PRIMARY KEY, mode TEXT NOT NULL, variant TEXT NOT NULL, tuz BOOLEAN NOT NULL,
  play_out BOOLEAN NOT NULL, start_position TEXT NOT NULL,
  white_name TEXT NOT NULL, black_name TEXT NOT NULL, white_token TEXT NOT NULL,
  black_token TEXT NOT NULL, invite TEXT NOT NULL, white_seated BOOLEAN NOT NULL,
  black_seated BOOLEAN NOT NULL, engine_side INTEGER NOT NULL, level INTEGER NOT NULL,
  clock_initial_ms BIGINT NOT NULL, clock_increment_ms BIGINT NOT NULL,
  white_ms BIGINT NOT NULL, black_ms BIGINT NOT NULL, status TEXT NOT NULL,
  winner TEXT NOT NULL, reason TEXT NOT NULL, score TEXT NOT NULL, moves INTEGER NOT NULL,
  created_ms BIGINT NOT NULL, updated_ms BIGINT NOT NULL, review TEXT NOT NULL DEFAULT '',
  white_fold TEXT NOT NULL, black_fold TEXT NOT NULL);
CREATE INDEX games_created ON games(created_ms);
CREATE INDEX games_status ON games(status);
CREATE TABLE moves (
  game_id TEXT NOT NULL, ply INTEGER NOT NULL, hole INTEGER NOT NULL,
  white_ms BIGINT NOT NULL, black_ms BIGINT NOT NULL,
  PRIMARY KEY (game_id, ply));
)SQL"},
      {2, "ALTER TABLE games ADD COLUMN tags TEXT NOT NULL DEFAULT ''"},
      {3, accounts_sql.c_str()},
      {4, "CREATE TABLE game_fences (game_id TEXT PRIMARY KEY, token BIGINT NOT NULL)"},
      {5, detail::kEventsMigration},
      {6, detail::kTournamentsMigration},
      {7, puzzle_sql.c_str()},
      {8, detail::kFairPlayMigration},
      {9, moderation_sql.c_str()},
      {10, detail::kMailMigration},
      {11, chat_sql.c_str()},
      {12, detail::kSettingsMigration},
  };
  return m;
}

std::string redact_url(const std::string& url) {
  std::string out = url;
  const size_t scheme = out.find("://");
  if (scheme != std::string::npos) {
    const size_t start = scheme + 3;
    const size_t at = out.find('@', start);
    const size_t slash = out.find('/', start);
    if (at != std::string::npos && (slash == std::string::npos || at < slash)) {
      const size_t colon = out.find(':', start);
      if (colon != std::string::npos && colon < at) out.replace(colon + 1, at - colon - 1, "***");
    }
  }
  for (size_t p = out.find("password="); p != std::string::npos; p = out.find("password=", p + 1)) {
    const size_t from = p + 9;
    const size_t end = out.find('&', from);
    out.replace(from, (end == std::string::npos ? out.size() : end) - from, "***");
  }
  return out;
}

// The connection with its prepared statements.
struct PgStore::Conn {
  pqxx::connection c;
  explicit Conn(const std::string& url, const std::string& name) : c(url) {
    c.set_client_encoding("UTF8");
    {
      pqxx::nontransaction n(c);
      const std::string enc = n.exec("SHOW server_encoding")[0][0].as<std::string>();
      if (enc != "UTF8")
        throw std::runtime_error("database " + name + ": encoding " + enc +
                                 ", expected UTF8 (createdb -E UTF8)");
    }
  }
  void prepare() {
    const std::string cols = detail::kColumns;
    c.prepare("save_game", upsert_game_sql());
    c.prepare("add_move",
              "INSERT INTO moves (game_id, ply, hole, white_ms, black_ms) VALUES ($1,$2,$3,$4,$5)"
              " ON CONFLICT (game_id, ply) DO UPDATE SET hole = EXCLUDED.hole,"
              " white_ms = EXCLUDED.white_ms, black_ms = EXCLUDED.black_ms");
    c.prepare("move_update", detail::kMoveUpdateSql);
    c.prepare("truncate_moves", "DELETE FROM moves WHERE game_id = $1 AND ply > $2");
    // No row comes back when a newer token is stored (the row lock orders concurrent writers).
    c.prepare("fence",
              "INSERT INTO game_fences (game_id, token) VALUES ($1, $2) ON CONFLICT (game_id) DO "
              "UPDATE SET token = EXCLUDED.token WHERE game_fences.token <= EXCLUDED.token "
              "RETURNING token");
    c.prepare("save_review", "UPDATE games SET review = $2 WHERE id = $1");
    c.prepare("load_game", "SELECT " + cols + " FROM games WHERE id = $1");
    c.prepare("load_moves", "SELECT hole FROM moves WHERE game_id = $1 ORDER BY ply");
    c.prepare("unfinished_ids",
              "SELECT id FROM games WHERE status IN ('waiting', 'playing') AND mode IN "
              "('online', 'engine') ORDER BY created_ms, id");
    c.prepare("expire_waiting",
              std::string(kExpire) +
                  " WHERE updated_ms < $1 AND (status = 'waiting' OR (status = 'playing' AND "
                  "moves = 0 AND mode != 'analysis'))");
    c.prepare("expire_analysis", std::string(kExpire) +
                                     " WHERE updated_ms < $1 AND status = 'playing' AND mode = "
                                     "'analysis'");
    c.prepare("count_games", std::string("SELECT COUNT(*)") + kListWhere);
    c.prepare("list_games", "SELECT " + cols + kListWhere +
                                " ORDER BY created_ms DESC, id DESC LIMIT $6 OFFSET $7");
    c.prepare("save_event", std::string("INSERT INTO events (") + detail::kEventColumns +
                                ") VALUES ($1,$2,$3,$4,$5) ON CONFLICT (id) DO UPDATE SET"
                                " key_hash = EXCLUDED.key_hash, state = EXCLUDED.state,"
                                " created_ms = EXCLUDED.created_ms,"
                                " updated_ms = EXCLUDED.updated_ms");
    c.prepare("load_event",
              std::string("SELECT ") + detail::kEventColumns + " FROM events WHERE id = $1");
    c.prepare("save_tournament",
              std::string("INSERT INTO tournaments (") + detail::kTournamentColumns +
                  ") VALUES ($1,$2,$3,$4,$5,$6) ON CONFLICT (id) DO UPDATE SET"
                  " status = EXCLUDED.status, state = EXCLUDED.state,"
                  " starts_ms = EXCLUDED.starts_ms, created_ms = EXCLUDED.created_ms,"
                  " updated_ms = EXCLUDED.updated_ms");
    c.prepare("load_tournament", std::string("SELECT ") + detail::kTournamentColumns +
                                     " FROM tournaments WHERE id = $1");
    c.prepare("open_tournaments",
              std::string("SELECT ") + detail::kTournamentColumns + detail::kOpenTournamentsWhere);
    c.prepare("done_tournaments", std::string("SELECT ") + detail::kTournamentColumns +
                                      detail::kDoneTournamentsWhere + " LIMIT $1");
  }
};

// A call's transaction: its own on the connection, or inside write_group a savepoint
// (pqxx::subtransaction) of the innermost one open, so that a call that throws is rolled back
// alone and the group's transaction commits the rest. `snapshot`: repeatable read (its own
// transaction only; a savepoint reads as its group does).
class PgStore::Tx {
 public:
  explicit Tx(PgStore& s, bool snapshot = false) : s_(s), outer_(s.current_) {
    if (outer_) {
      sub_.emplace(*outer_);
      s_.current_ = &*sub_;
    } else if (snapshot) {
      own_ =
          std::make_unique<pqxx::transaction<pqxx::isolation_level::repeatable_read>>(s.conn_->c);
    } else {
      own_ = std::make_unique<pqxx::work>(s.conn_->c);
    }
  }
  ~Tx() { s_.current_ = outer_; }  // then the savepoint, if not committed, is rolled back
  Tx(const Tx&) = delete;
  Tx& operator=(const Tx&) = delete;
  pqxx::transaction_base& operator*() {
    if (sub_) return *sub_;
    return *own_;
  }

 private:
  PgStore& s_;
  pqxx::dbtransaction* outer_;
  std::unique_ptr<pqxx::dbtransaction> own_;
  std::optional<pqxx::subtransaction> sub_;
};

namespace {

// A libpqxx failure as the store reports it: a lost connection, a read-only server or a full
// disk is a StoreUnavailable (temporary); anything else a runtime_error.
std::exception_ptr pg_error(const std::string& name, const pqxx::failure& e, bool lost) {
  const std::string what = "database " + name + ": " + e.what();
  std::optional<StoreFault> fault;
  if (lost || dynamic_cast<const pqxx::broken_connection*>(&e)) fault = StoreFault::Unavailable;
  if (const auto* sql = dynamic_cast<const pqxx::sql_error*>(&e)) {
    const std::string state = sql->sqlstate();
    if (state == "25006") fault = StoreFault::ReadOnly;  // read_only_sql_transaction
    if (state == "53100") fault = StoreFault::Full;      // disk_full
    if (state.rfind("08", 0) == 0 || state.rfind("57P", 0) == 0) fault = StoreFault::Unavailable;
  }
  if (fault) return std::make_exception_ptr(StoreUnavailable(*fault, what));
  return std::make_exception_ptr(std::runtime_error(what));
}

}  // namespace

template <class F>
auto PgStore::guarded(F&& body) -> decltype(body()) {
  for (int attempt = 0;; ++attempt) {
    try {
      if (!conn_) {
        conn_ = std::make_unique<Conn>(url_, name_);
        conn_->prepare();
      }
      return body();
    } catch (const pqxx::failure& e) {
      // A lost connection (the server restarted, a network cut): connect again and run the
      // body once more. Every operation is a read or an idempotent write (upserts, deletes and
      // updates to given values), so running it twice is safe even if the first committed.
      // Inside write_group the group's transaction is lost with the connection: no second
      // run here; write_group connects again once that transaction is gone.
      const bool lost =
          dynamic_cast<const pqxx::broken_connection*>(&e) || !conn_ || !conn_->c.is_open();
      if (lost && !current_) conn_.reset();  // the next attempt, or the next call, connects again
      if (!lost || attempt > 0 || current_) std::rethrow_exception(pg_error(name_, e, lost));
    } catch (const std::logic_error& e) {  // libpqxx's usage and conversion errors
      throw std::runtime_error("database " + name_ + ": " + e.what());
    }
  }
}

template <class F>
auto PgStore::in_tx(F&& body) -> decltype(body(std::declval<pqxx::transaction_base&>())) {
  return guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    if constexpr (std::is_void_v<decltype(body(w))>) {
      body(w);
      w.commit();
    } else {
      auto out = body(w);
      w.commit();
      return out;
    }
  });
}

PgStore::PgStore(const std::string& url) : url_(url), name_(redact_url(url)) {
  try {
    conn_ = std::make_unique<Conn>(url_, name_);
    migrate();
    conn_->prepare();
  } catch (const pqxx::failure& e) {
    throw std::runtime_error("database " + name_ + ": " + e.what());
  }
}

PgStore::~PgStore() = default;

void PgStore::migrate() {
  pqxx::work w(conn_->c);
  w.exec_params("SELECT pg_advisory_xact_lock($1)", kMigrationLock);
  w.exec(
      "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"
      " applied_ms BIGINT NOT NULL)");
  const int have = w.exec("SELECT COALESCE(MAX(version), 0) FROM schema_version")[0][0].as<int>();
  detail::check_schema_version(name_, have);
  for (const detail::Migration& m : pg_migrations()) {
    if (m.version <= have) continue;
    w.exec(m.sql);
    w.exec_params("INSERT INTO schema_version (version, applied_ms) VALUES ($1, $2)", m.version,
                  detail::now_ms());
  }
  w.commit();
}

namespace {

Params game_params(const GameRow& g) {
  Params p;
  detail::put_row(g, p);
  p.text(fold_case(g.white_name));
  p.text(fold_case(g.black_name));
  return p;
}

}  // namespace

namespace {

// Raises the game's fencing token to `token` (0: no check) in `w`; FenceError when a newer one
// is stored.
void check_fence(pqxx::transaction_base& w, const std::string& name, const std::string& id,
                 int64_t token) {
  if (token == 0) return;
  if (w.exec_prepared("fence", pg_text(id), token).empty())
    throw FenceError("database " + name + ": game " + id + ": fencing token " +
                     std::to_string(token) + " is older than the game's");
}

}  // namespace

void PgStore::write_group(const std::vector<std::function<void()>>& writes,
                          std::vector<std::exception_ptr>* errors) {
  errors->assign(writes.size(), nullptr);
  auto all_fail = [&](std::exception_ptr e) {
    for (auto& err : *errors)
      if (!err) err = e;
  };
  // Not through guarded: a lost connection fails the whole group (its writes are reported
  // failed, none is run a second time here), and the next call connects again.
  try {
    if (!conn_) {
      conn_ = std::make_unique<Conn>(url_, name_);
      conn_->prepare();
    }
    // One transaction; each write in a savepoint (its calls in savepoints of their own), so
    // one that throws (a fencing error, a constraint) is rolled back alone.
    pqxx::work group(conn_->c);
    current_ = &group;
    for (size_t i = 0; i < writes.size(); ++i) {
      try {
        pqxx::subtransaction sub(group);
        current_ = &sub;
        writes[i]();
        current_ = &group;
        sub.commit();
      } catch (...) {
        current_ = &group;
        (*errors)[i] = std::current_exception();
        // The connection is gone, and the transaction with the writes before this one.
        if (!conn_->c.is_open())
          throw StoreUnavailable(StoreFault::Unavailable,
                                 "database " + name_ + ": connection lost");
      }
    }
    current_ = nullptr;
    group.commit();
  } catch (const pqxx::failure& e) {
    current_ = nullptr;
    all_fail(pg_error(name_, e, !conn_ || !conn_->c.is_open()));
  } catch (...) {
    current_ = nullptr;
    all_fail(std::current_exception());
  }
  if (conn_ && !conn_->c.is_open()) conn_.reset();
}

void PgStore::claim_fence(const std::string& id, int64_t token) {
  guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    check_fence(w, name_, id, token);
    w.commit();
  });
}

void PgStore::save_game(const GameRow& g) {
  guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    check_fence(w, name_, g.id, g.fence);
    w.exec_prepared("save_game", game_params(g).dynamic());
    w.commit();
  });
}

void PgStore::add_move(const GameRow& g, int ply, int hole) {
  guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    check_fence(w, name_, g.id, g.fence);
    w.exec_prepared("add_move", pg_text(g.id), ply, hole, g.white_ms, g.black_ms);
    // Only what a move changes; the whole row when it is not stored yet.
    Params p;
    detail::put_move_update(g, p);
    if (w.exec_prepared("move_update", p.dynamic()).affected_rows() == 0)
      w.exec_prepared("save_game", game_params(g).dynamic());
    w.commit();
  });
}

void PgStore::truncate_moves(const GameRow& g, int keep) {
  guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    check_fence(w, name_, g.id, g.fence);
    w.exec_prepared("truncate_moves", pg_text(g.id), keep);
    w.exec_prepared("save_game", game_params(g).dynamic());
    w.commit();
  });
}

void PgStore::save_review(const std::string& id, const std::string& review_json) {
  guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    w.exec_prepared("save_review", pg_text(id), pg_text(review_json));
    w.commit();
  });
}

std::optional<GameRow> PgStore::load_game(const std::string& id) {
  return guarded([&]() -> std::optional<GameRow> {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    const pqxx::result r = w.exec_prepared("load_game", pg_text(id));
    if (r.empty()) return std::nullopt;
    Columns cols{r[0]};
    GameRow g = detail::get_row(cols);
    for (const auto& row : w.exec_prepared("load_moves", pg_text(id)))
      g.holes.push_back(row[0].as<int>());
    w.commit();
    return g;
  });
}

int64_t PgStore::fence_of(const std::string& id) {
  return guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    const pqxx::result r =
        w.exec_params("SELECT token FROM game_fences WHERE game_id = $1", pg_text(id));
    w.commit();
    return r.empty() ? int64_t(0) : r[0][0].as<int64_t>();
  });
}

std::vector<std::string> PgStore::unfinished_ids() {
  return guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    std::vector<std::string> out;
    for (const auto& row : w.exec_prepared("unfinished_ids"))
      out.push_back(row[0].as<std::string>());
    w.commit();
    return out;
  });
}

void PgStore::expire_stale(int64_t waiting_before_ms, int64_t analysis_before_ms) {
  guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    w.exec_prepared("expire_waiting", waiting_before_ms);
    w.exec_prepared("expire_analysis", analysis_before_ms);
    w.commit();
  });
}

std::vector<GameRow> PgStore::list_games(const ListQuery& q, int64_t* total) {
  return guarded([&] {
    const std::string player = pg_text(q.player);
    const std::string pattern = pg_text(detail::like_pattern(q.player));
    const std::string result = pg_text(q.result);
    // One snapshot for the count and the page.
    Tx tx(*this, true);
    pqxx::transaction_base& w = *tx;
    const std::string status = pg_text(q.status);
    *total = w.exec_prepared("count_games", player, pattern, result, q.account, status)[0][0]
                 .as<int64_t>();
    std::vector<GameRow> out;
    for (const auto& row : w.exec_prepared("list_games", player, pattern, result, q.account, status,
                                           int64_t(q.limit), int64_t(q.offset))) {
      Columns cols{row};
      out.push_back(detail::get_row(cols));
    }
    w.commit();
    return out;
  });
}

namespace {

constexpr const char* kUserSelect = detail::kUserColumns;

std::optional<UserRow> user_of(const pqxx::result& r) {
  if (r.empty()) return std::nullopt;
  Columns cols{r[0]};
  return detail::get_user(cols);
}

}  // namespace

bool PgStore::finish_game(GameRow& g, const RateGame& rate, int ply, int hole) {
  return guarded([&] {
    GameRow row = g;  // filled in only when the transaction commits
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    check_fence(w, name_, row.id, row.fence);
    // The row lock makes a second end (another instance, a retry) wait, then see it over.
    const pqxx::result st =
        w.exec_params("SELECT status FROM games WHERE id = $1 FOR UPDATE", pg_text(row.id));
    if (!st.empty()) {
      const std::string status = st[0][0].as<std::string>();
      if (status == "over" || status == "aborted") return false;
    }
    if (ply > 0)
      w.exec_prepared("add_move", pg_text(row.id), ply, hole, row.white_ms, row.black_ms);
    if (rate && row.rated && row.white_user > 0 && row.black_user > 0 && !row.speed.empty()) {
      const int64_t users[2] = {row.white_user, row.black_user};
      std::optional<RatingRow> before[2];
      for (int s = 0; s < 2; ++s) {
        const pqxx::result r =
            w.exec_params(std::string(detail::kRatingSelect) + " AND category = $2 FOR UPDATE",
                          users[s], pg_text(row.speed));
        if (!r.empty()) {
          Columns cols{r[0]};
          before[s] = detail::get_rating(cols);
        }
      }
      const auto [white, black] = rate(before[0], before[1]);
      const RatingRow after[2] = {white, black};
      for (int s = 0; s < 2; ++s) {
        Params up;
        up.i64(users[s]);
        up.text(row.speed);
        detail::put_rating(after[s], up);
        w.exec_params(kUpsertRating, up.dynamic());
        // A second change for the same game and player violates the key: nothing is written.
        Params ch;
        detail::put_change(detail::change_of(row, users[s], before[s], after[s]), ch);
        w.exec_params(
            "INSERT INTO rating_changes (game_id, user_id, category, rating_before, rating_after,"
            " rd_before, rd_after, time_ms) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)",
            ch.dynamic());
      }
      detail::set_rating_fields(row, before, after);
    }
    w.exec_prepared("save_game", game_params(row).dynamic());
    w.commit();
    g = std::move(row);
    return true;
  });
}

int64_t PgStore::create_user(const UserRow& u) {
  return guarded([&]() -> int64_t {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    const pqxx::result r = w.exec_params(
        "INSERT INTO users (username, username_key, password_hash, created_ms, bot) VALUES"
        " ($1,$2,$3,$4,$5) ON CONFLICT (username_key) DO NOTHING RETURNING id",
        pg_text(u.username), pg_text(u.username_key), pg_text(u.password_hash), u.created_ms,
        u.bot);
    w.commit();
    return r.empty() ? 0 : r[0][0].as<int64_t>();
  });
}

std::optional<UserRow> PgStore::find_user(const std::string& username_key) {
  return guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    auto u = user_of(
        w.exec_params(std::string(kUserSelect) + "username_key = $1", pg_text(username_key)));
    w.commit();
    return u;
  });
}

std::optional<UserRow> PgStore::user_by_id(int64_t id) {
  return guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    auto u = user_of(w.exec_params(std::string(kUserSelect) + "id = $1", id));
    w.commit();
    return u;
  });
}

void PgStore::set_password(int64_t user_id, const std::string& password_hash) {
  guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    w.exec_params("UPDATE users SET password_hash = $2 WHERE id = $1", user_id,
                  pg_text(password_hash));
    w.commit();
  });
}

void PgStore::save_event(const EventRow& e) {
  Params p;
  detail::put_event_row(e, p);
  guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    w.exec_prepared("save_event", p.dynamic());
    w.commit();
  });
}

void PgStore::add_session(const std::string& token_hash, int64_t user_id, int64_t expires_ms) {
  guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    w.exec_params(
        "INSERT INTO sessions (token_hash, user_id, expires_ms) VALUES ($1,$2,$3) ON CONFLICT"
        " (token_hash) DO NOTHING",
        pg_text(token_hash), user_id, expires_ms);
    w.commit();
  });
}

std::optional<SessionRow> PgStore::find_session(const std::string& token_hash) {
  return guarded([&]() -> std::optional<SessionRow> {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    const pqxx::result r = w.exec_params(
        "SELECT user_id, expires_ms FROM sessions WHERE token_hash = $1", pg_text(token_hash));
    w.commit();
    if (r.empty()) return std::nullopt;
    return SessionRow{r[0][0].as<int64_t>(), r[0][1].as<int64_t>()};
  });
}

void PgStore::delete_session(const std::string& token_hash) {
  guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    w.exec_params("DELETE FROM sessions WHERE token_hash = $1", pg_text(token_hash));
    w.commit();
  });
}

void PgStore::delete_other_sessions(int64_t user_id, const std::string& keep, int64_t now_ms) {
  guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    w.exec_params(
        "DELETE FROM sessions WHERE (user_id = $1 AND token_hash != $2) OR expires_ms <= $3",
        user_id, pg_text(keep), now_ms);
    w.commit();
  });
}

std::vector<RatingRow> PgStore::ratings(int64_t user_id) {
  return guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    std::vector<RatingRow> out;
    for (const auto& row :
         w.exec_params(std::string(detail::kRatingSelect) + " ORDER BY category", user_id)) {
      Columns cols{row};
      out.push_back(detail::get_rating(cols));
    }
    w.commit();
    return out;
  });
}

std::vector<RatingChange> PgStore::rating_history(int64_t user_id) {
  return guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    std::vector<RatingChange> out;
    for (const auto& row : w.exec_params(
             "SELECT game_id, user_id, category, rating_before, rating_after, rd_before, rd_after,"
             " time_ms FROM rating_changes WHERE user_id = $1 ORDER BY time_ms, game_id",
             user_id)) {
      Columns cols{row};
      out.push_back(detail::get_change(cols));
    }
    w.commit();
    return out;
  });
}

std::vector<LeaderRow> PgStore::leaderboard(const std::string& category, double max_rd, int limit) {
  return guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    std::vector<LeaderRow> out;
    for (const auto& row : w.exec_params(
             "SELECT u.username, r.rating, r.rd, r.games FROM ratings r JOIN users u ON u.id ="
             " r.user_id WHERE r.category = $1 AND r.rd <= $2" +
                 std::string(detail::kNotMarked) + " ORDER BY r.rating DESC, u.id LIMIT $3",
             pg_text(category), max_rd, limit)) {
      out.push_back(LeaderRow{row[0].as<std::string>(), row[1].as<double>(), row[2].as<double>(),
                              row[3].as<int>()});
    }
    w.commit();
    return out;
  });
}

ResultCounts PgStore::result_counts(int64_t user_id) {
  return guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    ResultCounts c;
    for (const auto& row : w.exec_params(detail::kResultCountsSql, user_id))
      detail::count_result(c, row[0].as<int>(), row[1].as<std::string>(), row[2].as<int64_t>());
    w.commit();
    return c;
  });
}

std::optional<EventRow> PgStore::load_event(const std::string& id) {
  return guarded([&]() -> std::optional<EventRow> {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    const pqxx::result r = w.exec_prepared("load_event", pg_text(id));
    w.commit();
    if (r.empty()) return std::nullopt;
    Columns c{r[0]};
    return detail::get_event_row(c);
  });
}

void PgStore::save_tournament(const TournamentRow& t) {
  Params p;
  detail::put_tournament_row(t, p);
  guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    w.exec_prepared("save_tournament", p.dynamic());
    w.commit();
  });
}

std::optional<TournamentRow> PgStore::load_tournament(const std::string& id) {
  return guarded([&]() -> std::optional<TournamentRow> {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    const pqxx::result r = w.exec_prepared("load_tournament", pg_text(id));
    w.commit();
    if (r.empty()) return std::nullopt;
    Columns c{r[0]};
    return detail::get_tournament_row(c);
  });
}

std::vector<TournamentRow> PgStore::list_tournaments(int finished) {
  return guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    std::vector<TournamentRow> out;
    for (const auto& row : w.exec_prepared("open_tournaments")) {
      Columns c{row};
      out.push_back(detail::get_tournament_row(c));
    }
    for (const auto& row : w.exec_prepared("done_tournaments", int64_t(std::max(0, finished)))) {
      Columns c{row};
      out.push_back(detail::get_tournament_row(c));
    }
    w.commit();
    return out;
  });
}

namespace {

std::optional<RatingRow> rating_row(const pqxx::result& r) {
  if (r.empty()) return std::nullopt;
  Columns cols{r[0]};
  return detail::get_rating(cols);
}

}  // namespace

std::optional<RatingRow> PgStore::puzzle_player_rating(int64_t user_id) {
  return guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    auto r = rating_row(w.exec_params(detail::kPuzzlePlayerSelect, user_id));
    w.commit();
    return r;
  });
}

std::optional<RatingRow> PgStore::puzzle_rating(const std::string& puzzle_id) {
  return guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    auto r = rating_row(w.exec_params(std::string(detail::kPuzzleSelect) + " WHERE puzzle_id = $1",
                                      pg_text(puzzle_id)));
    w.commit();
    return r;
  });
}

std::vector<RatingRow> PgStore::puzzle_ratings() {
  return guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    std::vector<RatingRow> out;
    for (const auto& row : w.exec(std::string(detail::kPuzzleSelect) + " ORDER BY puzzle_id")) {
      Columns cols{row};
      out.push_back(detail::get_rating(cols));
    }
    w.commit();
    return out;
  });
}

void PgStore::add_puzzle_served(int64_t user_id, const std::string& puzzle_id, int64_t time_ms) {
  guarded([&] {
    Tx tx(*this);
    (*tx).exec_params(
        "INSERT INTO puzzle_served (user_id, puzzle_id, served_ms) VALUES ($1, $2, $3)"
        " ON CONFLICT DO NOTHING",
        user_id, puzzle_id, time_ms);
    (*tx).commit();
  });
}

bool PgStore::puzzle_was_served(int64_t user_id, const std::string& puzzle_id) {
  return guarded([&] {
    Tx tx(*this);
    const bool served = !(*tx)
                             .exec_params(
                                 "SELECT 1 FROM puzzle_served WHERE user_id = $1 AND"
                                 " puzzle_id = $2",
                                 user_id, puzzle_id)
                             .empty();
    (*tx).commit();
    return served;
  });
}

std::vector<std::string> PgStore::attempted_puzzles(int64_t user_id) {
  return guarded([&] {
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    std::vector<std::string> out;
    for (const auto& row : w.exec_params(
             "SELECT puzzle_id FROM puzzle_attempts WHERE user_id = $1 ORDER BY puzzle_id",
             user_id))
      out.push_back(row[0].as<std::string>());
    w.commit();
    return out;
  });
}

AttemptResult PgStore::rate_puzzle_attempt(const PuzzleAttempt& a, const RatingRow& player_start,
                                           const RatingRow& puzzle_start, const RateAttempt& rate) {
  return guarded([&] {
    const std::string id = pg_text(a.puzzle_id);
    Tx tx(*this);
    pqxx::transaction_base& w = *tx;
    // The attempt's row first: a second attempt of the same account at the same puzzle (another
    // instance, a double click) waits here for the first to commit, then finds its row.
    PuzzleAttempt placeholder = a;
    placeholder.puzzle_id = id;
    Params at;
    detail::put_attempt(placeholder, at);
    const bool first =
        !w.exec_params(std::string("INSERT INTO puzzle_attempts (") + detail::kAttemptColumns +
                           ") VALUES ($1,$2,$3,$4,$5,$6,$7,$8) ON CONFLICT (user_id, puzzle_id) DO"
                           " NOTHING RETURNING user_id",
                       at.dynamic())
             .empty();
    if (!first) {
      const pqxx::result r =
          w.exec_params(std::string("SELECT ") + detail::kAttemptColumns +
                            " FROM puzzle_attempts WHERE user_id = $1 AND puzzle_id = $2",
                        a.user_id, id);
      Columns cols{r[0]};
      AttemptResult out{false, detail::get_attempt(cols), player_start, puzzle_start};
      if (auto p = rating_row(w.exec_params(detail::kPuzzlePlayerSelect, a.user_id)))
        out.player = *p;
      if (auto p = rating_row(
              w.exec_params(std::string(detail::kPuzzleSelect) + " WHERE puzzle_id = $1", id)))
        out.puzzle = *p;
      w.commit();
      return out;
    }
    // Both rating rows made to exist and locked, the account's first (always in this order, so
    // two attempts never wait for each other crosswise).
    auto locked = [&](const std::string& insert, const Params& start, const std::string& select,
                      auto key) {
      w.exec_params(insert, start.dynamic());
      return *rating_row(w.exec_params(select + " FOR UPDATE", key));
    };
    Params ps, zs;
    ps.i64(a.user_id);
    detail::put_rating(player_start, ps);
    zs.text(id);
    detail::put_rating(puzzle_start, zs);
    const RatingRow player = locked(
        "INSERT INTO puzzle_player_ratings (user_id, rating, rd, volatility, games, updated_ms)"
        " VALUES ($1,$2,$3,$4,$5,$6) ON CONFLICT (user_id) DO NOTHING",
        ps, detail::kPuzzlePlayerSelect, a.user_id);
    const RatingRow puzzle = locked(
        "INSERT INTO puzzle_ratings (puzzle_id, rating, rd, volatility, games, updated_ms)"
        " VALUES ($1,$2,$3,$4,$5,$6) ON CONFLICT (puzzle_id) DO NOTHING",
        zs, std::string(detail::kPuzzleSelect) + " WHERE puzzle_id = $1", id);
    const auto [player_after, puzzle_after] = rate(player, puzzle);
    Params up;
    up.i64(a.user_id);
    detail::put_rating(player_after, up);
    w.exec_params(
        "UPDATE puzzle_player_ratings SET rating = $2, rd = $3, volatility = $4, games = $5,"
        " updated_ms = $6 WHERE user_id = $1",
        up.dynamic());
    Params pz;
    pz.text(id);
    detail::put_rating(puzzle_after, pz);
    w.exec_params(
        "UPDATE puzzle_ratings SET rating = $2, rd = $3, volatility = $4, games = $5,"
        " updated_ms = $6 WHERE puzzle_id = $1",
        pz.dynamic());
    const PuzzleAttempt stored =
        detail::rated_attempt(a, player, puzzle, player_after, puzzle_after);
    w.exec_params(
        "UPDATE puzzle_attempts SET player_before = $3, player_after = $4, puzzle_before = $5,"
        " puzzle_after = $6 WHERE user_id = $1 AND puzzle_id = $2",
        a.user_id, id, stored.player_before, stored.player_after, stored.puzzle_before,
        stored.puzzle_after);
    w.commit();
    AttemptResult out{true, stored, player_after, puzzle_after};
    out.player.category = "puzzle";
    out.puzzle.category = a.puzzle_id;
    return out;
  });
}

// ---- moderation ----

Standing PgStore::standing(int64_t user_id) {
  return in_tx([&](pqxx::transaction_base& w) {
    Standing out;
    const pqxx::result r = w.exec_params(
        "SELECT moderator, marked, closed FROM account_standing WHERE user_id = $1", user_id);
    if (!r.empty()) out = {r[0][0].as<bool>(), r[0][1].as<bool>(), r[0][2].as<bool>()};
    return out;
  });
}

void PgStore::set_standing(int64_t user_id, const Standing& s) {
  in_tx([&](pqxx::transaction_base& w) {
    w.exec_params(
        "INSERT INTO account_standing (user_id, moderator, marked, closed) VALUES ($1,$2,$3,$4)"
        " ON CONFLICT (user_id) DO UPDATE SET moderator = EXCLUDED.moderator,"
        " marked = EXCLUDED.marked, closed = EXCLUDED.closed",
        user_id, s.moderator, s.marked, s.closed);
  });
}

void PgStore::delete_sessions(int64_t user_id) {
  in_tx([&](pqxx::transaction_base& w) {
    w.exec_params("DELETE FROM sessions WHERE user_id = $1", user_id);
  });
}

int64_t PgStore::add_report(const ReportRow& r) {
  Params p;
  detail::put_report(r, p);
  return in_tx([&](pqxx::transaction_base& w) {
    return w
        .exec_params(std::string("INSERT INTO reports (") + detail::kReportColumns +
                         ") VALUES ($1,$2,$3,$4,$5,$6,$7,$8) RETURNING id",
                     p.dynamic())[0][0]
        .as<int64_t>();
  });
}

std::vector<ReportRow> PgStore::list_reports(bool resolved_too, int limit) {
  return in_tx([&](pqxx::transaction_base& w) {
    std::vector<ReportRow> out;
    for (const auto& row : w.exec_params(detail::kListReportsSql, resolved_too ? 1 : 0, limit)) {
      Columns cols{row};
      out.push_back(detail::get_report(cols));
    }
    return out;
  });
}

bool PgStore::resolve_report(int64_t id) {
  return in_tx([&](pqxx::transaction_base& w) {
    return w.exec_params("UPDATE reports SET resolved = true WHERE id = $1", id).affected_rows() >
           0;
  });
}

bool PgStore::open_flag(int64_t target, int64_t about) {
  return in_tx([&](pqxx::transaction_base& w) {
    return w.exec_params(
                "SELECT COUNT(*) FROM reports WHERE target = $1 AND about = $2 AND reporter ="
                " 0 AND NOT resolved",
                target, about)[0][0]
               .as<int64_t>() > 0;
  });
}

void PgStore::set_block(int64_t user, int64_t blocked, bool on, int64_t now_ms) {
  in_tx([&](pqxx::transaction_base& w) {
    if (on)
      w.exec_params(
          "INSERT INTO blocks (user_id, blocked, created_ms) VALUES ($1,$2,$3) ON CONFLICT"
          " (user_id, blocked) DO NOTHING",
          user, blocked, now_ms);
    else
      w.exec_params("DELETE FROM blocks WHERE user_id = $1 AND blocked = $2", user, blocked);
  });
}

std::vector<std::pair<int64_t, std::string>> PgStore::blocks(int64_t user) {
  return in_tx([&](pqxx::transaction_base& w) {
    std::vector<std::pair<int64_t, std::string>> out;
    for (const auto& row : w.exec_params(
             "SELECT u.id, u.username FROM blocks b JOIN users u ON u.id = b.blocked WHERE"
             " b.user_id = $1 ORDER BY u.username_key",
             user))
      out.emplace_back(row[0].as<int64_t>(), row[1].as<std::string>());
    return out;
  });
}

std::vector<int64_t> PgStore::blocked_either_way(int64_t user) {
  return in_tx([&](pqxx::transaction_base& w) {
    std::vector<int64_t> out;
    for (const auto& row : w.exec_params(
             "SELECT blocked FROM blocks WHERE user_id = $1 UNION SELECT user_id FROM blocks"
             " WHERE blocked = $1",
             user))
      out.push_back(row[0].as<int64_t>());
    return out;
  });
}

int PgStore::rated_games_between(int64_t a, int64_t b, int64_t since_ms) {
  return in_tx([&](pqxx::transaction_base& w) {
    return w.exec_params(detail::kRatedBetweenSql, a, b, since_ms)[0][0].as<int>();
  });
}

LossCounts PgStore::losses_to(int64_t loser, int64_t winner, int64_t since_ms) {
  return in_tx([&](pqxx::transaction_base& w) {
    const pqxx::result r = w.exec_params(detail::kLossesToSql, loser, winner, since_ms);
    return LossCounts{r[0][0].as<int>(), r[0][1].as<int>()};
  });
}

bool PgStore::void_game(const std::string& game_id, const RateOne& rate) {
  return in_tx([&](pqxx::transaction_base& w) {
    // The players' rating rows locked first, in user order, as finish_game's readers wait.
    const pqxx::result players = w.exec_params(
        "SELECT c.user_id, c.category FROM rating_changes c WHERE c.game_id = $1 ORDER BY"
        " c.user_id FOR UPDATE",
        pg_text(game_id));
    if (players.empty()) return false;
    w.exec_params("DELETE FROM rating_changes WHERE game_id = $1", pg_text(game_id));
    w.exec_params("UPDATE games SET rated = false, white_diff = 0, black_diff = 0 WHERE id = $1",
                  pg_text(game_id));
    // Both players' games are read before either is rewritten: each is replayed against the
    // other's ratings as recorded.
    std::vector<std::vector<ReplayGame>> games(players.size());
    for (size_t i = 0; i < players.size(); ++i) {
      const int64_t user = players[i][0].as<int64_t>();
      const std::string category = players[i][1].as<std::string>();
      w.exec_params(std::string(detail::kRatingSelect) + " AND category = $2 FOR UPDATE", user,
                    pg_text(category));
      for (const auto& row : w.exec_params(detail::kReplaySql, user, pg_text(category))) {
        Columns cols{row};
        games[i].push_back(detail::get_replay_game(cols));
      }
    }
    for (size_t i = 0; i < players.size(); ++i) {
      const int64_t user = players[i][0].as<int64_t>();
      const std::string category = players[i][1].as<std::string>();
      const detail::Replayed r = detail::replay_ratings(user, category, games[i], rate);
      for (const RatingChange& c : r.changes)
        w.exec_params(
            "UPDATE rating_changes SET rating_before = $3, rating_after = $4, rd_before = $5,"
            " rd_after = $6 WHERE game_id = $1 AND user_id = $2",
            pg_text(c.game_id), c.user_id, c.rating_before, c.rating_after, c.rd_before,
            c.rd_after);
      if (r.rating) {
        Params up;
        up.i64(user);
        up.text(category);
        detail::put_rating(*r.rating, up);
        w.exec_params(kUpsertRating, up.dynamic());
      } else {
        w.exec_params("DELETE FROM ratings WHERE user_id = $1 AND category = $2", user,
                      pg_text(category));
      }
    }
    return true;
  });
}

// ---- mail ----

void PgStore::set_email(int64_t user_id, const std::string& email, bool verified,
                        const std::string& lang) {
  in_tx([&](pqxx::transaction_base& w) {
    w.exec_params(detail::kSetEmailSql, user_id, pg_text(email),
                  verified ? detail::now_ms() : int64_t(0), pg_text(lang));
  });
}

void PgStore::set_notices(int64_t user_id, int notices) {
  in_tx(
      [&](pqxx::transaction_base& w) { w.exec_params(detail::kSetNoticesSql, user_id, notices); });
}

std::vector<UserRow> PgStore::users_by_email(const std::string& email, int limit) {
  return in_tx([&](pqxx::transaction_base& w) {
    std::vector<UserRow> out;
    for (const pqxx::row& row :
         w.exec_params(std::string(detail::kUserColumns) + "email = $1 ORDER BY id LIMIT $2",
                       pg_text(email), limit)) {
      Columns cols{row};
      out.push_back(detail::get_user(cols));
    }
    return out;
  });
}

void PgStore::add_mail_token(const MailToken& t) {
  in_tx([&](pqxx::transaction_base& w) {
    w.exec_params(detail::kAddMailTokenSql, pg_text(t.token_hash), t.user_id, pg_text(t.purpose),
                  pg_text(t.email), t.expires_ms);
  });
}

std::optional<MailToken> PgStore::take_mail_token(const std::string& token_hash,
                                                  const std::string& purpose, int64_t now) {
  std::optional<MailToken> out = in_tx([&](pqxx::transaction_base& w) {
    std::optional<MailToken> found;
    const pqxx::result r = w.exec_params(std::string(detail::kFindMailTokenSql) + " FOR UPDATE",
                                         pg_text(token_hash), pg_text(purpose));
    if (!r.empty()) {
      Columns cols{r[0]};
      found = detail::get_mail_token(cols);
      w.exec_params(detail::kDropMailTokensSql, found->user_id, pg_text(purpose), now);
    } else {
      w.exec_params(detail::kExpireMailTokensSql, now);
    }
    return found;
  });
  if (out && out->expires_ms <= now) out.reset();
  return out;
}

// ---- settings ----

std::string PgStore::settings(int64_t user_id) {
  return in_tx([&](pqxx::transaction_base& w) {
    const pqxx::result r = w.exec_params(detail::kSettingsSql, user_id);
    return r.empty() ? std::string() : r[0][0].as<std::string>();
  });
}

void PgStore::set_settings(int64_t user_id, const std::string& json, int64_t now_ms) {
  in_tx([&](pqxx::transaction_base& w) {
    w.exec_params(detail::kSetSettingsSql, user_id, pg_text(json), now_ms);
  });
}

int64_t PgStore::add_chat(const ChatRow& m) {
  Params p;
  detail::put_chat(m, p);
  return in_tx([&](pqxx::transaction_base& w) {
    return w
        .exec_params(std::string("INSERT INTO chat (") + detail::kChatColumns +
                         ") VALUES ($1,$2,$3,$4,$5,$6) RETURNING id",
                     p.dynamic())[0][0]
        .as<int64_t>();
  });
}

std::vector<ChatRow> PgStore::game_chat(const std::string& game_id) {
  return in_tx([&](pqxx::transaction_base& w) {
    std::vector<ChatRow> out;
    for (const auto& row : w.exec_params(detail::kGameChatSql, game_id)) {
      Columns cols{row};
      out.push_back(detail::get_chat(cols));
    }
    return out;
  });
}

std::optional<ChatRow> PgStore::chat_message(int64_t id) {
  return in_tx([&](pqxx::transaction_base& w) -> std::optional<ChatRow> {
    const pqxx::result r = w.exec_params(detail::kChatMessageSql, id);
    if (r.empty()) return std::nullopt;
    Columns cols{r[0]};
    return detail::get_chat(cols);
  });
}

}  // namespace toguz::store
