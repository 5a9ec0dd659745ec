// `toguz tournament ACTION FILE ...`: an over-the-board event kept in a JSON state file
// (docs/tournaments.md). The pairing, standings and TGK are in src/tournament; this file reads
// and writes the state file and prints.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "cli/game_input.h"
#include "rules/text.h"
#include "tournament/event_json.h"
#include "tournament/report.h"
#include "tournament/standings.h"
#include "tournament/swiss.h"
#include "tournament/tgk.h"
#include "tournament/trf.h"

namespace toguz::cli {

namespace {

using namespace toguz::tournament;

[[noreturn]] void fail(const std::string& msg, int code = 1) {
  std::cerr << "toguz tournament: " << msg << "\n";
  throw CLI::RuntimeError(code);
}

Event load(const std::string& path) {
  std::string text;
  try {
    text = read_input(path);
  } catch (const std::runtime_error& e) {
    fail(e.what(), 2);
  }
  try {
    return event_from_json(text);
  } catch (const std::runtime_error& e) {
    fail(path + ": " + e.what());
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

void save(const std::string& path, const Event& ev) {
  write_file(path, event_to_json(ev));
}

// Standard output, or the file given by -o.
void emit(const std::string& out_path, const std::string& text) {
  if (out_path.empty())
    std::cout << text;
  else
    write_file(out_path, text);
}

int round_arg(const Event& ev, int round) {
  if (ev.played.empty()) fail("no round has been paired yet");
  if (round == 0) return int(ev.played.size());
  if (round < 1 || round > int(ev.played.size()))
    fail("round " + std::to_string(round) + ": expected 1 to " + std::to_string(ev.played.size()));
  return round;
}

// trf FILE: the exchange file; from-trf TRF FILE: a state file from one.
void add_exchange(CLI::App* cmd) {
  struct Args {
    std::string file, trf, out;
    bool force = false;
  };
  auto a = std::make_shared<Args>();
  auto* c = cmd->add_subcommand("trf", "write the event as an exchange file (TRF)");
  c->add_option("FILE", a->file, "the state file")->required();
  c->add_option("-o,--output", a->out, "output file (default: standard output)");
  c->callback([a] { emit(a->out, event_to_trf(load(a->file))); });
  auto* r = cmd->add_subcommand("from-trf", "make a state file from an exchange file (TRF)");
  r->add_option("TRF", a->trf, "the exchange file ('-' = standard input)")->required();
  r->add_option("FILE", a->file, "the state file to create")->required();
  r->add_flag("--force", a->force, "replace an existing file");
  r->callback([a] {
    if (!a->force && std::filesystem::exists(a->file))
      fail(a->file + ": exists (give --force to replace it)", 2);
    std::string text;
    try {
      text = read_input(a->trf);
    } catch (const std::runtime_error& e) {
      fail(e.what(), 2);
    }
    try {
      save(a->file, event_from_trf(text));
    } catch (const std::runtime_error& e) {
      fail(a->trf + ": " + e.what());
    }
  });
}

}  // namespace

void add_tournament(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "tournament", "an over-the-board event: players, pairings, results, standings, TGK");
  cmd->require_subcommand(1);

  // new FILE
  {
    struct Args {
      std::string file, system, event, site, date, tiebreaks;
      int rounds = 0;
      bool force = false;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("new", "create the event's state file");
    c->add_option("FILE", a->file, "the state file to create")->required();
    c->add_option("--system", a->system, "swiss, round-robin or double-round-robin")
        ->required()
        ->check(CLI::IsMember({"swiss", "round-robin", "double-round-robin"}));
    c->add_option("--rounds", a->rounds, "rounds (required for a Swiss; a round robin has its own)")
        ->check(CLI::Range(1, 1000));
    c->add_option("--event", a->event, "the event's name (the Event tag)");
    c->add_option("--site", a->site, "where it is played (the Site tag)");
    c->add_option("--date", a->date, "its date as the records write it, e.g. 2026.12.01");
    c->add_option("--tiebreaks", a->tiebreaks,
                  "comma-separated: buchholz-cut1, buchholz, sonneborn-berger, wins, "
                  "direct-encounter (or BH-1, BH, SB, W, DE); default by system");
    c->add_flag("--force", a->force, "replace an existing file");
    c->callback([a] {
      Event ev;
      parse_system(a->system, &ev.system);
      if (ev.system == System::Swiss && a->rounds == 0) fail("a Swiss needs --rounds");
      if (ev.system != System::Swiss && a->rounds != 0)
        fail("a round robin has the rounds of its Berger table; --rounds is for a Swiss", 2);
      ev.rounds = a->rounds;
      // Cleaned as the server cleans names: no bidi, zero-width or control characters.
      ev.name = clean_display_text(a->event);
      ev.site = clean_display_text(a->site);
      ev.date = clean_display_text(a->date);
      std::string list = a->tiebreaks;
      for (char& ch : list)
        if (ch == ',') ch = ' ';
      for (const std::string& w : split_words(list)) {
        TieBreak t;
        if (!parse_tie_break(w, &t)) fail("--tiebreaks: unknown tie-break '" + w + "'", 2);
        ev.tie_breaks.push_back(t);
      }
      if (!a->force && std::filesystem::exists(a->file))
        fail(a->file + ": exists (give --force to replace it)", 2);
      save(a->file, ev);
    });
  }

  // add FILE NAME
  {
    struct Args {
      std::string file, name, title, id, federation;
      int rating = 0;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("add", "enter a player (before round 1)");
    c->add_option("FILE", a->file, "the state file")->required();
    c->add_option("NAME", a->name, "the player's name as the records write it")->required();
    c->add_option("--rating", a->rating, "federation rating (0 = unrated)")
        ->check(CLI::Range(0, 9999));
    c->add_option("--title", a->title, "title, as the federation writes it");
    c->add_option("--id", a->id, "the federation's id of the player");
    c->add_option("--federation", a->federation, "the player's federation or region code");
    c->callback([a] {
      Event ev = load(a->file);
      if (!ev.played.empty()) fail("players are entered before round 1 is paired");
      const std::string name = clean_display_text(a->name);
      if (name.empty()) fail("the name is empty");
      for (const Player& p : ev.players)
        if (p.name == name) fail("'" + name + "' is already entered");
      ev.players.push_back({name, a->rating, clean_display_text(a->title),
                            clean_display_text(a->id), clean_display_text(a->federation)});
      save(a->file, ev);
    });
  }

  // pair FILE
  {
    auto file = std::make_shared<std::string>();
    auto* c = cmd->add_subcommand("pair", "pair the next round and print its pairings");
    c->add_option("FILE", *file, "the state file")->required();
    c->callback([file] {
      Event ev = load(*file);
      try {
        ev.played.push_back(pair_next_round(ev));
      } catch (const std::exception& e) {
        fail(e.what());
      }
      save(*file, ev);
      const int r = int(ev.played.size());
      std::cout << round_heading(ev, r) << "\n" << pairings_table(ev, r).text();
    });
  }

  // result FILE BOARD RESULT
  {
    struct Args {
      std::string file, result, moves, moves_file;
      int board = 0, round = 0;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("result", "enter a board's result, optionally its moves");
    c->add_option("FILE", a->file, "the state file")->required();
    c->add_option("BOARD", a->board, "the board number")->required();
    c->add_option("RESULT", a->result, "1-0, 0-1, 1/2-1/2, 1-0f or 0-1f (forfeits), * to clear")
        ->required();
    c->add_option("--round", a->round, "the round (default: the latest)");
    c->add_option("--moves", a->moves, "the game's moves as written, e.g. \"1. 65 87 2. 55 99\"");
    c->add_option("--moves-file", a->moves_file, "the moves from a file ('-' = standard input)");
    c->callback([a] {
      Event ev = load(a->file);
      const int r = round_arg(ev, a->round);
      Round& round = ev.played[r - 1];
      if (a->board < 1 || a->board > int(round.boards.size()))
        fail("board " + std::to_string(a->board) + ": round " + std::to_string(r) +
             " has boards 1 to " + std::to_string(round.boards.size()));
      BoardResult res;
      if (!parse_board_result(a->result, &res))
        fail("result '" + a->result + "': expected 1-0, 0-1, 1/2-1/2, 1-0f, 0-1f or *");
      std::string text = a->moves;
      if (!a->moves_file.empty()) {
        try {
          text += " " + read_input(a->moves_file);
        } catch (const std::runtime_error& e) {
          fail(e.what(), 2);
        }
      }
      Board& board = round.boards[a->board - 1];
      try {
        board.moves = check_moves(split_words(text), res);
      } catch (const MoveError& e) {
        fail("round " + std::to_string(r) + ", board " + std::to_string(a->board) + ": " +
             e.what());
      }
      board.result = res;
      save(a->file, ev);
    });
  }

  // pairings FILE
  {
    struct Args {
      std::string file, out;
      int round = 0;
      bool html = false;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("pairings", "print a round's pairings and results");
    c->add_option("FILE", a->file, "the state file")->required();
    c->add_option("--round", a->round, "the round (default: the latest)");
    c->add_flag("--html", a->html, "a print-friendly HTML page");
    c->add_option("-o,--output", a->out, "output file (default: standard output)");
    c->callback([a] {
      const Event ev = load(a->file);
      const int r = round_arg(ev, a->round);
      const Table t = pairings_table(ev, r);
      emit(a->out, a->html ? pairings_page(ev, r) : round_heading(ev, r) + "\n" + t.text());
    });
  }

  // standings FILE
  {
    struct Args {
      std::string file, out;
      bool html = false;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("standings", "print the standings and the crosstable");
    c->add_option("FILE", a->file, "the state file")->required();
    c->add_flag("--html", a->html, "a print-friendly HTML page");
    c->add_option("-o,--output", a->out, "output file (default: standard output)");
    c->callback([a] {
      const Event ev = load(a->file);
      if (a->html) {
        emit(a->out, standings_page(ev));
        return;
      }
      const std::vector<Standing> st = standings(ev);
      emit(a->out, standings_heading(ev) + "\n" + standings_table(ev, st).text() +
                       "\nCrosstable\n" + crosstable(ev, st).text());
    });
  }

  // export FILE
  {
    struct Args {
      std::string file, out;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("export", "write every game of the event as one TGK file");
    c->add_option("FILE", a->file, "the state file")->required();
    c->add_option("-o,--output", a->out, "output file (default: standard output)");
    c->callback([a] {
      const Event ev = load(a->file);
      emit(a->out, event_tgk(ev));
    });
  }
  add_exchange(cmd);
}

}  // namespace toguz::cli
