// `toguz ugi`: the UGI protocol on stdin/stdout (see src/protocol/ugi.h).
#include "protocol/ugi.h"

#include <iostream>

#include "cli/commands.h"
#include "cli/tables_dir.h"
#include "tables/probe.h"

namespace toguz::cli {

void add_ugi(CLI::App& app) {
  auto* cmd = app.add_subcommand("ugi", "run the engine under the UGI protocol on stdin/stdout");
  cmd->callback([] {
    std::ios::sync_with_stdio(false);
    protocol::UgiSession session(std::cin, std::cout);
    // setoption name TablesDir value DIR: endgame tables for the search; no folder (the
    // default): the exact solver alone.
    session.set_tables_opener(
        [](const std::string& dir, std::string* why) -> std::shared_ptr<const search::TableProbe> {
          if (dir.empty()) return std::make_shared<tables::TablesProbe>(nullptr);
          auto tb = open_tables(dir, why);
          if (!tb) return nullptr;
          return std::make_shared<tables::TablesProbe>(tb);
        });
    session.run();
  });
}

}  // namespace toguz::cli
