// Input shared by `toguz replay`, `convert` and `annotate`: a file (or "-" for stdin) holding
// either PGN/TGK records or bare move lists, one game per line.
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

// Records as read_record_file() gives them, or one Record per non-blank line of bare moves
// (its plies are the line's words, its first_line the line number). Throws ParseError from
// decode_record_text() on input that is not a record at all (empty, binary, HTML).
RecordFile read_games(std::string_view bytes);

// read_games(read_input(path)) for subcommand `command`: the reader's note (a Windows-1251
// file) goes to standard error as "toguz COMMAND: PATH: note"; input that is not a record at
// all gets one such line and exit status 1, a file that cannot be read exit status 2.
RecordFile load_games(const std::string& command, const std::string& path);

// The replay of `record`, with a warning promoted to the error under `strict`, else printed
// to standard error as "toguz COMMAND: PATH: warning: ..." (a truncated last game).
Replayed replay_checked(const std::string& command, const std::string& path, const Record& record,
                        const RuleOptions& overrides, bool strict);

// Plays each token of `moves` on `game`. A token is a hole ("7") or a notation token ("76",
// "27X", "65(10)"); a notation token must agree with what its move did. On a bad token prints
// "toguz <command>: --moves token N 'T': why" and throws CLI::RuntimeError(2).
void play_moves(Game& game, const std::vector<std::string>& moves, const char* command);

}  // namespace toguz::cli
