// A game room: one game's behaviour on the server. The room owns the Game referee (every move
// goes through Game::play), the players' seats, the clocks and the flag timer, the draw and
// rematch offers, takebacks, the engine's moves, the review, and the end of the game (end():
// finish, store, broadcast). It knows its connections only as RoomClients and the server only
// through RoomServices, so it holds no socket, route or registry.
// Threading: a room is touched on the IO thread only; engine results and the outcome of its
// queued moves (StoreWriter) come back by asio::post.
#pragma once

#include <boost/asio.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine_work/engine_work.h"
#include "rules/game.h"
#include "search/engine.h"
#include "site/config.h"
#include "site/refusal.h"
#include "site/types.h"
#include "site/viewer.h"
#include "store/store.h"
#include "store/writer.h"

namespace toguz::site {

namespace asio = boost::asio;
namespace json = boost::json;
using store::GameRow;
using store::ListQuery;
using store::Store;
using SteadyClock = std::chrono::steady_clock;

constexpr int kDrawOfferGap = 10;  // plies between a declined draw offer and the next
// Between two writes of a room whose store refuses them (a pending end, or a probe).
constexpr std::chrono::milliseconds kStoreRetry{1000};

// "a-b": the two kaznas of the game now.
std::string score_text(const Game& game);

// A connection watching a room (a WebSocket session): its seat and its send queue.
class RoomClient {
 public:
  virtual ~RoomClient() = default;
  virtual Seat seat() const = 0;
  virtual void send(std::string message) = 0;
  // A state message: replaces a state still waiting in the queue (a slow client gets the latest).
  virtual void send_state(std::string message) = 0;
  virtual void close() = 0;  // the connection closes (and detaches itself)
  // Whether it takes deltas after its first state (its hello asked for them).
  virtual bool wants_deltas() const { return false; }
  // Whether a state sent earlier still waits in its queue (the next send_state replaces it, so
  // the next message must be the whole state: a delta would leave a gap).
  virtual bool state_waiting() const { return false; }
  // What the room last sent it: the ply of that state or delta and the room's history epoch
  // then (sent_ply -1: nothing yet). A delta only follows what the connection already has.
  int sent_ply = -1;
  uint32_t sent_epoch = 0;
  // A finished review was sent to it (a review is sent at most once per connection).
  bool review_sent = false;
  // The signed-in account of the connection (0: anonymous), whose blocks the chat keeps.
  virtual int64_t account() const { return 0; }
  // It switched the chat on for a rated game (chat_on): only then does it read or post there.
  bool chat_rated = false;
};

class Room;

// What the rooms share, owned by the server.
struct RoomServices {
  asio::io_context& ioc;
  const Config& config;
  Store& store;                // synchronous: each call returns once committed
  store::StoreWriter& writer;  // the same store's thread, for the moves (Room::play)
  engine_work::EngineWork& engine;
  std::mt19937_64& rng;     // the engine's seeds
  const bool& stopping_io;  // shutdown began: timers and presence do nothing more
  // Called when a game ends (on the board, by resignation, time, agreement, abort...).
  std::function<void(const Room&)> game_ended = nullptr;
  // Called when a rated game's end and ratings are stored (the feeding flag's check).
  std::function<void(const GameRow&)> rated_game_stored = nullptr;
  // Called when a move is made and stored, as its state goes out: how long since the move was
  // played (its write's commit included). The site's metrics.
  std::function<void(std::chrono::steady_clock::duration)> move_made = nullptr;
  // Called when a player's move is made and stored (the mail's "your turn" notice).
  std::function<void(const Room&)> move_stored = nullptr;
  // Whether one of two accounts blocks the other (the chat is not delivered between them).
  std::function<bool(int64_t a, int64_t b)> blocks_between = nullptr;
};

// One seat of a game.
struct Player {
  std::string name, token;  // token: the seat's secret ("" until given out)
  bool seated = false;      // taken (by a player or the engine)
  // The account the seat is bound to (0: none, the token alone gives the seat); its name is
  // then the account's. In a rated game the rating before it (rounded), whether that was
  // provisional, and once it is over the rounded change.
  int64_t user_id = 0;
  int rating = 0;
  bool provisional = false;
  int rating_diff = 0;
};

class Room : public std::enable_shared_from_this<Room> {
 public:
  // A new game (status Playing, nobody seated yet) over `game`.
  Room(RoomServices& services, std::string id, Mode mode, Game game);
  // The game of a stored row: the start position and rules, then each stored move through
  // Game::play; a resignation, loss on time or agreement is re-recorded; the clocks stay paused
  // until the player to move is back. Throws std::runtime_error naming the game and the field.
  static std::shared_ptr<Room> from_row(RoomServices& services, GameRow row);
  // The row as it is to be stored now (the store's edge: the words of status, mode, result).
  GameRow row() const;
  // The next game with the colours swapped (a rematch), with fresh tokens `token()` makes.
  std::shared_ptr<Room> rematch(std::string id, const std::function<std::string()>& token) const;

