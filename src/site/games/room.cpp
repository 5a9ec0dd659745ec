// A room's behaviour: moves, the end, takebacks, offers, clocks, the engine's moves and the
// connections (room.h). The stored row and the state message are in room_row.cpp and
// room_state.cpp, the review in review.cpp.
#include "site/games/room.h"

#include <algorithm>

#include "accounts/glicko2.h"
#include "net/log.h"
#include "search/decisions.h"
#include "site/json_out.h"
#include "site/texts.h"

namespace toguz::site {

namespace {

using std::chrono::milliseconds;

Result win_for(Side s) {
  return s == Side::White ? Result::WhiteWins : Result::BlackWins;
}

}  // namespace

std::string score_text(const Game& game) {
  const auto sc = game.score();
  return std::to_string(sc[0]) + "-" + std::to_string(sc[1]);
}

Room::Room(RoomServices& services, std::string id_, Mode mode_, Game game_)
    : id(std::move(id_)),
      mode(mode_),
      game(std::move(game_)),
      retry_timer_(services.ioc),
      services_(services),
      flag_timer_(services.ioc),
      start_timer_(services.ioc),
      presence_timer_(services.ioc),
      abandon_timer_{asio::steady_timer(services.ioc), asio::steady_timer(services.ioc)} {
  created_ms = updated_ms = now_ms();
  gone_since_[0] = gone_since_[1] = SteadyClock::now();
}

int64_t Room::clock_left(Side s) const {
  if (!has_clock()) return 0;
  const int i = index(s);
  if (clock_running_ && s == to_move() && status == Status::Playing)
    return left_[i] -
           std::chrono::duration_cast<milliseconds>(SteadyClock::now() - turn_start_).count();
  return left_[i];
}

Seat Room::seat_for(const std::string& token, const Viewer& viewer) const {
  const Player &w = players[0], &b = players[1];
  if (!token.empty() && w.token == token && b.token == token && w.user_id == 0 && b.user_id == 0)
    return Seat::Both;
  for (Side s : {Side::White, Side::Black}) {
    const Player& p = players[index(s)];
    if (p.user_id == 0 && p.seated && !token.empty() && p.token == token) return seat_of(s);
  }
  for (Side s : {Side::White, Side::Black}) {
    const Player& p = players[index(s)];
    if (p.user_id > 0 && p.seated && p.user_id == viewer.user_id) return seat_of(s);
  }
  return Seat::Spectator;
}

bool Room::may_move(Seat viewer) const {
  if (status != Status::Playing || pending_end_ || thinking_ || game.over() ||
      viewer == Seat::Spectator)
    return false;
  if (mode == Mode::Engine && engine_side == to_move()) return false;
  return plays(viewer, to_move());
}

bool Room::seat_present(Side s) const {
  return engine_side == s || connected_[index(s)] > 0;
}

bool Room::live_between_people() const {
  return mode == Mode::Online && (status == Status::Playing || status == Status::Waiting);
}

bool Room::may_offer_draw(Side s) const {
  return game.ply_count() >= draw_declined_ply_[index(s)] + kDrawOfferGap;
}

// ---- the store ----

bool Room::save() {
  updated_ms = now_ms();
  if (status == Status::Playing || status == Status::Waiting) score = score_text(game);
  try {
    services_.store.save_game(row());
    return true;
  } catch (const std::exception& e) {
    log(net::LogLevel::Error, id, std::string("cannot save the game: ") + e.what());
    return false;
  }
}

void Room::store_new(bool with_moves, std::function<void(std::exception_ptr)> done) {
  if (game.over()) set_result(game.result(), ending_of(game.end_reason()));
  updated_ms = now_ms();
  if (!finished(status)) score = score_text(game);
  std::vector<int> holes;
  if (with_moves)
    for (const MoveInfo& m : game.moves()) holes.push_back(m.hole);
  writing_ = true;
  services_.writer.write(
      [r = row(), holes = std::move(holes)](Store& st) {
        st.save_game(r);
        for (size_t i = 0; i < holes.size(); ++i) st.add_move(r, int(i) + 1, holes[i]);
      },
      [self = shared_from_this(), done = std::move(done)](std::exception_ptr e) {
        self->writing_ = false;
        if (!e && finished(self->status)) self->after_end();
        done(e);
        self->run_deferred();
      });
}

// ---- moves and the end ----

Room::Played Room::play(int hole, Refused* why, MoveDone done) {
  const Side s = to_move();
  const int i = index(s);
  const int64_t left = clock_left(s);
  if (has_clock() && clock_running_ && left <= 0) {
    on_flag();
    *why = Refusal("time_up");
    return Played::Refused;
  }
  if (hole < 1 || hole > game.rules().n) {
    *why = Refusal("illegal_move",
                   {{"detail", "hole: expected 1.." + std::to_string(game.rules().n)}});
    return Played::Refused;
  }
  const Undo undo{left,        {left_[0], left_[1]}, clock_running_,
                  turn_start_, draw_offer_,          draw_declined_ply_[1 - i],
                  score,       updated_ms,           move_deadline_ms,
                  moved_at_};
  if (std::string illegal; !game.play(hole, &illegal)) {
    *why = Refusal("illegal_move", {{"detail", illegal}});
    return Played::Refused;
  }
  moved_at_ = SteadyClock::now();
  if (has_clock()) {
    left_[i] = left + increment_ms;
    clock_running_ = game.ply_count() >= clock_start_ply();
    turn_start_ = SteadyClock::now();
  }
  if (correspondence()) set_move_deadline();
  if (draw_offer_ == opposite(s)) draw_declined_ply_[1 - i] = game.ply_count();
  if (draw_offer_ != s) draw_offer_.reset();  // a move declines the opponent's offer
  takeback_offer_.reset();                    // a proposal is about the plies before it
  const bool ends = game.over();
  if (ends) set_result(game.result(), ending_of(game.end_reason()));
  updated_ms = now_ms();
  if (status == Status::Playing) score = score_text(game);
  const int ply = game.ply_count();
  writing_ = true;
  std::weak_ptr<Room> weak = weak_from_this();
  auto back = [weak, undo, ends, done = std::move(done)](std::exception_ptr e) {
    if (auto self = weak.lock()) self->move_written(e, undo, ends, done);
  };
  if (ends && rated) {
    // The end, the move and both ratings in one transaction (Store::finish_game).
    auto g = std::make_shared<GameRow>(row());
    auto wrote = std::make_shared<bool>(true);
    services_.writer.write(
        [g, wrote, rate = rate_end(winner, reason), ply, hole](Store& st) {
          *wrote = st.finish_game(*g, rate, ply, hole);
        },
        [weak, g, wrote, back = std::move(back)](std::exception_ptr e) {
          auto self = weak.lock();
          if (self && !e && !*wrote)
            log(net::LogLevel::Warn, self->id,
                "the game was already over in the store: its end is not written again");
          else if (self && !e)
            self->took_ratings(*g);
          back(e);
        });
  } else {
    services_.writer.write([g = row(), ply, hole](Store& st) { st.add_move(g, ply, hole); },
                           std::move(back));
  }
  return Played::Pending;
}

void Room::move_written(std::exception_ptr e, const Undo& undo, bool ends, const MoveDone& done) {
  writing_ = false;
  if (e) {
    const int ply = game.ply_count();
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      log(net::LogLevel::Error, id, "cannot save move " + std::to_string(ply) + ": " + x.what());
    } catch (...) {
      log(net::LogLevel::Error, id, "cannot save move " + std::to_string(ply));
    }
    const std::exception_ptr refused = e;
    game.undo();
    std::copy(undo.left, undo.left + 2, left_);
    clock_running_ = undo.clock_running;
    turn_start_ = undo.turn_start;
    draw_offer_ = undo.draw_offer;
    draw_declined_ply_[index(to_move()) == 0 ? 1 : 0] = undo.declined_ply;
    move_deadline_ms = undo.move_deadline_ms;
    moved_at_ = undo.moved_at;
    status = Status::Playing;
    winner = Result::None;
    reason = Ending::None;
    score = undo.score;
    updated_ms = undo.updated_ms;
    store_refused(refused, undo.mover_left);
    const auto fault = store::fault_of(refused);
    done(Played::NotStored,
         fault ? fault_refusal(*fault)
               : Refusal("server_error",
                         {{"detail", "the move could not be saved, so it was not made"}}));
    broadcast();  // everyone sees the clocks stand still, and why
  } else {
    store_back();
    if (ends) after_end();
    arm_flag_timer();
    done(Played::Made, std::nullopt);
    if (services_.move_made) services_.move_made(SteadyClock::now() - moved_at_);
    if (services_.move_stored) services_.move_stored(*this);
  }
  run_deferred();
}

