#include "cli/commands.h"

namespace toguz::cli {

void add_replay(CLI::App& app) { app.add_subcommand("replay", "(not yet built)"); }

}  // namespace toguz::cli
