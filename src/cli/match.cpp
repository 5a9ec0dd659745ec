#include "cli/commands.h"

namespace toguz::cli {

void add_match(CLI::App& app) { app.add_subcommand("match", "(not yet built)"); }

}  // namespace toguz::cli
