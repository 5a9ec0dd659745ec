#include "cli/commands.h"

namespace toguz::cli {

void add_play(CLI::App& app) { app.add_subcommand("play", "(not yet built)"); }

}  // namespace toguz::cli
