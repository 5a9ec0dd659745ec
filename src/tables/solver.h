// The exact solver: proves the result of a position (win/draw/loss for the side to move under
// the position's own rules) and, where it can, the exact play-out margin of rules.md "Values",
// with a principal line to the end of the game. Depends on the rules only (and on the endgame
// tables of this folder, which it probes when given them). Never prints.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "rules/position.h"

namespace toguz::tables {

class Tablebase;

struct SolveOptions {
  int64_t time_ms = 0;     // wall-clock limit for the whole solve; 0 = none
  uint64_t max_nodes = 0;  // node limit for the whole solve (checked every 4096); 0 = none
  // Keys (Position::key) of the positions that occurred before the root in the game, oldest
  // first. A position on the search path equal to one of them, or to an earlier position on
  // the path, is scored as a draw by repetition.
  std::vector<uint64_t> history;
  const Tablebase* tables = nullptr;  // probed for positions they hold (with a tuz); may be null
  bool want_margin = true;            // also prove the play-out margin (a second search)
  int hash_log2 = 23;                 // transposition table: 2^hash_log2 entries of 16 bytes
  const std::atomic<bool>* stop = nullptr;  // set from another thread to abandon the solve
  // Threads searching the same root over the shared table (Lazy SMP); with more than one the
  // node counts (and which proven line is printed) are no longer deterministic.
  int threads = 1;
};

struct Solution {
  bool proven = false;  // false: the limit (time or stop) was hit before the result was proven
  int result = 0;       // when proven: +1 win, 0 draw, -1 loss for the side to move
  // The play-out margin (final total minus the opponent's) when it was proven without relying
  // on a repetition draw; empty otherwise (no time left, or a repetition decides it).
  std::optional<int> margin;
  bool margin_timed_out = false;         // the margin search hit the limit
  bool margin_needs_repetition = false;  // the margin search's value relied on a repetition
  // Holes played from the root to the end of the game under the root's rules, by best play
  // for the proven result (and for the margin when it is known). Replayed with a Game that
  // holds the same history, it ends the game with `result` (a repetition draw is completed
  // to its third occurrence when the cycle lies on the line).
  std::vector<int> line;
  bool line_cut = false;    // the limit was hit while walking the line: `line` is empty
  uint64_t nodes = 0;       // positions visited by both searches and the line walks
  uint64_t table_hits = 0;  // positions answered by the tables
  int64_t time_ms = 0;
};

// Solves `root` (ongoing or not). Before: root is consistent. After: when proven, `result` is
// the game-theoretic result under root.rules() with repetition = draw; `line` ends the game.
Solution solve(const Position& root, const SolveOptions& options = {});

// The same position under other rules (e.g. play_out switched on); same kaznas, side, tuzes.
Position with_rules(const Position& pos, const Rules& rules);

}  // namespace toguz::tables
