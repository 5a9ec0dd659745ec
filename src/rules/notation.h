// Text forms of docs/rules.md: position strings and move tokens.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "rules/position.h"

namespace toguz {

// A parse failure; the message names the field and what was expected.
class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Rule choices from a user or a record, resolved once the row length is known.
struct RuleOptions {
  std::optional<Variant> variant;  // absent: taken from the row length
  std::optional<bool> tuz;         // absent: the variant's default (on for standard only)
  bool play_out = false;
  // The rules for row length n. Throws ParseError when `variant` says another length.
  Rules resolve(int n) const;
  Rules resolve() const { return resolve(variant ? Rules::for_variant(*variant).n : 9); }
};

// Parses "<White holes>/<Black holes> <White kazna> <Black kazna> <side> [<move number>]".
// Throws ParseError naming the field ("White holes", "Black kazna", "side", ...).
Position parse_position(std::string_view text, const RuleOptions& options = {});
// The canonical string: single spaces, move number always written.
std::string format_position(const Position& pos);

// A move as written: "6", "65", "65(10)", "65 (10)", "27X", "93x", with annotation marks
// (!, ?, !!, ??, !?, ?!) ignored.
struct MoveToken {
  int hole = 0;     // a, 1..9
  int landing = 0;  // b, 0 when the token has one digit
  bool tuz_mark = false;
  int kazna = -1;  // (n), -1 when absent
};
// Syntax only; returns false and sets *why when the text is not a move token.
bool parse_move_token(std::string_view text, MoveToken* out, std::string* why);
// Checks a token against what its move did; returns "" when it agrees, else what was expected.
std::string check_move_token(const MoveToken& token, const MoveInfo& info);

enum class MoveStyle { PlayOK, Tgk, Book };
// PlayOK: "65(10)" after a capture only, "27X" on a tuz. Tgk: "65", "27x". Book: "65 (10)"
// whenever the mover's total changed, "27X (57)".
std::string format_move(const MoveInfo& info, MoveStyle style = MoveStyle::PlayOK);

}  // namespace toguz
