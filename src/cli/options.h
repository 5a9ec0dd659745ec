// Shared option groups for subcommands: --variant, --tuz, --play-out.
#pragma once

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "rules/notation.h"

namespace toguz::cli {

struct RuleFlags {
  std::string variant;  // "" = from the position / record
  std::string tuz;      // "", "on", "off"
  bool play_out = false;

  void add_to(CLI::App* cmd) {
    cmd->add_option("--variant", variant, "standard, kozdatu or bestemshi")
        ->check(CLI::IsMember({"standard", "kozdatu", "bestemshi"}));
    cmd->add_option("--tuz", tuz, "tuz on or off (default: on for standard only)")
        ->check(CLI::IsMember({"on", "off"}));
    cmd->add_flag("--play-out", play_out, "play to the natural end (no stop above N*N)");
  }
  RuleOptions options() const {
    RuleOptions o;
    if (!variant.empty()) {
      Variant v;
      parse_variant(variant, &v);
      o.variant = v;
    }
    if (!tuz.empty()) o.tuz = tuz == "on";
    o.play_out = play_out;
    return o;
  }
  // The position given by --position, or the variant's start when `text` is empty. A bad
  // string prints "toguz <command>: bad --position: <field>: ..." and exits with status 2.
  Position position_or_start(const std::string& text, const char* command) const {
    try {
      RuleOptions opts = options();
      return text.empty() ? Position::start(opts.resolve()) : parse_position(text, opts);
    } catch (const ParseError& e) {
      std::cerr << "toguz " << command << ": bad --position: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
  }
};

}  // namespace toguz::cli
