// `toguz tournament ACTION FILE ...`: an over-the-board event kept in a JSON state file
// (docs/tournaments.md). The pairing, standings and TGK are in src/tournament; this file reads
// and writes the state file and prints.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/game_input.h"
#include "tournament/event_json.h"
#include "tournament/standings.h"
#include "tournament/swiss.h"
#include "tournament/tgk.h"

namespace toguz::cli {

namespace {

using namespace toguz::tournament;

[[noreturn]] void fail(const std::string& msg, int code = 1) {
  std::cerr << "toguz tournament: " << msg << "\n";
  throw CLI::RuntimeError(code);
}

Event load(const std::string& path) {
  std::string text;
  try {
    text = read_input(path);
  } catch (const std::runtime_error& e) {
    fail(e.what(), 2);
  }
  try {
    return event_from_json(text);
  } catch (const std::runtime_error& e) {
    fail(path + ": " + e.what());
  }
}

void write_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) fail(tmp + ": cannot write", 2);
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) fail(path + ": cannot write: " + ec.message(), 2);
}

void save(const std::string& path, const Event& ev) {
  write_file(path, event_to_json(ev));
}

// Standard output, or the file given by -o.
void emit(const std::string& out_path, const std::string& text) {
  if (out_path.empty())
    std::cout << text;
  else
    write_file(out_path, text);
}

// Columns are counted in characters, not bytes (names are UTF-8: Cyrillic, Kazakh letters).
size_t width(const std::string& s) {
  size_t w = 0;
  for (unsigned char c : s) w += (c & 0xC0) != 0x80;
  return w;
}
std::string left(const std::string& s, size_t w) {
  return s + std::string(w > width(s) ? w - width(s) : 0, ' ');
}
std::string right(const std::string& s, size_t w) {
  return std::string(w > width(s) ? w - width(s) : 0, ' ') + s;
}

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string player_label(const Player& p) {
  std::string s = p.title.empty() ? p.name : p.title + " " + p.name;
  if (p.rating > 0) s += " (" + std::to_string(p.rating) + ")";
  return s;
}

// A table: a header row and rows of cells; `align_right[i]` per column.
struct Table {
  std::vector<std::string> header;
  std::vector<bool> align_right;
  std::vector<std::vector<std::string>> rows;

  std::string text() const {
    std::vector<size_t> w(header.size(), 0);
    for (size_t i = 0; i < header.size(); ++i) w[i] = width(header[i]);
    for (const auto& r : rows)
      for (size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], width(r[i]));
    auto line = [&](const std::vector<std::string>& r) {
      std::string out;
      for (size_t i = 0; i < r.size(); ++i) {
        if (i) out += "  ";
        out += align_right[i] ? right(r[i], w[i]) : left(r[i], w[i]);
      }
      while (!out.empty() && out.back() == ' ') out.pop_back();
      return out + "\n";
    };
    std::string out = line(header);
    for (const auto& r : rows) out += line(r);
    return out;
  }
  std::string html() const {
    std::string out = "<table>\n<tr>";
    for (const std::string& h : header) out += "<th>" + html_escape(h) + "</th>";
    out += "</tr>\n";
    for (const auto& r : rows) {
      out += "<tr>";
      for (size_t i = 0; i < r.size(); ++i)
        out +=
            std::string(align_right[i] ? "<td class=\"n\">" : "<td>") + html_escape(r[i]) + "</td>";
      out += "</tr>\n";
    }
    return out + "</table>\n";
  }
};

std::string event_title(const Event& ev) {
  std::string t = ev.name.empty() ? "Tournament" : ev.name;
  if (!ev.site.empty()) t += ", " + ev.site;
  if (!ev.date.empty()) t += ", " + ev.date;
  return t;
}

std::string html_page(const Event& ev, const std::string& body) {
  return "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         html_escape(event_title(ev)) +
         "</title>\n<style>\nbody { font-family: serif; margin: 1.5em; }\n"
         "table { border-collapse: collapse; margin-bottom: 1.5em; }\n"
         "th, td { border: 1px solid #444; padding: 0.15em 0.5em; }\n"
         "td.n { text-align: right; }\n@media print { body { margin: 0; } }\n</style>\n"
         "</head>\n<body>\n<h1>" +
         html_escape(event_title(ev)) + "</h1>\n" + body + "</body>\n</html>\n";
}

