// toguz selfplay --games N --nodes K --out FILE [--concurrency C] [--seed S] [--random-plies P]
// [--variant V] [--tuz on|off] [--play-out] [--resume]: engine-vs-itself games, every searched
// position with its score and the final result (docs/selfplay-format.md).
#include "search/selfplay.h"

#include <unistd.h>

#include <iostream>

#include "cli/commands.h"
#include "cli/options.h"

namespace toguz::cli {

void add_selfplay(CLI::App& app) {
  struct Args {
    search::SelfplaySettings st;
    std::string out;
    RuleFlags rules;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "selfplay", "engine self-play positions with scores and results (training data)");
  cmd->add_option("--games", args->st.games, "games to play")
      ->required()
      ->check(CLI::Range(1, 100000000));
  cmd->add_option("--nodes", args->st.nodes, "nodes per move")
      ->required()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--out", args->out, "the data file to write")->required();
  cmd->add_option("--concurrency", args->st.concurrency, "games played at once")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--seed", args->st.seed, "seed of the random openings")->capture_default_str();
  cmd->add_option("--random-plies", args->st.random_plies,
                  "random plies before the engine plays (not stored)")
      ->check(CLI::Range(0, 200))
      ->capture_default_str();
  cmd->add_option("--hash", args->st.hash_mb, "hash table in MiB per game")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  cmd->add_option_function<std::string>(
         "--eval",
         [args](const std::string& name) {
           if (!search::parse_eval_kind(name, &args->st.eval))
             throw CLI::ValidationError("--eval", "expected classic or nnue, not '" + name + "'");
         },
         "the evaluation the games are played with: classic or nnue (the default)")
      ->type_name("KIND");
  cmd->add_flag("--resume", args->st.resume,
                "continue an interrupted run: keep the games already in --out, play the rest");
  args->rules.add_to(cmd);
  cmd->callback([args] {
    args->st.rules = args->rules.options().resolve();
    const bool tty = isatty(2);
    try {
      const uint64_t n =
          search::run_selfplay(args->st, args->out, [&](int games, uint64_t positions) {
            if (tty)
              std::cerr << "\r" << games << "/" << args->st.games << " games, " << positions
                        << " positions" << std::flush;
          });
      if (tty) std::cerr << "\n";
      std::cout << "Games: " << args->st.games << "\nPositions: " << n << "\n";
    } catch (const std::exception& e) {
      std::cerr << "toguz selfplay: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
  });
}

}  // namespace toguz::cli
