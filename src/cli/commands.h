// Each subcommand lives in its own file and registers itself on the app here.
// A registration adds the subcommand, its options and a callback that runs it; the callback
// throws CLI::RuntimeError(code) to exit with a non-zero status.
#pragma once

#include <CLI/CLI.hpp>

namespace toguz::cli {

void add_perft(CLI::App& app);
void add_replay(CLI::App& app);
void add_show(CLI::App& app);
void add_convert(CLI::App& app);
void add_play(CLI::App& app);
void add_ugi(CLI::App& app);
void add_match(CLI::App& app);
void add_bench(CLI::App& app);
void add_solve(CLI::App& app);
void add_tables(CLI::App& app);
void add_analyze(CLI::App& app);
void add_serve(CLI::App& app);
void add_annotate(CLI::App& app);
void add_selfplay(CLI::App& app);
void add_tune(CLI::App& app);
void add_tournament(CLI::App& app);
void add_tournament_team(CLI::App& tournament);  // toguz tournament team (tournament_team.cpp)
void add_explorer(CLI::App& app);
void add_puzzles(CLI::App& app);
void add_worker(CLI::App& app);
void add_bot(CLI::App& app);
void add_admin(CLI::App& app);
void add_admin_drain(CLI::App& admin);  // toguz admin drain (admin_drain.cpp)
void add_ratings(CLI::App& app);

}  // namespace toguz::cli
