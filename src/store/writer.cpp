#include "store/writer.h"

#include <algorithm>

namespace toguz::store {

StoreWriter::StoreWriter(Store& store, Post post, size_t max_group)
    : store_(store), post_(std::move(post)), max_group_(std::max<size_t>(1, max_group)) {
  thread_ = std::thread([this] { loop(); });
}

StoreWriter::~StoreWriter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void StoreWriter::write(std::function<void(Store&)> write, Done done) {
  enqueue(std::move(write), std::move(done), true);
}

void StoreWriter::enqueue(std::function<void(Store&)> run, Done done, bool post) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(Op{std::move(run), std::move(done), post});
  }
  wake_.notify_one();
}

void StoreWriter::loop() {
  std::vector<Op> group;
  std::vector<std::function<void()>> writes;
  std::vector<std::exception_ptr> errors;
  for (;;) {
    group.clear();
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and everything queued has run
      while (!queue_.empty() && group.size() < max_group_) {
        group.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    writes.clear();
    for (Op& op : group) writes.push_back([&op, this] { op.run(store_); });
    const auto started = std::chrono::steady_clock::now();
    store_.write_group(writes, &errors);
    if (on_commit_)
      on_commit_(std::chrono::steady_clock::now() - started,
                 size_t(std::count_if(errors.begin(), errors.end(),
                                      [](const std::exception_ptr& e) { return bool(e); })));
    for (size_t i = 0; i < group.size(); ++i) {
      Op& op = group[i];
      if (!op.done) continue;
      if (!op.post) {
        op.done(errors[i]);
        continue;
      }
      post_([done = std::move(op.done), e = errors[i]] { done(e); });
    }
  }
}

void QueuedStore::save_game(const GameRow& g) {
  w_.call([&](Store& s) { s.save_game(g); });
}
void QueuedStore::add_move(const GameRow& g, int ply, int hole) {
  w_.call([&](Store& s) { s.add_move(g, ply, hole); });
}
void QueuedStore::truncate_moves(const GameRow& g, int keep) {
  w_.call([&](Store& s) { s.truncate_moves(g, keep); });
}
void QueuedStore::claim_fence(const std::string& id, int64_t token) {
  w_.call([&](Store& s) { s.claim_fence(id, token); });
}
int64_t QueuedStore::fence_of(const std::string& id) {
  return w_.call([&](Store& s) { return s.fence_of(id); });
}
void QueuedStore::save_review(const std::string& id, const std::string& review_json) {
  w_.call([&](Store& s) { s.save_review(id, review_json); });
}
std::optional<GameRow> QueuedStore::load_game(const std::string& id) {
  return w_.call([&](Store& s) { return s.load_game(id); });
}
std::vector<std::string> QueuedStore::unfinished_ids() {
  return w_.call([&](Store& s) { return s.unfinished_ids(); });
}
void QueuedStore::expire_stale(int64_t waiting_before_ms, int64_t analysis_before_ms) {
  w_.call([&](Store& s) { s.expire_stale(waiting_before_ms, analysis_before_ms); });
}
std::vector<GameRow> QueuedStore::list_games(const ListQuery& q, int64_t* total) {
  return w_.call([&](Store& s) { return s.list_games(q, total); });
}
bool QueuedStore::finish_game(GameRow& g, const RateGame& rate, int ply, int hole) {
  return w_.call([&](Store& s) { return s.finish_game(g, rate, ply, hole); });
}
int64_t QueuedStore::create_user(const UserRow& u) {
  return w_.call([&](Store& s) { return s.create_user(u); });
}
std::optional<UserRow> QueuedStore::find_user(const std::string& username_key) {
  return w_.call([&](Store& s) { return s.find_user(username_key); });
}
std::optional<UserRow> QueuedStore::user_by_id(int64_t id) {
  return w_.call([&](Store& s) { return s.user_by_id(id); });
}
void QueuedStore::set_password(int64_t user_id, const std::string& password_hash) {
  w_.call([&](Store& s) { s.set_password(user_id, password_hash); });
}
void QueuedStore::add_session(const std::string& token_hash, int64_t user_id, int64_t expires_ms) {
  w_.call([&](Store& s) { s.add_session(token_hash, user_id, expires_ms); });
}
std::optional<SessionRow> QueuedStore::find_session(const std::string& token_hash) {
  return w_.call([&](Store& s) { return s.find_session(token_hash); });
}
void QueuedStore::delete_session(const std::string& token_hash) {
  w_.call([&](Store& s) { s.delete_session(token_hash); });
}
void QueuedStore::delete_other_sessions(int64_t user_id, const std::string& keep, int64_t now_ms) {
  w_.call([&](Store& s) { s.delete_other_sessions(user_id, keep, now_ms); });
}
std::vector<RatingRow> QueuedStore::ratings(int64_t user_id) {
  return w_.call([&](Store& s) { return s.ratings(user_id); });
}
std::vector<RatingChange> QueuedStore::rating_history(int64_t user_id) {
  return w_.call([&](Store& s) { return s.rating_history(user_id); });
}
std::vector<LeaderRow> QueuedStore::leaderboard(const std::string& category, double max_rd,
                                                int limit) {
  return w_.call([&](Store& s) { return s.leaderboard(category, max_rd, limit); });
}
ResultCounts QueuedStore::result_counts(int64_t user_id) {
  return w_.call([&](Store& s) { return s.result_counts(user_id); });
}
void QueuedStore::save_event(const EventRow& e) {
  w_.call([&](Store& s) { s.save_event(e); });
}
std::optional<EventRow> QueuedStore::load_event(const std::string& id) {
  return w_.call([&](Store& s) { return s.load_event(id); });
}
void QueuedStore::save_tournament(const TournamentRow& t) {
  w_.call([&](Store& s) { s.save_tournament(t); });
}
std::optional<TournamentRow> QueuedStore::load_tournament(const std::string& id) {
  return w_.call([&](Store& s) { return s.load_tournament(id); });
}
std::vector<TournamentRow> QueuedStore::list_tournaments(int finished) {
  return w_.call([&](Store& s) { return s.list_tournaments(finished); });
}
AttemptResult QueuedStore::rate_puzzle_attempt(const PuzzleAttempt& a,
                                               const RatingRow& player_start,
                                               const RatingRow& puzzle_start,
                                               const RateAttempt& rate) {
  return w_.call(
      [&](Store& s) { return s.rate_puzzle_attempt(a, player_start, puzzle_start, rate); });
}
std::optional<RatingRow> QueuedStore::puzzle_player_rating(int64_t user_id) {
  return w_.call([&](Store& s) { return s.puzzle_player_rating(user_id); });
}
std::optional<RatingRow> QueuedStore::puzzle_rating(const std::string& puzzle_id) {
  return w_.call([&](Store& s) { return s.puzzle_rating(puzzle_id); });
}
std::vector<RatingRow> QueuedStore::puzzle_ratings() {
  return w_.call([&](Store& s) { return s.puzzle_ratings(); });
}
void QueuedStore::add_puzzle_served(int64_t user_id, const std::string& puzzle_id,
                                    int64_t time_ms) {
  w_.call([&](Store& s) { s.add_puzzle_served(user_id, puzzle_id, time_ms); });
}
bool QueuedStore::puzzle_was_served(int64_t user_id, const std::string& puzzle_id) {
  return w_.call([&](Store& s) { return s.puzzle_was_served(user_id, puzzle_id); });
}
std::vector<std::string> QueuedStore::attempted_puzzles(int64_t user_id) {
  return w_.call([&](Store& s) { return s.attempted_puzzles(user_id); });
}

Standing QueuedStore::standing(int64_t user_id) {
  return w_.call([&](Store& s) { return s.standing(user_id); });
}
void QueuedStore::set_standing(int64_t user_id, const Standing& st) {
  w_.call([&](Store& s) { s.set_standing(user_id, st); });
}
void QueuedStore::delete_sessions(int64_t user_id) {
  w_.call([&](Store& s) { s.delete_sessions(user_id); });
}
int64_t QueuedStore::add_report(const ReportRow& r) {
  return w_.call([&](Store& s) { return s.add_report(r); });
}
std::vector<ReportRow> QueuedStore::list_reports(bool resolved_too, int limit) {
  return w_.call([&](Store& s) { return s.list_reports(resolved_too, limit); });
}
bool QueuedStore::resolve_report(int64_t id) {
  return w_.call([&](Store& s) { return s.resolve_report(id); });
}
bool QueuedStore::open_flag(int64_t target, int64_t about) {
  return w_.call([&](Store& s) { return s.open_flag(target, about); });
}
void QueuedStore::set_block(int64_t user, int64_t blocked, bool on, int64_t now_ms) {
  w_.call([&](Store& s) { s.set_block(user, blocked, on, now_ms); });
}
std::vector<std::pair<int64_t, std::string>> QueuedStore::blocks(int64_t user) {
  return w_.call([&](Store& s) { return s.blocks(user); });
}
std::vector<int64_t> QueuedStore::blocked_either_way(int64_t user) {
  return w_.call([&](Store& s) { return s.blocked_either_way(user); });
}
int QueuedStore::rated_games_between(int64_t a, int64_t b, int64_t since_ms) {
  return w_.call([&](Store& s) { return s.rated_games_between(a, b, since_ms); });
}
LossCounts QueuedStore::losses_to(int64_t loser, int64_t winner, int64_t since_ms) {
  return w_.call([&](Store& s) { return s.losses_to(loser, winner, since_ms); });
}
bool QueuedStore::void_game(const std::string& game_id, const RateOne& rate) {
  return w_.call([&](Store& s) { return s.void_game(game_id, rate); });
}

void QueuedStore::set_email(int64_t user_id, const std::string& email, bool verified,
                            const std::string& lang) {
  w_.call([&](Store& s) { s.set_email(user_id, email, verified, lang); });
}

void QueuedStore::set_notices(int64_t user_id, int notices) {
  w_.call([&](Store& s) { s.set_notices(user_id, notices); });
}

std::vector<UserRow> QueuedStore::users_by_email(const std::string& email, int limit) {
  return w_.call([&](Store& s) { return s.users_by_email(email, limit); });
}

void QueuedStore::add_mail_token(const MailToken& t) {
  w_.call([&](Store& s) { s.add_mail_token(t); });
}

std::optional<MailToken> QueuedStore::take_mail_token(const std::string& token_hash,
                                                      const std::string& purpose, int64_t now_ms) {
  return w_.call([&](Store& s) { return s.take_mail_token(token_hash, purpose, now_ms); });
}

std::string QueuedStore::settings(int64_t user_id) {
  return w_.call([&](Store& s) { return s.settings(user_id); });
}

void QueuedStore::set_settings(int64_t user_id, const std::string& json, int64_t now_ms) {
  w_.call([&](Store& s) { s.set_settings(user_id, json, now_ms); });
}

int64_t QueuedStore::add_chat(const ChatRow& m) {
  return w_.call([&](Store& s) { return s.add_chat(m); });
}

std::vector<ChatRow> QueuedStore::game_chat(const std::string& game_id) {
  return w_.call([&](Store& s) { return s.game_chat(game_id); });
}

std::optional<ChatRow> QueuedStore::chat_message(int64_t id) {
  return w_.call([&](Store& s) { return s.chat_message(id); });
}

}  // namespace toguz::store
