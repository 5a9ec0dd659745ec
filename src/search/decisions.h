// What the engine answers when a front end (the web server, a UGI GUI) asks whether it
// resigns or accepts a draw offer. Both read a finished search's result only: they claim
// nothing the search has not proven, so the engine never resigns a game it could still save
// and never accepts a draw in a position it can still win.
#pragma once

#include "search/types.h"

namespace toguz::search {

// The rule: the engine resigns exactly when the search proved a loss for the side to move
// (every move loses against best play: lines[0].score.proven with result -1). A game that is
// already over (best_move 0) or a result without lines is never resigned: there is nothing
// left to give up. A merely bad heuristic score (however low) is not a reason to resign.
inline bool should_resign(const SearchResult& r) {
  if (r.best_move == 0 || r.lines.empty()) return false;
  const Score& s = r.lines.front().score;
  return s.proven && s.result < 0;
}

// The rule: the engine accepts a draw offer exactly when the search proved that it cannot
// win: a proven draw (result 0) or a proven loss (result -1; a draw is then better than
// playing on). It declines in every unproven position, however drawish or bad the heuristic
// score, and in a proven win. A game that is already over (best_move 0) accepts nothing.
inline bool accepts_draw(const SearchResult& r) {
  if (r.best_move == 0 || r.lines.empty()) return false;
  const Score& s = r.lines.front().score;
  return s.proven && s.result <= 0;
}

}  // namespace toguz::search
