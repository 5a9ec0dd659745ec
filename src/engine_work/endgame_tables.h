// The exact endgame of `toguz serve` (docs/server.md "Endgame tables"): every engine search of
// the server (engine moves, analysis, hints, reviews, the explorer's column) gets the exact
// solver for positions within its reach and, with --tables DIR, the endgame tables of DIR.
// Tables missing or unfinished in DIR are built at start on a thread of their own, with their
// progress in the log, while the searches use the solver alone; once built they are installed
// for the searches that start after. A stopped build resumes at the next start.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "search/table_probe.h"

namespace toguz::engine_work {

class EndgameTables {
 public:
  using Install = std::function<void(std::shared_ptr<const search::TableProbe>)>;
  // `install` is called with the solver alone at once, then (from the build thread, when
  // tables had to be built) with the tables of `dir` for at most max(stones, the largest K
  // already there) stones. `dir` "" = the solver alone. Throws std::runtime_error when `dir`
  // exists but is not a folder.
  EndgameTables(std::string dir, int stones, Install install);
  ~EndgameTables();  // stops a build still running (it resumes at the next start) and joins
  EndgameTables(const EndgameTables&) = delete;
  EndgameTables& operator=(const EndgameTables&) = delete;

  bool building() const { return building_.load(); }

 private:
  void build(int k);
  std::string dir_;
  Install install_;
  std::atomic<bool> stop_{false}, building_{false};
  std::thread thread_;
};

}  // namespace toguz::engine_work
