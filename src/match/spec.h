// What a match is made of: the two engines as given on the command line, the limits, and
// the settings that a resumed match must share with the one it continues.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "match/stats.h"
#include "rules/position.h"

namespace toguz::match {

// A bad --engine / --tc / --sprt argument; the message names the argument and what was expected.
class SpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Limits of one move. Zero / negative = not set. Several may be set at once.
struct MoveLimits {
  int tc_ms = -1;  // the clock at the start of a game (-1 = no clock)
  int inc_ms = 0;  // added after each move
  int movetime_ms = 0;
  uint64_t nodes = 0;
  int depth = 0;
  bool any() const { return tc_ms >= 0 || movetime_ms > 0 || nodes > 0 || depth > 0; }
  bool operator==(const MoveLimits&) const = default;
};

// Parses "10+0.1", "40" or "0.5+0.05" (seconds); throws SpecError.
void parse_tc(const std::string& text, MoveLimits* out);
std::string format_tc(const MoveLimits& l);  // "10+0.1"

// One engine, cutechess style: `cmd=PATH [arg=ARG]... [name=NAME] [option.NAME=VALUE]...` or
// `builtin [skill=N] [option.NAME=VALUE]...`, plus the per-engine limits `tc=`, `movetime=`,
// `nodes=`, `depth=` that override the match-wide ones.
struct EngineSpec {
  bool builtin = false;
  std::string cmd;
  std::vector<std::string> args;
  std::string name;  // "" = from the engine (`id name`) or "builtin"
  int skill = -1;    // builtin only: -1 = default, 0 = random mover, 1..20 engine skill
  std::vector<std::pair<std::string, std::string>> options;  // option.NAME=VALUE, in order
  MoveLimits limits;  // per-engine overrides (fields left unset are taken from the match)
  std::vector<std::string> tokens;  // as given, for messages and the resume file
  bool operator==(const EngineSpec& o) const { return tokens == o.tokens; }
};

// Parses the tokens of one --engine. Throws SpecError naming the bad token.
EngineSpec parse_engine_spec(const std::vector<std::string>& tokens);

// Per-engine limits over the match ones: a field the engine sets wins.
MoveLimits merge_limits(const MoveLimits& match, const MoveLimits& engine);

// Parses "elo0=0 elo1=5 alpha=0.05 beta=0.05" (any subset, each its own token or one string).
SprtParams parse_sprt(const std::vector<std::string>& tokens);

// Everything that decides the games; a resumed match must have the same.
struct Settings {
  std::vector<EngineSpec> engines;  // exactly two
  MoveLimits limits;
  Rules rules;
  int pairs = 1;
  std::vector<std::string> openings;  // position strings, one per pair (cycled)
  uint64_t seed = 1;
  bool sprt = false;
  SprtParams sprt_params;
  int margin_ms = 100;  // clock overstep tolerated before a time loss
  int hang_ms = -1;     // wait past the move's budget before a silent engine has hung; -1 = default
  int handshake_ms = 10000;
};

}  // namespace toguz::match
