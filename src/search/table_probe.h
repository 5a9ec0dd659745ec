// Exact values the search may take from outside (the endgame tables and the exact solver of
// src/tables implement it; the search depends on nothing but this interface and the rules).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "rules/game.h"

namespace toguz::search {

// What an exact solver proved about a game's current position, for the side to move.
struct Proof {
  int result = 0;           // +1 win, 0 draw, -1 loss under the game's rules
  bool has_margin = false;  // the play-out margin (rules.md "Values") was proven too
  int margin = 0;
  std::vector<int> line;  // holes from the position to the end of the game, by best play
  uint64_t nodes = 0;
};

// The limits of one proof: 0 = none of that kind. `stop`, when set, abandons it.
struct ProofLimits {
  int time_ms = 0;
  uint64_t nodes = 0;
  int threads = 1;
  int hash_mb = 16;
  const std::atomic<bool>* stop = nullptr;
};

class TableProbe {
 public:
  virtual ~TableProbe() = default;
  // When the tables hold `pos`: true and *board_value = with best play to the natural end
  // (play-out), the side to move's share of the stones now on the board minus the opponent's.
  // The final margin is then the kazna difference plus it, and its sign the result (a tuz
  // exists in every position a table holds, so no repetition can intervene). Called from every
  // search thread at once: must be safe for concurrent calls.
  virtual bool probe(const Position& pos, int* board_value) const = 0;

  // The most stones on the board for which prove() is worth a try within a move's time
  // (0: it never proves anything).
  virtual int proof_reach() const { return 0; }
  // Proves the result of `game`'s current position (ongoing; its history counts for
  // repetitions) within `limits`: true and *out filled (a line that ends the game, its first
  // move keeping the result, and the margin's too when has_margin), false when a limit came
  // first. Called from one thread at a time.
  virtual bool prove(const Game& game, const ProofLimits& limits, Proof* out) const {
    (void)game, (void)limits, (void)out;
    return false;
  }
};

}  // namespace toguz::search
