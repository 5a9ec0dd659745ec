// toguz perft DEPTH [--position S] [--variant V] [--tuz on|off] [--play-out] [--json]
#include "rules/perft.h"

#include <chrono>
#include <iostream>

#include "cli/commands.h"
#include "cli/options.h"
#include "rules/notation.h"

namespace toguz::cli {

void add_perft(CLI::App& app) {
  struct Args {
    int depth = 1;
    std::string position;
    RuleFlags rules;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd =
      app.add_subcommand("perft", "count the leaves of the legal-move tree (docs/rules.md)");
  cmd->add_option("DEPTH", args->depth, "plies")->required()->check(CLI::Range(0, kMaxPerftDepth));
  cmd->add_option("--position", args->position, "start from this position string");
  args->rules.add_to(cmd);
  cmd->add_flag("--json", args->json, "one JSON object: depth, nodes, divide");
  cmd->callback([args] {
    const Position pos = args->rules.position_or_start(args->position, "perft");
    auto t0 = std::chrono::steady_clock::now();
    auto divide = perft_divide(pos, args->depth);
    uint64_t total = 0;
    for (auto& [hole, n] : divide) total += n;
    if (divide.empty()) total = perft(pos, args->depth);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (args->json) {
      std::cout << "{\"depth\":" << args->depth << ",\"nodes\":" << total << ",\"divide\":{";
      bool first = true;
      for (auto& [hole, n] : divide) {
        std::cout << (first ? "" : ",") << "\"" << hole << "\":" << n;
        first = false;
      }
      std::cout << "}}\n";
    } else {
      for (auto& [hole, n] : divide) std::cout << hole << ": " << n << "\n";
      std::cout << "total " << total << "\n";
      std::cerr << "time " << secs << " s, " << (secs > 0 ? total / secs / 1e6 : 0)
                << " M leaves/s\n";
    }
  });
}

}  // namespace toguz::cli
