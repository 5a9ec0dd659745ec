// The games store (docs/server.md "Storage"): one row per game, one row per move, written as
// they happen. One interface, two backends: SQLite (a file, the default) and PostgreSQL (a
// server several instances share). Each opens with its schema migrated to the version this
// program knows. Not thread-safe: one store is used from one thread at a time (the server's
// StoreWriter, store/writer.h, is that thread).
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
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
  // Accounts and ratings (schema 3): the accounts seated (0: a guest or the engine), whether
  // the game counts for the ratings, its speed category ("" without a clock) and days per move
  // (0: none). For a rated game each side's rating before it (rounded), whether that was
  // provisional, and once it is over the rounded change (rating_changes holds the exact values).
  int64_t white_user = 0, black_user = 0;
  bool rated = false;
  std::string speed;
  int days_per_move = 0;
  int white_rating = 0, black_rating = 0;
  bool white_provisional = false, black_provisional = false;
  int white_diff = 0, black_diff = 0;
  // The writer's fencing token (a cluster instance's lease on the game, docs/cluster.md): a
  // write with a token older than one seen for the game is refused (FenceError). 0: unchecked.
  int64_t fence = 0;
  // A correspondence game (schema 5): the wall-clock time (ms since the epoch) by which the
  // side to move must move (0 before the game starts, and for other games).
  int64_t move_deadline_ms = 0;
  // An aborted game (schema 8): the side that called it off (0 White, 1 Black), -1 for none.
  int aborted_by = -1;
};

// A write refused because a newer fencing token was seen for the game: another instance has
// taken the game over, so this one must stop driving it.
class FenceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Why the store refuses writes for now (docs/server.md "Storage"): another process holds the
// database's write lock, the database or its disk turned read-only, the disk is full, or the
// database cannot be reached. Such a refusal is temporary: the same write may succeed later.
enum class StoreFault { Busy, ReadOnly, Full, Unavailable };

// The refusal code of a fault ("store_busy", "store_read_only", "store_full",
// "store_unavailable"), as the clients and the logs name it.
const char* fault_code(StoreFault fault);

// A store operation refused for one of the reasons of StoreFault (nothing was written).
class StoreUnavailable : public std::runtime_error {
 public:
  StoreUnavailable(StoreFault fault, const std::string& what)
      : std::runtime_error(what), fault(fault) {}
  const StoreFault fault;
};

// The fault an exception stands for, if it is a StoreUnavailable.
std::optional<StoreFault> fault_of(std::exception_ptr e);

// An account (docs/accounts.md). The password is only ever its Argon2id hash.
struct UserRow {
  int64_t id = 0;
  std::string username;      // as written at sign-up
  std::string username_key;  // the uniqueness key (lower case)
  std::string password_hash;
  int64_t created_ms = 0;
  bool bot = false;
  // Mail (schema 10, docs/accounts.md "E-mail"): the address in lower case ("" none), whether
  // its owner followed the verification link, the notices asked for (kNotice* bits), the
  // language of his mails (en, ru, kk, ky).
  std::string email;
  bool email_verified = false;
  int notices = 0;
  std::string lang = "en";
};

// The notices an account may ask for by mail (UserRow::notices).
inline constexpr int kNoticeYourTurn = 1;     // a correspondence game waits for his move
inline constexpr int kNoticeTournaments = 2;  // a tournament he joined starts

// A mail link's token, only its hash stored (schema 10): a password reset or an address's
// verification, for one account, until expires_ms.
struct MailToken {
  std::string token_hash;
  int64_t user_id = 0;
  std::string purpose;  // "reset" or "verify"
  std::string email;    // the address the link was sent to
  int64_t expires_ms = 0;
};

struct SessionRow {
  int64_t user_id = 0;
  int64_t expires_ms = 0;
};

// One account's rating in one speed category (docs/ratings.md).
struct RatingRow {
  std::string category;
  double rating = 1500, rd = 350, volatility = 0.06;
  int games = 0;
  int64_t updated_ms = 0;  // the last rated game's end
};

