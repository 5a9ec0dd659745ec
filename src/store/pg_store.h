// The PostgreSQL backend (libpqxx): one connection, made again when it is lost; the database is
// shared by several server instances, so every write is one statement or one transaction whose
// upserts cannot duplicate a game or a ply.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "store/common.h"
#include "store/store.h"

namespace pqxx {
class dbtransaction;
class transaction_base;
}  // namespace pqxx

namespace toguz::store {

class PgStore final : public Store {
 public:
  // Connects to `url` (postgresql://user:password@host:port/database?...) and migrates the
  // schema to kSchemaVersion (under an advisory lock: instances starting together migrate
  // once). Throws std::runtime_error naming the URL without its password on failure, a newer
  // schema, or a database whose encoding is not UTF8.
  explicit PgStore(const std::string& url);
  ~PgStore() override;
  PgStore(const PgStore&) = delete;
  PgStore& operator=(const PgStore&) = delete;

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
  // One transaction for the group, each write in a savepoint (each keeps its fencing check).
  void write_group(const std::vector<std::function<void()>>& writes,
                   std::vector<std::exception_ptr>* errors) override;

 private:
  struct Conn;
  class Tx;
  std::unique_ptr<Conn> conn_;
  // Inside write_group: the innermost open transaction (the group's, a write's savepoint), in
  // which each call's transaction is a savepoint; null otherwise.
  pqxx::dbtransaction* current_ = nullptr;
  std::string url_;   // to connect again when the connection is lost
  std::string name_;  // the URL without its password, for messages
  // Runs `body`, turning a libpqxx error into std::runtime_error naming the database; on a lost
  // connection it connects again and runs `body` a second time.
  template <class F>
  auto guarded(F&& body) -> decltype(body());
  // guarded(), with `body(w)` in one transaction (Tx) committed after it.
  template <class F>
  auto in_tx(F&& body) -> decltype(body(std::declval<pqxx::transaction_base&>()));
  void migrate();
};

// The PostgreSQL schema, version by version (a test builds an older database from a prefix).
const std::vector<detail::Migration>& pg_migrations();

// `url` with the password (in the user part or a password= parameter) replaced by "***".
std::string redact_url(const std::string& url);

}  // namespace toguz::store
