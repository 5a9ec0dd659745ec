// What the individual and the team exchange files (trf.h, team_trf.h) share: the TRF's fixed
// columns counted in characters, the 001 player line and its round entries, the header lines,
// the numbered lines of a file, and refusals that name the line and the field
// (docs/tournaments.md "Exchange file (TRF)").
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tournament/event.h"

namespace toguz::tournament::trf_text {

// A line as its characters (UTF-8 code points); a stray byte is one column.
using Cells = std::vector<std::string_view>;
Cells cells_of(std::string_view text);
// Writes `text` into `line` at column `col` (1-based), `width` wide, right-aligned or not.
void put(std::vector<std::string>& line, size_t col, size_t width, std::string_view text,
         bool right = false);
// The cells joined, without trailing blanks.
std::string line_of(std::vector<std::string> cells);
// Columns col..col+width-1 of a line (1-based), trimmed; "" past its end.
std::string field(const Cells& line, size_t col, size_t width);
// Throws std::runtime_error "line N, WHAT".
[[noreturn]] void bad(size_t line, const std::string& what);

std::string points_text(int half_points);  // "2.5", "3.0"
std::string system_text(System s);         // 092: "Swiss System", "Round Robin"...
// A number right-aligned `width` wide.
std::string right_aligned(const std::string& text, size_t width);

// A file's lines with their 1-based numbers, a CR at the end dropped, lines under 3 characters
// left out.
using NumberedLine = std::pair<size_t, std::string_view>;
std::vector<NumberedLine> lines_of(std::string_view text);
// "XXD 3 7\n": a code and numbers (starting ranks, team numbers) in ascending order; "" for none.
std::string numbers_line(std::string_view code, std::vector<int> numbers);
// The words of a line after its 3-character code.
std::vector<std::string> words_after_code(std::string_view text);
// A word as a number from lo to hi, or a refusal naming `what`.
int number_of(const std::string& w, size_t line, const std::string& what, int lo, int hi);
// A field that must hold a number from lo to hi (blank: `blank`), or a refusal naming `what`.
int field_number(const Cells& text, size_t col, size_t width, size_t line, const std::string& what,
                 int lo, int hi, int blank);

// The header lines both files have: 012, 022, 042, 092, XXR, XXT (the tie-break words, which
// each kind of event reads with its own names).
struct Header {
  std::string name, site, date;  // date as the records write it: "2026.12.01"
  System system = System::Swiss;
  int rounds = 0;
  std::vector<std::pair<size_t, std::string>> tie_breaks;  // line number, short name
};
// 012 name, 022 site, 042 date, 062 players, 072 rated, 082 teams (when `teams` >= 0), 092,
// XXR rounds, XXT the tie-breaks.
std::string header_text(const Header& h, int players, int rated, int teams,
                        const std::vector<std::string>& tie_breaks);
// Reads one of the header's lines into `h`; other codes are left alone.
void read_header(Header& h, std::string_view code, std::string_view rest, size_t line);
// A file's lines sorted: 001 into `players`, those whose code is one of `codes` into `own`, the
// header's read into the result; other programs' lines are left out.
Header sort_lines(std::string_view text, std::initializer_list<std::string_view> codes,
                  std::vector<NumberedLine>& players, std::vector<NumberedLine>& own);
// The header's name, site, date and system into an Event or a TeamEvent.
template <typename E>
void copy_header(const Header& h, E& ev) {
  ev.name = h.name;
  ev.site = h.site;
  ev.date = h.date;
  ev.system = h.system;
}

// The result of a board from one side: '1', '0', '=', '+', '-' or '*' (pending).
char side_result(BoardResult r, bool white);
// One round of a player's line: "  12 w 1" (opponent's starting rank, colour, result).
std::string game_text(int opponent_rank, bool white, char result);
// The 001 line's fields before the rounds (starting rank, title, name, rating, federation, id,
// points, place); put each round at round_column(r).
std::vector<std::string> player_cells(const Player& p, int rank, int half_points, int place);
size_t round_column(size_t round_index);

// One round of a player's line as read.
struct Entry {
  enum Kind : uint8_t { Absent, Bye, Game } kind = Absent;
  int opponent = -1;  // player index
  bool white = false;
  char result = ' ';  // '1', '0', '=', '+', '-', '*'; 'U', 'H' or 'Z' for a bye
};

// A 001 line as read: its line number, the player and his round entries.
struct PlayerLine {
  size_t line = 0;
  Player player;
  std::vector<Entry> rounds;
};
// Every 001 line, in starting-rank order; refuses a rank out of 1..n or given twice.
std::vector<PlayerLine> read_players(const std::vector<NumberedLine>& lines);

// The answer to a result on the opponent's line ('1' for '0', '+' for '-'...).
char answer_of(char result);
// The board's result from White's entry.
BoardResult board_result_of(char white_result);

}  // namespace toguz::tournament::trf_text
