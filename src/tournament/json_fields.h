// Reading the state files' JSON (event_json.cpp, team_json.cpp): each reader names the field
// that is wrong and what was expected ("players[0].rating: expected an integer from 0 to
// 9999"), by throwing std::runtime_error.
#pragma once

#include <boost/json.hpp>
#include <string>
#include <string_view>

#include "tournament/event.h"

namespace toguz::tournament::json_fields {

[[noreturn]] void bad(const std::string& field, const std::string& what);
// The file's JSON: an object whose "format" is `format`.
boost::json::value parse_state(std::string_view text, std::string_view format);
// o[key], or "parent.key: missing".
const boost::json::value& member(const boost::json::object& o, const std::string& parent,
                                 const char* key);
std::string string_of(const boost::json::value& v, const std::string& field);
// A string shown in pages and records, cleaned as the server cleans names (rules/text.h).
std::string text_of(const boost::json::value& v, const std::string& field);
int int_of(const boost::json::value& v, const std::string& field, int lo, int hi);
const boost::json::array& array_of(const boost::json::value& v, const std::string& field);
const boost::json::object& object_of(const boost::json::value& v, const std::string& field);
bool bool_of(const boost::json::value& v, const std::string& field);

// A player as the state files write him: name, rating, title, withdrawn, and id / federation
// when set.
boost::json::object player_json(const Player& p);
Player player_from_json(const boost::json::value& v, const std::string& field);
// A board's "moves" (holes 1..9), replayed by the referee and checked against `result`; errors
// name `board_field`.moves or `board_field`.result.
std::vector<int> moves_from_json(const boost::json::value& v, const std::string& board_field,
                                 BoardResult result);

}  // namespace toguz::tournament::json_fields