  // ---- what the game is (set when created, changed only by the methods below) ----
  const std::string id;
  const Mode mode;
  Status status = Status::Playing;
  Result winner = Result::None;  // None while playing and for an aborted game
  Ending reason = Ending::None;
  // An aborted game: the side whose act called it off (an abort, or an end calls_off turned into
  // one) or who did not make his first move in time; none when nobody did (an agreement, an
  // expiry). A tournament counts the game as that side's loss (docs/accounts.md "Fair play").
  std::optional<Side> aborted_by;
  std::string score;  // "a-b": the kaznas, kept current while playing
  Game game;
  Player players[2];
  std::string invite;  // an online game's invite code
  std::optional<Side> engine_side;
  int level = 0;                                    // the engine's
  int64_t clock_initial_ms = -1, increment_ms = 0;  // -1: no clock
  // Correspondence (an online game without a clock): each move must come within
  // days_per_move days; the side to move has until move_deadline_ms (wall clock, set when the
  // game starts and after every move). A player out of time loses when the opponent claims it.
  int days_per_move = 0;
  int64_t move_deadline_ms = 0;
  bool correspondence() const { return days_per_move > 0; }
  // The first-move rule's time for this game (a tournament's setting); 0: the server's
  // first_move_seconds. Not stored: after a restart the server's applies.
  int first_move_seconds = 0;
  void set_move_deadline();  // now + days_per_move days
  int64_t created_ms = 0, updated_ms = 0;
  std::string review;  // the finished review's JSON object, "" when none
  std::vector<std::pair<std::string, std::string>> tags;  // an imported record's own tags
  std::string rematch_id;                                 // the rematch game once there is one
  // A tournament's game (an online game only): its id and name, kept in the tags "Tournament"
  // and "Event" so that they are stored with the game and exported; "" for none.
  void set_tournament(const std::string& id, const std::string& name);
  std::string tournament_id() const;
  std::string tournament_name() const;
  bool rated = false;  // counts for the ratings (an online game between two accounts)
  std::string speed;   // the category of the clock (accounts::Speed's name), "" for none
  // Why a game asked for rated is played unrated ("pair_cap", "account_marked"), "" for none;
  // shown to the players (not stored: a reload shows the game as casual).
  std::string unrated_reason;
  int64_t fence = 0;  // in a cluster: this instance's lease token, carried by every write

  // ---- who is here ----
  int spectators = 0;  // connections watching (no seat)
  int connections() const { return int(clients_.size()); }
  SteadyClock::time_point idle_since = SteadyClock::now();  // since when nobody is connected

  bool has_clock() const { return clock_initial_ms >= 0; }
  // The clocks run from this ply on: in an online game once both sides have moved (before, the
  // first-move rule times each side, so no clock is lost before a player has begun), otherwise
  // once the first move is made.
  int clock_start_ply() const { return mode == Mode::Online ? 2 : 1; }
  Side to_move() const { return game.position().side_to_move(); }
  // Side s's clock now (0 without a clock).
  int64_t clock_left(Side s) const;
  // Sets both clocks to `ms` (a new game's start).
  void set_clocks(int64_t ms) { left_[0] = left_[1] = ms; }
  // The seat of a connection with `token` from `viewer`: White, Black, Both (one token for
  // both seats) or Spectator. A seat bound to an account is that account's alone (the token
  // is not needed and gives it to nobody else); another seat is its token's.
  Seat seat_for(const std::string& token, const Viewer& viewer) const;
  // Whether `viewer` may move now (his turn, the game playing, the engine not thinking).
  bool may_move(Seat viewer) const;
  bool seat_present(Side s) const;  // the engine, or at least one connection
  // An online game between people still going: no engine help for anyone until it is over.
  bool live_between_people() const;
  bool thinking() const { return thinking_; }
  bool reviewing() const { return reviewing_; }

  // ---- the store ----
  // Writes the game row; a failed write is logged and gives false.
  bool save();

