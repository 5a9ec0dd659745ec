// The store's edge of a room: a Room from its stored row and the row of a Room. The words of
// status, mode and result are read and written here and nowhere else in a room.
#include <stdexcept>

#include "rules/notation.h"
#include "site/games/room.h"

namespace toguz::site {

namespace {

template <class T>
T parsed(std::optional<T> value, const GameRow& row, const char* field, const std::string& word) {
  if (!value)
    throw std::runtime_error("game " + row.id + ": " + field + " '" + word + "' is not known");
  return *value;
}

}  // namespace

std::shared_ptr<Room> Room::from_row(RoomServices& services, GameRow row) {
  Variant v = Variant::Standard;
  parse_variant(row.variant, &v);
  RuleOptions opts;
  opts.variant = v;
  opts.tuz = row.tuz;
  opts.play_out = row.play_out;
  Game game(parse_position(row.start_position, opts));
  for (int hole : row.holes) {
    std::string why;
    if (!game.play(hole, &why))
      throw std::runtime_error("game " + row.id + ": stored move " + std::to_string(hole) + ": " +
                               why);
  }
  const Mode mode = parsed(parse_mode(row.mode), row, "mode", row.mode);
  auto room = std::make_shared<Room>(services, row.id, mode, std::move(game));
  Room& r = *room;
  r.status = parsed(parse_status(row.status), row, "status", row.status);
  r.winner = parsed(parse_winner(row.winner), row, "winner", row.winner);
  r.reason = parsed(parse_ending(row.reason), row, "reason", row.reason);
  const EndReason recorded = recorded_reason(r.reason);
  if (r.status == Status::Over && recorded != EndReason::None && !r.game.over())
    r.game.set_recorded_result(r.winner, recorded);
  r.score = std::move(row.score);
  r.players[0] = {std::move(row.white_name), std::move(row.white_token), row.white_seated};
  r.players[1] = {std::move(row.black_name), std::move(row.black_token), row.black_seated};
  r.invite = std::move(row.invite);
  if (row.engine_side == 0 || row.engine_side == 1) r.engine_side = Side(row.engine_side);
  r.level = row.level;
  r.clock_initial_ms = row.clock_initial_ms;
  r.increment_ms = std::max<int64_t>(0, row.clock_increment_ms);
  r.left_[0] = row.white_ms;
  r.left_[1] = row.black_ms;
  r.clock_running_ = false;  // paused over the restart until the player to move is back
  r.created_ms = row.created_ms;
  r.updated_ms = row.updated_ms;
  r.review = std::move(row.review);
  r.tags = std::move(row.tags);
  r.players[0].user_id = row.white_user;
  r.players[1].user_id = row.black_user;
  r.players[0].rating = row.white_rating;
  r.players[1].rating = row.black_rating;
  r.players[0].provisional = row.white_provisional;
  r.players[1].provisional = row.black_provisional;
  r.players[0].rating_diff = row.white_diff;
  r.players[1].rating_diff = row.black_diff;
  r.rated = row.rated;
  r.speed = std::move(row.speed);
  r.days_per_move = row.days_per_move;
  r.move_deadline_ms = row.move_deadline_ms;
  if (r.status == Status::Aborted && (row.aborted_by == 0 || row.aborted_by == 1))
    r.aborted_by = Side(row.aborted_by);
  return room;
}

GameRow Room::row() const {
  GameRow g;
  g.id = id;
  g.fence = fence;
  g.mode = std::string(mode_name(mode));
  const Rules rules = game.rules();
  g.variant = std::string(variant_name(rules.variant()));
  g.tuz = rules.tuz;
  g.play_out = rules.play_out;
  g.start_position = format_position(game.start());
  g.white_name = players[0].name;
  g.black_name = players[1].name;
  g.white_token = players[0].token;
  g.black_token = players[1].token;
  g.invite = invite;
  g.white_seated = players[0].seated;
  g.black_seated = players[1].seated;
  g.engine_side = engine_side ? index(*engine_side) : -1;
  g.level = level;
  g.clock_initial_ms = clock_initial_ms;
  g.clock_increment_ms = increment_ms;
  g.white_ms = left_[0];
  g.black_ms = left_[1];
  g.status = std::string(status_name(status));
  g.winner = std::string(winner_name(winner));
  g.reason = std::string(ending_name(reason));
  g.score = score;
  g.moves = game.ply_count();
  g.created_ms = created_ms;
  g.updated_ms = updated_ms;
  g.review = review;
  g.tags = tags;
  g.white_user = players[0].user_id;
  g.black_user = players[1].user_id;
  g.rated = rated;
  g.speed = speed;
  g.days_per_move = days_per_move;
  g.white_rating = players[0].rating;
  g.black_rating = players[1].rating;
  g.white_provisional = players[0].provisional;
  g.black_provisional = players[1].provisional;
  g.white_diff = players[0].rating_diff;
  g.black_diff = players[1].rating_diff;
  g.move_deadline_ms = move_deadline_ms;
  g.aborted_by = aborted_by ? index(*aborted_by) : -1;
  return g;
}

}  // namespace toguz::site
