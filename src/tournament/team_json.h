// A team event as a JSON state file (docs/tournaments.md "Team events", "State file"): what
// `toguz tournament team` keeps between commands.
#pragma once

#include <string>
#include <string_view>

#include "tournament/team.h"

namespace toguz::tournament {

std::string team_event_to_json(const TeamEvent& ev);

// Throws std::runtime_error naming the field and what was expected ("teams[1].roster[0].rating:
// expected an integer from 0 to 9999"): a team or lineup index out of range, a lineup out of
// roster order, a board's count or result that does not fit its lineups, moves the referee
// refuses.
TeamEvent team_event_from_json(std::string_view text);

}  // namespace toguz::tournament
