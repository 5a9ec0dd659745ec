// Input shared by `toguz replay` and `toguz convert`: a file (or "-" for stdin) holding either
// PGN/TGK records or bare move lists, one game per line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rules/record.h"

namespace toguz::cli {

// The whole of `path` ("-" = standard input). Throws std::runtime_error naming the file when
// it cannot be read.
std::string read_input(const std::string& path);

// True when the first non-blank line starts with '[' (records); else bare move lists.
bool looks_like_records(std::string_view text);

// Records as read_records() gives them, or one Record per non-blank line of bare moves
// (its plies are the line's words, its first_line the line number). Throws ParseError from
// read_records() on text that is not a record.
std::vector<Record> read_games(std::string_view text);

// "line L: ply P, token 'T': message" ("line L: message" for an error about the whole game).
// With with_ply = false (the JSON error object carries ply and token): "line L: message".
std::string describe(const ReplayError& e, bool with_ply = true);

// Plays each token of `moves` on `game`. A token is a hole ("7") or a notation token ("76",
// "27X", "65(10)"); a notation token must agree with what its move did. On a bad token prints
// "toguz <command>: --moves token N 'T': why" and throws CLI::RuntimeError(2).
void play_moves(Game& game, const std::vector<std::string>& moves, const char* command);

}  // namespace toguz::cli
