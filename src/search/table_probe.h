// Exact values the search may take from outside (the endgame tables of src/tables implement
// it; the search depends on nothing but this interface and the rules).
#pragma once

#include "rules/position.h"

namespace toguz::search {

class TableProbe {
 public:
  virtual ~TableProbe() = default;
  // When the tables hold `pos`: true and *board_value = with best play to the natural end
  // (play-out), the side to move's share of the stones now on the board minus the opponent's.
  // The final margin is then the kazna difference plus it, and its sign the result (a tuz
  // exists in every position a table holds, so no repetition can intervene). Called from every
  // search thread at once: must be safe for concurrent calls.
  virtual bool probe(const Position& pos, int* board_value) const = 0;
};

}  // namespace toguz::search
