// Takebacks: the engine and local games' own (Room::takeback in room.cpp) and the proposals
// between the players of an online casual game; both go back through undo_plies.
#include "net/log.h"
#include "site/games/room.h"

namespace toguz::site {

namespace {

// Proposals are for casual games: never in a rated game or a tournament's.
Refused proposals_refused(const Room& room, const std::string& action) {
  if (room.rated) return Refusal("takeback_rated");
  if (!room.tournament_id().empty()) return Refusal("takeback_event");
  if (room.status != Status::Playing) return Refusal("not_playing", {{"action", action}});
  return std::nullopt;
}

// Whether `me` has a move to take back: the last ply, or the one before when the opponent
// has replied.
bool has_last_move(const Game& game, Side me) {
  const int n = game.ply_count();
  auto mover = [&](int ply) { return game.position_at(ply - 1).side_to_move(); };
  return n > 0 && (mover(n) == me || (n >= 2 && mover(n - 1) == me));
}

}  // namespace

bool Room::may_propose_takeback(Side me) const {
  return mode == Mode::Online && !proposals_refused(*this, "takeback") && !takeback_offer_ &&
         has_last_move(game, me) && takeback_declined_ply_[index(me)] != game.ply_count();
}

Refused Room::propose_takeback(Side me) {
  if (Refused why = proposals_refused(*this, "takeback")) return why;
  if (takeback_offer_ == opposite(me)) return answer_takeback(me, true);
  if (takeback_offer_ == me) return Refusal("takeback_already");
  if (!has_last_move(game, me)) return Refusal("no_takeback", {}, "yours");
  if (takeback_declined_ply_[index(me)] == game.ply_count()) return Refusal("takeback_declined");
  takeback_offer_ = me;
  broadcast();
  return std::nullopt;
}

Refused Room::answer_takeback(Side me, bool accept) {
  const std::string action = accept ? "accept_takeback" : "decline_takeback";
  if (Refused why = proposals_refused(*this, action)) return why;
  if (takeback_offer_ != opposite(me)) return Refusal("no_takeback_offer", {{"action", action}});
  const Side proposer = *takeback_offer_;
  takeback_offer_.reset();
  if (!accept) {
    takeback_declined_ply_[index(proposer)] = game.ply_count();
    broadcast();
    return std::nullopt;
  }
  // The proposer to move: the opponent has replied, both plies go.
  undo_plies(to_move() == proposer ? 2 : 1);
  return std::nullopt;
}

void Room::undo_plies(int plies) {
  // The clocks are not restored: the side to move is charged what it used, then each keeps
  // the time it has, and the side to move after the takeback starts its turn now.
  if (has_clock() && clock_running_)
    left_[index(to_move())] = std::max<int64_t>(0, clock_left(to_move()));
  for (int i = 0; i < plies; ++i) game.undo();
  moves_json_.clear();
  ++epoch_;
  status = Status::Playing;
  winner = Result::None;
  reason = Ending::None;
  draw_offer_.reset();
  rematch_offer_.reset();
  takeback_offer_.reset();
  takeback_declined_ply_[0] = takeback_declined_ply_[1] = -1;  // plies now mean other moves
  turn_start_ = SteadyClock::now();
  moved_at_ = SteadyClock::now();
  if (game.ply_count() < clock_start_ply()) clock_running_ = false;
  if (correspondence()) set_move_deadline();
  score = score_text(game);
  try {
    services_.store.truncate_moves(row(), game.ply_count());
  } catch (const std::exception& e) {
    log(net::LogLevel::Error, id, std::string("cannot store the takeback: ") + e.what());
  }
  arm_flag_timer();
  changed();
}

}  // namespace toguz::site
