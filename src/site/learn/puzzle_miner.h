// The site's own finished games mined for puzzles in the background (docs/puzzles.md "On the
// site"): one game at a time on the worker pool (background priority), a bounded queue of games
// waiting (more are dropped, with a line in the log), each new puzzle added to the served set
// and appended to a JSON-lines file (the shape of `toguz puzzles build`) that the server reads
// back at its next start. The IO thread only calls it.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "engine_work/engine_work.h"
#include "puzzles/puzzles.h"
#include "rules/game.h"

namespace toguz::site {

class PuzzleMiner {
 public:
  using Tags = std::vector<std::pair<std::string, std::string>>;
  // `add` puts a puzzle in the served set (false: a duplicate); `file` ("" = not kept) gets
  // each one added. At most `max_waiting` games wait for the miner.
  PuzzleMiner(engine_work::EngineWork& work, std::string file,
              std::function<bool(const puzzles::Puzzle&)> add, puzzles::MineOptions options = {},
              size_t max_waiting = 16);

  // A game that just ended on the site (`id` its room, `tags` its record's): queued when it is
  // long enough to hold a puzzle, dropped when the queue is full.
  void finished(const std::string& id, const Game& game, Tags tags);

  // Called on the IO thread after each game is mined (for tests and the log): the game's id
  // and the puzzles it added.
  std::function<void(const std::string&, int)> on_mined;

  int games_mined() const { return mined_; }
  int puzzles_added() const { return added_; }

 private:
  struct Waiting {
    std::string id;
    Game game;
    Tags tags;
  };
  void next();
  void done(const std::string& id, std::vector<puzzles::Puzzle> found);

  engine_work::EngineWork& work_;
  std::string file_;
  std::function<bool(const puzzles::Puzzle&)> add_;
  puzzles::MineOptions options_;
  size_t max_waiting_;
  std::deque<Waiting> waiting_;
  bool busy_ = false;  // a game is being mined
  int mined_ = 0, added_ = 0;
};

}  // namespace toguz::site
