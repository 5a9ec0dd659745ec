#include "cli/commands.h"

namespace toguz::cli {

void add_show(CLI::App& app) { app.add_subcommand("show", "(not yet built)"); }

}  // namespace toguz::cli
