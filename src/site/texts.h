// What the server says in words, in a form a client can translate: error codes with their
// parameters beside the English message, the default names it gives to seats, and the tags of
// an exported record (docs/web-protocol.md "Server notes").
#pragma once

#include <boost/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rules/game.h"
#include "site/refusal.h"
#include "store/store.h"

namespace toguz::site {

namespace json = boost::json;
using store::GameRow;

// Why the store refuses writes, as told to a client (an HTTP 503, a refused move): its code
// (store_busy, ...; store::fault_code) with request `action` when it is given.
Refusal fault_refusal(store::StoreFault fault, const std::string& action = "");

// The names the server gives when nobody gave one.
inline constexpr const char* kNamePlayer = "Player";  // the creator of an engine or online game
inline constexpr const char* kNameGuest = "Guest";    // who joins an online game
inline constexpr const char* kNameWhite = "White";    // the sides of local and analysis games
inline constexpr const char* kNameBlack = "Black";
// The engine's seat: "toguz (level 5)".
std::string engine_name(int level);

// The code of side s's name when it is one of the server's own ("player", "guest", "white",
// "black", "engine"; the client writes it in its language, the engine's with the level), else
// null: a name a person gave.
json::value default_name_code(const GameRow& row, int side);
// The same for a seat named `name`, the engine's (at `level`) or a person's.
json::value default_name_code(const std::string& name, bool engine, int level);

// Tags the record writer makes itself (from the names, the result, the rules).
bool generated_tag(const std::string& name);

// The tags of the exported record of a game: Event, Site, Date (the day it was created, UTC,
// "2026.11.30"), White, Black, TimeControl ("300+5" in seconds, "-" without a clock) and
// Termination ("normal", "time forfeit", "abandoned", "unterminated" while it goes on); an
// imported game's own tags replace these or follow them.
std::vector<std::pair<std::string, std::string>> export_tags(const GameRow& row);

}  // namespace toguz::site
