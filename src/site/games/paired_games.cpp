// Games the lobby and the tournaments start between two players at once, their seats bound to
// the players' accounts (with their ratings in a rated game).
#include <cmath>

#include "accounts/glicko2.h"
#include "accounts/speed.h"
#include "rules/notation.h"
#include "site/games/games_site.h"
#include "site/texts.h"

namespace toguz::site {

void GamesSite::bind_account(Player& p, const Room& room, const Viewer& v) {
  p.user_id = v.user_id;
  p.name = v.username;
  if (room.rated && !room.speed.empty()) {
    const store::RatingRow r = s_.accounts.rating_now(v.user_id, room.speed);
    p.rating = int(std::lround(r.rating));
    p.provisional = r.rd > accounts::kProvisionalRd;
  }
}

PairedSeats GamesSite::start_paired(const PairedGame& g) {
  PairedSeats out;
  Variant variant;
  if (!parse_variant(g.variant, &variant)) {
    out.error = "variant";
    return out;
  }
  if (g.rated &&
      (!g.white.signed_in() || !g.black.signed_in() || g.white.user_id == g.black.user_id)) {
    out.error = "rated_needs_account";
    return out;
  }
  if (g.rated && g.initial_ms < 0 && g.days_per_move <= 0) {
    out.error = "rated_needs_clock";
    return out;
  }
  RuleOptions opts;
  opts.variant = variant;
  auto room = s_.rooms.create(Mode::Online, Game(Position::start(opts.resolve())));
  room->clock_initial_ms = g.days_per_move > 0 ? -1 : g.initial_ms;
  room->increment_ms = room->has_clock() ? std::max<int64_t>(0, g.increment_ms) : 0;
  room->set_clocks(std::max<int64_t>(0, room->clock_initial_ms));
  room->days_per_move = std::max(0, g.days_per_move);
  room->first_move_seconds = std::max(0, g.first_move_seconds);
  const auto speed =
      room->has_clock()     ? accounts::speed_of({room->clock_initial_ms, room->increment_ms, 0})
      : g.days_per_move > 0 ? std::optional<accounts::Speed>(accounts::Speed::correspondence)
                            : std::nullopt;
  if (speed) room->speed = std::string(accounts::name(*speed));
  // The pair cap and a marked account make it casual; the players see why in its state.
  room->unrated_reason =
      g.rated ? s_.moderation.rated_refusal(g.white.user_id, g.black.user_id) : "";
  room->rated = g.rated && room->unrated_reason.empty();
  if (!g.tournament_id.empty()) room->set_tournament(g.tournament_id, g.tournament_name);
  const Viewer* viewers[2] = {&g.white, &g.black};
  for (int s = 0; s < 2; ++s) {
    Player& p = room->players[s];
    p = {kNameGuest, RoomRegistry::random_id(32), true};
    // One account on both sides (a casual game with oneself): the second seat is the token's.
    if (viewers[s]->signed_in() && (s == 0 || g.black.user_id != g.white.user_id))
      bind_account(p, *room, *viewers[s]);
  }
  room->status = Status::Playing;
  if (!room->save()) {  // logged; a game the store does not have is not started
    s_.rooms.drop(room->id);
    out.error = "store";
    return out;
  }
  room->arm_start_timer();
  out.id = room->id;
  out.white_token = room->players[0].token;
  out.black_token = room->players[1].token;
  return out;
}

}  // namespace toguz::site
