// toguz annotate GAME [--time MS|--nodes N|--depth D] [--out FILE] [--tgk]: every game of a
// PGN/TGK file written back with the engine's evaluation after each move, ?! / ? / ?? on
// inaccuracies, mistakes and blunders, and a summary per player (search/annotate.h).
#include "search/annotate.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "cli/commands.h"
#include "cli/game_input.h"
#include "cli/options.h"

namespace toguz::cli {

namespace {

// Centi-stones as stones with two decimals and a sign: "+1.25", "-0.05".
std::string stones(int cp) {
  const int a = cp < 0 ? -cp : cp;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%c%d.%02d", cp < 0 ? '-' : '+', a / 100, a % 100);
  return buf;
}

// A score from White's view as a player reads it: "+1.25", "White wins in 7 plies",
// "Black wins by 6" (the game is over), "draw".
std::string white_text(const search::Score& s) {
  if (!s.proven) return stones(s.cp);
  if (s.result == 0) return "draw";
  std::string who = s.result > 0 ? "White wins" : "Black wins";
  if (s.has_margin) return who + " by " + std::to_string(s.margin < 0 ? -s.margin : s.margin);
  return who + " in " + std::to_string(s.plies) + " plies";
}

search::Score to_white(search::Score s, Side side) {
  if (side == Side::Black) s.cp = -s.cp, s.result = -s.result, s.margin = -s.margin;
  return s;
}

// The notation of `hole` played from `pos` ("65(10)", "27X").
std::string move_text(Position pos, int hole) {
  return format_move(pos.play(hole));
}

std::string plural(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// "White (name): 40 moves, average loss 0.85 stones, 2 inaccuracies, 1 mistake, 0 blunders".
std::string summary_line(const char* side, const std::string& name,
                         const search::PlayerSummary& p) {
  std::ostringstream o;
  o << side;
  if (!name.empty()) o << " (" << name << ")";
  o << ": " << plural(p.moves, "move", "moves") << ", average loss "
    << stones(int(p.average_loss_cp + 0.5)).substr(1) << " stones, "
    << plural(p.inaccuracies, "inaccuracy", "inaccuracies") << ", "
    << plural(p.mistakes, "mistake", "mistakes") << ", "
    << plural(p.blunders, "blunder", "blunders");
  return o.str();
}

}  // namespace

void add_annotate(CLI::App& app) {
  struct Args {
    std::string file;
    std::string out;
    int depth = 0;
    int time_ms = 0;
    uint64_t nodes = 0;
    int hash_mb = 16;
    bool tgk = false;
    bool strict = false;
    RuleFlags rules;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "annotate", "a game written back with the engine's evaluation and ?!/?/?? marks");
  cmd->add_option("game", args->file, "PGN or TGK file (- = standard input)")->required();
  auto* d = cmd->add_option("--depth", args->depth, "search depth per position")
                ->check(CLI::Range(1, 100));
  auto* t = cmd->add_option("--time", args->time_ms, "search time per position in ms (default 500)")
                ->check(CLI::PositiveNumber);
  auto* n = cmd->add_option("--nodes", args->nodes, "nodes per position (reproducible)")
                ->check(CLI::PositiveNumber);
  d->excludes(t)->excludes(n);
  t->excludes(n);
  cmd->add_option("--out", args->out, "write the annotated games here (default: standard output)");
  cmd->add_option("--hash", args->hash_mb, "hash table in MiB")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  cmd->add_flag("--tgk", args->tgk, "write TGK records instead of PlayOK PGN");
  cmd->add_flag("--strict", args->strict,
                "a last game cut off inside its moves (no result token, not over) is an error, not "
                "a warning");
  args->rules.add_to(cmd);
  cmd->callback([args] {
    const std::vector<Record> records = load_games("annotate", args->file).games;
    if (records.empty()) {
      std::cerr << "toguz annotate: " << args->file << ": no game found\n";
      throw CLI::RuntimeError(2);
    }
    search::Limits limits;
    std::string limit_text;
    if (args->depth)
      limits.depth = args->depth, limit_text = "depth " + std::to_string(args->depth);
    else if (args->nodes)
      limits.nodes = args->nodes, limit_text = std::to_string(args->nodes) + " nodes";
    else {
      limits.movetime_ms = args->time_ms ? args->time_ms : 500;
      limit_text = std::to_string(limits.movetime_ms) + " ms";
    }
    search::Options options;
    options.hash_mb = args->hash_mb;
    const bool show_progress = isatty(2);

    std::string text, summaries;
    for (size_t g = 0; g < records.size(); ++g) {
      const Record& r = records[g];
      Replayed replayed =
          replay_checked("annotate", args->file, r, args->rules.options(), args->strict);
      if (replayed.error) {
        std::cerr << "toguz annotate: " << args->file << ": " << describe(*replayed.error) << "\n";
        throw CLI::RuntimeError(1);
      }
      const Game& game = replayed.game;
      search::ReviewProgress progress;
      if (show_progress)
        progress = [g](int done, int total) {
          std::cerr << "\rgame " << g + 1 << ": " << done << "/" << total << " positions"
                    << std::flush;
        };
      const search::GameReview review = search::review_game(game, limits, options, progress);
      if (show_progress) std::cerr << "\n";

      std::vector<MoveNote> notes;
      for (const search::MoveReview& m : review.moves) {
        MoveNote note;
        note.mark = m.mark;
        note.comment = white_text(m.white);
        if (!m.mark.empty() && m.best_hole)
          note.comment += "; best " + move_text(game.position_at(m.ply - 1), m.best_hole) + " " +
                          white_text(to_white(m.best, m.side));
        notes.push_back(std::move(note));
      }
      auto tags = r.tags;
      tags.emplace_back("Annotator", "toguz " TOGUZ_VERSION ", " + limit_text + " per position");
      std::string one =
          write_record(game, tags, args->tgk ? RecordStyle::Tgk : RecordStyle::PlayOK, notes);
      const std::string white =
          summary_line("White", r.tag("White").value_or(""), review.players[0]);
      const std::string black =
          summary_line("Black", r.tag("Black").value_or(""), review.players[1]);
      summaries += white + "\n" + black + "\n";
      // The summary as a comment before the moves (after the tags' blank line).
      const size_t body = one.find("\n\n");
      const std::string comment = "{" + white + "}\n{" + black + "}\n";
      if (body != std::string::npos)
        one.insert(body + 2, comment);
      else
        one = comment + one;
      text += (g ? "\n" : "") + one;
    }
    if (args->out.empty()) {
      std::cout << text;
      return;
    }
    std::ofstream out(args->out, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) {
      std::cerr << "toguz annotate: cannot write " << args->out << "\n";
      throw CLI::RuntimeError(2);
    }
    std::cout << summaries;
  });
}

}  // namespace toguz::cli