  // ---- moves and the end ----
  // Plays `hole` for the side to move: the clock first (a move after the flag fell is refused
  // and ends the game), Game::play, the clocks, the offers, the end when the board decides, and
  // the store (the move and the game row in one write, queued to the store's writer thread).
  // A refusal comes back at once (Refused, *why: time_up or illegal_move; `done` is not
  // called). Else Pending: once the write is committed `done(Made, nullopt)` is called on the
  // IO thread (the end and the flag timer done, nothing broadcast: a move is acknowledged only
  // once stored); when it fails the move is undone and `done(NotStored, the store's fault or
  // server_error)`. Until then the room's requests and timers wait (writing(), defer()).
  enum class Played { Made, Refused, NotStored, Pending };
  using MoveDone = std::function<void(Played, const Refused& why)>;
  Played play(int hole, Refused* why, MoveDone done);
  // A move's write is pending: what would change the room (or show it) waits for it.
  bool writing() const { return writing_; }
  // Runs `f` now, or once no write is pending (in the order deferred).
  void defer(std::function<void()> f);
  // The one way a game ends: the clocks stopped and the engine dropped at once, then the end
  // queued to the store's writer; once it is stored the result is recorded (the offers
  // dropped, the ratings taken) and every connection is sent the state. An end the store
  // refuses is kept pending (the game shows as being played, paused, with the store's fault)
  // and written again every kStoreRetry until it is stored: the room never shows an end the
  // store does not have.
  void end(Result winner, Ending reason);
  // A new game's first write (creation, import): a position already over is ended first, then
  // the row (and with `with_moves` every move) is queued to the store as one write; `done`
  // gets null once it is stored, else the store's error (StoreUnavailable for a temporary
  // fault), on the IO thread. Until then the room's requests wait (writing()).
  void store_new(bool with_moves, std::function<void(std::exception_ptr)> done);
  // The store refused the room's last write and has not taken one since: the clocks stand
  // still, moves wait, and the state says why ("store").
  std::optional<store::StoreFault> store_fault() const { return store_fault_; }
  bool end_pending() const { return pending_end_.has_value(); }
  void end_from_board();  // end() with the referee's result
  // After a change a player made: everyone gets the state, and the engine moves if it is to.
  void changed();

  // The opponent takes the free seat `side` of an online game waiting for him: it starts.
  void join(Side side, Player player);

  // The requests of players (message_handlers.cpp checks the fields and the seat first).
  // Each answers nothing when done, else the refusal sent to the client (no_takeback, ...).
  Refused takeback();
  // Takeback proposals in an online casual game (room_takeback.cpp): `me` proposes to take
  // back his last move (or accepts the opponent's standing proposal), the opponent answers.
  // Accepted, the game goes back one ply, or two when the opponent has replied already; the
  // clocks are not restored (each keeps the time it has). Refused in a rated or tournament game
  // (takeback_rated, takeback_event); a declined proposal is not made again before a move.
  Refused propose_takeback(Side me);
  Refused answer_takeback(Side me, bool accept);
  std::optional<Side> takeback_offer() const { return takeback_offer_; }
  // Whether `me` may propose a takeback now (the state's can_takeback).
  bool may_propose_takeback(Side me) const;
  Refused resign(Side me);
  Refused offer_draw(Side me);
  Refused answer_draw(Side me, bool accept);
  // `me`: the side that aborts (none: a local game's shared seat).
  Refused abort_game(std::optional<Side> me);
  Refused claim_win(Side me);
  // A rematch request from `seat` (the game being over): in an online game the first request
  // is an offer (true: recorded and broadcast); false when the rematch should start now.
  bool offer_rematch(Seat seat);
  // The rematch `next` exists: each connection gets its id, token and side in it.
  void announce_rematch(const Room& next);
  // The {"type":"rematch"} message for `seat` of this game, in `next`.
  static std::string rematch_message(const Room& next, Seat seat);
  // Starts the review for `client` (review.cpp): a stored one is sent at once (once per
  // connection), a running one is joined, else the engine reviews the game in the background,
  // holding `ticket` (the asker's claim, ReviewClaims) until it ends. It stops when every
  // connection waiting for it has gone. Answers the refusal (review_sent), if any.
  Refused start_review(const std::shared_ptr<RoomClient>& client,
                       std::shared_ptr<void> ticket = nullptr);
  // Whether a review request would start engine work (none stored, none running).
  bool review_needs_engine() const;