void Room::defer(std::function<void()> f) {
  if (!writing_) return f();
  deferred_.push_back(std::move(f));
}

void Room::run_deferred() {
  // Each may start another write: the rest then waits for that one.
  while (!writing_ && !deferred_.empty()) {
    auto f = std::move(deferred_.front());
    deferred_.erase(deferred_.begin());
    f();
  }
}

void Room::set_move_deadline() {
  move_deadline_ms = now_ms() + int64_t(days_per_move) * 24 * 3600 * 1000;
}

namespace {
// The status a game ends in with `r`: aborted (no result) or over.
Status status_after(Ending r) {
  return r == Ending::Aborted || r == Ending::Expired || r == Ending::NoStart ? Status::Aborted
                                                                              : Status::Over;
}
}  // namespace

void Room::call_off_early(Result& w, Ending& r) {
  if (!calls_off(mode, game.ply_count(), r)) return;
  // Fair play: too early to decide anything; the loser (none for an agreement) called it off.
  if (r != Ending::Agreement) aborted_by = w == Result::WhiteWins ? Side::Black : Side::White;
  w = Result::None;
  r = Ending::Aborted;
}

void Room::set_result(Result w, Ending r) {
  for (Side s : {Side::White, Side::Black}) left_[index(s)] = std::max<int64_t>(0, clock_left(s));
  clock_running_ = false;
  const EndReason recorded = recorded_reason(r);
  if (recorded != EndReason::None && !game.over()) game.set_recorded_result(w, recorded);
  status = status_after(r);
  winner = w;
  reason = r;
  score = score_text(game);
  draw_offer_.reset();
  rematch_offer_.reset();
}

