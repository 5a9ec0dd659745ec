// Fakes for the tests of a Room without sockets (site/room_test.cpp): a store that forwards to a
// real one and can be told to refuse the game writes, and a connection that keeps every message
// it is sent.
#pragma once

#include <atomic>
#include <boost/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "site/games/room.h"
#include "store/store.h"

namespace toguz::site::room_fakes {

namespace json = boost::json;

// The real store behind it, except that while `refuse` is set the writes of a game (its row,
// its moves, its end) throw StoreUnavailable(`fault`), as a locked, read-only or full database
// does: nothing is written. Reads always go through. Used from the writer's thread, set from
// the test's: hence atomics.
class RefusingStore final : public store::Store {
 public:
  explicit RefusingStore(store::Store& inner) : inner_(inner) {}
  std::atomic<bool> refuse{false};
  std::atomic<store::StoreFault> fault{store::StoreFault::ReadOnly};
  std::atomic<int> refused{0};  // writes refused so far

  void save_game(const store::GameRow& g) override {
    check();
    inner_.save_game(g);
  }
  void add_move(const store::GameRow& g, int ply, int hole) override {
    check();
    inner_.add_move(g, ply, hole);
  }
  void truncate_moves(const store::GameRow& g, int keep) override {
    check();
    inner_.truncate_moves(g, keep);
  }
  bool finish_game(store::GameRow& g, const store::RateGame& rate, int ply, int hole) override {
    check();
    return inner_.finish_game(g, rate, ply, hole);
  }
  // The group commit of the real store: each write calls this store's methods inside it.
  void write_group(const std::vector<std::function<void()>>& writes,
                   std::vector<std::exception_ptr>* errors) override {
    inner_.write_group(writes, errors);
  }

