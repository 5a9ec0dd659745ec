#include "tournament/trf_text.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "rules/text.h"

namespace toguz::tournament::trf_text {
namespace {

// The 001 line's columns (1-based, as the format's description counts them).
constexpr size_t kRankCol = 5, kTitleCol = 11, kNameCol = 15, kRatingCol = 49, kFedCol = 54,
                 kIdCol = 58, kPointsCol = 81, kPlaceCol = 86, kFirstRoundCol = 92;
constexpr size_t kNameWidth = 33, kRoundWidth = 10;

// A number's text: digits only, at least one.
bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), ::isdigit);
}

}  // namespace

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

void put(std::vector<std::string>& line, size_t col, size_t width, std::string_view text,
         bool right) {
  Cells cells = cells_of(text);
  if (cells.size() > width) cells.resize(width);
  const size_t at = col - 1 + (right ? width - cells.size() : 0);
  if (line.size() < at + cells.size()) line.resize(at + cells.size(), " ");
  for (size_t i = 0; i < cells.size(); ++i) line[at + i] = std::string(cells[i]);
}

std::string line_of(std::vector<std::string> cells) {
  while (!cells.empty() && cells.back() == " ") cells.pop_back();
  std::string out;
  for (const std::string& cell : cells) out += cell;
  return out;
}

std::string field(const Cells& line, size_t col, size_t width) {
  std::string out;
  for (size_t i = col - 1; i < std::min(line.size(), col - 1 + width); ++i) out += line[i];
  return std::string(trim(out));
}

void bad(size_t line, const std::string& what) {
  throw std::runtime_error("line " + std::to_string(line) + ", " + what);
}

std::string points_text(int half_points) {
  return std::to_string(half_points / 2) + (half_points % 2 ? ".5" : ".0");
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

std::string right_aligned(const std::string& text, size_t width) {
  return std::string(width - std::min(width, text.size()), ' ') + text;
}

std::vector<NumberedLine> lines_of(std::string_view text) {
  std::vector<NumberedLine> out;
  size_t number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() >= 3) out.emplace_back(number, line);
  }
  return out;
}

std::string numbers_line(std::string_view code, std::vector<int> numbers) {
  if (numbers.empty()) return "";
  std::sort(numbers.begin(), numbers.end());
  std::string out(code);
  for (int x : numbers) out.append(1, ' ').append(std::to_string(x));
  return out + "\n";
}

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
  if (w.size() > 4 || !all_digits(w) || std::stoi(w) < lo || std::stoi(w) > hi)
    bad(line, what + ": expected a number from " + std::to_string(lo) + " to " +
                  std::to_string(hi) + ", found '" + w + "'");
  return std::stoi(w);
}

int field_number(const Cells& text, size_t col, size_t width, size_t line, const std::string& what,
                 int lo, int hi, int blank) {
  const std::string f = field(text, col, width);
  return f.empty() ? blank : number_of(f, line, what, lo, hi);
}

std::string header_text(const Header& h, int players, int rated, int teams,
                        const std::vector<std::string>& tie_breaks) {
  std::string date = h.date;
  std::replace(date.begin(), date.end(), '.', '/');
  std::vector<std::pair<const char*, std::string>> lines = {{"012", h.name},
                                                            {"022", h.site},
                                                            {"042", date},
                                                            {"062", std::to_string(players)},
                                                            {"072", std::to_string(rated)}};
  if (teams >= 0) lines.emplace_back("082", std::to_string(teams));
  lines.emplace_back("092", system_text(h.system));
  lines.emplace_back("XXR", std::to_string(h.rounds));
  std::string out;
  for (const auto& [code, value] : lines) out.append(code).append(" ").append(value) += '\n';
  out += "XXT";
  for (const std::string& t : tie_breaks) out.append(" ").append(t);
  return out + "\n";
}

void read_header(Header& h, std::string_view code, std::string_view rest, size_t line) {
  if (code == "012") h.name = std::string(trim(rest));
  if (code == "022") h.site = std::string(trim(rest));
  if (code == "042") {
    h.date = std::string(trim(rest));
    std::replace(h.date.begin(), h.date.end(), '/', '.');
  }
  if (code == "092") {
    const std::string type = lower(trim(rest));
    h.system = type.find("double") != std::string::npos  ? System::DoubleRoundRobin
               : type.find("round") != std::string::npos ? System::RoundRobin
                                                         : System::Swiss;
  }
  if (code == "XXR") {
    const std::string n = std::string(trim(rest));
    if (n.size() > 3 || !all_digits(n))
      bad(line, "XXR: expected the number of rounds, found '" + n + "'");
    h.rounds = std::stoi(n);
  }
  if (code == "XXT")
    for (const std::string& w : split_words(rest)) h.tie_breaks.emplace_back(line, w);
}

