// What starting a game between two players at once takes and gives (GamesSite::start_paired):
// the lobby and the tournaments start their games with it.
#pragma once

#include <cstdint>
#include <string>

#include "site/viewer.h"

namespace toguz::site {

// A game started between two viewers at once (an accepted seek or challenge, a pool pairing,
// a tournament's pairing).
struct PairedGame {
  Viewer white, black;                        // an anonymous Viewer plays as a guest
  int64_t initial_ms = -1, increment_ms = 0;  // the clock; initial_ms -1: none
  int days_per_move = 0;                      // > 0: a correspondence game (no clock)
  bool rated = false;
  int first_move_seconds = 0;        // the first-move rule's time; 0: the server's
  std::string variant = "standard";  // standard, kozdatu or bestemshi
  // A tournament's game: the tournament's id and name (shown on the game page; no rematch).
  std::string tournament_id, tournament_name;
};

// The game GamesSite::start_paired made, or why not (`error`: a code of docs/web-protocol.md).
struct PairedSeats {
  std::string error;  // "" when made
  std::string id, white_token, black_token;
};

}  // namespace toguz::site