  // ---- the chat (room_chat.cpp, docs/web-protocol.md "Chat") ----
  // `from` says `text` in the game: refused (chat_not_online, chat_account, chat_off,
  // chat_empty, chat_too_long, chat_full, or the store's fault) unless `from` is a player of
  // an online game signed in to the account of his seat, who has the chat on in a rated game;
  // else cleaned (clean_display_text), stored, and sent to every connection that may read it
  // and does not block its author or is blocked by him. Never changes the game.
  Refused say(const RoomClient& from, std::string_view text);
  // Whether `c` may read the chat: in an online game, players and spectators of a casual game,
  // in a rated one only the players who switched it on.
  bool may_read_chat(const RoomClient& c) const;
  // The stored chat as {"type":"chat_log"} for `c` (the messages it may see, and whether it
  // may post), when it may read it; nothing else.
  void send_chat_log(RoomClient& c);

  // ---- clocks, engine, connections ----
  void resume_clock();    // runs the clock when the player to move is here
  void arm_flag_timer();  // the flag timer for the side to move (or cancelled)
  void start_engine();    // the engine's search when it is to move
  void stop_engine();     // cancels it; its result will be dropped
  void attach(RoomClient& c);
  void detach(RoomClient& c);
  // The state, built for each kind of viewer: a delta for a connection that takes deltas and
  // has the state before it, else the whole state.
  void broadcast();
  // The whole state for `c` alone (its first, or one it asked for after a gap in its deltas).
  void send_whole_state(RoomClient& c);
  // Expiry (sweep): ends a game waiting or never started, or an analysis board, left alone
  // longer than the config allows; and by the abandonment rule a live game (online or against
  // the engine, not correspondence) whose side to move has been away, with no move made, for
  // idle_game_seconds: that side loses by abandonment (fair play may call it off instead).
  // `now_ms` is the wall clock, `now` the steady one. Returns whether it ended it.
  bool expire(int64_t now_ms, SteadyClock::time_point now);
  // The first-move rule (docs/accounts.md "Fair play"): an online game between people (not
  // correspondence) in which the side to move has not made his first move yet. He has
  // first_move_seconds from the start of the game (White) or from White's first move (Black),
  // by the server's clock; then the game is aborted with him as aborted_by (reason no-start).
  bool first_move_due() const;
  int first_move_time() const;  // seconds: first_move_seconds, else the server's
  // The milliseconds left for that first move, nullopt when first_move_due() is false.
  std::optional<int64_t> first_move_left_ms() const;
  // Arms the first-move timer when first_move_due(), else cancels it. arm_flag_timer arms it too.
  void arm_start_timer();
  // Whether the room may leave memory: nobody here, no engine work or write pending, not a
  // live game, idle long enough.
  bool may_leave_memory(SteadyClock::time_point now) const;
  void cancel_timers();
  void close_clients();  // every connection closes (and detaches itself)
  // At shutdown: timers cancelled, running clocks saved as they stand, connections closed.
  void stop_for_shutdown();
  // The server drains (docs/operations.md "Draining"): timers and the engine stopped, and
  // from now on a player's request is refused (game_moving), so that no write of the game is
  // queued after what is queued now. The game goes on wherever it is loaded next.
  void begin_handover();
  bool handing_over() const { return handing_over_; }
  // Once the writes queued before begin_handover() are committed: running clocks saved as
  // they stand and paused (the next driver runs them again when the player to move is back),
  // the connections kept.
  void save_paused_clocks();

  // ---- the state message (room_state.cpp) ----
  // `whole` false: the delta's game, without `moves` and the fields that never change.
  json::object state_json(Seat viewer, bool whole = true);
  std::string state_message(Seat viewer);
  // {"type":"delta","move":<the last move>|null,"game":<state_json(viewer, false)>}.
  std::string delta_message(Seat viewer, bool with_move);

