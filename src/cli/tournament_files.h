// What `toguz tournament` and `toguz tournament team` share: their errors, their files, and the
// arguments both kinds of event take alike (the event's header, a player, a board's result).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tournament/event.h"

namespace toguz::cli::tournament_files {

// "toguz tournament: MSG" on standard error, then exit status `code` (CLI::RuntimeError).
[[noreturn]] void fail(const std::string& msg, int code = 1);
// The file's text ('-' = standard input); a file that cannot be read fails with status 2.
std::string read_text(const std::string& path);
// Writes through a temporary file and a rename, so a state file is never left half written.
void write_file(const std::string& path, const std::string& text);
// Standard output, or the file given by -o.
void emit(const std::string& out_path, const std::string& text);

// A state file read by `parse`; its errors fail naming the file.
template <typename T>
T load_state(const std::string& path, T (*parse)(std::string_view)) {
  const std::string text = read_text(path);
  try {
    return parse(text);
  } catch (const std::runtime_error& e) {
    fail(path + ": " + e.what());
  }
}

// `trf FILE [-o OUT]` and `IMPORT TRF FILE [--force]` under `cmd`: the state file's exchange
// file (`to_trf` of the state file's path), and a new state file (`from_trf` of the exchange
// file's text, which throws std::runtime_error naming the line; the refusal names the file).
using TextOf = std::function<std::string(const std::string&)>;
void add_exchange_commands(CLI::App* cmd, const std::string& import_name, TextOf to_trf,
                           TextOf from_trf);

// --round R of an event with `played` rounds: 0 (not given) is the latest.
int round_arg(size_t played, int round);
// A name as entered, or its number (1-based) among `names`; -1 when neither.
int name_or_number(const std::vector<std::string>& names, const std::string& s);
// "bh-1,bh sb": the words of a comma- or space-separated list.
std::vector<std::string> list_words(const std::string& text);

// `new`'s FILE, --system, --rounds, --event, --site, --date and --force.
struct NewArgs {
  std::string file, system, event, site, date;
  int rounds = 0;
  bool force = false;
};
void add_new_options(CLI::App* c, NewArgs& a);
// Checks the rounds against the system and that the file is not there (unless --force); sets
// the event's header, cleaned as the server cleans names.
void apply_new(const NewArgs& a, tournament::System* system, int* rounds, std::string* name,
               std::string* site, std::string* date);

// A player's NAME, --rating, --title, --id and --federation.
struct PlayerArgs {
  std::string name, title, id, federation;
  int rating = 0;
};
void add_player_options(CLI::App* c, PlayerArgs& a);
tournament::Player player_of(const PlayerArgs& a);  // cleaned; fails on an empty name

// A board's RESULT, --round, --moves and --moves-file.
struct ResultArgs {
  std::string result, moves, moves_file;
  int round = 0;
};
void add_result_options(CLI::App* c, ResultArgs& a);
tournament::BoardResult result_of(const ResultArgs& a);
// The moves typed, checked by the referee against `result`; a wrong one fails naming `where`.
std::vector<int> moves_of(const ResultArgs& a, tournament::BoardResult result,
                          const std::string& where);

}  // namespace toguz::cli::tournament_files
