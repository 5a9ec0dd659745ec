// The event as a tournament report file (docs/tournaments.md "Exchange file"): the fixed-column
// text of the chess federations' TRF (version 2016), which pairing and rating programs read
// and write, so an event's players, pairings and results move between tools without retyping.
// The games' moves are not in it: the event's TGK file stays the record of its games.
#pragma once

#include <string>
#include <string_view>

#include "tournament/event.h"

namespace toguz::tournament {

// Writes the event: its header lines (012 name, 022 site, 042 date, 062/072 counts, 092 system,
// XXR rounds, XXT tie-breaks), our lines for the arbiter's settings and the withdrawals (XXH,
// XXW, XXP, XXA, XXD), and one 001 line per player in starting-rank order (the Swiss pairing
// numbers; a round robin's entry order), with every paired round.
std::string event_to_trf(const Event& event);

// Reads a file written by event_to_trf or by another program. Throws std::runtime_error
// naming the line and the field ("line 14, round 3: player 5 met 7, but 7's entry names 2").
// Players come in starting-rank order; each round's boards in the order of the lower starting
// rank of their two players.
Event event_from_trf(std::string_view text);

}  // namespace toguz::tournament
