// A team event as an exchange file (docs/tournaments.md "Team events" and "Exchange file
// (TRF)"): the TRF of 2016 with every roster player's 001 line (each board's game: the
// opponent's starting rank, colour, result) and its 013 team lines, FIDE's later team lines for
// a bye (320) and a forfeited match (330), and our XX lines for what neither has: boards per
// match, the scoring, the withdrawals. The games' moves are not in it (the TGK file has them).
#pragma once

#include <string>
#include <string_view>

#include "tournament/team.h"

namespace toguz::tournament {

// Players are numbered team by team in entry order, each roster in board order; the teams'
// 013 lines follow in entry order.
std::string team_event_to_trf(const TeamEvent& ev);

// Reads a file written by team_event_to_trf or by another program that writes 013 lines.
// Throws std::runtime_error naming the line and the field ("line 12, round 2: board 1: ...").
// Teams come in the order of their 013 lines, each roster in its line's order; a round's
// lineups are the roster players with an entry, in roster order; its matches come in the order
// of their lower team number.
TeamEvent team_event_from_trf(std::string_view text);

}  // namespace toguz::tournament
