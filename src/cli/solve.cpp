// toguz solve: the exact result (and margin) of positions with a principal line to the end of
// the game (src/tables/solver.h); one position, or many from a file or stdin, one JSON line
// each; and the generator of the test sets (src/tables/endgames.h).
#include <boost/json.hpp>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "cli/options.h"
#include "rules/notation.h"
#include "tables/endgames.h"
#include "tables/solver.h"
#include "tables/tablebase.h"

namespace toguz::cli {

namespace {

const char* result_word(int r) {
  return r > 0 ? "win" : r < 0 ? "loss" : "draw";
}

// The JSON object of one solve, without the closing brace: result, margin, line, nodes, time.
void print_solution(const tables::Solution& s) {
  std::cout << "\"result\":";
  if (s.proven)
    std::cout << '"' << result_word(s.result) << '"';
  else
    std::cout << "null";
  std::cout << ",\"margin\":";
  if (s.margin)
    std::cout << *s.margin;
  else
    std::cout << "null";
  std::cout << ",\"line\":[";
  for (size_t i = 0; i < s.line.size(); ++i) std::cout << (i ? "," : "") << s.line[i];
  std::cout << "],\"nodes\":" << s.nodes << ",\"time_ms\":" << s.time_ms;
}

// The position of one input line: a position string, or a JSON object with a "position"
// member (so a set's own JSON lines can be read back). Throws ParseError.
Position line_position(const std::string& line, const RuleOptions& rules) {
  if (line[0] != '{') return parse_position(line, rules);
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(line, ec);
  const boost::json::string* s = nullptr;
  if (!ec && v.is_object())
    if (const auto* m = v.as_object().if_contains("position")) s = m->if_string();
  if (!s) throw ParseError("a JSON line needs a \"position\" string");
  return parse_position(std::string(*s), rules);
}

}  // namespace

void add_solve(CLI::App& app) {
  struct Args {
    std::string position;
    std::string positions;
    int generate = 0;
    uint64_t seed = 1;
    std::string stones = "12-18";
    bool plain = false;
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
  auto* cmd = app.add_subcommand(
      "solve", "prove the result (and margin) of a position with a line to the end");
  auto* one = cmd->add_option("--position", args->position, "position string (docs/rules.md)");
  auto* many = cmd->add_option("--positions", args->positions,
                               "file of positions, one a line (position strings or JSON lines with "
                               "a \"position\"; '#' lines skipped; - = stdin): one JSON line each");
  auto* gen = cmd->add_option("--generate", args->generate,
                              "print N test positions of the endgame recipe (docs/tables.md)")
                  ->check(CLI::PositiveNumber);
  one->excludes(many)->excludes(gen);
  many->excludes(gen);
  cmd->add_option("--seed", args->seed, "--generate: the seed of the first game")
      ->capture_default_str();
  cmd->add_option("--stones", args->stones, "--generate: stones on the board, MIN-MAX")
      ->capture_default_str();
  cmd->add_flag("--plain", args->plain,
                "--positions: the plain memoised minimax instead (tuz positions; a cross-check)");
  cmd->add_option("--time", args->time_ms, "time limit in ms per position (0 = none)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--nodes", args->max_nodes,
                  "node limit per position (0 = none; deterministic, unlike --time)");
  cmd->add_flag("--json", args->json, "one JSON object: result, margin, line, nodes, time_ms");
  cmd->add_flag("--result-only", args->result_only, "prove the result only (no margin search)");
  cmd->add_option("--threads", args->threads,
                  "search threads over the shared table (node counts then vary)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--hash-log2", args->hash_log2, "transposition table: 2^N entries of 16 bytes")
      ->check(CLI::Range(10, 30))
      ->capture_default_str();
  cmd->add_option("--tables", args->tables,
                  "folder of endgame tables to probe (toguz tables build)");
  args->rules.add_to(cmd);
  cmd->callback([args] {
    if (args->generate) {
      tables::EndgameRecipe r;
      char dash = 0;
      std::istringstream in(args->stones);
      if (!(in >> r.min_stones >> dash >> r.max_stones) || dash != '-' || !in.eof() ||
          r.min_stones < 1 || r.max_stones < r.min_stones) {
        std::cerr << "toguz solve: bad --stones '" << args->stones
                  << "': expected MIN-MAX, e.g. 12-18\n";
        throw CLI::RuntimeError(2);
      }
      r.seed = args->seed;
      r.count = args->generate;
      for (const Position& p : tables::random_endgames(r)) std::cout << format_position(p) << "\n";
      return;
    }
    if (args->position.empty() && args->positions.empty()) {
      std::cerr << "toguz solve: give --position, --positions or --generate\n";
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

    if (!args->positions.empty()) {
      std::ifstream file;
      if (args->positions != "-") {
        file.open(args->positions);
        if (!file) {
          std::cerr << "toguz solve: cannot read --positions " << args->positions << "\n";
          throw CLI::RuntimeError(2);
        }
      }
      std::istream& in = args->positions == "-" ? std::cin : file;
      std::string line;
      bool bad = false, unproven = false;
      for (int n = 1; std::getline(in, line); ++n) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        Position pos;
        try {
          pos = line_position(line, args->rules.options());
        } catch (const ParseError& e) {
          std::cerr << "toguz solve: " << args->positions << " line " << n << ": " << e.what()
                    << "\n";
          bad = true;
          continue;
        }
        std::cout << "{\"position\":\"" << format_position(pos) << "\",";
        if (args->plain) {
          auto t0 = std::chrono::steady_clock::now();
          std::optional<int> m = tables::plain_margin(pos);
          auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - t0)
                        .count();
          unproven |= !m;
          std::cout << "\"result\":";
          if (m)
            std::cout << '"' << result_word((*m > 0) - (*m < 0)) << "\",\"margin\":" << *m;
          else
            std::cout << "null,\"margin\":null";
          std::cout << ",\"time_ms\":" << ms << "}" << std::endl;
          continue;
        }
        std::clock_t c0 = std::clock();
        tables::Solution s = tables::solve(pos, opt);
        unproven |= !s.proven;
        print_solution(s);
        // The process CPU time too: wall time swings with the machine's load.
        std::cout << ",\"cpu_ms\":" << (std::clock() - c0) * 1000 / CLOCKS_PER_SEC << "}"
                  << std::endl;
      }
      if (bad) throw CLI::RuntimeError(2);
      if (unproven) throw CLI::RuntimeError(3);
      return;
    }

    Position pos;
    try {
      pos = parse_position(args->position, args->rules.options());
    } catch (const ParseError& e) {
      std::cerr << "toguz solve: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
    tables::Solution s = tables::solve(pos, opt);
    if (!s.proven) {
      std::cerr << "toguz solve: not proven within " << args->time_ms << " ms / " << args->max_nodes
                << " nodes (" << s.nodes << " nodes)\n";
      throw CLI::RuntimeError(3);
    }
    if (args->json) {
      std::cout << "{";
      print_solution(s);
      std::cout << "}\n";
      return;
    }
    const char* side = side_name(pos.side_to_move());
    std::cout << side << " to move: " << result_word(s.result);
    if (s.margin)
      std::cout << " (margin " << (*s.margin > 0 ? "+" : "") << *s.margin << ")";
    else if (s.margin_needs_repetition)
      std::cout << " (margin not reported: a repetition decides it)";
    else if (s.margin_timed_out)
      std::cout << " (margin not proven in time)";
    std::cout << "\nline:";
    for (int h : s.line) std::cout << " " << h;
    std::cout << "\nnodes " << s.nodes;
    if (tb) std::cout << ", table hits " << s.table_hits;
    std::cout << ", time " << s.time_ms << " ms\n";
  });
}

}  // namespace toguz::cli
