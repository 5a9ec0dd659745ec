// The engine's score of every legal move of a position, for the opening explorer
// (GET /api/explorer/eval, docs/web-protocol.md): one multi-PV search over all the legal moves
// to a fixed depth on the worker pool (background priority, never on the IO thread), the
// answer remembered for the most recent positions so that browsing back and forth searches each
// position once (until the endgame tables change: built at start, they replace the solver
// alone). IO thread only: no locks.
#pragma once

#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine_work/engine_work.h"
#include "rules/game.h"

namespace toguz::engine_work {

class MoveEvals {
 public:
  // `depth`: of each search; `capacity`: positions remembered (the oldest forgotten first).
  MoveEvals(EngineWork& work, int depth, size_t capacity)
      : work_(work), depth_(depth), capacity_(capacity) {}

  // Calls done(body) with the answer {"position","depth","moves":[{"hole","move","after",
  // "score","pv_notation"}...]} (best first for the side to move): at once when remembered, else on
  // the IO thread after the search (a request for a position already being searched waits for that
  // search). False when the pool refused the search (its queue is full): done is not called.
  bool evaluate(const Position& pos, std::function<void(const std::string&)> done);

  size_t remembered() const { return answers_.size(); }

 private:
  void remember(const std::string& key, std::string body);

  EngineWork& work_;
  int depth_;
  size_t capacity_;
  std::unordered_map<std::string, std::string> answers_;  // position -> body
  std::deque<std::string> order_;                         // the keys of answers_, oldest first
  const search::TableProbe* searched_with_ = nullptr;     // the exact endgame of answers_
  std::unordered_map<std::string, std::vector<std::function<void(const std::string&)>>> waiting_;
};

// The answer's body for `pos` from a search over all its moves (exposed for tests).
std::string move_evals_json(const Position& pos, int depth, const search::SearchResult& r);

}  // namespace toguz::engine_work
