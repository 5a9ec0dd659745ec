// The board as text, seen from one player's seat. Plain ASCII so it lines up in any terminal.
//
//        9     8     7     6     5     4     3     2     1
//     +-----+-----+-----+-----+-----+-----+-----+-----+-----+
//     |  10 |  10 |  10 |  10 |   X |   9 |   9 |   9 |   9 |  Black  kazna  10
//     +-----+-----+-----+-----+-----+-----+-----+-----+-----+
//     |   9 |   9 |   9 |   9 |   9 |   1 |  10 |  10 |  10 |  White  kazna   3  <- to move
//     +-----+-----+-----+-----+-----+-----+-----+-----+-----+
//        1     2     3     4     5     6     7     8     9
//     X = tuz: White owns Black's 5
#include "cli/board_text.h"

#include <cstdio>

namespace toguz::cli {

namespace {

// `v` right-aligned in `width` columns.
std::string pad(int v, int width) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%*d", width, v);
  return buf;
}

// "+-----+-----+ ... +" for n holes.
std::string border(int n) {
  std::string out = "  ";
  for (int i = 0; i < n; ++i) out += "+-----";
  return out + "+\n";
}

// Hole numbers under/over the cells, right-aligned with the counts; `left_to_right` is 1..n.
std::string labels(int n, bool left_to_right) {
  std::string out = "  ";
  for (int i = 0; i < n; ++i) out += pad(left_to_right ? i + 1 : n - i, 5) + " ";
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out + "\n";
}

// One row of cells for `side`, drawn 1..n or n..1, then the side's name, kazna and the
// "to move" marker. A hole that is the opponent's tuz shows "X" instead of its (empty) count.
std::string row(const Position& pos, Side side, bool left_to_right, bool live) {
  const int n = pos.n();
  const int tuz_here = pos.tuz(opposite(side));
  std::string out = "  ";
  for (int i = 0; i < n; ++i) {
    const int hole = left_to_right ? i + 1 : n - i;
    if (hole == tuz_here)
      out += "|  X  ";
    else
      out += "| " + pad(pos.stones(side, hole), 3) + " ";
  }
  out += std::string("|  ") + side_name(side) + "  kazna " + pad(pos.kazna(side), 3);
  if (live && pos.side_to_move() == side) out += "  <- to move";
  return out + "\n";
}

}  // namespace

std::string draw_board(const Position& pos, Side bottom) {
  const int n = pos.n();
  const Side top = opposite(bottom);
  const Outcome end = pos.outcome();
  const bool live = end == Outcome::Ongoing;
  std::string out;
  out += labels(n, false);
  out += border(n);
  out += row(pos, top, false, live);
  out += border(n);
  out += row(pos, bottom, true, live);
  out += border(n);
  out += labels(n, true);
  if (pos.any_tuz()) {
    std::string owners;
    for (Side owner : {Side::White, Side::Black}) {
      if (!pos.tuz(owner)) continue;
      if (!owners.empty()) owners += ", ";
      owners += std::string(side_name(owner)) + " owns " + side_name(opposite(owner)) + "'s " +
                std::to_string(pos.tuz(owner));
    }
    out += "  X = tuz: " + owners + "\n";
  }
  if (end == Outcome::Decided)
    out += "  Game over: a kazna holds more than " + std::to_string(n * n) + "\n";
  else if (end == Outcome::NoMove)
    out += std::string("  Game over: ") + side_name(pos.side_to_move()) + " has no move\n";
  return out;
}

}  // namespace toguz::cli
