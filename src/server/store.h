// The server's SQLite store (WAL): one row per game, one row per move, written as they happen.
// Parameterised SQL only. Not thread-safe: the server uses it from its IO thread alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace toguz::server {

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

class Store {
 public:
  // Opens (creating if needed) the database at `path` in WAL mode and creates the tables.
  // Throws std::runtime_error naming the file on failure.
  explicit Store(const std::string& path);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Inserts or replaces the game row (every field but the moves).
  void save_game(const GameRow& g);
  // Adds move `ply` (1-based) and updates the game row, in one transaction.
  void add_move(const GameRow& g, int ply, int hole);
  // Deletes the moves after ply `keep` (takeback) and updates the game row.
  void truncate_moves(const GameRow& g, int keep);
  // Stores a finished review.
  void save_review(const std::string& id, const std::string& review_json);

  // One game with its moves, or nullopt.
  std::optional<GameRow> load_game(const std::string& id);
  // The ids of the games that are not finished (status waiting or playing) and need the server
  // while nobody watches (online and engine games: clocks, the engine); others load on demand.
  std::vector<std::string> unfinished_ids();
  // Ends ("aborted", reason "expired") the games waiting or never started that were last
  // changed before `waiting_before_ms`, and the analysis boards before `analysis_before_ms`.
  void expire_stale(int64_t waiting_before_ms, int64_t analysis_before_ms);
  // Games newest first, and the total that match. The name filter folds case for Latin,
  // Cyrillic and the Kazakh and Kyrgyz letters (fold_case).
  std::vector<GameRow> list_games(const ListQuery& q, int64_t* total);

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
  void exec(const char* sql);
  sqlite3_stmt* prepare(const char* sql);
  void write_game(const GameRow& g);
};

}  // namespace toguz::server