void Room::after_end() {
  flag_timer_.cancel();
  start_timer_.cancel();
  abandon_timer_[0].cancel();
  abandon_timer_[1].cancel();
  stop_engine();
  if (services_.game_ended) services_.game_ended(*this);
}

store::RateGame Room::rate_end(Result winner_now, Ending reason_now) const {
  const bool aborted = status_after(reason_now) == Status::Aborted;
  if (!rated || aborted || winner_now == Result::None) return nullptr;  // aborted: no change
  const Result result = winner_now;
  const int64_t now = updated_ms;
  const std::string category = speed;
  // Glicko-2 for one game (docs/ratings.md): each against the other's rating before it, the
  // deviation grown by the time since the player's last rated game in the category.
  return [result, now, category](const std::optional<store::RatingRow>& w,
                                 const std::optional<store::RatingRow>& b) {
    const accounts::Glicko2Config config;
    auto rating = [](const std::optional<store::RatingRow>& r) {
      return r ? accounts::Rating{r->rating, r->rd, r->volatility, r->games} : accounts::Rating{};
    };
    auto periods = [&](const std::optional<store::RatingRow>& r) {
      return r && r->games > 0
                 ? accounts::periods_between(double(now - r->updated_ms) / 86400000.0, config)
                 : 0.0;
    };
    const double white_score = result == Result::WhiteWins ? 1.0
                               : result == Result::Draw    ? 0.5
                                                           : 0.0;
    const auto [nw, nb] =
        accounts::rate_game(rating(w), rating(b), white_score, config, periods(w), periods(b));
    auto row_of = [&](const accounts::Rating& r) {
      return store::RatingRow{category, r.rating, r.rd, r.volatility, r.games, now};
    };
    return std::pair{row_of(nw), row_of(nb)};
  };
}

void Room::took_ratings(const GameRow& g) {
  if (!g.rated || g.white_user <= 0 || g.black_user <= 0 || g.speed.empty()) return;
  if (status != Status::Over || winner == Result::None) return;
  if (services_.rated_game_stored) services_.rated_game_stored(g);
  players[0].rating = g.white_rating;
  players[1].rating = g.black_rating;
  players[0].rating_diff = g.white_diff;
  players[1].rating_diff = g.black_diff;
}

void Room::end(Result w, Ending r) {
  // Once: a second end (a flag falling as the resignation arrives) changes nothing.
  if (finished(status) || pending_end_) return;
  for (Side s : {Side::White, Side::Black}) left_[index(s)] = std::max<int64_t>(0, clock_left(s));
  clock_running_ = false;
  flag_timer_.cancel();
  abandon_timer_[0].cancel();
  abandon_timer_[1].cancel();
  stop_engine();
  call_off_early(w, r);  // before it is written: what set_result shows is what was stored
  pending_end_ = PendingEnd{w, r};
  write_end();
}