int round_arg(const Event& ev, int round) {
  if (ev.played.empty()) fail("no round has been paired yet");
  if (round == 0) return int(ev.played.size());
  if (round < 1 || round > int(ev.played.size()))
    fail("round " + std::to_string(round) + ": expected 1 to " + std::to_string(ev.played.size()));
  return round;
}

std::string round_heading(const Event& ev, int round) {
  return "Round " + std::to_string(round) + " of " + std::to_string(ev.total_rounds());
}

Table pairings_table(const Event& ev, int round) {
  const std::vector<int> pts = [&] {
    Event before = ev;  // the scores before the round
    before.played.resize(round - 1);
    return half_points(before);
  }();
  Table t{{"Board", "White", "Pts", "Result", "Black", "Pts"},
          {true, false, true, false, false, true},
          {}};
  const Round& r = ev.played[round - 1];
  for (size_t b = 0; b < r.boards.size(); ++b) {
    const Board& x = r.boards[b];
    const std::string res =
        x.result == BoardResult::Pending ? "" : std::string(board_result_text(x.result));
    t.rows.push_back({std::to_string(b + 1), player_label(ev.players[x.white]),
                      score_text(pts[x.white]), res, player_label(ev.players[x.black]),
                      score_text(pts[x.black])});
  }
  for (int p : r.byes)
    t.rows.push_back({"", player_label(ev.players[p]), score_text(pts[p]), "bye", "", ""});
  return t;
}

std::string tie_break_value(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf,
                v == double(long(v))           ? "%.0f"
                : v * 2 == double(long(v * 2)) ? "%.1f"
                                               : "%.2f",
                v);
  return buf;
}

Table standings_table(const Event& ev, const std::vector<Standing>& st) {
  Table t{{"Rank", "Name", "Rating", "Pts"}, {true, false, true, true}, {}};
  for (TieBreak tb : tie_breaks_of(ev)) {
    t.header.push_back(std::string(tie_break_short(tb)));
    t.align_right.push_back(true);
  }
  for (const Standing& s : st) {
    const Player& p = ev.players[s.player];
    std::vector<std::string> row{
        std::to_string(s.rank), p.title.empty() ? p.name : p.title + " " + p.name,
        p.rating > 0 ? std::to_string(p.rating) : "", score_text(s.half_points)};
    for (double v : s.tie_breaks) row.push_back(tie_break_value(v));
    t.rows.push_back(std::move(row));
  }
  return t;
}

// "1" a win, "0" a loss, "=" a draw, "+" / "-" a forfeit, "*" not played yet.
std::string outcome_mark(const RoundEntry& e) {
  if (e.pending) return "*";
  if (e.kind == RoundEntry::Forfeit) return e.half_points == 2 ? "+" : "-";
  return e.half_points == 2 ? "1" : e.half_points == 1 ? "=" : "0";
}

