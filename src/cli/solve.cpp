// toguz solve --position S [--time MS] [--json] [--tables DIR]: the exact result of a position
// and a principal line to the end of the game (src/tables/solver.h).
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "cli/options.h"
#include "rules/notation.h"
#include "tables/solver.h"
#include "tables/tablebase.h"

namespace toguz::cli {

void add_solve(CLI::App& app) {
  struct Args {
    std::string position;
    int64_t time_ms = 0;
    uint64_t max_nodes = 0;
    bool json = false;
    bool result_only = false;
    int threads = 1;
    int hash_log2 = 25;  // 512 MB: the table size decides which studies finish (docs/tables.md)
    std::string tables;
    RuleFlags rules;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("solve", "prove the result (and margin) of a position with a line to the end");
  cmd->add_option("--position", args->position, "position string (docs/rules.md)")->required();
  cmd->add_option("--time", args->time_ms, "time limit in ms (0 = none)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--nodes", args->max_nodes, "node limit (0 = none; deterministic, unlike --time)");
  cmd->add_flag("--json", args->json, "one JSON object: result, margin, line, nodes, time_ms");
  cmd->add_flag("--result-only", args->result_only, "prove the result only (no margin search)");
  cmd->add_option("--threads", args->threads,
                  "search threads over the shared table (node counts then vary)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--hash-log2", args->hash_log2, "transposition table: 2^N entries of 16 bytes")->check(CLI::Range(10, 30))->capture_default_str();
  cmd->add_option("--tables", args->tables, "folder of endgame tables to probe (toguz tables build)");
  args->rules.add_to(cmd);
  cmd->callback([args] {
    Position pos;
    try {
      pos = parse_position(args->position, args->rules.options());
    } catch (const ParseError& e) {
      std::cerr << "toguz solve: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
    std::unique_ptr<tables::Tablebase> tb;
    if (!args->tables.empty()) {
      int k = tables::largest_table_stones(args->tables);
      if (k == 0) {
        std::cerr << "toguz solve: no table files (tb9_k<K>_<ab>.bin) in " << args->tables << "\n";
        throw CLI::RuntimeError(2);
      }
      tb = std::make_unique<tables::Tablebase>(args->tables, k);
    }
    tables::SolveOptions opt;
    opt.time_ms = args->time_ms;
    opt.max_nodes = args->max_nodes;
    opt.tables = tb.get();
    opt.want_margin = !args->result_only;
    opt.hash_log2 = args->hash_log2;
    opt.threads = args->threads;
    tables::Solution s = tables::solve(pos, opt);
    if (!s.proven) {
      std::cerr << "toguz solve: not proven within " << args->time_ms << " ms / " << args->max_nodes
                << " nodes (" << s.nodes << " nodes)\n";
      throw CLI::RuntimeError(3);
    }
    const char* word = s.result > 0 ? "win" : s.result < 0 ? "loss" : "draw";
    if (args->json) {
      std::cout << "{\"result\":\"" << word << "\",\"margin\":";
      if (s.margin) std::cout << *s.margin; else std::cout << "null";
      std::cout << ",\"line\":[";
      for (size_t i = 0; i < s.line.size(); ++i) std::cout << (i ? "," : "") << s.line[i];
      std::cout << "],\"nodes\":" << s.nodes << ",\"time_ms\":" << s.time_ms << "}\n";
      return;
    }
    const char* side = side_name(pos.side_to_move());
    std::cout << side << " to move: " << word;
    if (s.margin) std::cout << " (margin " << (*s.margin > 0 ? "+" : "") << *s.margin << ")";
    else if (s.margin_needs_repetition) std::cout << " (margin not reported: a repetition decides it)";
    else if (s.margin_timed_out) std::cout << " (margin not proven in time)";
    std::cout << "\nline:";
    for (int h : s.line) std::cout << " " << h;
    std::cout << "\nnodes " << s.nodes;
    if (tb) std::cout << ", table hits " << s.table_hits;
    std::cout << ", time " << s.time_ms << " ms\n";
  });
}

}  // namespace toguz::cli