void Room::write_end() {
  writing_ = true;
  updated_ms = now_ms();
  const PendingEnd end = *pending_end_;
  auto g = std::make_shared<GameRow>(row());
  g->status = std::string(status_name(status_after(end.reason)));
  g->winner = std::string(winner_name(end.winner));
  g->reason = std::string(ending_name(end.reason));
  g->score = score_text(game);
  auto wrote = std::make_shared<bool>(true);
  std::weak_ptr<Room> weak = weak_from_this();
  services_.writer.write(
      [g, wrote, rate = rate_end(end.winner, end.reason), rated = rated](Store& st) {
        if (rated)
          *wrote = st.finish_game(*g, rate);
        else
          st.save_game(*g);
      },
      [weak, g, wrote](std::exception_ptr e) {
        if (auto self = weak.lock()) self->end_written(e, *g, *wrote);
      });
}

void Room::end_written(std::exception_ptr e, const GameRow& g, bool wrote) {
  writing_ = false;
  if (e) {
    store_refused(e, clock_left(to_move()));
    broadcast();
  } else {
    store_back();
    const PendingEnd end = *pending_end_;
    pending_end_.reset();
    set_result(end.winner, end.reason);
    if (!wrote)
      log(net::LogLevel::Warn, id,
          "the game was already over in the store: its end is not written again");
    else
      took_ratings(g);
    after_end();
    broadcast();
  }
  run_deferred();
}

void Room::store_refused(std::exception_ptr e, int64_t stm_left) {
  const store::StoreFault fault = store::fault_of(e).value_or(store::StoreFault::Unavailable);
  std::string what = "unknown error";
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    what = x.what();
  } catch (...) {
  }
  if (!store_fault_) {
    log(net::LogLevel::Error, id,
        std::string("the store refuses the game's writes (") + store::fault_code(fault) +
            "): its clocks stand still until it takes them again: " + what);
    paused_at_ = SteadyClock::now();
  }
  store_fault_ = fault;
  start_timer_.cancel();  // the first-move rule's countdown stands still too
  if (has_clock() && clock_running_) left_[index(to_move())] = std::max<int64_t>(0, stm_left);
  clock_running_ = false;
  flag_timer_.cancel();
  schedule_retry();
}

void Room::store_back() {
  if (!store_fault_) return;
  store_fault_.reset();
  retry_timer_.cancel();
  log(net::LogLevel::Info, id, "the store takes the game's writes again: its clocks go on");
  moved_at_ += SteadyClock::now() - paused_at_;  // the first-move countdown goes on from there
  if (pending_end_) return;                      // end_written records it
  arm_start_timer();
  resume_clock();
  broadcast();
  start_engine();
}

void Room::schedule_retry() {
  retry_timer_.expires_after(kStoreRetry);
  retry_timer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    auto self = weak.lock();
    if (ec || !self || self->services_.stopping_io) return;
    self->defer([self] { self->retry_store(); });
  });
}

void Room::retry_store() {
  if (!store_fault_) return;
  if (pending_end_) return write_end();
  // Nothing pending but the clocks: the row as it stands (paused) shows whether the store is
  // back; the moves wait for the players, who send them again.
  writing_ = true;
  services_.writer.write([g = row()](Store& st) { st.save_game(g); },
                         [weak = weak_from_this()](std::exception_ptr e) {
                           auto self = weak.lock();
                           if (!self) return;
                           self->writing_ = false;
                           if (e)
                             self->store_refused(e, self->clock_left(self->to_move()));
                           else
                             self->store_back();
                           self->run_deferred();
                         });
}

void Room::end_from_board() {
  end(game.result(), ending_of(game.end_reason()));
}

void Room::changed() {
  broadcast();
  start_engine();
}

void Room::join(Side side, Player player) {
  player.seated = true;
  players[index(side)] = std::move(player);
  status = Status::Playing;
  moved_at_ = SteadyClock::now();  // the first-move rule counts from here
  if (correspondence()) set_move_deadline();
  save();
  arm_start_timer();
  broadcast();
}

