#include "cli/commands.h"

namespace toguz::cli {

void add_ugi(CLI::App& app) { app.add_subcommand("ugi", "(not yet built)"); }

}  // namespace toguz::cli
