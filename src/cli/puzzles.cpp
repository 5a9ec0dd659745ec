// toguz puzzles build RECORDS... -o FILE [--progress] [--depth D] [--margin M] ...: puzzles
// mined from game records into a JSON-lines file (docs/puzzles.md), resumable.
#include "puzzles/puzzles.h"

#include <chrono>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace toguz::cli {

namespace {

void add_check(CLI::App& top) {
  struct Args {
    std::string file;
    int depth = 14;
    double margin_stones = 5;
    uint64_t solver_nodes = 300000;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = top.add_subcommand(
      "check", "search each puzzle of a file again (deeper) and prove the proven ones again");
  cmd->add_option("file", args->file, "a puzzle file (toguz puzzles build)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--depth", args->depth, "depth of the search")
      ->check(CLI::Range(1, 40))
      ->capture_default_str();
  cmd->add_option("--margin", args->margin_stones,
                  "stones by which the solution must beat the second move")
      ->check(CLI::Range(0.5, 100.0))
      ->capture_default_str();
  cmd->add_option("--solver-nodes", args->solver_nodes, "node limit of each solver call")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->callback([args] {
    const int margin_cp = int(args->margin_stones * 100 + 0.5);
    std::ifstream in(args->file);
    std::string line, why;
    int n = 0, held = 0, proven = 0, reproven = 0, bad = 0;
    for (int number = 1; std::getline(in, line); ++number) {
      puzzles::Puzzle p;
      if (!puzzles::read_puzzle(line, &p, &why)) {
        std::cout << args->file << ": line " << number << ": " << why << "\n";
        ++bad;
        continue;
      }
      ++n;
      if (puzzles::recheck_puzzle(p, args->depth, margin_cp, &why))
        ++held;
      else
        std::cout << "line " << number << " (" << p.position << "): " << why << "\n";
      if (!p.proven) continue;
      ++proven;
      if (puzzles::reprove_puzzle(p, margin_cp, args->solver_nodes, &why))
        ++reproven;
      else
        std::cout << "line " << number << " (" << p.position << "): " << why << "\n";
    }
    std::cout << held << "/" << n << " hold at depth " << args->depth << "; " << reproven << "/"
              << proven << " proven again"
              << (bad ? "; lines not read: " + std::to_string(bad) : "") << "\n";
    if (held < n || reproven < proven || bad) throw CLI::RuntimeError(1);
  });
}

}  // namespace

void add_puzzles(CLI::App& app) {
  struct Args {
    std::vector<std::string> records;
    std::string out;
    bool progress = false;
    double margin_stones = 5;
    puzzles::MineOptions mine;
  };
  auto args = std::make_shared<Args>();
  auto* top = app.add_subcommand("puzzles", "puzzles mined from game records (docs/puzzles.md)");
  top->require_subcommand(1);
  auto* cmd = top->add_subcommand("build",
                                  "mine PGN/TGK records into a JSON-lines puzzle file (resumable)");
  cmd->add_option("records", args->records, "PGN or TGK record files")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", args->out,
                  "the puzzle file (JSON lines); FILE.state records the progress")
      ->required();
  cmd->add_flag("--progress", args->progress, "progress on standard error after every game");
  cmd->add_option("--depth", args->mine.depth, "depth of the multi-PV search that finds candidates")
      ->check(CLI::Range(1, 30))
      ->capture_default_str();
  cmd->add_option("--confirm-depth", args->mine.confirm_depth,
                  "depth of the confirming search (0 = depth + 2)")
      ->check(CLI::Range(0, 40))
      ->capture_default_str();
  cmd->add_option("--margin", args->margin_stones, "stones by which the best move beats the second")
      ->check(CLI::Range(0.5, 100.0))
      ->capture_default_str();
  cmd->add_option("--skip", args->mine.skip_plies, "opening plies not mined")
      ->check(CLI::Range(0, 400))
      ->capture_default_str();
  cmd->add_option("--max-line", args->mine.max_line, "longest solution line in plies")
      ->check(CLI::Range(1, 41))
      ->capture_default_str();
  cmd->add_option("--prove-stones", args->mine.prove_stones,
                  "board stones at or below which the solver proves")
      ->check(CLI::Range(0, 162))
      ->capture_default_str();
  cmd->add_option("--solver-nodes", args->mine.solver_nodes, "node limit of each solver call")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--hash", args->mine.hash_mb, "search hash table in MiB")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  add_check(*top);
  cmd->callback([args] {
    args->mine.margin_cp = int(args->margin_stones * 100 + 0.5);
    puzzles::BuildOptions options;
    options.mine = args->mine;
    const auto start = std::chrono::steady_clock::now();
    options.on_progress = [&](const puzzles::BuildProgress& p) {
      // Notes (bad games, resuming) always; the counts with --progress.
      if (!p.message.empty()) std::cerr << "toguz puzzles: " << p.message << "\n";
      if (args->progress) {
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cerr << "games " << p.games_done << "/" << p.games_total << ", puzzles " << p.puzzles
                  << ", duplicates " << p.duplicates << ", bad games " << p.bad_games << ", "
                  << int(s) << " s\n";
      }
    };
    try {
      const puzzles::BuildProgress p =
          puzzles::build_puzzle_file(args->records, args->out, options);
      std::cerr << "toguz puzzles: " << p.puzzles << " puzzles from " << p.games_total
                << " games in " << args->out
                << (p.bad_games ? " (bad games skipped: " + std::to_string(p.bad_games) + ")" : "")
                << "\n";
    } catch (const std::exception& e) {
      std::cerr << "toguz puzzles: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
  });
}

}  // namespace toguz::cli