Refused Room::takeback() {
  if (mode == Mode::Online) return Refusal("not_in_online", {{"action", "takeback"}});
  const bool board_end =
      status == Status::Over &&
      (reason == Ending::Decided || reason == Ending::NoMove || reason == Ending::Repetition);
  if (status != Status::Playing && !board_end)
    return Refusal("game_over", {{"action", "takeback"}});
  int plies = 1;
  if (mode == Mode::Engine) {
    const Side human = opposite(*engine_side);
    const int n = game.ply_count();
    auto mover = [&](int ply) { return game.position_at(ply - 1).side_to_move(); };
    if (n == 0 || (mover(n) != human && (n < 2 || mover(n - 1) != human)))
      return Refusal("no_takeback", {}, "yours");
    plies = mover(n) == human ? 1 : 2;
    stop_engine();
  } else if (game.ply_count() == 0) {
    return Refusal("no_takeback", {}, "any");
  }
  undo_plies(plies);
  return std::nullopt;
}

Refused Room::resign(Side me) {
  if (mode == Mode::Analysis) return Refusal("not_in_analysis", {{"action", "resign"}});
  if (status != Status::Playing) return Refusal("not_playing", {{"action", "resign"}});
  end(win_for(opposite(me)), Ending::Resign);
  return std::nullopt;
}

Refused Room::draw_refused(const std::string& action) const {
  if (mode != Mode::Online && mode != Mode::Engine)
    return Refusal("not_in_mode", {{"action", action}}, "online_engine");
  if (status != Status::Playing) return Refusal("not_playing", {{"action", action}});
  return std::nullopt;
}

Refused Room::offer_draw(Side me) {
  if (Refused why = draw_refused("offer_draw")) return why;
  if (draw_offer_ == opposite(me)) {
    end(Result::Draw, Ending::Agreement);
    return std::nullopt;
  }
  if (draw_offer_ == me) return Refusal("draw_already");
  if (!may_offer_draw(me)) {
    const int plies = draw_declined_ply_[index(me)] + kDrawOfferGap - game.ply_count();
    return Refusal("draw_wait", {{"n", std::to_string((plies + 1) / 2)}});
  }
  draw_offer_ = me;  // the engine answers with its next move
  broadcast();
  return std::nullopt;
}

Refused Room::answer_draw(Side me, bool accept) {
  const std::string action = accept ? "accept_draw" : "decline_draw";
  if (Refused why = draw_refused(action)) return why;
  if (draw_offer_ != opposite(me)) return Refusal("no_draw_offer", {{"action", action}});
  if (accept) {
    end(Result::Draw, Ending::Agreement);
    return std::nullopt;
  }
  draw_offer_.reset();
  draw_declined_ply_[index(opposite(me))] = game.ply_count();
  broadcast();
  return std::nullopt;
}

Refused Room::abort_game(std::optional<Side> me) {
  if (mode == Mode::Analysis) return Refusal("not_in_analysis", {{"action", "abort"}});
  if (status != Status::Waiting && !(status == Status::Playing && game.ply_count() < kStartedPlies))
    return Refusal("abort_late");
  // Waiting for an opponent nobody is at fault; once it is played, the one who aborts is.
  if (status == Status::Playing) aborted_by = me;
  end(Result::None, Ending::Aborted);
  return std::nullopt;
}

Refused Room::claim_win(Side me) {
  if (mode != Mode::Online) return Refusal("not_in_mode", {{"action", "claim_win"}}, "online");
  if (status != Status::Playing) return Refusal("not_playing", {{"action", "claim_win"}});
  const Side opp = opposite(me);
  if (correspondence()) {
    // Away is normal here: only the opponent's time running out gives the win.
    if (to_move() != opp) return Refusal("claim_own_move");
    if (now_ms() < move_deadline_ms) return Refusal("claim_not_yet");
    end(win_for(me), Ending::Timeout);
    return std::nullopt;
  }
  if (seat_present(opp)) return Refusal("opponent_connected");
  const int seconds = services_.config.abandon_seconds;
  if (SteadyClock::now() - gone_since_[index(opp)] < std::chrono::seconds(seconds))
    return Refusal("claim_early", {{"n", std::to_string(seconds)}});
  end(win_for(me), Ending::Abandon);
  return std::nullopt;
}

// ---- rematch ----

bool Room::offer_rematch(Seat seat) {
  const auto side = side_of(seat);
  if (mode != Mode::Online || !side || rematch_offer_ == opposite(*side)) return false;
  rematch_offer_ = side;
  broadcast();
  return true;
}

