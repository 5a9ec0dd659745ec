#include "tournament/trf.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <vector>

#include "rules/text.h"
#include "tournament/standings.h"

namespace toguz::tournament {
namespace {

// The 001 line's columns (1-based, as the format's description counts them).
constexpr size_t kRankCol = 5, kTitleCol = 11, kNameCol = 15, kRatingCol = 49, kFedCol = 54,
                 kIdCol = 58, kPointsCol = 81, kPlaceCol = 86, kFirstRoundCol = 92;
constexpr size_t kNameWidth = 33, kRoundWidth = 10;

// A line as its characters (UTF-8 code points): the format counts columns in characters, so
// a Cyrillic or Kazakh name takes as many columns as a Latin one. A stray byte is one column.
using Cells = std::vector<std::string_view>;
Cells cells_of(std::string_view text) {
  Cells out;
  for (size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    size_t len = lead < 0x80         ? 1
                 : (lead >> 5) == 6  ? 2
                 : (lead >> 4) == 14 ? 3
                 : (lead >> 3) == 30 ? 4
                                     : 1;
    if (i + len > text.size()) len = 1;
    out.push_back(text.substr(i, len));
    i += len;
  }
  return out;
}

// Writes `text` into `line` at column `col` (1-based), `width` wide, right-aligned or not.
void put(std::vector<std::string>& line, size_t col, size_t width, std::string_view text,
         bool right = false) {
  Cells cells = cells_of(text);
  if (cells.size() > width) cells.resize(width);
  const size_t at = col - 1 + (right ? width - cells.size() : 0);
  if (line.size() < at + cells.size()) line.resize(at + cells.size(), " ");
  for (size_t i = 0; i < cells.size(); ++i) line[at + i] = std::string(cells[i]);
}

// Columns col..col+width-1 of a line (1-based), trimmed; "" past its end.
std::string field(const Cells& line, size_t col, size_t width) {
  std::string out;
  for (size_t i = col - 1; i < std::min(line.size(), col - 1 + width); ++i) out += line[i];
  return std::string(trim(out));
}

[[noreturn]] void bad(size_t line, const std::string& what) {
  throw std::runtime_error("line " + std::to_string(line) + ", " + what);
}

// One round of a player's line: "  12 w 1" (opponent's starting rank, colour, result).
// A bye: "U" the pairing's point, "H" a requested half point, "Z" nothing.
std::string round_text(const RoundEntry& e, const std::vector<int>& start_rank) {
  if (e.kind == RoundEntry::Absent) return "";
  if (e.kind == RoundEntry::Bye)
    return std::string("0000 - ") + (e.half_points == 2 ? "U" : e.half_points == 1 ? "H" : "Z");
  std::string opp = std::to_string(start_rank[e.opponent]);
  opp.insert(0, 4 - std::min<size_t>(4, opp.size()), ' ');
  char result = e.half_points == 2 ? '1' : e.half_points == 1 ? '=' : '0';
  if (e.kind == RoundEntry::Forfeit) result = e.half_points == 2 ? '+' : '-';
  if (e.pending) result = '*';
  return opp + ' ' + char(std::tolower(e.colour)) + ' ' + result;
}

std::string system_text(System s) {
  switch (s) {
    case System::RoundRobin:
      return "Round Robin";
    case System::DoubleRoundRobin:
      return "Double Round Robin";
    case System::Swiss:
      break;
  }
  return "Swiss System";
}

std::string points_text(int half_points) {
  return std::to_string(half_points / 2) + (half_points % 2 ? ".5" : ".0");
}

// Our lines for the arbiter's settings (docs/tournaments.md), each only when it is not the
// default: XXH the half-point byes' limit and whether the last round allows one, XXW whether a
// forfeit withdraws, XXP a forbidden pair, XXA a player's virtual points per round (JaVaFo's
// acceleration line).
std::string settings_text(const Event& event, const std::vector<int>& start_rank) {
  const Event defaults;
  std::string out;
  if (event.max_half_byes != defaults.max_half_byes || event.half_bye_last_round)
    out += "XXH " + std::to_string(event.max_half_byes) + " " +
           (event.half_bye_last_round ? "1" : "0") + "\n";
  if (!event.forfeit_withdraws) out += "XXW 0\n";
  for (auto [a, b] : event.forbidden)
    out += "XXP " + std::to_string(start_rank[a]) + " " + std::to_string(start_rank[b]) + "\n";
  if (event.accelerated_rounds > 0 && event.system == System::Swiss) {
    std::vector<std::vector<int>> virt(event.players.size());
    for (int r = 1; r <= event.accelerated_rounds; ++r) {
      Event bare = event;
      bare.played.clear();
      const std::vector<int> v = pairing_half_points(bare, r);
      for (size_t p = 0; p < v.size(); ++p) virt[p].push_back(v[p]);
    }
    std::vector<int> order(event.players.size());
    for (size_t p = 0; p < order.size(); ++p) order[start_rank[p] - 1] = int(p);
    for (int p : order) {
      if (virt[p][0] == 0) continue;
      std::string rank = std::to_string(start_rank[p]);
      std::string line = "XXA " + std::string(4 - std::min<size_t>(4, rank.size()), ' ') + rank;
      for (int v : virt[p]) {
        std::string pts = points_text(v);
        line += std::string(5 - std::min<size_t>(5, pts.size()), ' ') + pts;
      }
      out += line + "\n";
    }
  }
  return out;
}

}  // namespace

std::string event_to_trf(const Event& event) {
  const int n = int(event.players.size());
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  if (event.system == System::Swiss) order = pairing_order(event.players);
  std::vector<int> start_rank(n);
  for (int r = 0; r < n; ++r) start_rank[order[r]] = r + 1;
  const auto table = standings(event);
  std::vector<const Standing*> of(n);
  for (const Standing& s : table) of[s.player] = &s;
  std::string date = event.date;
  std::replace(date.begin(), date.end(), '.', '/');
  const int rated = int(std::count_if(event.players.begin(), event.players.end(),
                                      [](const Player& p) { return p.rating > 0; }));
  std::string out;
  const std::pair<const char*, std::string> header[] = {
      {"012", event.name},
      {"022", event.site},
      {"042", date},
      {"062", std::to_string(n)},
      {"072", std::to_string(rated)},
      {"092", system_text(event.system)},
      {"XXR", std::to_string(event.total_rounds())}};
  for (const auto& [code, value] : header) out.append(code).append(" ").append(value) += '\n';
  out += "XXT";
  for (TieBreak t : tie_breaks_of(event)) out.append(" ").append(tie_break_short(t));
  out += "\n";
  out += settings_text(event, start_rank);
  for (int i : order) {
    const Player& p = event.players[i];
    std::vector<std::string> line = {"0", "0", "1"};
    put(line, kRankCol, 4, std::to_string(start_rank[i]), true);
    put(line, kTitleCol, 3, p.title);
    put(line, kNameCol, kNameWidth, p.name);
    if (p.rating > 0) put(line, kRatingCol, 4, std::to_string(p.rating), true);
    put(line, kFedCol, 3, p.federation);
    put(line, kIdCol, 11, p.id, true);
    put(line, kPointsCol, 4, points_text(of[i]->half_points), true);
    put(line, kPlaceCol, 4, std::to_string(of[i]->rank), true);
    for (size_t r = 0; r < of[i]->rounds.size(); ++r)
      put(line, kFirstRoundCol + r * kRoundWidth, 8, round_text(of[i]->rounds[r], start_rank));
    for (const ByeRequest& q : event.bye_requests)  // byes asked for, in their round's column
      if (q.player == i)
        put(line, kFirstRoundCol + (q.round - 1) * kRoundWidth, 8,
            q.kind == ByeKind::Half ? "0000 - H" : "0000 - Z");
    while (!line.empty() && line.back() == " ") line.pop_back();
    for (const std::string& cell : line) out += cell;
    out += '\n';
  }
  return out;
}

namespace {

// One round of a player's line as read.
struct Entry {
  enum Kind : uint8_t { Absent, Bye, Game } kind = Absent;
  int opponent = -1;  // player index
  bool white = false;
  char result = ' ';  // '1', '0', '=', '+', '-', '*'; 'U' or 'Z' for a bye
};

struct PlayerLine {
  size_t line = 0;
  Player player;
  std::vector<Entry> rounds;
};

// The round entry at column `col` of a player's line.
Entry read_entry(const Cells& text, size_t col, size_t line, size_t round, int n, int self) {
  const std::string where = "round " + std::to_string(round + 1);
  Entry e;
  const std::string opp = field(text, col, 4), colour = field(text, col + 5, 1),
                    res = field(text, col + 7, 1);
  if (opp.empty() && colour.empty() && res.empty()) return e;
  if (opp.empty() || !std::all_of(opp.begin(), opp.end(), ::isdigit))
    bad(line, where + ": expected the opponent's starting rank, found '" + opp + "'");
  const int o = std::stoi(opp);
  if (o == 0) {
    e.kind = Entry::Bye;
    if (res == "U" || res == "F" || res == "W" || res == "+")
      e.result = 'U';
    else if (res == "H" || res == "D" || res == "=")
      e.result = 'H';
    else if (res == "Z" || res == "-" || res == "L" || res.empty())
      e.result = 'Z';
    else
      bad(line,
          where + ": a bye scores a point (U, F), half (H) or nothing (Z), not '" + res + "'");
    return e;
  }
  if (o > n || o - 1 == self)
    bad(line, where + ": no player " + opp + " to meet (1 to " + std::to_string(n) + ")");
  e.kind = Entry::Game;
  e.opponent = o - 1;
  if (colour != "w" && colour != "W" && colour != "b" && colour != "B")
    bad(line, where + ": expected the colour w or b, found '" + colour + "'");
  e.white = colour == "w" || colour == "W";
  static const std::string kResults = "10=+-*WDL";
  if (res.size() != 1 || kResults.find(res[0]) == std::string::npos)
    bad(line, where + ": expected the result 1, 0, =, +, - or *, found '" + res + "'");
  e.result = res[0] == 'W' ? '1' : res[0] == 'D' ? '=' : res[0] == 'L' ? '0' : res[0];
  return e;
}

PlayerLine read_player(const Cells& text, size_t line, int n) {
  PlayerLine p;
  p.line = line;
  const std::string rank = field(text, kRankCol, 4);
  p.player.title = field(text, kTitleCol, 3);
  p.player.name = field(text, kNameCol, kNameWidth);
  if (p.player.name.empty()) bad(line, "name (columns 15-47): empty");
  const std::string rating = field(text, kRatingCol, 4);
  if (!std::all_of(rating.begin(), rating.end(), ::isdigit))
    bad(line, "rating (columns 49-52): expected a number, found '" + rating + "'");
  p.player.rating = rating.empty() ? 0 : std::stoi(rating);
  p.player.federation = field(text, kFedCol, 3);
  p.player.id = field(text, kIdCol, 11);
  const int self =
      std::all_of(rank.begin(), rank.end(), ::isdigit) && !rank.empty() ? std::stoi(rank) - 1 : -1;
  for (size_t r = 0; kFirstRoundCol + r * kRoundWidth <= text.size(); ++r)
    p.rounds.push_back(read_entry(text, kFirstRoundCol + r * kRoundWidth, line, r, n, self));
  return p;
}

char answer_of(char result) {
  switch (result) {
    case '1':
      return '0';
    case '0':
      return '1';
    case '+':
      return '-';
    case '-':
      return '+';
    default:
      return result;  // '=', '*', 'd' (double forfeit)
  }
}

BoardResult board_result_of(char white_result) {
  switch (white_result) {
    case '1':
      return BoardResult::WhiteWins;
    case '0':
      return BoardResult::BlackWins;
    case '=':
      return BoardResult::Draw;
    case '+':
      return BoardResult::WhiteForfeitWin;
    case '-':
      return BoardResult::BlackForfeitWin;
    default:
      return BoardResult::Pending;
  }
}

// Round `r` from every player's entry, each game checked against the opponent's entry.
Round read_round(const std::vector<PlayerLine>& players, size_t r, int bye_points) {
  Round round;
  const auto entry = [&](int i) {
    return r < players[i].rounds.size() ? players[i].rounds[r] : Entry{};
  };
  const std::string where = "round " + std::to_string(r + 1);
  for (int i = 0; i < int(players.size()); ++i) {
    const Entry e = entry(i);
    const size_t line = players[i].line;
    if (e.kind == Entry::Bye) {
      const bool swiss = bye_points > 0;
      if (e.result == 'U' && !swiss)
        bad(line, where + ": a bye in this event scores " + points_text(bye_points));
      if (e.result == 'H' && !swiss) bad(line, where + ": a round robin has no half-point bye");
      (e.result == 'H'            ? round.half_byes
       : e.result == 'Z' && swiss ? round.zero_byes
                                  : round.byes)
          .push_back(i);
    }
    if (e.kind != Entry::Game) continue;
    const Entry o = entry(e.opponent);
    if (o.kind != Entry::Game || o.opponent != i)
      bad(line, where + ": player " + std::to_string(i + 1) + " met " +
                    std::to_string(e.opponent + 1) + ", but that player's entry does not name " +
                    std::to_string(i + 1));
    if (o.white == e.white) bad(line, where + ": both players have the same colour");
    const bool double_forfeit = e.result == '-' && o.result == '-';
    if (o.result != answer_of(e.result) && !double_forfeit)
      bad(line, where + ": the results '" + std::string(1, e.result) + "' and '" +
                    std::string(1, o.result) + "' of one game disagree");
    if (!e.white) continue;
    round.boards.push_back(
        Board{i,
              e.opponent,
              double_forfeit ? BoardResult::DoubleForfeit : board_result_of(e.result),
              {}});
  }
  std::sort(round.boards.begin(), round.boards.end(), [](const Board& a, const Board& b) {
    return std::min(a.white, a.black) < std::min(b.white, b.black);
  });
  return round;
}

void read_header(Event& ev, std::string_view code, std::string_view rest, size_t line) {
  if (code == "012") ev.name = std::string(trim(rest));
  if (code == "022") ev.site = std::string(trim(rest));
  if (code == "042") {
    ev.date = std::string(trim(rest));
    std::replace(ev.date.begin(), ev.date.end(), '/', '.');
  }
  if (code == "092") {
    std::string type = std::string(trim(rest));
    std::transform(type.begin(), type.end(), type.begin(), ::tolower);
    ev.system = type.find("double") != std::string::npos  ? System::DoubleRoundRobin
                : type.find("round") != std::string::npos ? System::RoundRobin
                                                          : System::Swiss;
  }
  if (code == "XXR") {
    const std::string n = std::string(trim(rest));
    if (n.empty() || n.size() > 3 || !std::all_of(n.begin(), n.end(), ::isdigit))
      bad(line, "XXR: expected the number of rounds, found '" + n + "'");
    ev.rounds = std::stoi(n);
  }
  if (code == "XXT") {
    std::string word;
    for (size_t i = 0; i <= rest.size(); ++i) {
      if (i < rest.size() && rest[i] != ' ') {
        word += rest[i];
        continue;
      }
      TieBreak t;
      if (!word.empty() && !parse_tie_break(word, &t))
        bad(line, "XXT: no tie-break '" + word + "'");
      if (!word.empty()) ev.tie_breaks.push_back(t);
      word.clear();
    }
  }
}

// The numbers of a line after its code.
std::vector<std::string> words_after_code(std::string_view text) {
  std::vector<std::string> out;
  std::string w;
  for (size_t i = 3; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ' ') {
      w += text[i];
    } else if (!w.empty()) {
      out.push_back(w);
      w.clear();
    }
  }
  return out;
}

int number_of(const std::string& w, size_t line, const std::string& what, int lo, int hi) {
  if (w.empty() || w.size() > 4 || !std::all_of(w.begin(), w.end(), ::isdigit) ||
      std::stoi(w) < lo || std::stoi(w) > hi)
    bad(line, what + ": expected a number from " + std::to_string(lo) + " to " +
                  std::to_string(hi) + ", found '" + w + "'");
  return std::stoi(w);
}

// XXH, XXW, XXP and XXA (settings_text); player numbers are starting ranks.
void read_setting(Event& ev, std::string_view text, size_t line) {
  const std::string code(text.substr(0, 3));
  const std::vector<std::string> w = words_after_code(text);
  const int n = int(ev.players.size());
  auto arg = [&](size_t i, int lo, int hi) {
    return number_of(i < w.size() ? w[i] : "", line, code, lo, hi);
  };
  if (code == "XXH") {
    ev.max_half_byes = arg(0, 0, 1000);
    ev.half_bye_last_round = w.size() > 1 && arg(1, 0, 1) == 1;
  } else if (code == "XXW") {
    ev.forfeit_withdraws = arg(0, 0, 1) == 1;
  } else if (code == "XXP") {
    const int a = arg(0, 1, n) - 1, b = arg(1, 1, n) - 1;
    if (a == b) bad(line, "XXP: a pair needs two different players");
    if (!is_forbidden(ev, a, b)) ev.forbidden.push_back({std::min(a, b), std::max(a, b)});
  } else {  // XXA: the rounds with virtual points are the accelerated rounds
    arg(0, 1, n);
    int acc = 0;
    for (size_t i = 1; i < w.size(); ++i) {
      if (w[i] == "0.0" || w[i] == "0") break;
      acc = int(i);
    }
    ev.accelerated_rounds = std::max(ev.accelerated_rounds, acc);
  }
}

}  // namespace