Header sort_lines(std::string_view text, std::initializer_list<std::string_view> codes,
                  std::vector<NumberedLine>& players, std::vector<NumberedLine>& own) {
  Header h;
  for (const auto& [number, line] : lines_of(text)) {
    const std::string_view code = line.substr(0, 3);
    if (code == "001")
      players.emplace_back(number, line);
    else if (std::find(codes.begin(), codes.end(), code) != codes.end())
      own.emplace_back(number, line);
    else
      read_header(h, code, line.size() > 4 ? line.substr(4) : std::string_view(), number);
  }
  return h;
}

char side_result(BoardResult r, bool white) {
  switch (r) {
    case BoardResult::Pending:
      return '*';
    case BoardResult::Draw:
      return '=';
    case BoardResult::WhiteWins:
    case BoardResult::BlackWins:
      return (r == BoardResult::WhiteWins) == white ? '1' : '0';
    case BoardResult::WhiteForfeitWin:
    case BoardResult::BlackForfeitWin:
      return (r == BoardResult::WhiteForfeitWin) == white ? '+' : '-';
    case BoardResult::DoubleForfeit:
      break;
  }
  return '-';
}

std::string game_text(int opponent_rank, bool white, char result) {
  return right_aligned(std::to_string(opponent_rank), 4) + ' ' + (white ? 'w' : 'b') + ' ' + result;
}

std::vector<std::string> player_cells(const Player& p, int rank, int half_points, int place) {
  std::vector<std::string> line = {"0", "0", "1"};
  put(line, kRankCol, 4, std::to_string(rank), true);
  put(line, kTitleCol, 3, p.title);
  put(line, kNameCol, kNameWidth, p.name);
  if (p.rating > 0) put(line, kRatingCol, 4, std::to_string(p.rating), true);
  put(line, kFedCol, 3, p.federation);
  put(line, kIdCol, 11, p.id, true);
  put(line, kPointsCol, 4, points_text(half_points), true);
  put(line, kPlaceCol, 4, std::to_string(place), true);
  return line;
}

size_t round_column(size_t round_index) {
  return kFirstRoundCol + round_index * kRoundWidth;
}

namespace {

// An entry without an opponent (0000) and its result letter.
Entry bye_entry(const std::string& res, size_t line, const std::string& where) {
  Entry e;
  e.kind = Entry::Bye;
  if (res == "U" || res == "F" || res == "W" || res == "+")
    e.result = 'U';
  else if (res == "H" || res == "D" || res == "=")
    e.result = 'H';
  else if (res == "Z" || res == "-" || res == "L" || res.empty())
    e.result = 'Z';
  else
    bad(line, where + ": a bye scores a point (U, F), half (H) or nothing (Z), not '" + res + "'");
  return e;
}

// The round entry at column `col` of a player's line.
Entry read_entry(const Cells& text, size_t col, size_t line, size_t round, int n, int self) {
  const std::string where = "round " + std::to_string(round + 1);
  Entry e;
  const std::string opp = field(text, col, 4), colour = field(text, col + 5, 1),
                    res = field(text, col + 7, 1);
  if (opp.empty() && colour.empty() && res.empty()) return e;
  if (!all_digits(opp))
    bad(line, where + ": expected the opponent's starting rank, found '" + opp + "'");
  const int o = std::stoi(opp);
  if (o == 0) return bye_entry(res, line, where);
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

// A 001 line's player and rounds; `self` is his index, `n` the number of players.
PlayerLine read_player(const Cells& text, size_t line, int n, int self) {
  PlayerLine p;
  p.line = line;
  p.player.title = field(text, kTitleCol, 3);
  p.player.name = field(text, kNameCol, kNameWidth);
  if (p.player.name.empty()) bad(line, "name (columns 15-47): empty");
  const std::string rating = field(text, kRatingCol, 4);
  if (!std::all_of(rating.begin(), rating.end(), ::isdigit))
    bad(line, "rating (columns 49-52): expected a number, found '" + rating + "'");
  p.player.rating = rating.empty() ? 0 : std::stoi(rating);
  p.player.federation = field(text, kFedCol, 3);
  p.player.id = field(text, kIdCol, 11);
  for (size_t r = 0; round_column(r) <= text.size(); ++r)
    p.rounds.push_back(read_entry(text, round_column(r), line, r, n, self));
  return p;
}

}  // namespace

std::vector<PlayerLine> read_players(const std::vector<NumberedLine>& lines) {
  const int n = int(lines.size());
  if (n == 0) throw std::runtime_error("no player lines (001)");
  std::vector<PlayerLine> players(n);
  std::vector<char> seen(n, 0);
  for (const auto& [line, text] : lines) {
    const Cells body = cells_of(text);
    const std::string rank = field(body, kRankCol, 4);
    if (!all_digits(rank) || std::stoi(rank) < 1 || std::stoi(rank) > n ||
        seen[std::stoi(rank) - 1])
      bad(line, "starting rank (columns 5-8): expected a new number from 1 to " +
                    std::to_string(n) + ", found '" + rank + "'");
    const int self = std::stoi(rank) - 1;
    seen[self] = 1;
    players[self] = read_player(body, line, n, self);
  }
  return players;
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
      return result;  // '=', '*'
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

}  // namespace toguz::tournament::trf_text
