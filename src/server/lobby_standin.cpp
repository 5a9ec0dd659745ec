// Stand-in until the accounts branch lands (viewer_of, start_paired_game, ratings from the
// store): everyone is anonymous, ratings are the starting one.
#include <algorithm>

#include "rules/notation.h"
#include "server/server_impl.h"
#include "server/texts.h"

namespace toguz::server {

Viewer Server::Impl::viewer_of(const http::request<http::string_body>&) {
  return {};
}

LobbyRating Server::Impl::lobby_rating(const Viewer&, accounts::Speed) {
  return {};
}

std::optional<Viewer> Server::Impl::account_named(const std::string&) {
  return std::nullopt;
}

PairedSeats Server::Impl::start_paired_game(const PairedGame& g) {
  RuleOptions opts;
  Variant v;
  if (parse_variant(g.variant, &v)) opts.variant = v;
  auto room = rooms->create(Mode::Online, Game(Position::start(opts.resolve())));
  room->clock_initial_ms = g.initial_ms;
  room->increment_ms = g.increment_ms;
  room->set_clocks(std::max<int64_t>(0, g.initial_ms));
  const std::string wt = RoomRegistry::random_id(32), bt = RoomRegistry::random_id(32);
  room->players[0] = {g.white.signed_in() ? g.white.username : kNamePlayer, wt, true};
  room->players[1] = {g.black.signed_in() ? g.black.username : kNameGuest, bt, true};
  room->status = Status::Playing;
  if (!room->save()) return {"server_error", "", "", ""};
  return {"", room->id, wt, bt};
}

}  // namespace toguz::server
