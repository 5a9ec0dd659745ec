// The store's own thread (docs/server.md "Storage"): the server's writes and reads of the store
// run here, in the order they were queued, so that no commit, checkpoint or disk stall runs on
// the thread that serves the sockets. What is queued while a transaction commits goes into the
// next one together (group commit: Store::write_group), so many games' moves share a commit.
// A queued write's outcome is handed back through `post` (the server's IO thread); call()
// waits for its own, ordered after every write queued before it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "store/store.h"

namespace toguz::store {

class StoreWriter {
 public:
  using Post = std::function<void(std::function<void()>)>;
  using Done = std::function<void(std::exception_ptr)>;  // null: committed
  // `store` is used by this thread alone from now on; `post` runs a result where the caller
  // wants it (called on the writer thread). At most `max_group` writes share one commit.
  StoreWriter(Store& store, Post post, size_t max_group = 512);
  // Runs what is queued (results still posted), then stops the thread.
  ~StoreWriter();
  StoreWriter(const StoreWriter&) = delete;
  StoreWriter& operator=(const StoreWriter&) = delete;

  // Queues `write`; once its transaction is committed (or it failed), `done` is posted with
  // null (or the exception).
  void write(std::function<void(Store&)> write, Done done);

  // Runs `f` on the writer thread after everything queued before, and returns its result once
  // it is committed (or throws its exception, or the commit's). From the writer thread itself
  // (inside a write) it runs at once. The wait is bounded: when `f` has not started within
  // call_wait() (the writer is stuck behind a busy or failing database), it is dropped unrun
  // and StoreUnavailable(Busy) is thrown, so that the caller (the IO thread) never waits on
  // the database's own lock timeout more than once.
  template <class F>
  auto call(F&& f) -> std::invoke_result_t<F&, Store&> {
    using R = std::invoke_result_t<F&, Store&>;
    if (std::this_thread::get_id() == thread_.get_id()) return f(store_);
    auto promise = std::make_shared<std::promise<R>>();
    using Value = std::conditional_t<std::is_void_v<R>, char, R>;
    auto result = std::make_shared<std::optional<Value>>();
    auto claim = std::make_shared<Claim>();
    std::future<R> future = promise->get_future();
    enqueue(
        [&f, result, claim](Store& s) {
          if (!claim->start()) return;  // the caller gave up: `f` may be gone
          if constexpr (std::is_void_v<R>)
            (f(s), result->emplace('\0'));
          else
            result->emplace(f(s));
        },
        [promise, result](std::exception_ptr e) {
          if (e) return promise->set_exception(e);
          if (!result->has_value()) return;  // dropped unrun: nobody waits
          if constexpr (std::is_void_v<R>)
            promise->set_value();
          else
            promise->set_value(std::move(**result));
        },
        false);
    if (future.wait_for(call_wait_) != std::future_status::ready && claim->give_up())
      throw StoreUnavailable(StoreFault::Busy,
                             "the store is busy: the request waited too long for it");
    return future.get();
  }
  // Told after each commit of a group, on the writer thread: how long the group's transaction
  // took and how many of its writes failed. Set before the first write.
  using CommitObserver = std::function<void(std::chrono::steady_clock::duration, size_t failed)>;
  void set_commit_observer(CommitObserver observer) { on_commit_ = std::move(observer); }
  // How long call() waits for its turn (1 s unless set).
  void set_call_wait(std::chrono::milliseconds wait) { call_wait_ = wait; }

 private:
  // Who goes first: the writer starting a call's function, or its caller giving up on it.
  class Claim {
   public:
    bool start() { return take(Started); }    // false: the caller gave up
    bool give_up() { return take(Dropped); }  // false: it has started, so wait for it
   private:
    enum State { Queued, Started, Dropped };
    bool take(State to) {
      std::lock_guard<std::mutex> lock(m_);
      if (state_ != Queued) return false;
      state_ = to;
      return true;
    }
    std::mutex m_;
    State state_ = Queued;
  };
  struct Op {
    std::function<void(Store&)> run;
    Done done;
    bool post;  // done goes through post_ (else it is called on the writer thread)
  };
  void enqueue(std::function<void(Store&)> run, Done done, bool post);
  void loop();

  Store& store_;
  Post post_;
  size_t max_group_;
  std::chrono::milliseconds call_wait_{1000};
  CommitObserver on_commit_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Op> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

// The Store interface over a StoreWriter: each call runs on the writer's thread, in order with
// the queued writes, and returns once committed. For the code that wants an answer before it
// goes on (accounts, creating a game, loading one); a room's moves use StoreWriter::write.
class QueuedStore final : public Store {
 public:
  explicit QueuedStore(StoreWriter& writer) : w_(writer) {}

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

 private:
  StoreWriter& w_;
};

}  // namespace toguz::store
