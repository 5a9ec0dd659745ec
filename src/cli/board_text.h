// The board drawn as text, as the players see it (docs/rules.md, `toguz show`).
#pragma once

#include <string>

#include "rules/position.h"

namespace toguz::cli {

// The board seen from `bottom`'s seat: that side's row at the bottom, holes 1..N left to right;
// the other row on top, N..1 left to right; the kaznas; tuz holes marked. Ends with a newline.
std::string draw_board(const Position& pos, Side bottom = Side::White);

}  // namespace toguz::cli
