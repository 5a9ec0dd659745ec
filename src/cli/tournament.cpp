// `toguz tournament ACTION FILE ...`: an over-the-board event kept in a JSON state file
// (docs/tournaments.md). The pairing, standings and TGK are in src/tournament; this file reads
// and writes the state file and prints.
#include <iostream>

#include "cli/commands.h"
#include "cli/tournament_files.h"
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
using namespace tournament_files;

Event load(const std::string& path) {
  return load_state(path, event_from_json);
}

void save(const std::string& path, const Event& ev) {
  write_file(path, event_to_json(ev));
}

// trf FILE: the exchange file; from-trf TRF FILE: a state file from one.
void add_exchange(CLI::App* cmd) {
  add_exchange_commands(
      cmd, "from-trf", [](const std::string& path) { return event_to_trf(load(path)); },
      [](const std::string& text) { return event_to_json(event_from_trf(text)); });
}

// PLAYER as the command line gives it: the name as entered, or the entry number (1-based).
int player_arg(const Event& ev, const std::string& s) {
  std::vector<std::string> names;
  for (const Player& p : ev.players) names.push_back(p.name);
  if (const int i = name_or_number(names, s); i >= 0) return i;
  fail("no player '" + s + "' (a name as entered, or 1 to " + std::to_string(ev.players.size()) +
       ")");
}

std::vector<TieBreak> tie_break_list(const std::string& text) {
  std::vector<TieBreak> out;
  for (const std::string& w : list_words(text)) {
    TieBreak t;
    if (!parse_tie_break(w, &t)) fail("--tiebreaks: unknown tie-break '" + w + "'", 2);
    out.push_back(t);
  }
  return out;
}

// The settings `new` and `settings` share; each applied only when given.
struct Settings {
  std::string tiebreaks;
  int accelerated = -1, max_half_byes = -1;
  std::string half_bye_last_round, forfeit_withdraws;  // "on" / "off"
};

void add_setting_options(CLI::App* c, Settings& s) {
  c->add_option("--tiebreaks", s.tiebreaks,
                "comma-separated, in order: buchholz-cut1, buchholz, median, sonneborn-berger, "
                "wins, direct-encounter (or BH-1, BH, BH-M1, SB, W, DE); default by system");
  c->add_option("--accelerated", s.accelerated,
                "Swiss: rounds with Baku acceleration (virtual points for the top half), 0 = none")
      ->check(CLI::Range(0, 1000));
  c->add_option("--max-half-byes", s.max_half_byes, "half-point byes a player may ask for (2)")
      ->check(CLI::Range(0, 1000));
  c->add_option("--half-bye-last-round", s.half_bye_last_round,
                "on: a half-point bye may be asked for the last round (off)")
      ->check(CLI::IsMember({"on", "off"}));
  c->add_option("--forfeit-withdraws", s.forfeit_withdraws,
                "on: a player who loses by forfeit is withdrawn unless kept (on)")
      ->check(CLI::IsMember({"on", "off"}));
}

void apply_settings(Event& ev, const Settings& s) {
  if (!s.tiebreaks.empty()) ev.tie_breaks = tie_break_list(s.tiebreaks);
  if (s.accelerated >= 0) {
    if (ev.system != System::Swiss && s.accelerated > 0)
      fail("--accelerated is for a Swiss (a round robin's table is fixed)", 2);
    ev.accelerated_rounds = s.accelerated;
  }
  if (s.max_half_byes >= 0) ev.max_half_byes = s.max_half_byes;
  if (!s.half_bye_last_round.empty()) ev.half_bye_last_round = s.half_bye_last_round == "on";
  if (!s.forfeit_withdraws.empty()) ev.forfeit_withdraws = s.forfeit_withdraws == "on";
}

