// The event as a JSON state file (docs/tournaments.md "State file"): what `toguz tournament`
// keeps between commands.
#pragma once

#include <string>
#include <string_view>

#include "tournament/event.h"

namespace toguz::tournament {

std::string event_to_json(const Event& event);

// Throws std::runtime_error naming the field and what was expected ("players[2].rating:
// expected an integer"), and on a board whose moves the referee refuses.
Event event_from_json(std::string_view text);

}  // namespace toguz::tournament
