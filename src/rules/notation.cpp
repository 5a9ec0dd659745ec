#include "rules/notation.h"

#include <charconv>
#include <vector>

#include "rules/text.h"

namespace toguz {

namespace {

bool to_int(std::string_view s, int* out) {
  if (s.empty() || s.size() > 6) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  std::from_chars(s.data(), s.data() + s.size(), *out);
  return true;
}

// Built by appends: GCC 12 gives a false -Wrestrict on "'" + std::string(s) + "'".
std::string quoted(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '\'';
  out.append(s);
  out += '\'';
  return out;
}

}  // namespace

Rules RuleOptions::resolve(int n) const {
  if (n != 9 && n != 7 && n != 5)
    throw ParseError("row length " + std::to_string(n) + " is not a variant (expected 9, 7 or 5)");
  Variant v = n == 9 ? Variant::Standard : n == 7 ? Variant::Kozdatu : Variant::Bestemshi;
  if (variant && *variant != v)
    throw ParseError("variant " + std::string(variant_name(*variant)) + " has rows of " +
                     std::to_string(Rules::for_variant(*variant).n) + " holes, the position has " +
                     std::to_string(n));
  Rules r = Rules::for_variant(v);
  if (tuz) r.tuz = *tuz;
  r.play_out = play_out;
  return r;
}

Position parse_position(std::string_view text, const RuleOptions& options) {
  while (!text.empty() && (text.back() == '\r' || text.back() == '\n')) text.remove_suffix(1);
  std::vector<std::string_view> fields;
  for (auto f : split(text, ' ', true))
    for (auto g : split(f, '\t', true)) fields.push_back(g);
  if (fields.size() < 4 || fields.size() > 5)
    throw ParseError(
        "position string: expected 4 or 5 space-separated fields '<White holes>/<Black "
        "holes> <White kazna> <Black kazna> <side> [<move number>]', got " +
        std::to_string(fields.size()));
  auto rows = split(fields[0], '/', false);
  if (rows.size() != 2)
    throw ParseError("holes: expected '<White holes>/<Black holes>' with one '/', got " +
                     quoted(fields[0]));
  int holes[2][Position::kMaxN] = {};
  int tuz[2] = {0, 0};
  const char* row_name[2] = {"White holes", "Black holes"};
  int n = -1;
  for (int s = 0; s < 2; ++s) {
    auto cells = split(rows[s], ',', false);
    if (n < 0) n = int(cells.size());
    if (cells.size() != 9 && cells.size() != 7 && cells.size() != 5)
      throw ParseError(std::string(row_name[s]) +
                       ": expected 9, 7 or 5 comma-separated counts, got " +
                       std::to_string(cells.size()));
    if (int(cells.size()) != n)
      throw ParseError(std::string(row_name[s]) + ": expected " + std::to_string(n) +
                       " counts like White's row, got " + std::to_string(cells.size()));
    for (int i = 0; i < n; ++i) {
      auto c = cells[i];
      if (c == "x" || c == "X") {
        int owner = 1 - s;  // an x on Black's row is White's tuz
        if (tuz[owner])
          throw ParseError(std::string(row_name[s]) + ": more than one 'x' (one tuz per player)");
        tuz[owner] = i + 1;
        holes[s][i] = 0;
      } else if (!to_int(c, &holes[s][i])) {
        throw ParseError(std::string(row_name[s]) + ": hole " + std::to_string(i + 1) +
                         ": expected a count or 'x', got " + quoted(c));
      }
    }
  }
  Rules rules = options.resolve(n);
  int kazna[2];
  const char* kazna_name[2] = {"White kazna", "Black kazna"};
  for (int s = 0; s < 2; ++s)
    if (!to_int(fields[1 + s], &kazna[s]))
      throw ParseError(std::string(kazna_name[s]) + ": expected a number, got " +
                       quoted(fields[1 + s]));
  Side side;
  if (fields[3] == "w")
    side = Side::White;
  else if (fields[3] == "b")
    side = Side::Black;
  else
    throw ParseError("side: expected 'w' or 'b', got " + quoted(fields[3]));
  int move_number = 1;
  if (fields.size() == 5 && (!to_int(fields[4], &move_number) || move_number < 1))
    throw ParseError("move number: expected a number of 1 or more, got " + quoted(fields[4]));
  for (int o = 0; o < 2; ++o) {
    if (tuz[o] && !rules.tuz)
      throw ParseError(std::string(row_name[1 - o]) + ": 'x' (a tuz) but tuz is off in " +
                       std::string(variant_name(rules.variant())) + " rules");
    if (tuz[o] == n)
      throw ParseError(std::string(row_name[1 - o]) + ": 'x' in hole " + std::to_string(n) +
                       " (a tuz cannot be made there)");
  }
  if (tuz[0] && tuz[0] == tuz[1])
    throw ParseError("holes: both tuzes on hole " + std::to_string(tuz[0]) +
                     " (they must have different numbers)");
  Position pos;
  std::string why;
  if (!Position::from_parts(rules, holes, kazna[0], kazna[1], tuz, side, move_number, &pos, &why))
    throw ParseError("position: " + why);
  return pos;
}

std::string format_position(const Position& pos) {
  std::string out;
  const int n = pos.n();
  for (int s = 0; s < 2; ++s) {
    Side side = Side(s);
    for (int h = 1; h <= n; ++h) {
      if (h > 1) out += ',';
      if (pos.tuz(opposite(side)) == h)
        out += 'x';
      else
        out += std::to_string(pos.stones(side, h));
    }
    out += s == 0 ? '/' : ' ';
  }
  out += std::to_string(pos.kazna(Side::White)) + ' ' + std::to_string(pos.kazna(Side::Black));
  out += pos.side_to_move() == Side::White ? " w " : " b ";
  out += std::to_string(pos.move_number());
  return out;
}

bool parse_move_token(std::string_view text, MoveToken* out, std::string* why) {
  auto fail = [&](std::string msg) {
    if (why) *why = std::move(msg);
    return false;
  };
  std::string_view t = text;
  while (!t.empty() && (t.back() == '!' || t.back() == '?' || t.back() == ',')) t.remove_suffix(1);
  MoveToken m;
  if (t.empty() || t[0] < '1' || t[0] > '9')
    return fail("expected a move: a hole digit 1-9, then optionally the landing hole, X/x, (n)");
  m.hole = t[0] - '0';
  size_t i = 1;
  if (i < t.size() && t[i] >= '0' && t[i] <= '9') {
    if (t[i] == '0') return fail("landing hole must be 1-9, got '0'");
    m.landing = t[i] - '0';
    ++i;
  }
  if (i < t.size() && (t[i] == 'X' || t[i] == 'x')) {
    if (!m.landing) return fail("a tuz mark needs the landing hole before it");
    m.tuz_mark = true;
    ++i;
  }
  while (i < t.size() && t[i] == ' ') ++i;
  if (i < t.size() && t[i] == '(') {
    size_t close = t.find(')', i);
    int v;
    if (close == std::string_view::npos || !to_int(t.substr(i + 1, close - i - 1), &v))
      return fail("expected '(n)' with the mover's kazna total, got " + quoted(t.substr(i)));
    m.kazna = v;
    i = close + 1;
  }
  while (i < t.size() && (t[i] == '!' || t[i] == '?')) ++i;
  if (i != t.size()) return fail("unexpected " + quoted(t.substr(i)) + " after the move");
  *out = m;
  return true;
}

std::string check_move_token(const MoveToken& token, const MoveInfo& info) {
  std::string expected = format_move(info, MoveStyle::Book);
  if (token.landing && token.landing != info.last_hole)
    return "last stone falls in hole " + std::to_string(info.last_hole) + ", not " +
           std::to_string(token.landing) + " (expected " + expected + ")";
  if (token.landing && token.tuz_mark != info.tuz_made)
    return std::string(info.tuz_made ? "the move makes a tuz, the mark is missing"
                                     : "the move makes no tuz, but it is marked") +
           " (expected " + expected + ")";
  if (token.kazna >= 0 && token.kazna != info.kazna_after)
    return "the mover's kazna is " + std::to_string(info.kazna_after) + " after the move, not " +
           std::to_string(token.kazna) + " (expected " + expected + ")";
  return "";
}

std::string format_move(const MoveInfo& info, MoveStyle style) {
  std::string s{char('0' + info.hole), char('0' + info.last_hole)};
  switch (style) {
    case MoveStyle::PlayOK:
      if (info.tuz_made) s += 'X';
      if (info.captured) s += '(' + std::to_string(info.kazna_after) + ')';
      break;
    case MoveStyle::Tgk:
      if (info.tuz_made) s += 'x';
      break;
    case MoveStyle::Book:
      if (info.tuz_made) s += 'X';
      if (info.kazna_changed) s += " (" + std::to_string(info.kazna_after) + ')';
      break;
  }
  return s;
}

}  // namespace toguz