std::shared_ptr<Room> Room::rematch(std::string new_id,
                                    const std::function<std::string()>& token) const {
  auto next = std::make_shared<Room>(services_, std::move(new_id), mode, Game(game.start()));
  next->players[0] = players[1];
  next->players[1] = players[0];
  if (mode == Mode::Local || mode == Mode::Analysis) {
    next->players[0].token = next->players[1].token = token();
  } else {
    next->players[0].token = token();
    next->players[1].token = token();
  }
  next->players[0].seated = next->players[1].seated = true;
  // A rematch is casual: the ratings of this game are not the next one's.
  for (Player& p : next->players) p.rating = p.rating_diff = 0, p.provisional = false;
  next->speed = speed;
  if (engine_side) next->engine_side = opposite(*engine_side);
  next->level = level;
  next->clock_initial_ms = clock_initial_ms;
  next->increment_ms = increment_ms;
  next->set_clocks(std::max<int64_t>(0, clock_initial_ms));
  next->days_per_move = days_per_move;
  if (next->correspondence()) next->set_move_deadline();
  if (tournament_id().empty()) next->tags = tags;  // a tournament's rematch is not the tournament's
  return next;
}

std::string Room::rematch_message(const Room& next, Seat seat) {
  json::object m{{"type", "rematch"}, {"id", next.id}};
  if (seat == Seat::Spectator) {
    m["token"] = nullptr;
    m["side"] = seat_name(Seat::Spectator);
  } else if (seat == Seat::Both) {
    m["token"] = next.players[0].token;
    m["side"] = seat_name(Seat::Both);
  } else {
    const Side now_side = opposite(*side_of(seat));
    m["token"] = next.players[index(now_side)].token;
    m["side"] = side_word(now_side);
  }
  return json::serialize(m);
}

void Room::announce_rematch(const Room& next) {
  rematch_id = next.id;
  rematch_offer_.reset();
  for (RoomClient* c : std::vector<RoomClient*>(clients_))
    c->send(rematch_message(next, c->seat()));
  broadcast();
}

// ---- clocks ----

void Room::resume_clock() {
  if (!has_clock() || clock_running_ || status != Status::Playing ||
      game.ply_count() < clock_start_ply())
    return;
  if (store_fault_ || pending_end_) return;  // they stand still while the store refuses writes
  if (!seat_present(to_move())) return;
  clock_running_ = true;
  turn_start_ = SteadyClock::now();
  arm_flag_timer();
}

void Room::arm_flag_timer() {
  arm_start_timer();
  if (!has_clock() || !clock_running_ || status != Status::Playing) {
    flag_timer_.cancel();
    return;
  }
  const int64_t left = std::max<int64_t>(0, clock_left(to_move()));
  flag_timer_.expires_after(milliseconds(left + 1));
  flag_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->on_flag();
  });
}

void Room::on_flag() {
  if (writing_) return defer([self = shared_from_this()] { self->on_flag(); });
  if (status != Status::Playing || !clock_running_) return;
  const Side stm = to_move();
  if (clock_left(stm) > 0) {
    arm_flag_timer();
    return;
  }
  end(win_for(opposite(stm)), Ending::Timeout);
}

bool Room::first_move_due() const {
  return mode == Mode::Online && status == Status::Playing && !correspondence() &&
         game.ply_count() < 2 && players[0].seated && players[1].seated;
}

int Room::first_move_time() const {
  return first_move_seconds > 0 ? first_move_seconds : services_.config.first_move_seconds;
}

std::optional<int64_t> Room::first_move_left_ms() const {
  if (!first_move_due()) return std::nullopt;
  const auto deadline = moved_at_ + std::chrono::seconds(first_move_time());
  const auto now = store_fault_ ? paused_at_ : SteadyClock::now();  // it stands still meanwhile
  return std::max<int64_t>(0, std::chrono::duration_cast<milliseconds>(deadline - now).count());
}

void Room::arm_start_timer() {
  if (!first_move_due() || services_.stopping_io || store_fault_ || pending_end_) {
    start_timer_.cancel();
    return;
  }
  start_timer_.expires_at(moved_at_ + std::chrono::seconds(first_move_time()));
  start_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->on_start_timer();
  });
}

void Room::on_start_timer() {
  if (writing_) return defer([self = shared_from_this()] { self->on_start_timer(); });
  if (!first_move_due()) return;
  if (*first_move_left_ms() > 0) return arm_start_timer();  // a move came meanwhile
  aborted_by = to_move();
  end(Result::None, Ending::NoStart);
}

// ---- the engine ----

void Room::stop_engine() {
  if (engine_job_) engine_job_->cancel();
  engine_job_.reset();
  thinking_ = false;
}

