// The games store (docs/server.md "Storage"): one row per game, one row per move, written as
// they happen. One interface, two backends: SQLite (a file, the default) and PostgreSQL (a
// server several instances share). Each opens with its schema migrated to the version this
// program knows. Not thread-safe: one store is used from one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toguz::store {

// Everything needed to rebuild a game room (docs/server.md "Storage").
struct GameRow {
  std::string id, mode, variant;
  bool tuz = true, play_out = false;
  std::string start_position;
  std::string white_name, black_name, white_token, black_token, invite;
  bool white_seated = false, black_seated = false;
  int engine_side = -1;  // 0 White, 1 Black, -1 none
  int level = 0;
  int64_t clock_initial_ms = -1, clock_increment_ms = 0;  // -1: no clock
  int64_t white_ms = 0, black_ms = 0;  // clock left after the last move (or at shutdown)
  std::string status;                  // waiting, playing, over, aborted
  std::string winner, reason, score;   // "" while playing
  int moves = 0;
  int64_t created_ms = 0, updated_ms = 0;
  std::string review;  // the finished review's JSON array, "" when none
  std::vector<std::pair<std::string, std::string>> tags;  // an imported record's own tags
  std::vector<int> holes;                                 // the moves, in order (load only)
};

// Lower case for ASCII, Latin-1, and Cyrillic with its Kazakh and Kyrgyz letters (U+0400-04FF);
// other text as it is. Used on both sides of the games search.
std::string fold_case(std::string_view text);

struct ListQuery {
  std::string player;  // substring of either name, "" = any
  std::string result;  // white, black, draw or "" = any
  int limit = 50, offset = 0;
};

// The schema version this program writes; a database at a newer one is refused.
inline constexpr int kSchemaVersion = 2;

class Store {
 public:
  virtual ~Store() = default;

  // Inserts or replaces the game row (every field but the moves).
  virtual void save_game(const GameRow& g) = 0;
  // Adds (or replaces) move `ply` (1-based) and updates the game row, in one transaction.
  virtual void add_move(const GameRow& g, int ply, int hole) = 0;
  // Deletes the moves after ply `keep` (takeback) and updates the game row, in one transaction.
  virtual void truncate_moves(const GameRow& g, int keep) = 0;
  // Stores a finished review (nothing when the game is not stored).
  virtual void save_review(const std::string& id, const std::string& review_json) = 0;

  // One game with its moves, or nullopt.
  virtual std::optional<GameRow> load_game(const std::string& id) = 0;
  // The ids of the games that are not finished (status waiting or playing) and need the server
  // while nobody watches (online and engine games: clocks, the engine), oldest first; others
  // load on demand.
  virtual std::vector<std::string> unfinished_ids() = 0;
  // Ends ("aborted", reason "expired") the games waiting or never started that were last
  // changed before `waiting_before_ms`, and the analysis boards before `analysis_before_ms`.
  virtual void expire_stale(int64_t waiting_before_ms, int64_t analysis_before_ms) = 0;
  // Games newest first, and the total that match. The name filter is a substring of either
  // name, case folded on both sides (fold_case); `result` matches the winner.
  virtual std::vector<GameRow> list_games(const ListQuery& q, int64_t* total) = 0;
};

// True for a PostgreSQL connection URL ("postgresql://..." or "postgres://...").
bool is_postgres_url(std::string_view db);

// Opens the store named by `db`: a PostgreSQL URL, else the path of a SQLite file (created if
// missing; its folder must exist). Throws std::runtime_error naming the database (a URL's
// password left out) on failure, or when its schema is newer than kSchemaVersion.
std::unique_ptr<Store> open_store(const std::string& db);

}  // namespace toguz::store
