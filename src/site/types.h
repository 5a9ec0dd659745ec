// The server's own words for a game, as types: a game's status and mode, a connection's seat,
// how a game ended and what a client asks for. Rooms and handlers work with these; the strings
// of the web protocol and of the stored row are made and read only at the edges (room_row.cpp,
// room_state.cpp, the HTTP API, the message table).
#pragma once

#include <optional>
#include <string_view>

#include "rules/game.h"
#include "rules/position.h"

namespace toguz::site {

enum class Status { Waiting, Playing, Over, Aborted };
enum class Mode { Engine, Local, Online, Analysis };
// Who a connection is in its room: a player of one side, both sides (local and analysis boards)
// or a spectator.
enum class Seat { Spectator, White, Black, Both };
// How a game ended, as the protocol says it: the recorded endings, the two ways a game is
// called off (and a player's first move not made in time), and the three that follow from the
// board.
enum class Ending {
  None,
  Resign,
  Abandon,
  Timeout,
  Agreement,
  Aborted,
  Expired,
  Decided,
  NoMove,
  Repetition,
  NoStart
};
// Every message a client may send after its hello.
enum class MessageType {
  Ping,
  Analyze,
  AnalyzeStop,
  Review,
  Move,
  Takeback,
  Hint,
  Resign,
  OfferDraw,
  AcceptDraw,
  DeclineDraw,
  Abort,
  Rematch,
  ClaimWin,
  Sync,
  AcceptTakeback,
  DeclineTakeback,
  Chat,
  ChatOn
};

// The protocol's words: "waiting", "engine", "spectator", "no-move", ... and back; a parse
// returns nullopt for a word it does not know.
std::string_view status_name(Status s);
std::optional<Status> parse_status(std::string_view s);
std::string_view mode_name(Mode m);
std::optional<Mode> parse_mode(std::string_view s);
std::string_view seat_name(Seat s);
std::string_view ending_name(Ending e);
std::optional<Ending> parse_ending(std::string_view s);
// "white" or "black" (the protocol's; rules' side_name is the record's "White").
std::string_view side_word(Side s);
// The winner of a result: "white", "black", "draw", "" for none; and back.
std::string_view winner_name(Result r);
std::optional<Result> parse_winner(std::string_view s);

// The seat of one side, and the side a seat plays (none for Both and Spectator).
constexpr Seat seat_of(Side s) {
  return s == Side::White ? Seat::White : Seat::Black;
}
constexpr std::optional<Side> side_of(Seat s) {
  if (s == Seat::White) return Side::White;
  if (s == Seat::Black) return Side::Black;
  return std::nullopt;
}
// Whether a connection in seat `seat` plays side `side` (Both plays each).
constexpr bool plays(Seat seat, Side side) {
  return seat == Seat::Both || seat == seat_of(side);
}

// The ending of a game the referee says is over (a recorded resignation is Resign), and the
// rules' reason of the endings that do not follow from the board (None for the others).
Ending ending_of(EndReason r);
EndReason recorded_reason(Ending e);
// Over or aborted.
constexpr bool finished(Status s) {
  return s == Status::Over || s == Status::Aborted;
}

// Fair play (docs/accounts.md "Fair play"). An online game has not started in earnest while
// either side has made fewer than two moves (fewer than kStartedPlies plies).
inline constexpr int kStartedPlies = 4;
// Whether ending `e` calls such a game off instead of deciding it: a resignation, a departure
// (abandonment), a fallen flag or an agreed draw before kStartedPlies plies of an online game.
// A game called off is aborted: never rated, and in a tournament lost by the side that called
// it off (an agreement is nobody's). Only a game that is over moves the ratings.
constexpr bool calls_off(Mode mode, int plies, Ending e) {
  return mode == Mode::Online && plies < kStartedPlies &&
         (e == Ending::Resign || e == Ending::Abandon || e == Ending::Timeout ||
          e == Ending::Agreement);
}

}  // namespace toguz::site