// One rated game's change of one player's rating, stored once per (game, user).
struct RatingChange {
  std::string game_id, category;
  int64_t user_id = 0;
  double rating_before = 0, rating_after = 0, rd_before = 0, rd_after = 0;
  int64_t time_ms = 0;
};

struct LeaderRow {
  std::string username;
  double rating = 0, rd = 0;
  int games = 0;
};

// Finished games of an account by its colour: [0] as White, [1] as Black.
struct ResultCounts {
  int64_t win[2] = {0, 0}, draw[2] = {0, 0}, loss[2] = {0, 0};
};

// The new ratings of a rated game's two players, given their ratings in its category before
// it (none: never rated there). Called inside the store's transaction.
using RateGame = std::function<std::pair<RatingRow, RatingRow>(
    const std::optional<RatingRow>& white, const std::optional<RatingRow>& black)>;

// Lower case for ASCII, Latin-1, and Cyrillic with its Kazakh and Kyrgyz letters (U+0400-04FF);
// other text as it is. Used on both sides of the games search.
std::string fold_case(std::string_view text);

struct ListQuery {
  std::string player;   // substring of either name, "" = any
  std::string result;   // white, black, draw or "" = any
  int64_t account = 0;  // the games of this account (either side), 0 = any
  std::string status;   // waiting, playing, over, aborted or "" = any
  int limit = 50, offset = 0;
};

// An over-the-board event of the arbiter page (site/arbiter/arbiter_api.h): its state as the
// tournament library's JSON (tournament/event_json.h) and the hash of the arbiter's key.
struct EventRow {
  std::string id;
  std::string key_hash;  // the arbiter key's hash; the key itself is never stored
  std::string state;     // event_to_json
  int64_t created_ms = 0, updated_ms = 0;
};

// An online tournament (site/tournaments/tournaments.h): its state as the Tournaments piece writes
// it (JSON), and what the lists need without reading it: its status and start time.
struct TournamentRow {
  std::string id;
  std::string status;  // "upcoming", "running", "finished" or "cancelled"
  std::string state;   // Tournaments' JSON
  int64_t starts_ms = 0, created_ms = 0, updated_ms = 0;
};

// One account's rated attempt at one puzzle (schema 7, docs/ratings.md "Puzzle ratings"): both
// ratings before and after it. Stored once per (account, puzzle).
struct PuzzleAttempt {
  int64_t user_id = 0;
  std::string puzzle_id;
  bool solved = false;
  double player_before = 0, player_after = 0, puzzle_before = 0, puzzle_after = 0;
  int64_t time_ms = 0;
};

// The new ratings of the solver and of the puzzle after an attempt, given both before it.
// Called inside the store's transaction.
using RateAttempt = std::function<std::pair<RatingRow, RatingRow>(const RatingRow& player,
                                                                  const RatingRow& puzzle)>;

struct AttemptResult {
  bool rated = false;        // this attempt changed the ratings (the account's first at the puzzle)
  PuzzleAttempt attempt;     // this one when rated, else the account's earlier rated attempt
  RatingRow player, puzzle;  // both ratings as stored after it
};

// An account's standing with the moderators (schema 9, docs/accounts.md "Moderation"): a
// moderator sees the flags and reports and acts on them; a marked account plays no rated game
// and is left off the leaderboards; a closed one cannot log in.
struct Standing {
  bool moderator = false, marked = false, closed = false;
};

// A report of a player about another account, or a flag the server raised by itself (reporter
// 0), for the moderators. The names are filled in by list_reports.
struct ReportRow {
  int64_t id = 0;
  int64_t target = 0;    // the account reported or flagged
  int64_t reporter = 0;  // the account that reported, 0: a flag raised by the server
  int64_t about = 0;     // a flag's other account (the opponent fed), 0 for none
  std::string game_id;   // the game it concerns, "" for none
  std::string reason;    // the reporter's words, or the flag's kind and figures
  int64_t created_ms = 0;
  bool resolved = false;
  std::string chat;  // a reported chat message's text (schema 11), "" for none
  std::string target_name, reporter_name, about_name;
};

