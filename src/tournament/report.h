// An event's pages as tables: a round's pairings, the standings, the crosstable; each written
// as aligned text (columns counted in characters, names are UTF-8) or as a print-friendly HTML
// page with every name escaped. What `toguz tournament` prints and the arbiter page serves.
#pragma once

#include <string>
#include <vector>

#include "tournament/event.h"
#include "tournament/standings.h"

namespace toguz::tournament {

// The words of the printed pages in one language: English by default (what `toguz
// tournament` prints); the arbiter's site gives the others (src/site/arbiter/print_words.h).
// "{n}" and "{total}" stand for numbers.
struct ReportWords {
  std::string lang = "en";  // the page's lang attribute
  std::string tournament = "Tournament";
  std::string round_of = "Round {n} of {total}";
  std::string standings_after = "Standings after round {n} of {total}";
  std::string crosstable = "Crosstable";
  std::string board = "Board", white = "White", black = "Black", pts = "Pts", result = "Result";
  std::string bye = "bye", rank = "Rank", name = "Name", rating = "Rating", no = "No";
  std::string withdrawn = "withdrawn";
  std::string half_bye = "\xC2\xBD bye", zero_bye = "0 bye";  // requested byes
  std::string white_mark = "w", black_mark = "b";             // a Swiss crosstable's colours: "3w1"
  std::vector<std::string> tie_breaks;  // short names in TieBreak order; empty: tie_break_short
  // A team event's pages (team_standings.h).
  std::string team = "Team", match = "Match", first_named = "First-named";
  std::string second_named = "Second-named", colour = "Colour", boards = "Boards";
  std::string games = "Games", board_prizes = "Board prizes", board_n = "Board {n}";
  std::string colour_white = "W", colour_black = "B";  // the first-named team's colour
  std::vector<std::string> team_tie_breaks;  // in TeamTieBreak order; empty: team_tie_break_short
};

// A header row and rows of cells; `align_right[i]` per column.
struct Table {
  std::vector<std::string> header;
  std::vector<bool> align_right;
  std::vector<std::vector<std::string>> rows;

  std::string text() const;  // aligned columns, two spaces apart, no trailing spaces
  std::string html() const;  // a <table>, every cell escaped
};

// A tie-break as every page writes it: whole numbers as they are, halves with one decimal,
// others with two ("4", "3.5", "2.25").
std::string tie_break_value(double v);

// "&", "<", ">", '"' and "'" as HTML entities.
std::string html_escape(const std::string& s);

// "GM Eleusiz, Nurlan (2200)": the title, the name, the rating when known.
std::string player_label(const Player& p);

// "Кубок РК, Astana, 2026.12.01": the name (or "Tournament"), site and date that are set.
std::string event_title(const Event& ev, const ReportWords& w = {});

// "Round 2 of 5".
std::string round_heading(const Event& ev, int round, const ReportWords& w = {});

// "Standings after round 3 of 5".
std::string standings_heading(const Event& ev, const ReportWords& w = {});

// Round `round`'s boards (1-based; every round paired so far is valid): board, White with his
// score before the round, the result, Black, then a row per bye.
Table pairings_table(const Event& ev, int round, const ReportWords& w = {});

// Rank, name (a withdrawn player's marked so), rating, points and one column per tie-break of
// the event.
Table standings_table(const Event& ev, const std::vector<Standing>& st, const ReportWords& w = {});

// Swiss: one column per round, "<opponent's place><w|b><outcome>". Round robin: one column per
// opponent (by place), the outcomes against him in round order. Outcomes: "1" a win, "0" a
// loss, "=" a draw, "+" / "-" a forfeit, "*" not played yet.
Table crosstable(const Event& ev, const std::vector<Standing>& st, const ReportWords& w = {});

// A whole HTML page: the event's title as heading, `body` below, a style sheet that prints
// cleanly.
std::string html_page(const Event& ev, const std::string& body, const ReportWords& w = {});

// The print-friendly page of round `round`'s pairings, and of the standings with the
// crosstable.
std::string pairings_page(const Event& ev, int round, const ReportWords& w = {});
std::string standings_page(const Event& ev, const ReportWords& w = {});

}  // namespace toguz::tournament
