// The Swiss system, Dutch flavour (docs/tournaments.md states the exact rules and where they
// simplify FIDE Handbook C.04.3).
#pragma once

#include "tournament/event.h"

namespace toguz::tournament {

// Colour of one player in one round: 'W', 'B', or '-' when he had no game over the board
// (bye, forfeit, not paired).
std::vector<std::vector<char>> colour_history(const Event& event);

// Pairs the next Swiss round of `event` (all previous results in), by the scores of
// pairing_half_points. The byes asked for the round go to Round::half_byes and zero_byes; every
// other player not withdrawn is paired or gets the bye; no forbidden pair meets (never
// relaxed); no player gets a second bye; no player's colour difference (whites minus
// blacks) leaves -2..+2. Within those limits no pair meets twice when a pairing without a
// rematch exists. Throws std::runtime_error when no pairing keeps the forbidden pairs apart and
// the bye with a player who may take it.
Round pair_swiss_round(const Event& event);

// The same pairing by other scores (any unit, one per player, higher first): a team Swiss
// pairs its teams by match points or board points this way (team.h).
Round pair_swiss_round(const Event& event, const std::vector<int>& scores);

}  // namespace toguz::tournament
