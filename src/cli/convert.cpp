#include "cli/commands.h"

namespace toguz::cli {

void add_convert(CLI::App& app) { app.add_subcommand("convert", "(not yet built)"); }

}  // namespace toguz::cli
