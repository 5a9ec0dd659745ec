// Internal search values: centi-stones for heuristic scores, and a band of "proven" values
// for finished games (mate-like: a win in p plies is kWin - p). Also the conversion to the
// public Score of types.h.
#pragma once

#include "rules/position.h"
#include "search/types.h"

namespace toguz::search {

constexpr int kMaxDepth = 100;  // iterative deepening stops here when nothing else limits it
constexpr int kMaxPly = 128;    // longest path from the root the search can hold
constexpr int kInfinite = 32000;
constexpr int kWin = 31000;                // a win at the root itself
constexpr int kWinBound = kWin - kMaxPly;  // |v| >= kWinBound: a proven win or loss
constexpr int kDraw = 0;

constexpr bool is_proven_value(int v) {
  return v >= kWinBound || v <= -kWinBound;
}

// An endgame-table win by m stones is kTablesWin + m, a loss -(kTablesWin + m): above every
// heuristic value (|evaluate| < 20000), below the proven band (the tables know no distance).
constexpr int kTablesWin = 20000;
constexpr bool is_table_value(int v) {
  return !is_proven_value(v) && (v > kTablesWin || v < -kTablesWin);
}

// Proven values are stored in the hash table relative to the node, not the root.
constexpr int value_to_tt(int v, int ply) {
  return v >= kWinBound ? v + ply : v <= -kWinBound ? v - ply : v;
}
constexpr int value_from_tt(int v, int ply) {
  return v >= kWinBound ? v - ply : v <= -kWinBound ? v + ply : v;
}

// The value of a finished position (outcome != Ongoing) for the side to move, `ply` plies
// from the root: a win/loss is +-(kWin - ply), equal totals are a draw.
inline int terminal_value(const Position& pos, Outcome how, int ply) {
  const auto score = pos.final_score(how);
  const int me = index(pos.side_to_move());
  const int diff = score[me] - score[1 - me];
  return diff > 0 ? kWin - ply : diff < 0 ? -(kWin - ply) : kDraw;
}

// The public Score of an internal root value. `proven_draw` says a 0 was proven (the search
// below it met only finished games); proven wins and losses are recognised by their value.
// Heuristic values are reported as cp; proven ones carry result and plies, and cp keeps the
// internal scale (+-(kWin - plies)), so comparing cp still orders every score correctly.
// `line_plies` (the line's length) is the plies of a proven draw and of a table result.
inline Score make_score(int v, bool proven_draw, int line_plies) {
  Score s;
  s.cp = v;
  if (v >= kWinBound) {
    s.proven = true, s.result = 1, s.plies = kWin - v;
  } else if (v <= -kWinBound) {
    s.proven = true, s.result = -1, s.plies = kWin + v;
  } else if (proven_draw && v == kDraw) {
    s.proven = true, s.result = 0, s.plies = line_plies;
  } else if (is_table_value(v)) {
    s.table = true, s.result = v > 0 ? 1 : -1, s.plies = line_plies;
  }
  return s;
}

}  // namespace toguz::search
