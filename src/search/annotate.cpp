#include "search/annotate.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace toguz::search {

namespace {

// A score as a number for comparing moves: proven results are +-kProvenCp (0 for a draw),
// heuristic ones clamped inside that.
int comparable_cp(const Score& s) {
  if (s.proven) return s.result * kProvenCp;
  return std::clamp(s.cp, -kProvenCp + 1, kProvenCp - 1);
}

Score negated(const Score& s) {
  Score n = s;
  n.cp = -s.cp;
  n.result = -s.result;
  n.margin = -s.margin;
  return n;
}

// One search of the engine's current position; with `cancel`, polled every few milliseconds
// and stopped as soon as it is set.
SearchResult search_once(Engine& engine, const Limits& limits, const std::atomic<bool>* cancel) {
  if (!cancel) return engine.search(limits);
  SearchResult out;
  engine.go(limits, nullptr, [&out](const SearchResult& r) { out = r; });
  while (engine.searching()) {
    if (cancel->load()) engine.stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // a poll, not a synchronisation
  }
  engine.wait();  // on_done has run once wait() returns
  return out;
}

}  // namespace

const char* mark_for_loss(int loss_cp) {
  if (loss_cp >= kBlunderCp) return "??";
  if (loss_cp >= kMistakeCp) return "?";
  if (loss_cp >= kInaccuracyCp) return "?!";
  return "";
}

GameReview review_game(const Game& game, const Limits& per_move, const Options& options,
                       const ReviewProgress& progress, const std::atomic<bool>* cancel) {
  Engine engine;
  return review_game(engine, game, per_move, options, progress, cancel);
}

GameReview review_game(Engine& engine, const Game& game, const Limits& per_move,
                       const Options& options, const ReviewProgress& progress,
                       const std::atomic<bool>* cancel) {
  GameReview review;
  Options o = options;
  o.multipv = 1;
  engine.set_options(o);
  engine.new_game();

  const int plies = game.ply_count();
  Game replay(game.start());
  // Searches position k (before ply k + 1) and returns its result.
  auto search_at = [&](int k) {
    (void)k;
    engine.set_position(replay);
    return search_once(engine, per_move, cancel);
  };

  SearchResult before = search_at(0);
  if (progress) progress(1, plies + 1);
  for (int k = 0; k < plies; ++k) {
    if (cancel && cancel->load()) {
      review.complete = false;
      break;
    }
    const MoveInfo& played = game.moves()[k];
    MoveReview m;
    m.ply = k + 1;
    m.hole = played.hole;
    m.side = replay.position().side_to_move();
    if (!before.lines.empty()) {
      m.best = before.lines[0].score;
      m.best_pv = before.lines[0].pv;
    }
    m.best_hole = before.best_move;
    replay.play(played.hole);
    SearchResult after = search_at(k + 1);
    if (cancel && cancel->load()) {
      review.complete = false;
      break;
    }
    if (progress) progress(k + 2, plies + 1);
    // `after` is from the opponent's view: the mover's value of the move is its negation.
    const Score mover_after = after.lines.empty() ? Score{} : negated(after.lines[0].score);
    m.white = m.side == Side::White ? mover_after : negated(mover_after);
    m.white_cp = comparable_cp(m.white);
    if (m.hole != m.best_hole)
      m.loss_cp = std::max(0, comparable_cp(m.best) - comparable_cp(mover_after));
    m.mark = mark_for_loss(m.loss_cp);
    review.moves.push_back(std::move(m));
    before = std::move(after);
  }

  for (const MoveReview& m : review.moves) {
    PlayerSummary& p = review.players[index(m.side)];
    ++p.moves;
    p.average_loss_cp += std::min(m.loss_cp, kBlunderCp);
    if (m.mark == "??")
      ++p.blunders;
    else if (m.mark == "?")
      ++p.mistakes;
    else if (m.mark == "?!")
      ++p.inaccuracies;
  }
  for (PlayerSummary& p : review.players)
    if (p.moves) p.average_loss_cp /= p.moves;
  return review;
}

}  // namespace toguz::search
