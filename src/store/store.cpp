#include "store/store.h"

#include <boost/json.hpp>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "store/common.h"
#include "store/pg_store.h"
#include "store/sqlite_store.h"

namespace toguz::store {

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

const char* fault_code(StoreFault fault) {
  switch (fault) {
    case StoreFault::Busy:
      return "store_busy";
    case StoreFault::ReadOnly:
      return "store_read_only";
    case StoreFault::Full:
      return "store_full";
    case StoreFault::Unavailable:
      break;
  }
  return "store_unavailable";
}

std::optional<StoreFault> fault_of(std::exception_ptr e) {
  if (!e) return std::nullopt;
  try {
    std::rethrow_exception(e);
  } catch (const StoreUnavailable& x) {
    return x.fault;
  } catch (...) {
  }
  return std::nullopt;
}

bool is_postgres_url(std::string_view db) {
  return db.starts_with("postgresql://") || db.starts_with("postgres://");
}

std::unique_ptr<Store> open_store(const std::string& db) {
  if (is_postgres_url(db)) return std::make_unique<PgStore>(db);
  return std::make_unique<SqliteStore>(db);
}

namespace detail {

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

std::string like_pattern(std::string_view player) {
  std::string pattern = "%";
  for (char ch : fold_case(player)) {
    if (ch == '%' || ch == '_' || ch == '\\') pattern += '\\';
    pattern += ch;
  }
  pattern += '%';
  return pattern;
}

void check_schema_version(const std::string& db_name, int have) {
  if (have > kSchemaVersion)
    throw std::runtime_error("database " + db_name + ": schema version " + std::to_string(have) +
                             " is newer than this program knows (" +
                             std::to_string(kSchemaVersion) +
                             "); run the toguz that wrote it, or a newer one");
}

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string accounts_migration(const char* id_column, const char* real, const char* flag_type,
                               const char* flag_false) {
  const std::string r = real, f = std::string(flag_type) + " NOT NULL DEFAULT " + flag_false;
  std::string sql =
      std::string("CREATE TABLE users (id ") + id_column +
      ", username TEXT NOT NULL, username_key TEXT NOT NULL UNIQUE,"
      " password_hash TEXT NOT NULL, created_ms BIGINT NOT NULL, bot " +
      f +
      ");\n"
      "CREATE TABLE sessions (token_hash TEXT PRIMARY KEY, user_id BIGINT NOT NULL,"
      " expires_ms BIGINT NOT NULL);\n"
      "CREATE INDEX sessions_user ON sessions(user_id);\n"
      "CREATE TABLE ratings (user_id BIGINT NOT NULL, category TEXT NOT NULL, rating " +
      r + " NOT NULL, rd " + r + " NOT NULL, volatility " + r +
      " NOT NULL, games INTEGER NOT NULL, updated_ms BIGINT NOT NULL,"
      " PRIMARY KEY (user_id, category));\n"
      "CREATE INDEX ratings_board ON ratings(category, rating);\n"
      "CREATE TABLE rating_changes (game_id TEXT NOT NULL, user_id BIGINT NOT NULL,"
      " category TEXT NOT NULL, rating_before " +
      r + " NOT NULL, rating_after " + r + " NOT NULL, rd_before " + r + " NOT NULL, rd_after " +
      r +
      " NOT NULL, time_ms BIGINT NOT NULL, PRIMARY KEY (game_id, user_id));\n"
      "CREATE INDEX rating_changes_user ON rating_changes(user_id, time_ms);\n";
  for (const char* column : {"white_user", "black_user", "days_per_move", "white_rating",
                             "black_rating", "white_diff", "black_diff"})
    sql += std::string("ALTER TABLE games ADD COLUMN ") + column + " BIGINT NOT NULL DEFAULT 0;\n";
  for (const char* column : {"rated", "white_provisional", "black_provisional"})
    sql += std::string("ALTER TABLE games ADD COLUMN ") + column + " " + f + ";\n";
  sql += "ALTER TABLE games ADD COLUMN speed TEXT NOT NULL DEFAULT '';\n";
  sql += "CREATE INDEX games_white_user ON games(white_user, created_ms);\n";
  sql += "CREATE INDEX games_black_user ON games(black_user, created_ms);\n";
  return sql;
}

std::string puzzle_ratings_migration(const char* real, const char* flag_type,
                                     const char* flag_false) {
  const std::string r = std::string(" ") + real + " NOT NULL";
  const std::string rating_columns = "rating" + r + ", rd" + r + ", volatility" + r +
                                     ", games INTEGER NOT NULL, updated_ms BIGINT NOT NULL";
  return "CREATE TABLE puzzle_player_ratings (user_id BIGINT PRIMARY KEY, " + rating_columns +
         ");\n"
         "CREATE TABLE puzzle_ratings (puzzle_id TEXT PRIMARY KEY, " +
         rating_columns +
         ");\n"
         "CREATE TABLE puzzle_attempts (user_id BIGINT NOT NULL, puzzle_id TEXT NOT NULL, solved " +
         flag_type + " NOT NULL DEFAULT " + flag_false + ", player_before" + r + ", player_after" +
         r + ", puzzle_before" + r + ", puzzle_after" + r +
         ", time_ms BIGINT NOT NULL, PRIMARY KEY (user_id, puzzle_id));\n";
}

PuzzleAttempt rated_attempt(PuzzleAttempt a, const RatingRow& player, const RatingRow& puzzle,
                            const RatingRow& player_after, const RatingRow& puzzle_after) {
  a.player_before = player.rating;
  a.player_after = player_after.rating;
  a.puzzle_before = puzzle.rating;
  a.puzzle_after = puzzle_after.rating;
  return a;
}

std::string moderation_migration(const char* id_column, const char* flag_type,
                                 const char* flag_false) {
  const std::string f = std::string(" ") + flag_type + " NOT NULL DEFAULT " + flag_false;
  return "CREATE TABLE account_standing (user_id BIGINT PRIMARY KEY, moderator" + f + ", marked" +
         f + ", closed" + f +
         ");\n"
         "CREATE TABLE reports (id " +
         id_column +
         ", target BIGINT NOT NULL, reporter BIGINT NOT NULL, about BIGINT NOT NULL,"
         " game_id TEXT NOT NULL, reason TEXT NOT NULL, created_ms BIGINT NOT NULL, resolved" +
         f +
         ");\n"
         "CREATE INDEX reports_target ON reports(target, about);\n"
         "CREATE TABLE blocks (user_id BIGINT NOT NULL, blocked BIGINT NOT NULL,"
         " created_ms BIGINT NOT NULL, PRIMARY KEY (user_id, blocked));\n"
         "CREATE INDEX blocks_blocked ON blocks(blocked);\n";
}

std::string chat_migration(const char* id_column) {
  return std::string("CREATE TABLE chat (id ") + id_column +
         ", game_id TEXT NOT NULL, side INTEGER NOT NULL, user_id BIGINT NOT NULL,"
         " name TEXT NOT NULL, text TEXT NOT NULL, created_ms BIGINT NOT NULL);\n"
         "CREATE INDEX chat_game ON chat(game_id, id);\n"
         "ALTER TABLE reports ADD COLUMN chat TEXT NOT NULL DEFAULT '';\n";
}

Replayed replay_ratings(int64_t user, const std::string& category,
                        const std::vector<ReplayGame>& games, const RateOne& rate) {
  Replayed out;
  RatingRow r;
  r.category = category;
  for (const ReplayGame& g : games) {
    RatingRow after = rate(r, g);
    after.category = category;
    out.changes.push_back(RatingChange{.game_id = g.game_id,
                                       .category = category,
                                       .user_id = user,
                                       .rating_before = r.rating,
                                       .rating_after = after.rating,
                                       .rd_before = r.rd,
                                       .rd_after = after.rd,
                                       .time_ms = g.time_ms});
    r = after;
  }
  if (!games.empty()) out.rating = r;
  return out;
}

void count_result(ResultCounts& c, int side, const std::string& winner, int64_t n) {
  if (side < 0 || side > 1) return;
  if (winner == "draw")
    c.draw[side] += n;
  else if (winner == (side == 0 ? "white" : "black"))
    c.win[side] += n;
  else if (winner == "white" || winner == "black")
    c.loss[side] += n;
}

RatingChange change_of(const GameRow& g, int64_t user, const std::optional<RatingRow>& before,
                       const RatingRow& after) {
  const RatingRow was = before.value_or(RatingRow{});
  return RatingChange{.game_id = g.id,
                      .category = g.speed,
                      .user_id = user,
                      .rating_before = was.rating,
                      .rating_after = after.rating,
                      .rd_before = was.rd,
                      .rd_after = after.rd,
                      .time_ms = after.updated_ms};
}

void set_rating_fields(GameRow& g, const std::optional<RatingRow> before[2],
                       const RatingRow after[2]) {
  int* rating[2] = {&g.white_rating, &g.black_rating};
  int* diff[2] = {&g.white_diff, &g.black_diff};
  for (int s = 0; s < 2; ++s) {
    const RatingRow was = before[s].value_or(RatingRow{});
    *rating[s] = int(std::lround(was.rating));
    *diff[s] = int(std::lround(after[s].rating) - std::lround(was.rating));
  }
}

}  // namespace detail

}  // namespace toguz::store