// settings, bye, forbid, withdraw: the arbiter's decisions between rounds.
void add_arbiter_commands(CLI::App* cmd) {
  {
    auto file = std::make_shared<std::string>();
    auto s = std::make_shared<Settings>();
    auto* c = cmd->add_subcommand("settings", "change the event's tie-breaks, byes, acceleration");
    c->add_option("FILE", *file, "the state file")->required();
    add_setting_options(c, *s);
    c->callback([file, s] {
      Event ev = load(*file);
      apply_settings(ev, *s);
      save(*file, ev);
    });
  }
  {
    struct Args {
      std::string file, player;
      int round = 0;
      bool zero = false, cancel = false;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("bye", "a player's requested bye (half a point, or --zero)");
    c->add_option("FILE", a->file, "the state file")->required();
    c->add_option("PLAYER", a->player, "the name as entered, or the entry number")->required();
    c->add_option("--round", a->round, "the round, not yet paired")->required();
    c->add_flag("--zero", a->zero, "a zero-point bye (default: half a point)");
    c->add_flag("--cancel", a->cancel, "take the request back");
    c->callback([a] {
      Event ev = load(a->file);
      const int p = player_arg(ev, a->player);
      if (a->cancel) {
        if (!cancel_bye(ev, p, a->round))
          fail("no bye requested for round " + std::to_string(a->round));
      } else {
        try {
          request_bye(ev, {p, a->round, a->zero ? ByeKind::Zero : ByeKind::Half});
        } catch (const std::invalid_argument& e) {
          fail(e.what());
        }
      }
      save(a->file, ev);
    });
  }
  {
    struct Args {
      std::string file, a, b;
      bool remove = false;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("forbid", "two players who must not meet (Swiss)");
    c->add_option("FILE", a->file, "the state file")->required();
    c->add_option("A", a->a, "a name as entered, or the entry number")->required();
    c->add_option("B", a->b, "the other")->required();
    c->add_flag("--remove", a->remove, "allow the pair again");
    c->callback([a] {
      Event ev = load(a->file);
      const int x = player_arg(ev, a->a), y = player_arg(ev, a->b);
      if (a->remove) {
        if (!unforbid_pair(ev, x, y)) fail("that pair is not forbidden");
      } else {
        try {
          forbid_pair(ev, x, y);
        } catch (const std::invalid_argument& e) {
          fail(e.what());
        }
      }
      save(a->file, ev);
    });
  }
  {
    struct Args {
      std::string file, player;
      bool back = false;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("withdraw", "withdraw a player from the rounds paired after");
    c->add_option("FILE", a->file, "the state file")->required();
    c->add_option("PLAYER", a->player, "the name as entered, or the entry number")->required();
    c->add_flag("--back", a->back, "bring him back");
    c->callback([a] {
      Event ev = load(a->file);
      ev.players[player_arg(ev, a->player)].withdrawn = !a->back;
      save(a->file, ev);
    });
  }
}

}  // namespace

void add_tournament(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "tournament", "an over-the-board event: players, pairings, results, standings, TGK");
  cmd->require_subcommand(1);

  // new FILE
  {
    struct Args {
      NewArgs event;
      Settings settings;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("new", "create the event's state file");
    add_new_options(c, a->event);
    add_setting_options(c, a->settings);
    c->callback([a] {
      Event ev;
      apply_new(a->event, &ev.system, &ev.rounds, &ev.name, &ev.site, &ev.date);
      apply_settings(ev, a->settings);
      save(a->event.file, ev);
    });
  }

  // add FILE NAME
  {
    struct Args {
      std::string file;
      PlayerArgs player;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("add", "enter a player (before round 1)");
    c->add_option("FILE", a->file, "the state file")->required();
    add_player_options(c, a->player);
    c->callback([a] {
      Event ev = load(a->file);
      if (!ev.played.empty()) fail("players are entered before round 1 is paired");
      const Player player = player_of(a->player);
      for (const Player& p : ev.players)
        if (p.name == player.name) fail("'" + player.name + "' is already entered");
      ev.players.push_back(player);
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
        add_next_round(ev);
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
      std::string file;
      int board = 0;
      bool keep = false;
      ResultArgs result;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("result", "enter a board's result, optionally its moves");
    c->add_option("FILE", a->file, "the state file")->required();
    c->add_option("BOARD", a->board, "the board number")->required();
    add_result_options(c, a->result);
    c->add_flag("--keep", a->keep, "a forfeit: keep the absent player in the event");
    c->callback([a] {
      Event ev = load(a->file);
      const int r = round_arg(ev.played.size(), a->result.round);
      Round& round = ev.played[r - 1];
      if (a->board < 1 || a->board > int(round.boards.size()))
        fail("board " + std::to_string(a->board) + ": round " + std::to_string(r) +
             " has boards 1 to " + std::to_string(round.boards.size()));
      const BoardResult res = result_of(a->result);
      Board& board = round.boards[a->board - 1];
      board.moves = moves_of(a->result, res,
                             "round " + std::to_string(r) + ", board " + std::to_string(a->board));
      board.result = res;
      if (is_forfeit(res))
        for (int p : record_forfeit(ev, r - 1, a->board - 1, res, a->keep))
          std::cout << ev.players[p].name << ": withdrawn (absent; --keep keeps him)\n";
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
      const int r = round_arg(ev.played.size(), a->round);
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
  add_arbiter_commands(cmd);
  add_tournament_team(*cmd);
}

}  // namespace toguz::cli
