// toguz tables build|verify --stones K [--dir D] [--position S]: endgame tables
// (src/tables/tablebase.h), with a progress display on stderr.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "rules/notation.h"
#include "tables/tablebase.h"

namespace toguz::cli {

namespace {

struct TableArgs {
  int stones = 6;
  std::string dir = "tables";
  std::string position;
};

void add_common(CLI::App* cmd, TableArgs* a) {
  cmd->add_option("--stones", a->stones, "at most this many stones on the board (K)")
      ->required()
      ->check(CLI::Range(0, 40));
  cmd->add_option("--dir", a->dir, "folder of the table files")->capture_default_str();
  cmd->add_option("--position", a->position,
                  "only the tuz configurations this position needs (it must have a tuz)");
}

std::vector<tables::Config> configs_of(const TableArgs& a, const char* what) {
  if (a.position.empty()) return tables::all_configs();
  Position p;
  try {
    p = parse_position(a.position);
  } catch (const ParseError& e) {
    std::cerr << "toguz tables " << what << ": " << e.what() << "\n";
    throw CLI::RuntimeError(2);
  }
  if (p.n() != 9 || !p.any_tuz()) {
    std::cerr << "toguz tables " << what
              << ": --position: tables exist for the standard board with a tuz only\n";
    throw CLI::RuntimeError(2);
  }
  return tables::configs_for(p);
}

// Progress on stderr: one rewritten line on a terminal, a line per finished table otherwise.
auto progress_printer(const char* verb) {
  bool tty = isatty(2);
  auto t0 = std::chrono::steady_clock::now();
  return [tty, t0, verb](const tables::BuildProgress& p) {
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bool done = p.done == p.total;
    if (!tty && !done) return;
    std::fprintf(stderr, "%s[%d/%d] %s tuz %d/%d: %llu/%llu entries (%.1f%%), %.1f s%s",
                 tty ? "\r" : "", p.config_index + 1, p.config_count, verb, p.config.mine,
                 p.config.theirs, (unsigned long long)p.done, (unsigned long long)p.total,
                 p.total ? 100.0 * double(p.done) / double(p.total) : 100.0, secs,
                 done ? "\n" : "");
    std::fflush(stderr);
  };
}

}  // namespace

void add_tables(CLI::App& app) {
  auto* cmd = app.add_subcommand("tables", "endgame tables: build or verify");
  cmd->require_subcommand(1);
  auto build = std::make_shared<TableArgs>();
  auto* b = cmd->add_subcommand("build",
                                "build the tables for at most K stones (resumes a stopped build)");
  add_common(b, build.get());
  b->callback([build] {
    auto configs = configs_of(*build, "build");
    auto t0 = std::chrono::steady_clock::now();
    try {
      tables::Tablebase tb(build->dir, build->stones);
      tb.build(configs, progress_printer("building"));
    } catch (const std::exception& e) {
      std::cerr << "toguz tables build: " << e.what() << "\n";
      throw CLI::RuntimeError(1);
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "built tables for K=" << build->stones << " in " << build->dir << " (" << secs
              << " s)\n";
  });
  auto verify = std::make_shared<TableArgs>();
  auto* v = cmd->add_subcommand("verify", "check every entry against its children");
  add_common(v, verify.get());
  v->callback([verify] {
    auto configs = configs_of(*verify, "verify");
    uint64_t bad = 0;
    try {
      tables::Tablebase tb(verify->dir, verify->stones);
      bad = tb.verify(configs, progress_printer("verifying"));
    } catch (const std::exception& e) {
      std::cerr << "toguz tables verify: " << e.what() << "\n";
      throw CLI::RuntimeError(1);
    }
    if (bad) {
      std::cerr << "toguz tables verify: " << bad << " wrong or missing entries\n";
      throw CLI::RuntimeError(1);
    }
    std::cout << "all entries verified\n";
  });
}

}  // namespace toguz::cli