 private:
  // What a move changes besides the referee's game, to be put back when it cannot be stored.
  struct Undo {
    int64_t mover_left;  // the mover's clock when he moved
    int64_t left[2];
    bool clock_running;
    SteadyClock::time_point turn_start;
    std::optional<Side> draw_offer;
    int declined_ply;  // the opponent's draw_declined_ply_
    std::string score;
    int64_t updated_ms, move_deadline_ms;
    SteadyClock::time_point moved_at;
  };
  // The move's write came back (play): committed (e null) or failed.
  void move_written(std::exception_ptr e, const Undo& undo, bool ends, const MoveDone& done);
  void run_deferred();
  bool writing_ = false;
  bool handing_over_ = false;  // begin_handover()
  std::vector<std::function<void()>> deferred_;
  // The Glicko-2 update of an end as the store applies it (null: no rating change).
  store::RateGame rate_end(Result winner, Ending reason) const;
  // ---- a store that refuses writes ----
  struct PendingEnd {
    Result winner;
    Ending reason;
  };
  std::optional<PendingEnd> pending_end_;         // decided, not yet stored
  std::optional<store::StoreFault> store_fault_;  // the last write's refusal
  SteadyClock::time_point paused_at_;             // since when store_fault_ is set
  asio::steady_timer retry_timer_;
  void write_end();  // queues the pending end (its row, and the ratings of a rated game)
  void end_written(std::exception_ptr e, const GameRow& g, bool wrote);
  // A write failed: the clocks stop (the side to move keeps `stm_left`), the players are
  // told, and a retry is scheduled. A write that succeeded clears it (store_back).
  void store_refused(std::exception_ptr e, int64_t stm_left);
  void store_back();
  void schedule_retry();
  void retry_store();  // the pending end, or a write of the row to see whether it is back
  // The seats' ratings and diffs from the row finish_game filled in.
  void took_ratings(const GameRow& g);
  // The ending's state: result, clocks stopped, offers dropped. end() and play() finish with it.
  void set_result(Result winner, Ending reason);
  // Fair play: an end that calls_off turns into an abort (no winner), with aborted_by set.
  void call_off_early(Result& winner, Ending& reason);
  void after_end();  // timers and the engine stopped
  void on_flag();
  void on_start_timer();
  void on_engine_result(const search::SearchResult& r);
  void schedule_presence();
  void on_seat_gone(Side side);
  json::object board_json() const;
  json::array& moves_json();
  json::object players_json(SteadyClock::time_point now) const;
  json::value clock_json() const;
  // {"kind":"clock","initial_ms","increment_ms"}, {"kind":"correspondence","days"} or
  // {"kind":"none"}.
  json::value time_control_json() const;
  bool can_claim(Seat viewer, SteadyClock::time_point now) const;
  void send_review(const std::string& text);
  void stop_review();  // the running review cancelled, its claim dropped

  RoomServices& services_;
  // Clocks: left_[s] is side s's time when its turn started (turn_start_) or, when not running,
  // its time now. They run from clock_start_ply() on, and not after a restart until the
  // player to move is back.
  bool clock_running_ = false;
  int64_t left_[2] = {0, 0};
  SteadyClock::time_point turn_start_;
  asio::steady_timer flag_timer_;
  // The last move (or the start of the game, or its load from the store): the first-move and
  // abandonment rules count from it.
  SteadyClock::time_point moved_at_ = SteadyClock::now();
  asio::steady_timer start_timer_;  // the first-move rule's
  // Spectators coming and going: one small presence message per room and interval.
  asio::steady_timer presence_timer_;
  bool presence_pending_ = false;
  std::optional<Side> draw_offer_, rematch_offer_;
  // The ply at which side s's last draw offer was declined: he may offer again kDrawOfferGap
  // plies later, so offers cannot be repeated move after move.
  int draw_declined_ply_[2] = {-kDrawOfferGap, -kDrawOfferGap};
  bool may_offer_draw(Side s) const;
  // The standing takeback proposal, and the ply at which each side's last one was declined.
  std::optional<Side> takeback_offer_;
  int takeback_declined_ply_[2] = {-1, -1};
  // Takes back `plies` plies: offers dropped, the store's moves cut, everyone sent the state.
  void undo_plies(int plies);
  Refused draw_refused(const std::string& action) const;  // mode and status
  // Connections and per side their count and since when the seat has been empty.
  std::vector<RoomClient*> clients_;
  int connected_[2] = {0, 0};
  SteadyClock::time_point gone_since_[2];
  asio::steady_timer abandon_timer_[2];
  // The engine's move search; a cancelled job's result is dropped.
  bool thinking_ = false;
  std::shared_ptr<engine_work::Job> engine_job_;
  // The background review and who waits for it.
  bool reviewing_ = false;
  double review_progress_ = 0;
  std::vector<std::weak_ptr<RoomClient>> review_waiters_;
  std::shared_ptr<engine_work::Job> review_job_;
  std::shared_ptr<void> review_ticket_;
  // The state's "moves", one entry per ply, extended as moves are made (cleared on takeback).
  json::array moves_json_;
  // Counts the takebacks: a connection's last ply means the same history only in the same epoch.
  uint32_t epoch_ = 0;
  // The chat as stored, read from the store on first use.
  std::optional<std::vector<store::ChatRow>> chat_;
  std::vector<store::ChatRow>& chat_log();
  // Why `from` may not post now (the text aside), nothing when he may.
  Refused chat_refusal(const RoomClient& from) const;
  // Whether `c` is kept from the messages of account `author` by a block.
  bool chat_blocked(const RoomClient& c, int64_t author) const;
};

}  // namespace toguz::site
