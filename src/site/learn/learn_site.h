// The learning pages on the site (docs/web-protocol.md "Learning"): the puzzles, studies and
// explorer of the learning service (learn_api.h), answered with the puzzle ratings the store
// holds for the viewer; a puzzle attempt, rated (docs/ratings.md "Puzzle ratings"); and every
// move's score of a position (engine_work/move_evals.h). Threading: the IO thread.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "engine_work/move_evals.h"
#include "engine_work/worker_pool.h"
#include "net/router.h"
#include "site/learn/learn_api.h"
#include "site/viewer.h"
#include "store/store.h"

namespace toguz::site {

// What the learning pages need of the rest of the site.
struct LearnServices {
  store::Store& store;
  LearnService* learn;  // null: no puzzles, studies or explorer served
  engine_work::MoveEvals& move_evals;
  const engine_work::WorkerPool& pool;  // for the "engine busy" refusal
  // Who sent a request (the session cookie's account, else anonymous).
  std::function<Viewer(const net::Request&)> viewer_of;
};

class LearnSite {
 public:
  explicit LearnSite(LearnServices services) : s_(std::move(services)) {}

  // GET /api/explorer/eval; with a learning service also POST /api/puzzles/<id>/attempt and
  // the service's answers, a route each (/api/puzzles..., /api/studies..., /api/explorer).
  void add_routes(net::Router& router);

  // POST /api/puzzles/<id>/attempt {"moves":[holes played],"hint":bool (optional)}: the moves
  // are judged against the puzzle's line (judge_attempt); an account's first attempt at a
  // puzzle the server picked for it rates both (others are answered unrated, with the reason).
  net::Response puzzle_attempt(const std::string& id, const std::string& body,
                               const Viewer& viewer);
  // GET /api/explorer/eval?position=P: every move's score, answered later.
  void explorer_eval(const std::string& query, net::Respond respond);

 private:
  LearnServices s_;
};

}  // namespace toguz::site
