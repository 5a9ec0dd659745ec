#include "engine_work/endgame_tables.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "net/log.h"
#include "tables/probe.h"
#include "tables/tablebase.h"

namespace toguz::engine_work {

namespace {

// Thrown from the build's progress callback to stop it; the files stay consistent.
struct BuildStopped {};

bool all_complete(const tables::Tablebase& tb) {
  for (const tables::Config& c : tables::all_configs())
    if (!tb.complete(c)) return false;
  return true;
}

std::shared_ptr<const search::TableProbe> probe_of(const std::string& dir, int k) {
  return std::make_shared<tables::TablesProbe>(std::make_shared<tables::Tablebase>(dir, k));
}

}  // namespace

EndgameTables::EndgameTables(std::string dir, int stones, Install install)
    : dir_(std::move(dir)), install_(std::move(install)) {
  install_(std::make_shared<tables::TablesProbe>(nullptr));
  if (dir_.empty()) return;
  std::error_code ec;
  if (std::filesystem::exists(dir_, ec) && !std::filesystem::is_directory(dir_, ec))
    throw std::runtime_error("--tables " + dir_ + ": not a folder");
  const int k = std::max(stones, tables::largest_table_stones(dir_));
  {
    tables::Tablebase tb(dir_, k);
    if (all_complete(tb)) {
      install_(probe_of(dir_, k));
      log(net::LogLevel::Info, "",
          "endgame tables: " + dir_ + ", up to " + std::to_string(k) + " stones on the board");
      return;
    }
  }
  building_ = true;
  thread_ = std::thread([this, k] { build(k); });
}

EndgameTables::~EndgameTables() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void EndgameTables::build(int k) {
  const auto t0 = std::chrono::steady_clock::now();
  log(net::LogLevel::Info, "",
      "endgame tables: building the tables for up to " + std::to_string(k) + " stones in " + dir_ +
          " (the solver alone meanwhile)");
  int logged = -1;
  try {
    tables::Tablebase tb(dir_, k);
    tb.build(tables::all_configs(), [&](const tables::BuildProgress& p) {
      if (stop_) throw BuildStopped{};
      // one line per tenth of the configurations
      const int tenth = p.config_count ? (p.config_index + 1) * 10 / p.config_count : 10;
      if (p.done == p.total && tenth != logged) {
        logged = tenth;
        log(net::LogLevel::Info, "",
            "endgame tables: " + std::to_string(p.config_index + 1) + "/" +
                std::to_string(p.config_count) + " configurations built");
      }
    });
  } catch (const BuildStopped&) {
    log(net::LogLevel::Info, "", "endgame tables: build stopped; it resumes at the next start");
    building_ = false;
    return;
  } catch (const std::exception& e) {
    log(net::LogLevel::Error, "",
        std::string("endgame tables: ") + e.what() + " (the solver alone)");
    building_ = false;
    return;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  install_(probe_of(dir_, k));
  building_ = false;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", secs);
  log(net::LogLevel::Info, "",
      "endgame tables: built in " + std::string(buf) + " s; up to " + std::to_string(k) +
          " stones on the board");
}

}  // namespace toguz::engine_work
