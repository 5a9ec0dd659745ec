// toguz analyze --position S [--moves M...] [--depth D|--time MS|--nodes N] [--multipv K]
// [--threads T] [--json]: the K best lines of a position, through the Engine API.
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/game_input.h"
#include "cli/options.h"
#include "cli/tables_dir.h"
#include "protocol/analysis_json.h"
#include "rules/game.h"
#include "rules/notation.h"
#include "search/engine.h"
#include "tables/probe.h"
#include "tables/solver.h"

namespace toguz::cli {

namespace {

// The moves of `pv` in notation, played from `pos` (stops at an illegal hole, which the
// search never gives).
std::string pv_notation(Position pos, const std::vector<int>& pv) {
  std::string out;
  for (int hole : pv) {
    if (!(pos.legal_mask() >> (hole - 1) & 1u) || pos.outcome() != Outcome::Ongoing) break;
    const MoveInfo info = pos.play(hole);
    if (!out.empty()) out += ' ';
    out += format_move(info);
  }
  return out;
}

using protocol::result_word;

// The score as a player reads it: "+1.25" stones, or "win in 12 plies", "draw (proven)".
std::string score_text(const search::Score& s) {
  std::ostringstream o;
  if (s.proven) {
    o << result_word(s.result);
    if (s.has_margin) o << " by " << (s.margin < 0 ? -s.margin : s.margin);
    if (s.result != 0 && !s.has_margin) o << " in " << s.plies << " plies";
    if (s.result == 0) o << " (proven)";
    return o.str();
  }
  const int a = s.cp < 0 ? -s.cp : s.cp;
  o << (s.cp < 0 ? '-' : '+') << a / 100 << '.' << (a % 100 < 10 ? "0" : "") << a % 100;
  return o.str();
}

void print_json(const Game& game, const search::SearchResult& r, const search::Info& top) {
  std::cout << protocol::analysis_json(r, top, game.position()) << "\n";
}

void print_text(const Game& game, const search::SearchResult& r, const search::Info& top) {
  const Position& pos = game.position();
  const char* side = side_name(pos.side_to_move());
  if (r.best_move == 0) {
    std::cout << "Game over, " << side
              << " to move: " << (r.lines.empty() ? "?" : score_text(r.lines[0].score)) << "\n";
    return;
  }
  std::cout << side << " to move. Scores in stones for " << side << ".\n";
  for (size_t i = 0; i < r.lines.size(); ++i) {
    const search::Info& l = r.lines[i];
    std::cout << i + 1 << ". " << score_text(l.score) << "  depth " << l.depth << "  "
              << pv_notation(pos, l.pv) << "\n";
  }
  std::cout << "best move " << r.best_move << ", depth " << top.depth << "/" << top.seldepth
            << ", nodes " << r.nodes << ", time " << r.time_ms << " ms\n";
}

// The proof search's verdict for players: "White wins by 6", "draw".
std::string proof_text(const Position& pos, const tables::Solution& s) {
  if (s.result == 0) return s.margin ? "draw (81-81)" : "draw";
  const bool white = (s.result > 0) == (pos.side_to_move() == Side::White);
  std::string out = white ? "White wins" : "Black wins";
  if (s.margin) out += " by " + std::to_string(*s.margin < 0 ? -*s.margin : *s.margin);
  return out;
}

// The "proven" member of the JSON: result and margin (docs/rules.md "Values")
// for the side to move, the winner, the line to the end; null when not proven.
std::string proof_json(const Position& pos, const tables::Solution* s) {
  if (!s || !s->proven) return "null";
  const bool white_wins = s->result != 0 && (s->result > 0) == (pos.side_to_move() == Side::White);
  std::string out = std::string("{\"result\":\"") + result_word(s->result) + "\",\"winner\":" +
                    (s->result == 0 ? "null"
                     : white_wins   ? "\"white\""
                                    : "\"black\"") +
                    ",\"margin\":" + (s->margin ? std::to_string(*s->margin) : "null") +
                    ",\"line\":[";
  for (size_t i = 0; i < s->line.size(); ++i) out += (i ? "," : "") + std::to_string(s->line[i]);
  return out + "],\"nodes\":" + std::to_string(s->nodes) +
         ",\"time_ms\":" + std::to_string(s->time_ms) + "}";
}

}  // namespace

void add_analyze(CLI::App& app) {
  struct Args {
    std::string position;
    std::vector<std::string> moves;
    int depth = 0;
    int time_ms = 0;
    uint64_t nodes = 0;
    int multipv = 1;
    int threads = 1;
    int hash_mb = 16;
    bool json = false;
    std::string tables;
    int prove_ms = -1;  // -1: 1000 with --tables, else off
    RuleFlags rules;
  };
  auto args = std::make_shared<Args>();
  auto* cmd =
      app.add_subcommand("analyze", "the best lines of a position with scores (engine search)");
  cmd->add_option("--position", args->position,
                  "position string (docs/rules.md; default: the start)");
  cmd->add_option("--moves", args->moves,
                  "moves played from the position: holes or notation tokens");
  auto* d =
      cmd->add_option("--depth", args->depth, "search depth in plies")->check(CLI::Range(1, 100));
  auto* t =
      cmd->add_option("--time", args->time_ms, "search time in ms")->check(CLI::PositiveNumber);
  auto* n =
      cmd->add_option("--nodes", args->nodes, "search this many nodes")->check(CLI::PositiveNumber);
  d->excludes(t)->excludes(n);
  t->excludes(n);
  cmd->add_option("--multipv", args->multipv, "number of best lines")
      ->check(CLI::Range(1, 9))
      ->capture_default_str();
  cmd->add_option("--threads", args->threads, "search threads")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--hash", args->hash_mb, "hash table in MiB")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "one JSON object (docs/engine.md)");
  cmd->add_option(
      "--tables", args->tables,
      "endgame tables (toguz tables build): the search probes them and the proof search runs");
  cmd->add_option("--prove", args->prove_ms,
                  "proof search (toguz solve) time in ms, shown as 'proven' (default: 1000 with "
                  "--tables, else off)")
      ->check(CLI::NonNegativeNumber);
  args->rules.add_to(cmd);
  cmd->callback([args] {
    Game game(args->rules.position_or_start(args->position, "analyze"));
    play_moves(game, args->moves, "analyze");

    search::Limits limits;
    limits.depth = args->depth;
    limits.movetime_ms = args->time_ms;
    limits.nodes = args->nodes;
    if (!limits.depth && !limits.movetime_ms && !limits.nodes) limits.movetime_ms = 1000;

    // Tables for the engine's probes and the proof search.
    std::shared_ptr<tables::Tablebase> tb;
    if (!args->tables.empty()) {
      std::string why;
      tb = open_tables(args->tables, &why);
      if (!tb) {
        std::cerr << "toguz analyze: " << why << "\n";
        throw CLI::RuntimeError(2);
      }
    }

    search::Engine engine;
    search::Options opt;
    // The tables (when given) and the exact solver within its reach.
    opt.tables = std::make_shared<tables::TablesProbe>(tb);
    opt.multipv = args->multipv;
    opt.threads = args->threads;
    opt.hash_mb = args->hash_mb;
    engine.set_options(opt);
    engine.set_position(game);
    search::Info top;  // the last iteration's first line: depth and seldepth reached
    const search::SearchResult r = engine.search(limits, [&top](const search::Info& info) {
      if (info.multipv == 1) top = info;
    });
    if (!r.lines.empty() && top.depth == 0) top = r.lines[0];
    // The proof search (tables where they exist), with the game's history.
    const int prove_ms = args->prove_ms >= 0 ? args->prove_ms : tb ? 1000 : 0;
    std::optional<tables::Solution> proof;
    if (prove_ms > 0 && r.best_move != 0) {
      tables::SolveOptions so;
      so.time_ms = prove_ms;
      so.tables = tb.get();
      for (int i = 0; i < game.ply_count(); ++i) so.history.push_back(game.position_at(i).key());
      proof = tables::solve(game.position(), so);
    }
    if (args->json) {
      if (prove_ms <= 0) {
        print_json(game, r, top);
      } else {
        // The analysis object as print_json writes it, with "proven" added before its '}'.
        std::ostringstream captured;
        std::streambuf* saved = std::cout.rdbuf(captured.rdbuf());
        print_json(game, r, top);
        std::cout.rdbuf(saved);
        std::string j = captured.str();
        while (!j.empty() && j.back() != '}') j.pop_back();
        j.insert(j.size() - 1,
                 ",\"proven\":" + proof_json(game.position(), proof ? &*proof : nullptr));
        std::cout << j << "\n";
      }
    } else {
      print_text(game, r, top);
      if (proof && proof->proven)
        std::cout << "proven: " << proof_text(game.position(), *proof) << ": "
                  << pv_notation(game.position(), proof->line) << " (" << proof->nodes << " nodes, "
                  << proof->time_ms << " ms)\n";
      else if (proof)
        std::cout << "proven: not within " << prove_ms << " ms\n";
    }
  });
}

}  // namespace toguz::cli
