#include "cli/tournament_files.h"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/game_input.h"
#include "rules/text.h"
#include "tournament/tgk.h"

namespace toguz::cli::tournament_files {

using namespace toguz::tournament;

void fail(const std::string& msg, int code) {
  std::cerr << "toguz tournament: " << msg << "\n";
  throw CLI::RuntimeError(code);
}

std::string read_text(const std::string& path) {
  try {
    return read_input(path);
  } catch (const std::runtime_error& e) {
    fail(e.what(), 2);
  }
}

void write_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) fail(tmp + ": cannot write", 2);
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) fail(path + ": cannot write: " + ec.message(), 2);
}

void emit(const std::string& out_path, const std::string& text) {
  if (out_path.empty())
    std::cout << text;
  else
    write_file(out_path, text);
}

void add_exchange_commands(CLI::App* cmd, const std::string& import_name, TextOf to_trf,
                           TextOf from_trf) {
  struct Args {
    std::string file, trf, out;
    bool force = false;
  };
  auto a = std::make_shared<Args>();
  auto* c = cmd->add_subcommand("trf", "write the event as an exchange file (TRF)");
  c->add_option("FILE", a->file, "the state file")->required();
  c->add_option("-o,--output", a->out, "output file (default: standard output)");
  c->callback([a, to_trf] { emit(a->out, to_trf(a->file)); });
  auto* r = cmd->add_subcommand(import_name, "make a state file from an exchange file (TRF)");
  r->add_option("TRF", a->trf, "the exchange file ('-' = standard input)")->required();
  r->add_option("FILE", a->file, "the state file to create")->required();
  r->add_flag("--force", a->force, "replace an existing file");
  r->callback([a, from_trf] {
    if (!a->force && std::filesystem::exists(a->file))
      fail(a->file + ": exists (give --force to replace it)", 2);
    const std::string text = read_text(a->trf);
    std::string state;
    try {
      state = from_trf(text);
    } catch (const std::runtime_error& e) {
      fail(a->trf + ": " + e.what());
    }
    write_file(a->file, state);
  });
}

int round_arg(size_t played, int round) {
  if (played == 0) fail("no round has been paired yet");
  if (round == 0) return int(played);
  if (round < 1 || round > int(played))
    fail("round " + std::to_string(round) + ": expected 1 to " + std::to_string(played));
  return round;
}

int name_or_number(const std::vector<std::string>& names, const std::string& s) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == s) return int(i);
  if (!s.empty() && s.size() < 5 && s.find_first_not_of("0123456789") == std::string::npos) {
    const int i = std::stoi(s);
    if (i >= 1 && i <= int(names.size())) return i - 1;
  }
  return -1;
}

std::vector<std::string> list_words(const std::string& text) {
  std::string list = text;
  for (char& ch : list)
    if (ch == ',') ch = ' ';
  return split_words(list);
}

void add_new_options(CLI::App* c, NewArgs& a) {
  c->add_option("FILE", a.file, "the state file to create")->required();
  c->add_option("--system", a.system, "swiss, round-robin or double-round-robin")
      ->required()
      ->check(CLI::IsMember({"swiss", "round-robin", "double-round-robin"}));
  c->add_option("--rounds", a.rounds, "rounds (required for a Swiss; a round robin has its own)")
      ->check(CLI::Range(1, 1000));
  c->add_option("--event", a.event, "the event's name (the Event tag)");
  c->add_option("--site", a.site, "where it is played (the Site tag)");
  c->add_option("--date", a.date, "its date as the records write it, e.g. 2026.12.01");
  c->add_flag("--force", a.force, "replace an existing file");
}

void apply_new(const NewArgs& a, System* system, int* rounds, std::string* name, std::string* site,
               std::string* date) {
  parse_system(a.system, system);
  if (*system == System::Swiss && a.rounds == 0) fail("a Swiss needs --rounds");
  if (*system != System::Swiss && a.rounds != 0)
    fail("a round robin has the rounds of its Berger table; --rounds is for a Swiss", 2);
  *rounds = a.rounds;
  // Cleaned as the server cleans names: no bidi, zero-width or control characters.
  *name = clean_display_text(a.event);
  *site = clean_display_text(a.site);
  *date = clean_display_text(a.date);
  if (!a.force && std::filesystem::exists(a.file))
    fail(a.file + ": exists (give --force to replace it)", 2);
}

void add_player_options(CLI::App* c, PlayerArgs& a) {
  c->add_option("NAME", a.name, "the player's name as the records write it")->required();
  c->add_option("--rating", a.rating, "federation rating (0 = unrated)")
      ->check(CLI::Range(0, 9999));
  c->add_option("--title", a.title, "title, as the federation writes it");
  c->add_option("--id", a.id, "the federation's id of the player");
  c->add_option("--federation", a.federation, "the player's federation or region code");
}

Player player_of(const PlayerArgs& a) {
  const std::string name = clean_display_text(a.name);
  if (name.empty()) fail("the name is empty");
  return {name, a.rating, clean_display_text(a.title), clean_display_text(a.id),
          clean_display_text(a.federation)};
}

void add_result_options(CLI::App* c, ResultArgs& a) {
  c->add_option("RESULT", a.result, "1-0, 0-1, 1/2-1/2, 1-0f, 0-1f or 0-0f (forfeits), * to clear")
      ->required();
  c->add_option("--round", a.round, "the round (default: the latest)");
  c->add_option("--moves", a.moves, "the game's moves as written, e.g. \"1. 65 87 2. 55 99\"");
  c->add_option("--moves-file", a.moves_file, "the moves from a file ('-' = standard input)");
}

BoardResult result_of(const ResultArgs& a) {
  BoardResult res;
  if (!parse_board_result(a.result, &res))
    fail("result '" + a.result + "': expected 1-0, 0-1, 1/2-1/2, 1-0f, 0-1f, 0-0f or *");
  return res;
}

std::vector<int> moves_of(const ResultArgs& a, BoardResult result, const std::string& where) {
  std::string text = a.moves;
  if (!a.moves_file.empty()) text += " " + read_text(a.moves_file);
  try {
    return check_moves(split_words(text), result);
  } catch (const MoveError& e) {
    fail(where + ": " + e.what());
  }
}

}  // namespace toguz::cli::tournament_files