void Room::start_engine() {
  if (mode != Mode::Engine || status != Status::Playing || thinking_ || game.over()) return;
  if (store_fault_ || pending_end_) return;  // store_back starts it
  if (to_move() != engine_side) return;
  resume_clock();
  thinking_ = true;
  auto job = std::make_shared<engine_work::Job>();
  engine_job_ = job;
  engine_work::EngineWork::Search s;
  s.game = game;
  if (has_clock()) {
    for (Side side : {Side::White, Side::Black}) {
      s.limits.time_ms[index(side)] = int(std::clamp<int64_t>(clock_left(side), 1, 1 << 30));
      s.limits.inc_ms[index(side)] = int(increment_ms);
    }
  } else {
    s.limits.movetime_ms = services_.config.engine_movetime_ms;
  }
  s.options.skill = std::clamp(level, 1, 20);
  s.options.seed = services_.rng();
  services_.engine.search(
      std::move(s), engine_work::Priority::Engine, job,
      [self = shared_from_this()](search::SearchResult r) { self->on_engine_result(r); });
}

void Room::on_engine_result(const search::SearchResult& r) {
  thinking_ = false;
  engine_job_.reset();
  if (handing_over_) return;  // the next driver searches again
  if (status != Status::Playing || r.best_move == 0) {
    broadcast();
    return;
  }
  // The engine resigns a proven loss, and answers a draw offer with its move: it accepts
  // when the search proved it cannot win (search/decisions.h).
  const Side human = opposite(*engine_side);
  if (search::should_resign(r)) return end(win_for(human), Ending::Resign);
  if (draw_offer_ == human) {
    if (search::accepts_draw(r)) return end(Result::Draw, Ending::Agreement);
    draw_offer_.reset();  // declined: the engine plays on
    draw_declined_ply_[index(human)] = game.ply_count();
  }
  Refused why;
  auto done = [this, hole = r.best_move](Played p, const Refused& why) {
    if (p == Played::Made) return changed();
    // Not tried again at once: a store that refuses writes would refuse the next one too.
    log(net::LogLevel::Error, id,
        "engine move " + std::to_string(hole) + " refused: " + (why ? why->english() : ""));
    broadcast();
  };
  if (play(r.best_move, &why, done) == Played::Refused) done(Played::Refused, why);
}

// ---- connections ----

void Room::broadcast() {
  // Per kind (the whole state, a delta with the last move, a delta without one) and per seat
  // (spectator, white, black, both): each message is built once.
  enum Kind { Whole, WithMove, NoMove };
  std::string cache[3][4];
  const int ply = game.ply_count();
  for (RoomClient* c : std::vector<RoomClient*>(clients_)) {
    Kind kind = Whole;
    if (c->wants_deltas() && !c->state_waiting() && c->sent_ply >= 0 && c->sent_epoch == epoch_) {
      if (ply == c->sent_ply + 1) kind = WithMove;
      if (ply == c->sent_ply) kind = NoMove;
    }
    std::string& m = cache[kind][int(c->seat())];
    if (m.empty())
      m = kind == Whole ? state_message(c->seat()) : delta_message(c->seat(), kind == WithMove);
    c->sent_ply = ply;
    c->sent_epoch = epoch_;
    c->send_state(m);
  }
}

void Room::send_whole_state(RoomClient& c) {
  c.sent_ply = game.ply_count();
  c.sent_epoch = epoch_;
  c.send_state(state_message(c.seat()));
}

// A spectator joining or leaving changes only the count: everyone gets one small presence
// message per interval, however many came and went.
void Room::schedule_presence() {
  if (presence_pending_) return;
  presence_pending_ = true;
  presence_timer_.expires_after(milliseconds(500));
  presence_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    self->presence_pending_ = false;
    if (ec || self->services_.stopping_io) return;
    const std::string text =
        json::serialize(json::object{{"type", "presence"}, {"spectators", self->spectators}});
    for (RoomClient* c : std::vector<RoomClient*>(self->clients_)) c->send(text);
  });
}

void Room::attach(RoomClient& c) {
  clients_.push_back(&c);
  const Seat seat = c.seat();
  if (seat == Seat::Spectator) {
    ++spectators;
    send_whole_state(c);
    send_chat_log(c);
    schedule_presence();
    return;
  }
  for (Side side : {Side::White, Side::Black})
    if (plays(seat, side) && connected_[index(side)]++ == 0) abandon_timer_[index(side)].cancel();
  resume_clock();
  broadcast();
  send_chat_log(c);
}

