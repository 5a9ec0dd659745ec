// toguz show [--position S] [--variant V] [--tuz on|off] [--seat white|black] [--svg FILE]
#include <fstream>
#include <iostream>

#include "cli/board_svg.h"
#include "cli/board_text.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "rules/notation.h"

namespace toguz::cli {

void add_show(CLI::App& app) {
  struct Args {
    std::string position;
    RuleFlags rules;
    std::string seat = "white";
    std::string svg;
  };
  auto args = std::make_shared<Args>();
  auto* cmd =
      app.add_subcommand("show", "draw a position as the players see it (text, or SVG with --svg)");
  cmd->add_option("--position", args->position, "position string (default: the variant's start)");
  args->rules.add_to(cmd);
  cmd->add_option("--seat", args->seat, "whose seat the board is seen from (bottom row)")
      ->check(CLI::IsMember({"white", "black"}));
  cmd->add_option("--svg", args->svg, "also write the diagram as SVG to FILE");
  cmd->callback([args] {
    const Position pos = args->rules.position_or_start(args->position, "show");
    const Side bottom = args->seat == "black" ? Side::Black : Side::White;
    std::cout << format_position(pos) << "\n" << draw_board(pos, bottom);
    if (!args->svg.empty()) {
      std::ofstream out(args->svg, std::ios::binary);
      out << draw_board_svg(pos, bottom);
      out.close();
      if (!out) {
        std::cerr << "toguz show: cannot write " << args->svg << "\n";
        throw CLI::RuntimeError(1);
      }
      std::cout << "SVG written to " << args->svg << "\n";
    }
  });
}

}  // namespace toguz::cli