  // The rest as the real store does it.
  void claim_fence(const std::string& id, int64_t token) override { inner_.claim_fence(id, token); }
  int64_t fence_of(const std::string& id) override { return inner_.fence_of(id); }
  void save_review(const std::string& id, const std::string& review_json) override {
    inner_.save_review(id, review_json);
  }
  std::optional<store::GameRow> load_game(const std::string& id) override {
    return inner_.load_game(id);
  }
  std::vector<std::string> unfinished_ids() override { return inner_.unfinished_ids(); }
  void expire_stale(int64_t waiting_before_ms, int64_t analysis_before_ms) override {
    inner_.expire_stale(waiting_before_ms, analysis_before_ms);
  }
  std::vector<store::GameRow> list_games(const store::ListQuery& q, int64_t* total) override {
    return inner_.list_games(q, total);
  }
  int64_t create_user(const store::UserRow& u) override { return inner_.create_user(u); }
  std::optional<store::UserRow> find_user(const std::string& key) override {
    return inner_.find_user(key);
  }
  std::optional<store::UserRow> user_by_id(int64_t id) override { return inner_.user_by_id(id); }
  void set_password(int64_t user, const std::string& hash) override {
    inner_.set_password(user, hash);
  }
  void add_session(const std::string& hash, int64_t user, int64_t expires_ms) override {
    inner_.add_session(hash, user, expires_ms);
  }
  std::optional<store::SessionRow> find_session(const std::string& hash) override {
    return inner_.find_session(hash);
  }
  void delete_session(const std::string& hash) override { inner_.delete_session(hash); }
  void delete_other_sessions(int64_t user, const std::string& keep, int64_t now) override {
    inner_.delete_other_sessions(user, keep, now);
  }
  std::vector<store::RatingRow> ratings(int64_t user) override { return inner_.ratings(user); }
  std::vector<store::RatingChange> rating_history(int64_t user) override {
    return inner_.rating_history(user);
  }
  std::vector<store::LeaderRow> leaderboard(const std::string& category, double max_rd,
                                            int limit) override {
    return inner_.leaderboard(category, max_rd, limit);
  }
  store::ResultCounts result_counts(int64_t user) override { return inner_.result_counts(user); }
  void save_event(const store::EventRow& e) override { inner_.save_event(e); }
  std::optional<store::EventRow> load_event(const std::string& id) override {
    return inner_.load_event(id);
  }
  void save_tournament(const store::TournamentRow& t) override { inner_.save_tournament(t); }
  std::optional<store::TournamentRow> load_tournament(const std::string& id) override {
    return inner_.load_tournament(id);
  }
  std::vector<store::TournamentRow> list_tournaments(int finished) override {
    return inner_.list_tournaments(finished);
  }
  store::AttemptResult rate_puzzle_attempt(const store::PuzzleAttempt& a,
                                           const store::RatingRow& player_start,
                                           const store::RatingRow& puzzle_start,
                                           const store::RateAttempt& rate) override {
    return inner_.rate_puzzle_attempt(a, player_start, puzzle_start, rate);
  }
  std::optional<store::RatingRow> puzzle_player_rating(int64_t user) override {
    return inner_.puzzle_player_rating(user);
  }
  std::optional<store::RatingRow> puzzle_rating(const std::string& puzzle) override {
    return inner_.puzzle_rating(puzzle);
  }
  std::vector<store::RatingRow> puzzle_ratings() override { return inner_.puzzle_ratings(); }
  std::vector<std::string> attempted_puzzles(int64_t user) override {
    return inner_.attempted_puzzles(user);
  }
  void add_puzzle_served(int64_t user, const std::string& puzzle, int64_t time_ms) override {
    inner_.add_puzzle_served(user, puzzle, time_ms);
  }
  bool puzzle_was_served(int64_t user, const std::string& puzzle) override {
    return inner_.puzzle_was_served(user, puzzle);
  }
  store::Standing standing(int64_t user) override { return inner_.standing(user); }
  void set_standing(int64_t user, const store::Standing& s) override {
    inner_.set_standing(user, s);
  }
  void delete_sessions(int64_t user) override { inner_.delete_sessions(user); }
  int64_t add_report(const store::ReportRow& r) override { return inner_.add_report(r); }
  std::vector<store::ReportRow> list_reports(bool resolved_too, int limit) override {
    return inner_.list_reports(resolved_too, limit);
  }
  bool resolve_report(int64_t id) override { return inner_.resolve_report(id); }
  bool open_flag(int64_t target, int64_t about) override { return inner_.open_flag(target, about); }
  void set_block(int64_t user, int64_t blocked, bool on, int64_t now) override {
    inner_.set_block(user, blocked, on, now);
  }
  std::vector<std::pair<int64_t, std::string>> blocks(int64_t user) override {
    return inner_.blocks(user);
  }
  std::vector<int64_t> blocked_either_way(int64_t user) override {
    return inner_.blocked_either_way(user);
  }
  int rated_games_between(int64_t a, int64_t b, int64_t since_ms) override {
    return inner_.rated_games_between(a, b, since_ms);
  }
  store::LossCounts losses_to(int64_t loser, int64_t winner, int64_t since_ms) override {
    return inner_.losses_to(loser, winner, since_ms);
  }
  bool void_game(const std::string& game, const store::RateOne& rate) override {
    return inner_.void_game(game, rate);
  }
  void set_email(int64_t user, const std::string& email, bool verified,
                 const std::string& lang) override {
    inner_.set_email(user, email, verified, lang);
  }
  void set_notices(int64_t user, int notices) override { inner_.set_notices(user, notices); }
  std::vector<store::UserRow> users_by_email(const std::string& email, int limit) override {
    return inner_.users_by_email(email, limit);
  }
  void add_mail_token(const store::MailToken& t) override { inner_.add_mail_token(t); }
  std::optional<store::MailToken> take_mail_token(const std::string& hash,
                                                  const std::string& purpose,
                                                  int64_t now) override {
    return inner_.take_mail_token(hash, purpose, now);
  }
  std::string settings(int64_t user) override { return inner_.settings(user); }
  void set_settings(int64_t user, const std::string& json, int64_t now) override {
    inner_.set_settings(user, json, now);
  }
  int64_t add_chat(const store::ChatRow& m) override { return inner_.add_chat(m); }
  std::vector<store::ChatRow> game_chat(const std::string& id) override {
    return inner_.game_chat(id);
  }
  std::optional<store::ChatRow> chat_message(int64_t id) override {
    return inner_.chat_message(id);
  }

 private:
  void check() {
    if (!refuse) return;
    ++refused;
    throw store::StoreUnavailable(fault, "the test's store refuses writes");
  }
  store::Store& inner_;
};

// A connection to a room in one seat that keeps every message it is sent, parsed. It takes
// whole states only (no deltas), so each state it gets is the game as the room shows it.
class RecordingClient final : public RoomClient {
 public:
  explicit RecordingClient(Seat seat) : seat_(seat) {}
  Seat seat() const override { return seat_; }
  void send(std::string message) override { got.push_back(json::parse(message).as_object()); }
  void send_state(std::string message) override { send(std::move(message)); }
  void close() override { ++closed; }

  std::vector<json::object> got;
  int closed = 0;

  // The messages of one type received so far.
  std::vector<json::object> of(const std::string& type) const {
    std::vector<json::object> out;
    for (const auto& m : got)
      if (m.at("type").as_string() == type) out.push_back(m);
    return out;
  }
  size_t states() const { return of("state").size(); }
  // The "game" of the last state received (an empty object when none came).
  json::object last_game() const {
    const auto s = of("state");
    return s.empty() ? json::object{} : s.back().at("game").as_object();
  }

 private:
  Seat seat_;
};

}  // namespace toguz::site::room_fakes
