#include "site/learn/puzzle_miner.h"

#include <fstream>
#include <memory>

#include "net/log.h"

namespace toguz::site {

PuzzleMiner::PuzzleMiner(engine_work::EngineWork& work, std::string file,
                         std::function<bool(const puzzles::Puzzle&)> add,
                         puzzles::MineOptions options, size_t max_waiting)
    : work_(work),
      file_(std::move(file)),
      add_(std::move(add)),
      options_(options),
      max_waiting_(max_waiting) {}

void PuzzleMiner::finished(const std::string& id, const Game& game, Tags tags) {
  // a puzzle needs a position past the skipped opening with a move after it
  if (game.ply_count() <= options_.skip_plies) return;
  if (waiting_.size() >= max_waiting_) {
    log(net::LogLevel::Warn, id,
        "puzzles: not mined, " + std::to_string(max_waiting_) +
            " finished games already wait for the miner");
    return;
  }
  waiting_.push_back({id, game, std::move(tags)});
  next();
}

void PuzzleMiner::next() {
  if (busy_ || waiting_.empty() || work_.stopping()) return;
  Waiting w = std::move(waiting_.front());
  waiting_.pop_front();
  puzzles::Source source;
  source.file = "site";
  source.tags = std::move(w.tags);
  source.tags.emplace_back("GameId", w.id);
  auto task = [game = std::move(w.game), source, options = options_](search::Engine&) {
    return puzzles::mine_game(game, source, options);
  };
  auto on_done = [this, id = w.id](std::vector<puzzles::Puzzle> found) {
    done(id, std::move(found));
  };
  busy_ = true;
  if (!work_.run<std::vector<puzzles::Puzzle>>(
          engine_work::Priority::Background, std::make_shared<engine_work::Job>(), task, on_done)) {
    busy_ = false;
    log(net::LogLevel::Warn, w.id, "puzzles: not mined, the engine's queue is full");
  }
}

void PuzzleMiner::done(const std::string& id, std::vector<puzzles::Puzzle> found) {
  busy_ = false;
  ++mined_;
  int added = 0;
  std::ofstream out;
  if (!file_.empty()) out.open(file_, std::ios::app | std::ios::binary);
  for (const puzzles::Puzzle& p : found) {
    if (!add_(p)) continue;
    ++added;
    if (out) out << puzzles::puzzle_json(p) << "\n" << std::flush;
  }
  added_ += added;
  if (!file_.empty() && !out) log(net::LogLevel::Error, id, "puzzles: cannot append to " + file_);
  if (added)
    log(net::LogLevel::Info, id, "puzzles: " + std::to_string(added) + " mined from the game");
  if (on_mined) on_mined(id, added);
  next();
}

}  // namespace toguz::site
