// Game review: every move of a game judged by the engine. Used by
// `toguz annotate` and the web review; it never prints.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "rules/game.h"
#include "search/engine.h"

namespace toguz::search {

// Mark thresholds, in centi-stones lost by the mover compared with the engine's best move
// (docs/engine.md "Annotation"). A loss of at least kBlunderCp is "??", at least kMistakeCp
// "?", at least kInaccuracyCp "?!".
constexpr int kInaccuracyCp = 200;
constexpr int kMistakeCp = 500;
constexpr int kBlunderCp = 1000;
// Proven results count as this many centi-stones when losses are computed (a proven win
// thrown away into a proven loss costs 2 * kProvenCp), and a heuristic score is clamped to
// it; so a longer win instead of a shorter one costs nothing.
constexpr int kProvenCp = 10000;

// One reviewed move.
struct MoveReview {
  int ply = 0;              // 1-based ply in the game
  int hole = 0;             // the hole played, 1..N
  Side side = Side::White;  // who played it
  // The evaluation after the move, from White's point of view: `white.cp` in centi-stones,
  // or a proven result (`white.proven`, `white.result` +1 White wins / 0 / -1, plies).
  Score white;
  int white_cp = 0;          // white.cp clamped to +-kProvenCp (a proven result is +-kProvenCp / 0)
  int best_hole = 0;         // the engine's choice in the position before the move
  std::vector<int> best_pv;  // its line, starting with best_hole
  Score best;                // the best move's score, from the mover's point of view
  int loss_cp = 0;   // how much worse than best_hole for the mover (>= 0; 0 when played == best)
  std::string mark;  // "", "?!", "?" or "??"
};

// Per player (index 0 = White, 1 = Black).
struct PlayerSummary {
  int moves = 0;
  double average_loss_cp = 0;  // mean of loss_cp, each loss capped at kBlunderCp
  int inaccuracies = 0, mistakes = 0, blunders = 0;
};

struct GameReview {
  std::vector<MoveReview> moves;
  std::array<PlayerSummary, 2> players;
  bool complete = true;  // false when cancelled (then `moves` holds the moves reviewed so far)
};

// Called after each searched position: `done` of `total` searches (total = plies + 1).
using ReviewProgress = std::function<void(int done, int total)>;

// The mark for a loss: "", "?!", "?" or "??".
const char* mark_for_loss(int loss_cp);

// Reviews every move of `game` (from game.start(), with its history counting for repetition):
// each position is searched once with `per_move` (so plies + 1 searches; use a node or depth
// limit for a reproducible review), the move's loss is best(before) + value(after) from the
// mover's view. A fresh engine with `options` (multipv forced to 1) is used. `cancel`, when
// set, stops the review between searches and cuts the running search short.
// Before: per_move has some limit (not infinite).
GameReview review_game(const Game& game, const Limits& per_move, const Options& options,
                       const ReviewProgress& progress = nullptr,
                       const std::atomic<bool>* cancel = nullptr);
// The same with `engine` (its table cleared first with new_game, its options set to `options`
// with multipv 1): a caller that owns an engine, like a server's worker, reviews with it.
GameReview review_game(Engine& engine, const Game& game, const Limits& per_move,
                       const Options& options, const ReviewProgress& progress = nullptr,
                       const std::atomic<bool>* cancel = nullptr);

}  // namespace toguz::search