// Swiss: one column per round, "<opponent's place><w|b><outcome>". Round robin: one column per
// opponent (by place), his outcomes against him in round order.
Table crosstable(const Event& ev, const std::vector<Standing>& st) {
  std::vector<int> place(ev.players.size());
  for (size_t i = 0; i < st.size(); ++i) place[st[i].player] = int(i) + 1;
  Table t{{"No", "Name", "Pts"}, {true, false, true}, {}};
  const bool rr = ev.system != System::Swiss;
  const size_t columns = rr ? st.size() : ev.played.size();
  for (size_t c = 0; c < columns; ++c) {
    t.header.push_back(std::to_string(c + 1));
    t.align_right.push_back(false);
  }
  for (size_t i = 0; i < st.size(); ++i) {
    std::vector<std::string> row{std::to_string(i + 1), ev.players[st[i].player].name,
                                 score_text(st[i].half_points)};
    if (rr) {
      std::vector<std::string> cells(st.size());
      cells[i] = "x";
      for (const RoundEntry& e : st[i].rounds)
        if (e.opponent >= 0) cells[place[e.opponent] - 1] += outcome_mark(e);
      row.insert(row.end(), cells.begin(), cells.end());
    } else {
      for (const RoundEntry& e : st[i].rounds) {
        if (e.kind == RoundEntry::Bye)
          row.push_back("bye");
        else if (e.kind == RoundEntry::Absent)
          row.push_back("");
        else
          row.push_back(std::to_string(place[e.opponent]) + char(e.colour == 'W' ? 'w' : 'b') +
                        outcome_mark(e));
      }
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

void add_tournament(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "tournament", "an over-the-board event: players, pairings, results, standings, TGK");
  cmd->require_subcommand(1);

  // new FILE
  {
    struct Args {
      std::string file, system, event, site, date, tiebreaks;
      int rounds = 0;
      bool force = false;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("new", "create the event's state file");
    c->add_option("FILE", a->file, "the state file to create")->required();
    c->add_option("--system", a->system, "swiss, round-robin or double-round-robin")
        ->required()
        ->check(CLI::IsMember({"swiss", "round-robin", "double-round-robin"}));
    c->add_option("--rounds", a->rounds, "rounds (required for a Swiss; a round robin has its own)")
        ->check(CLI::Range(1, 1000));
    c->add_option("--event", a->event, "the event's name (the Event tag)");
    c->add_option("--site", a->site, "where it is played (the Site tag)");
    c->add_option("--date", a->date, "its date as the records write it, e.g. 2026.12.01");
    c->add_option("--tiebreaks", a->tiebreaks,
                  "comma-separated: buchholz-cut1, buchholz, sonneborn-berger, wins, "
                  "direct-encounter (or BH-1, BH, SB, W, DE); default by system");
    c->add_flag("--force", a->force, "replace an existing file");
    c->callback([a] {
      Event ev;
      parse_system(a->system, &ev.system);
      if (ev.system == System::Swiss && a->rounds == 0) fail("a Swiss needs --rounds");
      if (ev.system != System::Swiss && a->rounds != 0)
        fail("a round robin has the rounds of its Berger table; --rounds is for a Swiss", 2);
      ev.rounds = a->rounds;
      ev.name = a->event;
      ev.site = a->site;
      ev.date = a->date;
      std::string list = a->tiebreaks;
      for (char& ch : list)
        if (ch == ',') ch = ' ';
      for (const std::string& w : split_words(list)) {
        TieBreak t;
        if (!parse_tie_break(w, &t)) fail("--tiebreaks: unknown tie-break '" + w + "'", 2);
        ev.tie_breaks.push_back(t);
      }
      if (!a->force && std::filesystem::exists(a->file))
        fail(a->file + ": exists (give --force to replace it)", 2);
      save(a->file, ev);
    });
  }

  // add FILE NAME
  {
    struct Args {
      std::string file, name, title;
      int rating = 0;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("add", "enter a player (before round 1)");
    c->add_option("FILE", a->file, "the state file")->required();
    c->add_option("NAME", a->name, "the player's name as the records write it")->required();
    c->add_option("--rating", a->rating, "federation rating (0 = unrated)")
        ->check(CLI::Range(0, 9999));
    c->add_option("--title", a->title, "title, as the federation writes it");
    c->callback([a] {
      Event ev = load(a->file);
      if (!ev.played.empty()) fail("players are entered before round 1 is paired");
      if (a->name.empty()) fail("the name is empty");
      for (const Player& p : ev.players)
        if (p.name == a->name) fail("'" + a->name + "' is already entered");
      ev.players.push_back({a->name, a->rating, a->title});
      save(a->file, ev);
    });
  }

  // pair FILE
  {
    auto file = std::make_shared<std::string>();
    auto* c = cmd->add_subcommand("pair", "pair the next round and print its pairings");
    c->add_option("FILE", *file, "the state file")->required();
    c->callback([file] {
      Event ev = load(*file);
      try {
        ev.played.push_back(pair_next_round(ev));
      } catch (const std::exception& e) {
        fail(e.what());
      }
      save(*file, ev);
      const int r = int(ev.played.size());
      std::cout << round_heading(ev, r) << "\n" << pairings_table(ev, r).text();
    });
  }

  // result FILE BOARD RESULT
  {
    struct Args {
      std::string file, result, moves, moves_file;
      int board = 0, round = 0;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("result", "enter a board's result, optionally its moves");
    c->add_option("FILE", a->file, "the state file")->required();
    c->add_option("BOARD", a->board, "the board number")->required();
    c->add_option("RESULT", a->result, "1-0, 0-1, 1/2-1/2, 1-0f or 0-1f (forfeits), * to clear")
        ->required();
    c->add_option("--round", a->round, "the round (default: the latest)");
    c->add_option("--moves", a->moves, "the game's moves as written, e.g. \"1. 65 87 2. 55 99\"");
    c->add_option("--moves-file", a->moves_file, "the moves from a file ('-' = standard input)");
    c->callback([a] {
      Event ev = load(a->file);
      const int r = round_arg(ev, a->round);
      Round& round = ev.played[r - 1];
      if (a->board < 1 || a->board > int(round.boards.size()))
        fail("board " + std::to_string(a->board) + ": round " + std::to_string(r) +
             " has boards 1 to " + std::to_string(round.boards.size()));
      BoardResult res;
      if (!parse_board_result(a->result, &res))
        fail("result '" + a->result + "': expected 1-0, 0-1, 1/2-1/2, 1-0f, 0-1f or *");
      std::string text = a->moves;
      if (!a->moves_file.empty()) {
        try {
          text += " " + read_input(a->moves_file);
        } catch (const std::runtime_error& e) {
          fail(e.what(), 2);
        }
      }
      Board& board = round.boards[a->board - 1];
      try {
        board.moves = check_moves(split_words(text), res);
      } catch (const MoveError& e) {
        fail("round " + std::to_string(r) + ", board " + std::to_string(a->board) + ": " +
             e.what());
      }
      board.result = res;
      save(a->file, ev);
    });
  }

  // pairings FILE
  {
    struct Args {
      std::string file, out;
      int round = 0;
      bool html = false;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("pairings", "print a round's pairings and results");
    c->add_option("FILE", a->file, "the state file")->required();
    c->add_option("--round", a->round, "the round (default: the latest)");
    c->add_flag("--html", a->html, "a print-friendly HTML page");
    c->add_option("-o,--output", a->out, "output file (default: standard output)");
    c->callback([a] {
      const Event ev = load(a->file);
      const int r = round_arg(ev, a->round);
      const Table t = pairings_table(ev, r);
      emit(a->out, a->html ? html_page(ev, "<h2>" + round_heading(ev, r) + "</h2>\n" + t.html())
                           : round_heading(ev, r) + "\n" + t.text());
    });
  }

  // standings FILE
  {
    struct Args {
      std::string file, out;
      bool html = false;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("standings", "print the standings and the crosstable");
    c->add_option("FILE", a->file, "the state file")->required();
    c->add_flag("--html", a->html, "a print-friendly HTML page");
    c->add_option("-o,--output", a->out, "output file (default: standard output)");
    c->callback([a] {
      const Event ev = load(a->file);
      const std::vector<Standing> st = standings(ev);
      const std::string heading = "Standings after round " + std::to_string(ev.played.size()) +
                                  " of " + std::to_string(ev.total_rounds());
      const Table s = standings_table(ev, st), x = crosstable(ev, st);
      emit(a->out, a->html ? html_page(ev, "<h2>" + heading + "</h2>\n" + s.html() +
                                               "<h2>Crosstable</h2>\n" + x.html())
                           : heading + "\n" + s.text() + "\nCrosstable\n" + x.text());
    });
  }

  // export FILE
  {
    struct Args {
      std::string file, out;
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand("export", "write every game of the event as one TGK file");
    c->add_option("FILE", a->file, "the state file")->required();
    c->add_option("-o,--output", a->out, "output file (default: standard output)");
    c->callback([a] {
      const Event ev = load(a->file);
      emit(a->out, event_tgk(ev));
    });
  }
}

}  // namespace toguz::cli
