// The board as an SVG diagram. Layout (seen from `bottom`'s seat), top to bottom:
//   hole numbers N..1 / the top row of cells / the two kaznas / the bottom row 1..N / numbers,
//   then a caption (whose move it is, or that the game is over). Player names sit right of
//   their rows; a triangle left of a row marks the side to move.
#include "cli/board_svg.h"

#include <cstdarg>
#include <cstdio>

namespace toguz::cli {

namespace {

// printf into a std::string (the SVG is small; clarity over speed).
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

// Geometry, in SVG user units.
constexpr int kCellW = 60, kCellH = 84, kPitch = 68;  // cells and their spacing
constexpr int kLeft = 44;                             // x of the first cell
constexpr int kTopRowY = 44, kBandY = 140, kPillH = 28, kBottomRowY = 220;
constexpr int kNameW = 96;    // room for the names right of the rows
constexpr int kMaxDots = 15;  // counts up to this also show dots

// The fill colours: board, cell, tuz cell, stones.
constexpr const char* kBoardFill = "#e6cfa3";
constexpr const char* kBoardStroke = "#8a6a3a";
constexpr const char* kCellFill = "#fbf5e6";
constexpr const char* kTuzFill = "#8e3b2f";
constexpr const char* kStone = "#4a3b2c";
constexpr const char* kFont = "font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\"";

// One hole: a rounded cell with its count, dots for a few stones, or the tuz mark.
std::string cell(int x, int y, int count, bool tuz, Side owner_of_tuz) {
  std::string out = format(
      "  <rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"12\" fill=\"%s\" stroke=\"%s\" "
      "stroke-width=\"1.5\"/>\n",
      x, y, kCellW, kCellH, tuz ? kTuzFill : kCellFill, kBoardStroke);
  if (tuz) {
    out += format(
        "  <text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"34\" font-weight=\"bold\" "
        "fill=\"#ffffff\" %s>X</text>\n",
        x + kCellW / 2, y + 50, kFont);
    out += format(
        "  <text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\" fill=\"#ffffff\" "
        "%s>%s's tuz</text>\n",
        x + kCellW / 2, y + 72, kFont, side_name(owner_of_tuz));
    return out;
  }
  out += format(
      "  <text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"22\" font-weight=\"bold\" "
      "fill=\"%s\" %s>%d</text>\n",
      x + kCellW / 2, y + 28, count ? "#2b2118" : "#b5a68c", kFont, count);
  if (count > 0 && count <= kMaxDots) {
    // Rows of five, each row centred, from y+44 down.
    for (int i = 0; i < count; ++i) {
      const int row = i / 5, in_row = count - row * 5 < 5 ? count - row * 5 : 5;
      const int col = i % 5;
      const int cx = x + kCellW / 2 + (2 * col - (in_row - 1)) * 5;
      const int cy = y + 44 + row * 12;
      out += format("  <circle cx=\"%d\" cy=\"%d\" r=\"3.6\" fill=\"%s\"/>\n", cx, cy, kStone);
    }
  }
  return out;
}

// A kazna: a pill across the board with the owner's name and total.
std::string kazna(int x, int y, int width, Side side, int total) {
  std::string out;
  out += format(
      "  <rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"%d\" fill=\"%s\" stroke=\"%s\" "
      "stroke-width=\"1.5\"/>\n",
      x, y, width, kPillH, kPillH / 2, kCellFill, kBoardStroke);
  out += format(
      "  <text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"15\" fill=\"#2b2118\" %s>%s's "
      "kazna: <tspan font-weight=\"bold\">%d</tspan></text>\n",
      x + width / 2, y + 19, kFont, side_name(side), total);
  return out;
}

}  // namespace

std::string draw_board_svg(const Position& pos, Side bottom) {
  const int n = pos.n();
  const Side top = opposite(bottom);
  const int board_w = n * kPitch - (kPitch - kCellW);
  const int width = kLeft + board_w + 16 + kNameW;
  const int height = kBottomRowY + kCellH + 70;
  const bool live = pos.outcome() == Outcome::Ongoing;

  std::string out;
  out += format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d "
      "%d\">\n",
      width, height, width, height);
  out += format("  <rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width,
                height);
  out += format(
      "  <rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"18\" fill=\"%s\" stroke=\"%s\" "
      "stroke-width=\"2\"/>\n",
      kLeft - 10, kTopRowY - 10, board_w + 20, kBottomRowY + kCellH - kTopRowY + 20, kBoardFill,
      kBoardStroke);

  // The two rows: the top one N..1, the bottom one 1..N; hole numbers outside the board.
  for (int i = 0; i < n; ++i) {
    const int x = kLeft + i * kPitch;
    const int top_hole = n - i, bottom_hole = i + 1;
    out += format(
        "  <text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"14\" fill=\"#5a4a36\" "
        "%s>%d</text>\n",
        x + kCellW / 2, kTopRowY - 16, kFont, top_hole);
    out += cell(x, kTopRowY, pos.stones(top, top_hole), pos.tuz(bottom) == top_hole, bottom);
    out += cell(x, kBottomRowY, pos.stones(bottom, bottom_hole), pos.tuz(top) == bottom_hole, top);
    out += format(
        "  <text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"14\" fill=\"#5a4a36\" "
        "%s>%d</text>\n",
        x + kCellW / 2, kBottomRowY + kCellH + 26, kFont, bottom_hole);
  }

  // The kaznas between the rows: the top player's above, the bottom player's below.
  out += kazna(kLeft, kBandY, board_w, top, pos.kazna(top));
  out += kazna(kLeft, kBandY + kPillH + 8, board_w, bottom, pos.kazna(bottom));

  // Names right of the rows, and a triangle pointing at the mover's row.
  for (Side s : {top, bottom}) {
    const int y = s == top ? kTopRowY : kBottomRowY;
    out += format(
        "  <text x=\"%d\" y=\"%d\" font-size=\"16\" font-weight=\"bold\" fill=\"#2b2118\" "
        "%s>%s</text>\n",
        kLeft + board_w + 22, y + kCellH / 2 + 6, kFont, side_name(s));
    if (live && pos.side_to_move() == s) {
      const int cy = y + kCellH / 2;
      out += format("  <path d=\"M %d %d L %d %d L %d %d Z\" fill=\"%s\"/>\n", 8, cy - 10, 8,
                    cy + 10, 26, cy, kTuzFill);
    }
  }

  // Caption.
  std::string caption;
  switch (pos.outcome()) {
    case Outcome::Decided:
      caption = "Game over: a kazna holds more than " + std::to_string(n * n);
      break;
    case Outcome::NoMove:
      caption = std::string("Game over: ") + side_name(pos.side_to_move()) + " has no move";
      break;
    default:
      caption = std::string(side_name(pos.side_to_move())) + " to move";
      break;
  }
  out += format(
      "  <text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"16\" fill=\"#2b2118\" "
      "%s>%s</text>\n",
      kLeft + board_w / 2, height - 12, kFont, caption.c_str());
  out += "</svg>\n";
  return out;
}

}  // namespace toguz::cli
