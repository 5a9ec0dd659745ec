// The SQLite backend: one file in WAL mode (synchronous=NORMAL), one connection, each statement
// prepared once and kept for the connection's life.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

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
  // How long a statement waits for another connection's write lock before the write is
  // refused (StoreUnavailable Busy); 250 ms unless set.
  void set_busy_ms(int ms);
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;

  void save_game(const GameRow& g) override;
  void add_move(const GameRow& g, int ply, int hole) override;
  void truncate_moves(const GameRow& g, int keep) override;
  void claim_fence(const std::string& id, int64_t token) override;
  int64_t fence_of(const std::string& id) override;
  void save_review(const std::string& id, const std::string& review_json) override;
  std::optional<GameRow> load_game(const std::string& id) override;
  std::vector<std::string> unfinished_ids() override;
  void expire_stale(int64_t waiting_before_ms, int64_t analysis_before_ms) override;
  std::vector<GameRow> list_games(const ListQuery& q, int64_t* total) override;
  bool finish_game(GameRow& g, const RateGame& rate, int ply, int hole) override;
  int64_t create_user(const UserRow& u) override;
  std::optional<UserRow> find_user(const std::string& username_key) override;
  std::optional<UserRow> user_by_id(int64_t id) override;
  void set_password(int64_t user_id, const std::string& password_hash) override;
  void add_session(const std::string& token_hash, int64_t user_id, int64_t expires_ms) override;
  std::optional<SessionRow> find_session(const std::string& token_hash) override;
  void delete_session(const std::string& token_hash) override;
  void delete_other_sessions(int64_t user_id, const std::string& keep, int64_t now_ms) override;
  std::vector<RatingRow> ratings(int64_t user_id) override;
  std::vector<RatingChange> rating_history(int64_t user_id) override;
  std::vector<LeaderRow> leaderboard(const std::string& category, double max_rd,
                                     int limit) override;
  ResultCounts result_counts(int64_t user_id) override;
  void save_event(const EventRow& e) override;
  std::optional<EventRow> load_event(const std::string& id) override;
  void save_tournament(const TournamentRow& t) override;
  std::optional<TournamentRow> load_tournament(const std::string& id) override;
  std::vector<TournamentRow> list_tournaments(int finished) override;
  // One transaction for all the writes, each in a savepoint.
  void write_group(const std::vector<std::function<void()>>& writes,
                   std::vector<std::exception_ptr>* errors) override;

  // A statement from the cache, marked in use (in_use) until its Stmt is done, or one prepared
  // for this use alone (in_use null) while the cached one is still in use.
  struct Prepared {
    sqlite3_stmt* stmt;
    bool* in_use;
  };
  AttemptResult rate_puzzle_attempt(const PuzzleAttempt& a, const RatingRow& player_start,
                                    const RatingRow& puzzle_start,
                                    const RateAttempt& rate) override;
  std::optional<RatingRow> puzzle_player_rating(int64_t user_id) override;
  std::optional<RatingRow> puzzle_rating(const std::string& puzzle_id) override;
  std::vector<RatingRow> puzzle_ratings() override;
  std::vector<std::string> attempted_puzzles(int64_t user_id) override;
  void add_puzzle_served(int64_t user_id, const std::string& puzzle_id, int64_t time_ms) override;
  bool puzzle_was_served(int64_t user_id, const std::string& puzzle_id) override;
  Standing standing(int64_t user_id) override;
  void set_standing(int64_t user_id, const Standing& s) override;
  void delete_sessions(int64_t user_id) override;
  int64_t add_report(const ReportRow& r) override;
  std::vector<ReportRow> list_reports(bool resolved_too, int limit) override;
  bool resolve_report(int64_t id) override;
  bool open_flag(int64_t target, int64_t about) override;
  void set_block(int64_t user, int64_t blocked, bool on, int64_t now_ms) override;
  std::vector<std::pair<int64_t, std::string>> blocks(int64_t user) override;
  std::vector<int64_t> blocked_either_way(int64_t user) override;
  int rated_games_between(int64_t a, int64_t b, int64_t since_ms) override;
  LossCounts losses_to(int64_t loser, int64_t winner, int64_t since_ms) override;
  bool void_game(const std::string& game_id, const RateOne& rate) override;
  void set_email(int64_t user_id, const std::string& email, bool verified,
                 const std::string& lang) override;
  void set_notices(int64_t user_id, int notices) override;
  std::vector<UserRow> users_by_email(const std::string& email, int limit) override;
  void add_mail_token(const MailToken& t) override;
  std::optional<MailToken> take_mail_token(const std::string& token_hash,
                                           const std::string& purpose, int64_t now_ms) override;
  std::string settings(int64_t user_id) override;
  void set_settings(int64_t user_id, const std::string& json, int64_t now_ms) override;
  int64_t add_chat(const ChatRow& m) override;
  std::vector<ChatRow> game_chat(const std::string& game_id) override;
  std::optional<ChatRow> chat_message(int64_t id) override;

 private:
  // How long a statement waits for another connection's lock before SQLITE_BUSY: short, so
  // that a database locked by another process is reported and retried, not waited on.
  int busy_ms_ = 250;
  void open();    // the connection and its settings (path_)
  void reopen();  // open(), its failure a StoreUnavailable
  void close();
  // Before a transaction: StoreUnavailable(ReadOnly) for a file made read-only; the WAL
  // index file still whole, else the connection opened again.
  void check_files();
  // The group when the write lock cannot be had (`refused`): each write alone, the reads
  // answered, every write refused at once with `refused`'s fault.
  void reads_only(const std::vector<std::function<void()>>& writes,
                  std::vector<std::exception_ptr>* errors, const StoreUnavailable& refused);
  bool shm_ok_ = false;  // the index file was seen whole since the connection opened
  sqlite3* db_ = nullptr;
  std::string path_;
  struct Cached {
    sqlite3_stmt* stmt = nullptr;
    bool in_use = false;
  };
  std::unordered_map<std::string, Cached> cache_;  // by SQL text
  bool in_group_ = false;                          // inside write_group's transaction
  void exec(const char* sql);                      // runs SQL text once (the schema, pragmas)
  Prepared prepare(const char* sql);
  void run(const char* sql);  // a cached statement without parameters or rows
  void rollback();            // of the open transaction, if SQLite has not ended it
  void migrate();
  void step(sqlite3_stmt* st);  // runs a statement that returns no rows; throws on an error
  // Throws the connection's last error: a StoreUnavailable for a busy, read-only or full
  // database or an IO error, else a runtime_error; both name the file.
  [[noreturn]] void fail();
  void put_move(const GameRow& g, int ply, int hole);  // the moves row, inside a transaction
  std::optional<RatingRow> rating_of(int64_t user_id, const std::string& category);
  // Inserts or replaces the account's rating row of `category`.
  void write_rating(int64_t user_id, const std::string& category, const RatingRow& r);
  void write_game(const GameRow& g);  // the row alone, in the caller's transaction
  // Raises the game's fencing token to `token`; FenceError when a newer one is stored.
  void check_fence(const std::string& id, int64_t token);
  // Runs `body` in one transaction (BEGIN `mode`), rolled back when it throws.
  template <class F>
  void transaction(const char* begin, F&& body);
};

// The versions of the SQLite schema's migrations, ascending, and one version's SQL
// (std::out_of_range for a version there is none of): the tests make a file of every earlier
// version with them and open it migrated.
std::vector<int> sqlite_schema_versions();
std::string sqlite_migration_sql(int version);

}  // namespace toguz::store
