// The board as an SVG diagram for trainers and books (`toguz show --svg`).
#pragma once

#include <string>

#include "rules/position.h"

namespace toguz::cli {

// A standalone SVG document of the board seen from `bottom`'s seat, laid out like
// draw_board(): that side's row at the bottom (holes 1..N left to right), the other row on top
// (N..1), hole numbers outside the rows, the two kaznas with their totals between the rows,
// tuz holes marked, and whose move it is. Holes with few stones also show them as dots.
// Deterministic: the same position gives the same bytes.
std::string draw_board_svg(const Position& pos, Side bottom = Side::White);

}  // namespace toguz::cli
