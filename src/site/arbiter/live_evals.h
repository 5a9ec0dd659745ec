// The engine's score of a broadcast board's delayed position (docs/tournaments.md
// "Broadcasts"): one small search per position (a fixed node budget, background priority on
// the worker pool, never on the IO thread), the answers remembered for the most recent
// positions so that every spectator's poll costs nothing. IO thread only: no locks.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "engine_work/engine_work.h"
#include "rules/game.h"

namespace toguz::site {

class LiveEvals {
 public:
  // Nodes of one search: a few milliseconds of one worker.
  static constexpr uint64_t kNodes = 20000;
  // Positions remembered (the oldest forgotten first).
  static constexpr size_t kCapacity = 4096;

  // The engine work the searches go to; null (the default) evaluates nothing.
  void set_engine(engine_work::EngineWork* work) { work_ = work; }

  // The score of `pos` ({"cp","white_cp","proven","table"}, score_json's) when searched
  // already; else none, and a search of it is started unless one runs or the pool refuses it.
  std::optional<boost::json::object> score(const Position& pos);

 private:
  void remember(const std::string& key, boost::json::object score);

  engine_work::EngineWork* work_ = nullptr;
  std::unordered_map<std::string, boost::json::object> answers_;  // position -> score
  std::deque<std::string> order_;                                 // answers_'s keys, oldest first
  std::set<std::string> searching_;
};

}  // namespace toguz::site