// One message of a game's chat (schema 11, docs/web-protocol.md "Chat"): the player's side
// (0 White, 1 Black), account and name then, the cleaned text, when it was said.
struct ChatRow {
  int64_t id = 0;
  std::string game_id;
  int side = 0;
  int64_t user_id = 0;
  std::string name, text;
  int64_t created_ms = 0;
};

// One account's rated losses to one opponent over a time (the feeding flag).
struct LossCounts {
  int losses = 0, resignations = 0;
};

// One rated game of a player in the replay of a voided game's players (void_game): the
// opponent's rating and deviation before it as recorded, the player's score, its time.
struct ReplayGame {
  std::string game_id;
  int64_t time_ms = 0;
  double opponent_rating = 0, opponent_rd = 0;
  double score = 0;
};

// A player's rating after one more game of the replay, given his rating before it (games 0:
// none yet).
using RateOne = std::function<RatingRow(const RatingRow& player, const ReplayGame& game)>;

// The schema version this program writes; a database at a newer one is refused. The versions
// of the migrations ascend to kSchemaVersion (common.h versions_ascend).
inline constexpr int kSchemaVersion = 12;

class Store {
 public:
  virtual ~Store() = default;

  // Inserts or replaces the game row (every field but the moves).
  virtual void save_game(const GameRow& g) = 0;
  // Adds (or replaces) move `ply` (1-based) and updates the game row, in one transaction.
  virtual void add_move(const GameRow& g, int ply, int hole) = 0;
  // Deletes the moves after ply `keep` (takeback) and updates the game row, in one transaction.
  virtual void truncate_moves(const GameRow& g, int keep) = 0;
  // Records `token` as the newest fencing token of game `id` (a cluster instance taking the
  // game over, before it loads it), so that writes with older tokens are refused from now on.
  // Throws FenceError when a newer token was seen already.
  virtual void claim_fence(const std::string& id, int64_t token) = 0;
  // The newest fencing token recorded for game `id` (claim_fence, or a write carrying one),
  // 0 when none: a new lease counter starts above it (docs/cluster.md).
  virtual int64_t fence_of(const std::string& id) = 0;
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

  // The end of a game, written once: in one transaction, unless the stored game is already over
  // or aborted (then nothing is written and the answer is false): move `ply` (when > 0) with
  // `hole`, the game row and, when `rate` is set and the game is rated between two accounts,
  // both new ratings and their rating changes; `g`'s ratings before and diffs are filled in.
  virtual bool finish_game(GameRow& g, const RateGame& rate, int ply = 0, int hole = 0) = 0;

  // ---- accounts ----
  // A new account; its id, or 0 when the username key is taken.
  virtual int64_t create_user(const UserRow& u) = 0;
  virtual std::optional<UserRow> find_user(const std::string& username_key) = 0;
  virtual std::optional<UserRow> user_by_id(int64_t id) = 0;
  virtual void set_password(int64_t user_id, const std::string& password_hash) = 0;
  virtual void add_session(const std::string& token_hash, int64_t user_id, int64_t expires_ms) = 0;
  virtual std::optional<SessionRow> find_session(const std::string& token_hash) = 0;
  virtual void delete_session(const std::string& token_hash) = 0;
  // Ends every session of the account but `keep` (a password change), and expired ones of all.
  virtual void delete_other_sessions(int64_t user_id, const std::string& keep, int64_t now_ms) = 0;
  // The account's ratings that exist (a category never played has no row).
  virtual std::vector<RatingRow> ratings(int64_t user_id) = 0;
  // Every rating change of the account, oldest first.
  virtual std::vector<RatingChange> rating_history(int64_t user_id) = 0;
  // The best ratings of a category with rd <= max_rd, best first.
  virtual std::vector<LeaderRow> leaderboard(const std::string& category, double max_rd,
                                             int limit) = 0;
  virtual ResultCounts result_counts(int64_t user_id) = 0;