Event event_from_trf(std::string_view text) {
  Event ev;
  std::vector<std::pair<size_t, std::string_view>> player_lines, setting_lines;
  size_t number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() < 3) continue;
    const std::string_view code = line.substr(0, 3);
    if (code == "001")
      player_lines.emplace_back(number, line);
    else if (code == "XXP" || code == "XXA" || code == "XXH" || code == "XXW")
      setting_lines.emplace_back(number, line);
    else
      read_header(ev, code, line.size() > 4 ? line.substr(4) : std::string_view(), number);
  }
  const int n = int(player_lines.size());
  if (n == 0) throw std::runtime_error("no player lines (001)");
  std::vector<PlayerLine> players(n);
  std::vector<char> seen(n, 0);
  for (const auto& [line, text] : player_lines) {
    const Cells body = cells_of(text);
    const std::string rank = field(body, kRankCol, 4);
    if (rank.empty() || !std::all_of(rank.begin(), rank.end(), ::isdigit) || std::stoi(rank) < 1 ||
        std::stoi(rank) > n || seen[std::stoi(rank) - 1])
      bad(line, "starting rank (columns 5-8): expected a new number from 1 to " +
                    std::to_string(n) + ", found '" + rank + "'");
    seen[std::stoi(rank) - 1] = 1;
    players[std::stoi(rank) - 1] = read_player(body, line, n);
  }
  // Rounds paired: up to the last with a game or the pairing's bye; requested byes after it
  // are requests.
  size_t rounds = 0, columns = 0;
  for (const PlayerLine& p : players)
    for (size_t r = 0; r < p.rounds.size(); ++r) {
      const Entry& e = p.rounds[r];
      if (e.kind == Entry::Absent) continue;
      columns = std::max(columns, r + 1);
      if (e.kind == Entry::Game || e.result == 'U') rounds = std::max(rounds, r + 1);
    }
  for (const PlayerLine& p : players) ev.players.push_back(p.player);
  for (size_t r = 0; r < rounds; ++r)
    ev.played.push_back(read_round(players, r, ev.bye_half_points()));
  if (ev.system == System::Swiss && ev.rounds < int(columns)) ev.rounds = int(columns);
  for (int i = 0; i < n; ++i)
    for (size_t r = rounds; r < players[i].rounds.size(); ++r) {
      const Entry& e = players[i].rounds[r];
      if (e.kind == Entry::Absent) continue;
      if (ev.system != System::Swiss)
        bad(players[i].line,
            "round " + std::to_string(r + 1) + ": a round robin has no requested byes");
      ev.bye_requests.push_back({i, int(r) + 1, e.result == 'H' ? ByeKind::Half : ByeKind::Zero});
    }
  for (const auto& [line, text] : setting_lines) read_setting(ev, text, line);
  return ev;
}

}  // namespace toguz::tournament