void Room::detach(RoomClient& c) {
  clients_.erase(std::remove(clients_.begin(), clients_.end(), &c), clients_.end());
  // A review stops when nobody waits for it any more (its askers' sockets closed).
  if (reviewing_) {
    std::erase_if(review_waiters_, [&](const std::weak_ptr<RoomClient>& w) {
      const auto p = w.lock();
      return !p || p.get() == &c;
    });
    if (review_waiters_.empty()) stop_review();
  }
  if (services_.stopping_io) return;
  if (clients_.empty()) idle_since = SteadyClock::now();
  const Seat seat = c.seat();
  if (seat == Seat::Spectator) {
    --spectators;
    schedule_presence();
    return;
  }
  for (Side side : {Side::White, Side::Black})
    if (plays(seat, side) && --connected_[index(side)] == 0) on_seat_gone(side);
  broadcast();
}

void Room::on_seat_gone(Side side) {
  gone_since_[index(side)] = SteadyClock::now();
  if (mode != Mode::Online || status != Status::Playing || correspondence()) return;
  // When the seat has been empty long enough, tell the opponent he may claim the win.
  asio::steady_timer& t = abandon_timer_[index(side)];
  t.expires_after(std::chrono::seconds(services_.config.abandon_seconds));
  t.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->broadcast();
  });
}

// ---- expiry and shutdown ----

bool Room::expire(int64_t now, SteadyClock::time_point steady) {
  const Config& config = services_.config;
  if (thinking_ || writing_) return false;
  // The same rule as Store::expire_stale, which then ends the games not in memory.
  const int64_t age_ms = now - updated_ms;
  const bool unstarted =
      status == Status::Waiting ||
      (status == Status::Playing && game.ply_count() == 0 && mode != Mode::Analysis);
  const bool stale_board = mode == Mode::Analysis && status == Status::Playing;
  if ((unstarted && age_ms >= int64_t(config.expire_waiting_seconds) * 1000) ||
      (stale_board && age_ms >= int64_t(config.expire_analysis_seconds) * 1000)) {
    end(Result::None, Ending::Expired);
    return true;
  }
  // The abandonment rule: the side to move away, and no move, for idle_game_seconds. An online
  // game whose first moves are due is the first-move rule's (on_start_timer): whichever timer
  // a busy machine runs first, it ends the same way.
  const bool live = status == Status::Playing && !correspondence() && !first_move_due() &&
                    (mode == Mode::Online || mode == Mode::Engine);
  const Side stm = to_move();
  const auto idle = std::chrono::seconds(config.idle_game_seconds);
  if (!live || seat_present(stm) || steady - gone_since_[index(stm)] < idle ||
      steady - moved_at_ < idle)
    return false;
  if (mode == Mode::Engine && game.ply_count() == 0)
    end(Result::None, Ending::Expired);  // nothing was played against the engine
  else
    end(win_for(opposite(stm)), Ending::Abandon);
  return true;
}

bool Room::may_leave_memory(SteadyClock::time_point now) const {
  // An end not yet stored stays until it is.
  const bool idle = clients_.empty() && !thinking_ && !reviewing_ && !writing_ && !pending_end_;
  // A correspondence game waits in the store for days: it is loaded again when opened.
  const bool live = status == Status::Playing && !correspondence() &&
                    (mode == Mode::Online || mode == Mode::Engine);
  return idle && !live &&
         now - idle_since >= std::chrono::seconds(services_.config.idle_room_seconds);
}

void Room::cancel_timers() {
  flag_timer_.cancel();
  start_timer_.cancel();
  retry_timer_.cancel();
  presence_timer_.cancel();
  abandon_timer_[0].cancel();
  abandon_timer_[1].cancel();
}

void Room::close_clients() {
  for (RoomClient* c : std::vector<RoomClient*>(clients_)) c->close();
}

void Room::stop_for_shutdown() {
  cancel_timers();
  if (!handing_over_) save_paused_clocks();
  for (RoomClient* c : std::vector<RoomClient*>(clients_)) c->close();
}

void Room::begin_handover() {
  handing_over_ = true;
  cancel_timers();
  stop_engine();
}

void Room::save_paused_clocks() {
  if (status != Status::Playing || !has_clock()) return;
  // Save the clocks as they stand: they stay paused until the player to move is back.
  left_[0] = clock_left(Side::White);
  left_[1] = clock_left(Side::Black);
  clock_running_ = false;
  save();
}

}  // namespace toguz::site
