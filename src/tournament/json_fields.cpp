#include "tournament/json_fields.h"

#include <stdexcept>

#include "rules/text.h"
#include "tournament/tgk.h"

namespace toguz::tournament::json_fields {

namespace json = boost::json;

[[noreturn]] void bad(const std::string& field, const std::string& what) {
  throw std::runtime_error(field + ": " + what);
}

json::value parse_state(std::string_view text, std::string_view format) {
  json::value root;
  try {
    root = json::parse(text);
  } catch (const std::exception& e) {
    bad("JSON", e.what());
  }
  const json::object& o = object_of(root, "the file");
  if (string_of(member(o, "", "format"), "format") != format)
    bad("format", "expected \"" + std::string(format) + "\"");
  return root;
}

const json::value& member(const json::object& o, const std::string& parent, const char* key) {
  const json::value* v = o.if_contains(key);
  if (!v) bad(parent.empty() ? key : parent + "." + key, "missing");
  return *v;
}

std::string string_of(const json::value& v, const std::string& field) {
  if (!v.is_string()) bad(field, "expected a string");
  return std::string(v.get_string());
}

// A string shown in pages and records (a name, a title, the event's site and date): cleaned as
// the server cleans names (rules/text.h), so a state file edited by hand shows no bidi or
// control characters either.
std::string text_of(const json::value& v, const std::string& field) {
  return clean_display_text(string_of(v, field));
}

int int_of(const json::value& v, const std::string& field, int lo, int hi) {
  if (!v.is_int64() || v.get_int64() < lo || v.get_int64() > hi)
    bad(field, "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
  return int(v.get_int64());
}

const json::array& array_of(const json::value& v, const std::string& field) {
  if (!v.is_array()) bad(field, "expected an array");
  return v.get_array();
}

const json::object& object_of(const json::value& v, const std::string& field) {
  if (!v.is_object()) bad(field, "expected an object");
  return v.get_object();
}

bool bool_of(const json::value& v, const std::string& field) {
  if (!v.is_bool()) bad(field, "expected true or false");
  return v.as_bool();
}

json::object player_json(const Player& p) {
  json::object o{
      {"name", p.name}, {"rating", p.rating}, {"title", p.title}, {"withdrawn", p.withdrawn}};
  if (!p.id.empty()) o["id"] = p.id;
  if (!p.federation.empty()) o["federation"] = p.federation;
  return o;
}

Player player_from_json(const json::value& v, const std::string& field) {
  const json::object& p = object_of(v, field);
  Player pl;
  pl.name = text_of(member(p, field, "name"), field + ".name");
  if (pl.name.empty()) bad(field + ".name", "expected a name");
  pl.rating = int_of(member(p, field, "rating"), field + ".rating", 0, 9999);
  pl.title = text_of(member(p, field, "title"), field + ".title");
  if (const json::value* id = p.if_contains("id")) pl.id = text_of(*id, field + ".id");
  if (const json::value* fed = p.if_contains("federation"))
    pl.federation = text_of(*fed, field + ".federation");
  if (const json::value* w = p.if_contains("withdrawn"))  // absent in older files
    pl.withdrawn = bool_of(*w, field + ".withdrawn");
  return pl;
}

std::vector<int> moves_from_json(const json::value& v, const std::string& board_field,
                                 BoardResult result) {
  const std::string field = board_field + ".moves";
  const json::array& moves = array_of(v, field);
  Board board;
  board.result = result;
  for (size_t m = 0; m < moves.size(); ++m)
    board.moves.push_back(int_of(moves[m], field + "[" + std::to_string(m) + "]", 1, 9));
  try {
    const Game game = board_game(board);
    if (game.outcome() != Outcome::Ongoing &&
        board_result_text(result) != result_text(game.result()))
      bad(board_field + ".result", "the board ended " + std::string(result_text(game.result())));
  } catch (const MoveError& e) {
    bad(field, e.what());
  }
  return board.moves;
}

}  // namespace toguz::tournament::json_fields