  // ---- group commit ----
  // Runs `writes` (each calls this store's methods) and sets (*errors)[i] to write i's
  // exception, or null once it is committed. A backend that can commits them together, each
  // write in a savepoint so that one that throws is rolled back alone (SQLite: one commit for
  // many moves); when the commit itself fails, every write gets its error. The default runs
  // them one after the other, each committed by itself.
  virtual void write_group(const std::vector<std::function<void()>>& writes,
                           std::vector<std::exception_ptr>* errors) {
    errors->assign(writes.size(), nullptr);
    for (size_t i = 0; i < writes.size(); ++i) {
      try {
        writes[i]();
      } catch (...) {
        (*errors)[i] = std::current_exception();
      }
    }
  }

  // ---- over-the-board events (schema 5) ----
  // Inserts or replaces an event (every field; created_ms is kept as given).
  virtual void save_event(const EventRow& e) = 0;
  // One event, or nullopt.
  virtual std::optional<EventRow> load_event(const std::string& id) = 0;

  // ---- online tournaments (schema 6) ----
  // Inserts or replaces a tournament (every field).
  virtual void save_tournament(const TournamentRow& t) = 0;
  virtual std::optional<TournamentRow> load_tournament(const std::string& id) = 0;
  // Every tournament not finished nor cancelled (start time, then id), then the `finished`
  // latest finished or cancelled ones (last changed first).
  virtual std::vector<TournamentRow> list_tournaments(int finished) = 0;
  // ---- puzzle ratings (schema 7) ----
  // Rates the account's attempt at a puzzle, in one transaction: unless the account has a rated
  // attempt at this puzzle already, both ratings before it are read (`player_start` and
  // `puzzle_start` when never rated), `rate` gives the new ones, both are written and the
  // attempt (a.user_id, a.puzzle_id, a.solved, a.time_ms; the ratings filled in) is stored.
  // With an earlier attempt nothing is written and `rate` is not called. A rating row's
  // category is "puzzle" for an account and the puzzle's id for a puzzle.
  virtual AttemptResult rate_puzzle_attempt(const PuzzleAttempt& a, const RatingRow& player_start,
                                            const RatingRow& puzzle_start,
                                            const RateAttempt& rate) = 0;
  // The account's puzzle rating, or nullopt when it never made a rated attempt.
  virtual std::optional<RatingRow> puzzle_player_rating(int64_t user_id) = 0;
  // One puzzle's rating, or nullopt when nobody attempted it rated.
  virtual std::optional<RatingRow> puzzle_rating(const std::string& puzzle_id) = 0;
  // Every rated puzzle's rating (category: the puzzle's id), in id order.
  virtual std::vector<RatingRow> puzzle_ratings() = 0;
  // The ids of the puzzles the account attempted rated, in id order.
  virtual std::vector<std::string> attempted_puzzles(int64_t user_id) = 0;
  // ---- puzzles served (schema 8) ----
  // Records that the server picked puzzle `puzzle_id` for the account (kept once).
  virtual void add_puzzle_served(int64_t user_id, const std::string& puzzle_id,
                                 int64_t time_ms) = 0;
  // Whether the server picked that puzzle for the account.
  virtual bool puzzle_was_served(int64_t user_id, const std::string& puzzle_id) = 0;

