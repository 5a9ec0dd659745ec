// `toguz ugi`: the UGI protocol on stdin/stdout (see src/protocol/ugi.h).
#include <iostream>

#include "cli/commands.h"
#include "protocol/ugi.h"

namespace toguz::cli {

void add_ugi(CLI::App& app) {
  auto* cmd = app.add_subcommand("ugi", "run the engine under the UGI protocol on stdin/stdout");
  cmd->callback([] {
    std::ios::sync_with_stdio(false);
    protocol::UgiSession session(std::cin, std::cout);
    session.run();
  });
}

}  // namespace toguz::cli
