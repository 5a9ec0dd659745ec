// `toguz SUBCOMMAND ...`: dispatch only; each subcommand is in its own file.
#include <iostream>

#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"toguz: Toguz korgool / Togyz kumalak rules, engine and tools", "toguz"};
  app.set_version_flag("--version", std::string("toguz ") + TOGUZ_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);
  toguz::cli::add_perft(app);
  toguz::cli::add_replay(app);
  toguz::cli::add_show(app);
  toguz::cli::add_convert(app);
  toguz::cli::add_play(app);
  toguz::cli::add_ugi(app);
  toguz::cli::add_match(app);
  toguz::cli::add_bench(app);
  toguz::cli::add_solve(app);
  toguz::cli::add_tables(app);
  toguz::cli::add_analyze(app);
  toguz::cli::add_serve(app);
  toguz::cli::add_annotate(app);
  toguz::cli::add_selfplay(app);
  toguz::cli::add_tune(app);
  toguz::cli::add_tournament(app);
  toguz::cli::add_explorer(app);
  toguz::cli::add_puzzles(app);
  toguz::cli::add_worker(app);
  toguz::cli::add_bot(app);
  toguz::cli::add_admin(app);
  toguz::cli::add_ratings(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return 0;
}