  // ---- moderation (schema 9, docs/accounts.md "Moderation") ----
  // The account's standing (all false when never set).
  virtual Standing standing(int64_t user_id) = 0;
  virtual void set_standing(int64_t user_id, const Standing& s) = 0;
  // Ends every session of the account (a closed account).
  virtual void delete_sessions(int64_t user_id) = 0;
  // Stores a report or flag; its id.
  virtual int64_t add_report(const ReportRow& r) = 0;
  // The reports and flags, newest first, with the accounts' names; resolved ones only when
  // asked for. At most `limit`.
  virtual std::vector<ReportRow> list_reports(bool resolved_too, int limit) = 0;
  // Marks a report resolved; false when there is none with this id.
  virtual bool resolve_report(int64_t id) = 0;
  // Whether an unresolved flag (reporter 0) of `target` about `about` exists.
  virtual bool open_flag(int64_t target, int64_t about) = 0;
  // `user` blocks (on) or unblocks `blocked`.
  virtual void set_block(int64_t user, int64_t blocked, bool on, int64_t now_ms) = 0;
  // The accounts `user` blocks, by name order: (id, username).
  virtual std::vector<std::pair<int64_t, std::string>> blocks(int64_t user) = 0;
  // The accounts that block `user` or that `user` blocks.
  virtual std::vector<int64_t> blocked_either_way(int64_t user) = 0;
  // The rated games between accounts a and b (either colour, not aborted) created since
  // `since_ms`.
  virtual int rated_games_between(int64_t a, int64_t b, int64_t since_ms) = 0;
  // The rated games `loser` lost to `winner` that ended since `since_ms`, and how many of
  // them by resignation.
  virtual LossCounts losses_to(int64_t loser, int64_t winner, int64_t since_ms) = 0;
  // Voids a rated game's rating changes, in one transaction: its rating_changes rows are
  // deleted, the game is made unrated, and each of its two players' rating in its category is
  // recomputed from the start by `rate` over his remaining rated games there in time order (his
  // changes in them rewritten, his rating row set to the last, or deleted when none is left).
  // False (nothing written) when the game has no rating changes.
  virtual bool void_game(const std::string& game_id, const RateOne& rate) = 0;

  // ---- mail (schema 10, docs/accounts.md "E-mail") ----
  // Sets the account's address (lower case, "" none), whether it is verified, and the language
  // of its mails.
  virtual void set_email(int64_t user_id, const std::string& email, bool verified,
                         const std::string& lang) = 0;
  virtual void set_notices(int64_t user_id, int notices) = 0;
  // The accounts with this address (lower case), by id, at most `limit`.
  virtual std::vector<UserRow> users_by_email(const std::string& email, int limit) = 0;
  virtual void add_mail_token(const MailToken& t) = 0;
  // Takes the token of this hash and purpose once, in one transaction: its row when it exists
  // and has not expired at now_ms, else nullopt. A token found is deleted with every other of
  // its account and purpose (a used link voids the others); expired ones of all go too.
  virtual std::optional<MailToken> take_mail_token(const std::string& token_hash,
                                                   const std::string& purpose, int64_t now_ms) = 0;

  // ---- settings (schema 12, docs/accounts.md "Settings") ----
  // The account's page settings as the JSON text last stored ("" when none were).
  virtual std::string settings(int64_t user_id) = 0;
  // Replaces the account's settings by `json` (checked by the caller).
  virtual void set_settings(int64_t user_id, const std::string& json, int64_t now_ms) = 0;

  // ---- chat (schema 11) ----
  // Stores a game's chat message; its id (ascending in the order stored).
  virtual int64_t add_chat(const ChatRow& m) = 0;
  // The game's chat, oldest first.
  virtual std::vector<ChatRow> game_chat(const std::string& game_id) = 0;
  // One message by its id (a report's), nullopt when there is none.
  virtual std::optional<ChatRow> chat_message(int64_t id) = 0;
};

// True for a PostgreSQL connection URL ("postgresql://..." or "postgres://...").
bool is_postgres_url(std::string_view db);

// Opens the store named by `db`: a PostgreSQL URL, else the path of a SQLite file (created if
// missing; its folder must exist). Throws std::runtime_error naming the database (a URL's
// password left out) on failure, or when its schema is newer than kSchemaVersion.
std::unique_ptr<Store> open_store(const std::string& db);

}  // namespace toguz::store
