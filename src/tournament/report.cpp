#include "tournament/report.h"

#include <algorithm>
#include <cstdio>

namespace toguz::tournament {

namespace {

// Characters, not bytes.
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

// `text` with "{n}" and "{total}" replaced.
std::string filled(std::string text, int n, int total) {
  for (auto [key, v] : {std::pair<const char*, int>{"{n}", n}, {"{total}", total}})
    if (const size_t at = text.find(key); at != std::string::npos)
      text.replace(at, std::string(key).size(), std::to_string(v));
  return text;
}

std::string tie_break_word(TieBreak tb, const ReportWords& w) {
  const size_t i = size_t(tb);
  return i < w.tie_breaks.size() ? w.tie_breaks[i] : std::string(tie_break_short(tb));
}

std::string outcome_mark(const RoundEntry& e) {
  if (e.pending) return "*";
  if (e.kind == RoundEntry::Forfeit) return e.half_points == 2 ? "+" : "-";
  return e.half_points == 2 ? "1" : e.half_points == 1 ? "=" : "0";
}

}  // namespace

std::string tie_break_value(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf,
                v == double(long(v))           ? "%.0f"
                : v * 2 == double(long(v * 2)) ? "%.1f"
                                               : "%.2f",
                v);
  return buf;
}

std::string Table::text() const {
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

std::string Table::html() const {
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

std::string event_title(const Event& ev, const ReportWords& w) {
  std::string t = ev.name.empty() ? w.tournament : ev.name;
  if (!ev.site.empty()) t += ", " + ev.site;
  if (!ev.date.empty()) t += ", " + ev.date;
  return t;
}

std::string round_heading(const Event& ev, int round, const ReportWords& w) {
  return filled(w.round_of, round, ev.total_rounds());
}

std::string standings_heading(const Event& ev, const ReportWords& w) {
  return filled(w.standings_after, int(ev.played.size()), ev.total_rounds());
}

Table pairings_table(const Event& ev, int round, const ReportWords& w) {
  const std::vector<int> pts = [&] {
    Event before = ev;  // the scores before the round
    before.played.resize(round - 1);
    return half_points(before);
  }();
  Table t{{w.board, w.white, w.pts, w.result, w.black, w.pts},
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
    t.rows.push_back({"", player_label(ev.players[p]), score_text(pts[p]), w.bye, "", ""});
  for (int p : r.half_byes)
    t.rows.push_back({"", player_label(ev.players[p]), score_text(pts[p]), w.half_bye, "", ""});
  for (int p : r.zero_byes)
    t.rows.push_back({"", player_label(ev.players[p]), score_text(pts[p]), w.zero_bye, "", ""});
  return t;
}

Table standings_table(const Event& ev, const std::vector<Standing>& st, const ReportWords& w) {
  Table t{{w.rank, w.name, w.rating, w.pts}, {true, false, true, true}, {}};
  for (TieBreak tb : tie_breaks_of(ev)) {
    t.header.push_back(tie_break_word(tb, w));
    t.align_right.push_back(true);
  }
  for (const Standing& s : st) {
    const Player& p = ev.players[s.player];
    std::string name = p.title.empty() ? p.name : p.title + " " + p.name;
    if (p.withdrawn) name += " (" + w.withdrawn + ")";
    std::vector<std::string> row{std::to_string(s.rank), std::move(name),
                                 p.rating > 0 ? std::to_string(p.rating) : "",
                                 score_text(s.half_points)};
    for (double v : s.tie_breaks) row.push_back(tie_break_value(v));
    t.rows.push_back(std::move(row));
  }
  return t;
}

Table crosstable(const Event& ev, const std::vector<Standing>& st, const ReportWords& w) {
  std::vector<int> place(ev.players.size());
  for (size_t i = 0; i < st.size(); ++i) place[st[i].player] = int(i) + 1;
  Table t{{w.no, w.name, w.pts}, {true, false, true}, {}};
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
          row.push_back(e.half_points == 2 ? w.bye : e.half_points == 1 ? w.half_bye : w.zero_bye);
        else if (e.kind == RoundEntry::Absent)
          row.push_back("");
        else
          row.push_back(std::to_string(place[e.opponent]) +
                        (e.colour == 'W' ? w.white_mark : w.black_mark) + outcome_mark(e));
      }
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string html_page(const Event& ev, const std::string& body, const ReportWords& w) {
  return "<!DOCTYPE html>\n<html lang=\"" + html_escape(w.lang) +
         "\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + html_escape(event_title(ev, w)) +
         "</title>\n<style>\nbody { font-family: serif; margin: 1.5em; }\n"
         "table { border-collapse: collapse; margin-bottom: 1.5em; }\n"
         "th, td { border: 1px solid #444; padding: 0.15em 0.5em; }\n"
         "td.n { text-align: right; }\n@media print { body { margin: 0; } }\n</style>\n"
         "</head>\n<body>\n<h1>" +
         html_escape(event_title(ev, w)) + "</h1>\n" + body + "</body>\n</html>\n";
}

std::string pairings_page(const Event& ev, int round, const ReportWords& w) {
  return html_page(ev,
                   "<h2>" + html_escape(round_heading(ev, round, w)) + "</h2>\n" +
                       pairings_table(ev, round, w).html(),
                   w);
}

std::string standings_page(const Event& ev, const ReportWords& w) {
  const std::vector<Standing> st = standings(ev);
  return html_page(ev,
                   "<h2>" + html_escape(standings_heading(ev, w)) + "</h2>\n" +
                       standings_table(ev, st, w).html() + "<h2>" + html_escape(w.crosstable) +
                       "</h2>\n" + crosstable(ev, st, w).html(),
                   w);
}

}  // namespace toguz::tournament
