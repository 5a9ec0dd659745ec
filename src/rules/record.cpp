// Game records (docs/rules.md "Game record"): a tolerant reader for PlayOK PGN and federation TGK,
// a replayer that checks every token against the rules, and a writer for both styles.
#include "rules/record.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>

#include "rules/text.h"

namespace toguz {

namespace {

constexpr int kPlayOkLineWidth = 59;  // PlayOK wraps movetext so that no line passes 59 chars

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

std::string quoted(std::string_view s) {
  std::string out(1, '\'');
  out += s;
  out += '\'';
  return out;
}

bool is_result_word(std::string_view w) {
  return w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "\xC2\xBD-\xC2\xBD" || w == "*";
}

// The first non-blank character of the line that starts at `pos`, or '\n'.
char line_lead(std::string_view text, size_t pos) {
  while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\r')) ++pos;
  return pos < text.size() ? text[pos] : '\n';
}

// A syntax error in one game; the reader records it and goes on at the next tag block.
struct BadGame {
  size_t at;  // offset of the fault
  int line;
  std::string token;
  std::string message;
};

// The tokenizer and record splitter. One pass over the text; `line_` counts '\n'.
// A record ends where a tag block begins (a tag line after a line that is not a tag line),
// where a tag line follows moves or a result, or where a move follows a result.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") text_.remove_prefix(3);  // UTF-8 BOM
  }

  std::vector<Record> read() {
    while (i_ < text_.size()) {
      try {
        step();
      } catch (const BadGame& bad) {
        Record& r = current();
        if (!r.read_error)
          r.read_error = ReplayError{0, 0, bad.line, column_at(bad.at), bad.token, bad.message};
        skip_to_next_block(bad.at);
      }
    }
    if (open_ && !cur_.plies.empty() && cur_.result_token.empty() && !cur_.read_error &&
        (pgn_layout_ || text_.back() != '\n'))
      cur_.unterminated = true;
    finish();
    return std::move(out_);
  }

 private:
  void step() {
    char c = text_[i_];
    if (c == '\n') {
      ++line_;
      ++i_;
      line_start_ = true;
      prev_line_tag_ = line_tag_;
      line_tag_ = false;
      line_words_ = 0;
    } else if (is_space(c) || c == ',') {
      ++i_;
    } else if (line_start_ && (c == '[' || c == '%')) {
      if (c == '[')
        read_tag();
      else
        skip_to_line_end();  // PGN escape line
    } else {
      line_start_ = false;
      if (c == '{')
        read_comment();
      else if (c == '(')
        read_paren();
      else if (c == ';')
        skip_to_line_end();  // PGN rest-of-line comment
      else
        read_word();
    }
  }

  Record& current() {
    if (!open_) {
      cur_ = Record{};
      cur_.first_line = line_;
      open_ = true;
      has_moves_ = false;
      last_was_move_ = false;
      pgn_layout_ = false;
    }
    return cur_;
  }

  void finish() {
    if (open_ && (!cur_.tags.empty() || !cur_.plies.empty() || !cur_.result_token.empty() ||
                  cur_.read_error)) {
      cur_.number = int(out_.size()) + 1;
      if (cur_.read_error) cur_.read_error->game = cur_.number;
      out_.push_back(std::move(cur_));
    }
    open_ = false;
  }

  // 1-based column of `pos` on its line, in UTF-8 characters.
  int column_at(size_t pos) const {
    size_t begin = pos;
    while (begin > 0 && text_[begin - 1] != '\n') --begin;
    int column = 1;
    for (size_t k = begin; k < pos && k < text_.size(); ++k)
      if ((static_cast<unsigned char>(text_[k]) & 0xC0) != 0x80) ++column;
    return column;
  }

  void skip_to_line_end() {
    while (i_ < text_.size() && text_[i_] != '\n') ++i_;
  }

  // After a bad game: on from the line after `at` to the first tag line whose previous line
  // is not a tag line (the next game's tag block), or to the end.
  void skip_to_next_block(size_t at) {
    size_t begin = at;
    while (begin > 0 && text_[begin - 1] != '\n') --begin;
    bool prev_tag = line_lead(text_, begin) == '[';  // line_ is the line of `at`
    size_t pos = text_.find('\n', at);
    while (pos != std::string_view::npos) {
      ++line_;
      ++pos;
      const bool tag = line_lead(text_, pos) == '[';
      if (tag && !prev_tag) break;
      prev_tag = tag;
      pos = text_.find('\n', pos);
    }
    i_ = pos == std::string_view::npos ? text_.size() : pos;
    line_start_ = true;
    prev_line_tag_ = false;
    line_tag_ = false;
    line_words_ = 0;
  }

  // The offset of `close` matching the opener at i_ ('(' nests), in one pass that stops at a
  // tag line (its first non-blank character '['): an opener still open there, or at the end,
  // was never closed, and BadGame names it.
  size_t find_close(char open, char close, const char* what) const {
    const std::string o(1, open), cl(1, close);
    int depth = 1, lines = 0;
    for (size_t j = i_ + 1; j < text_.size(); ++j) {
      const char c = text_[j];
      if (c == open && open != '{') {
        ++depth;
      } else if (c == close && --depth == 0) {
        return j;
      } else if (c == '\n') {
        ++lines;
        if (line_lead(text_, j + 1) == '[')
          throw BadGame{i_, line_, o,
                        std::string(what) + ": '" + o + "' is not closed: expected '" + cl +
                            "' before the tag line at line " + std::to_string(line_ + lines)};
      }
    }
    throw BadGame{i_, line_, o,
                  std::string(what) + ": '" + o + "' is never closed: expected '" + cl + "'"};
  }

  // [Name "value"] on one line; \" and \\ are escapes inside the value.
  void read_tag() {
    // A tag block after anything else, a tag after moves, and a tag the open game already has
    // (two blocks on consecutive lines) start the next game.
    const bool block_start = !line_tag_ && !prev_line_tag_;
    if (has_moves_ || (open_ && block_start)) finish();
    line_tag_ = true;
    Record& r = current();
    size_t end = text_.find('\n', i_);
    if (end == std::string_view::npos) end = text_.size();
    std::string_view whole = trim(text_.substr(i_, end - i_));
    size_t j = i_ + 1;
    auto bad = [&](const std::string& what) {
      throw BadGame{
          j, line_, "",
          "tag: expected [Name \"value\"], " + what + " in " + quoted(whole.substr(0, 80))};
    };
    auto skip_blanks = [&] {
      while (j < end && (text_[j] == ' ' || text_[j] == '\t')) ++j;
    };
    skip_blanks();
    size_t name_begin = j;
    while (j < end && (std::isalnum(static_cast<unsigned char>(text_[j])) || text_[j] == '_' ||
                       text_[j] == '-'))
      ++j;
    if (j == name_begin) bad("the name is missing");
    std::string name(text_.substr(name_begin, j - name_begin));
    if (r.tag(name) && !r.read_error) {
      finish();
      current();  // r is the new game
    }
    skip_blanks();
    if (j >= end || text_[j] != '"') bad("the opening '\"' of the value is missing");
    const size_t quote = j++;
    std::string value;
    bool closed = false;
    while (j < end) {
      char c = text_[j++];
      if (c == '\\' && j < end && (text_[j] == '"' || text_[j] == '\\')) {
        value += text_[j++];
      } else if (c == '"') {
        closed = true;
        break;
      } else {
        value += c;
      }
    }
    if (!closed) {
      j = quote;  // the '"' that is never closed
      bad("the closing '\"' of the value is missing");
    }
    skip_blanks();
    if (j >= end || text_[j] != ']') bad("the closing ']' is missing");
    ++j;
    if (r.tags.empty() && r.plies.empty()) r.first_line = line_;
    if (!value.empty() && value.back() == '\r') value.pop_back();
    r.tags.emplace_back(std::move(name), std::move(value));
    r.tag_lines.push_back(line_);
    i_ = j;  // the rest of the line (another tag, blanks) is read by the main loop
  }

  // { ... } possibly over several lines. "{zero}" after the result marks a no-move end.
  void read_comment() {
    const size_t close = find_close('{', '}', "comment");
    std::string_view body = text_.substr(i_ + 1, close - i_ - 1);
    line_ += int(std::count(body.begin(), body.end(), '\n'));
    i_ = close + 1;
    Record& r = current();
    std::string_view t = trim(body);
    if (!r.result_token.empty() && t == "zero") r.zero = true;
    r.comments.emplace_back(t);
  }

  // ( ... ): "(10)" is the (n) of the move before it (book style, "65 (10)"); any other
  // parenthesised text ("(forced)", a variation) is ignored.
  void read_paren() {
    const int start_line = line_;
    const size_t close = find_close('(', ')', "parenthesis");
    const size_t j = close + 1;
    std::string_view group = text_.substr(i_, j - i_);
    line_ += int(std::count(group.begin(), group.end(), '\n'));
    std::string_view inner = trim(group.substr(1, group.size() - 2));
    bool count =
        !inner.empty() && inner.size() <= 3 && std::all_of(inner.begin(), inner.end(), is_digit);
    size_t begin = i_;
    i_ = j;
    if (!count) return;
    Record& r = current();
    if (last_was_move_ && !r.plies.empty()) {
      // Glued ("65(10)") or separated by blanks ("65 (10)"), as written.
      std::string& token = r.plies.back().token;
      if (begin != last_word_end_) token += ' ';
      token += group;
      last_was_move_ = false;
    } else {
      add_ply(group, start_line);  // a count with no move before it: replay reports it
    }
  }

  void read_word() {
    const size_t begin = i_;
    size_t j = i_;
    while (j < text_.size() && !is_space(text_[j]) && text_[j] != ',' && text_[j] != '{' &&
           text_[j] != '(')
      ++j;
    std::string_view w = text_.substr(i_, j - i_);
    const bool first_on_line = line_words_++ == 0;
    if (is_result_word(w)) {
      Record& r = current();
      if (!r.result_token.empty())
        throw BadGame{begin, line_, std::string(w),
                      "a second result " + quoted(w) + " after " + quoted(r.result_token) +
                          " (expected a tag line starting the next game)"};
      i_ = j;
      r.result_token = std::string(w);
      r.result_line = line_;
      has_moves_ = true;
      last_was_move_ = false;
      return;
    }
    i_ = j;
    // A move number "12." or "12..." (PlayOK may glue the move to it: "12.65").
    size_t k = 0;
    while (k < w.size() && is_digit(w[k])) ++k;
    if (k > 0 && k < w.size() && w[k] == '.') {
      if (!first_on_line) pgn_layout_ = true;  // PGN: several move numbers on a line
      while (k < w.size() && w[k] == '.') ++k;
      w.remove_prefix(k);
      last_was_move_ = false;
      if (w.empty()) return;
    }
    if (std::all_of(w.begin(), w.end(), [](char c) { return c == '!' || c == '?'; })) return;
    add_ply(w, line_);
    last_word_end_ = i_;
    last_was_move_ = true;
  }

  void add_ply(std::string_view token, int line) {
    if (open_ && !cur_.result_token.empty()) finish();  // moves after a result: a new game
    Record& r = current();
    if (r.tags.empty() && r.plies.empty()) r.first_line = line;
    r.plies.push_back(Record::Ply{std::string(token), line});
    has_moves_ = true;
  }

  std::string_view text_;
  size_t i_ = 0;
  int line_ = 1;
  std::vector<Record> out_;
  Record cur_;
  bool open_ = false;
  bool has_moves_ = false;      // the open record has a move or a result
  bool last_was_move_ = false;  // a "(n)" now belongs to the last ply
  bool pgn_layout_ = false;     // the open record puts a move number after other words
  size_t last_word_end_ = 0;
  bool line_start_ = true;      // nothing but blanks so far on this line
  bool line_tag_ = false;       // this line holds a tag
  bool prev_line_tag_ = false;  // the line before this one held a tag
  int line_words_ = 0;          // words read on this line
};

std::string tag_line(std::string_view name, std::string_view value) {
  std::string out = "[";
  out += name;
  out += " \"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';  // a tag is one line of text
    out += c;
  }
  return out + "\"]\n";
}

}  // namespace

std::optional<std::string> Record::tag(std::string_view name) const {
  for (const auto& [k, v] : tags)
    if (k == name) return v;
  return std::nullopt;
}

int Record::tag_line(std::string_view name) const {
  for (size_t k = 0; k < tags.size() && k < tag_lines.size(); ++k)
    if (tags[k].first == name) return tag_lines[k];
  return first_line;
}

std::string describe(const ReplayError& e) {
  std::string where;
  auto part = [&where](const std::string& s) { where += (where.empty() ? "" : ", ") + s; };
  if (e.game > 0) part("game " + std::to_string(e.game));
  if (e.line > 0) part("line " + std::to_string(e.line));
  if (e.column > 0) part("column " + std::to_string(e.column));
  std::string out = where.empty() ? "" : where + ": ";
  if (e.ply > 0) out += "ply " + std::to_string(e.ply) + ", token " + quoted(e.token) + ": ";
  return out + e.message;
}

namespace {

// Unicode code points of Windows-1251 bytes 0x80..0xBF (0 = unassigned); 0xC0..0xFF are
// U+0410..U+044F.
constexpr char32_t kCp1251High[64] = {
    0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021, 0x20AC, 0x2030, 0x0409,
    0x2039, 0x040A, 0x040C, 0x040B, 0x040F, 0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0,      0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F, 0x00A0,
    0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7, 0x0401, 0x00A9, 0x0404, 0x00AB,
    0x00AC, 0x00AD, 0x00AE, 0x0407, 0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6,
    0x00B7, 0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457};

// The offset of the first byte that breaks UTF-8 (overlong forms and surrogates included),
// or npos.
size_t first_non_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    int more = 0;
    char32_t cp = 0, min = 0;
    if (c < 0x80) {
      ++i;
      // ASCII, the bulk of a record: eight bytes at a time.
      uint64_t word;
      while (i + 8 <= s.size() &&
             (std::memcpy(&word, s.data() + i, 8), (word & 0x8080808080808080u) == 0))
        i += 8;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      more = 1, cp = c & 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
      more = 2, cp = c & 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
      more = 3, cp = c & 0x07, min = 0x10000;
    } else {
      return i;
    }
    if (i + more >= s.size()) return i;
    for (int k = 1; k <= more; ++k) {
      const unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return i;
      cp = cp << 6 | (d & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += more + 1;
  }
  return std::string_view::npos;
}

void put_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | cp >> 6);
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xE0 | cp >> 12);
    out += char(0x80 | (cp >> 6 & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

std::string where_in(std::string_view s, size_t at) {
  const int line = 1 + int(std::count(s.begin(), s.begin() + at, '\n'));
  const size_t begin = s.rfind('\n', at == 0 ? 0 : at - 1);
  const size_t column = at - (begin == std::string_view::npos || at == 0 ? 0 : begin + 1) + 1;
  return "line " + std::to_string(line) + ", byte " + std::to_string(column);
}

}  // namespace

std::string decode_record_text(std::string_view bytes, std::string* note) {
  if (note) note->clear();
  std::string_view body = bytes;
  if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);
  if (trim(body).empty())
    throw ParseError(
        "empty input: no game record (expected PGN or TGK text: tag lines such as "
        "[Event \"...\"], then the moves)");
  // Binary data: a NUL byte, or more control characters than a stray few in text (over 5% of
  // the first 64 KiB, where a binary file's header shows them).
  if (const void* nul = std::memchr(body.data(), 0, body.size()))
    throw ParseError("not a game record: binary data (a NUL byte at " +
                     where_in(body, size_t(static_cast<const char*>(nul) - body.data())) + ")");
  const std::string_view head = body.substr(0, 65536);
  int controls = 0;
  for (char ch : head) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 && !is_space(ch) && c != 0x1A) ++controls;
  }
  if (controls >= 4 && controls * 20 > int(head.size()))
    throw ParseError("not a game record: binary data (" + std::to_string(controls) +
                     " control characters)");
  std::string_view lead = trim(body);
  if (lead.front() == '<') {
    const std::string head = lower(lead.substr(0, 200));
    const bool html = head.find("<!doctype html") == 0 || head.find("<html") != std::string::npos ||
                      head.find("<head") != std::string::npos ||
                      head.find("<body") != std::string::npos;
    throw ParseError(std::string("not a game record: ") +
                     (html ? "an HTML page" : "markup (the text starts with '<')") +
                     "; save the PGN or TGK text itself, not the web page around it");
  }
  const size_t bad = first_non_utf8(body);
  if (bad == std::string_view::npos) return std::string(bytes);
  // Not UTF-8: Windows-1251 when every high byte is assigned there and most are letters.
  int high = 0, letters = 0;
  bool unassigned = false;
  for (char ch : body) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x80) continue;
    ++high;
    if (c >= 0xC0 || c == 0xA8 || c == 0xB8 || c == 0xB2 || c == 0xB3 || c == 0xAA || c == 0xBA ||
        c == 0xAF || c == 0xBF || c == 0xA1 || c == 0xA2)
      ++letters;
    if (c < 0xC0 && kCp1251High[c - 0x80] == 0) unassigned = true;
  }
  if (unassigned || letters * 10 < high * 8)
    throw ParseError(
        "not a game record: the text is neither UTF-8 nor Windows-1251 (byte 0x" +
        std::string(1, "0123456789ABCDEF"[static_cast<unsigned char>(body[bad]) >> 4]) +
        std::string(1, "0123456789ABCDEF"[static_cast<unsigned char>(body[bad]) & 15]) + " at " +
        where_in(body, bad) + ")");
  std::string out;
  out.reserve(body.size() * 2);
  for (char ch : body) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x80)
      out += ch;
    else
      put_utf8(out, c >= 0xC0 ? char32_t(0x0410 + (c - 0xC0)) : kCp1251High[c - 0x80]);
  }
  if (note)
    *note = "the text is not UTF-8 (byte at " + where_in(body, bad) + "); read as Windows-1251";
  return out;
}

RecordFile read_record_file(std::string_view bytes) {
  RecordFile file;
  const std::string text = decode_record_text(bytes, &file.note);
  file.games = Reader(text).read();
  return file;
}

std::vector<Record> read_records(std::string_view text) {
  return read_record_file(text).games;
}

namespace {

// "82-80" (blanks, ':' also accepted) as two stone totals; false when it is not that.
bool parse_count(std::string_view text, int* white, int* black) {
  text = trim(text);
  size_t sep = text.find_first_of("-:");
  if (sep == std::string_view::npos) return false;
  auto number = [](std::string_view t, int* out) {
    t = trim(t);
    if (t.empty() || t.size() > 4 || !std::all_of(t.begin(), t.end(), is_digit)) return false;
    *out = std::stoi(std::string(t));
    return true;
  };
  return number(text.substr(0, sep), white) && number(text.substr(sep + 1), black);
}

}  // namespace

Replayed replay_record(const Record& record, const RuleOptions& overrides) {
  Replayed out{Game(), std::nullopt, std::nullopt};
  const int number = record.number;
  auto whole_game = [&](int line, std::string token, std::string message) {
    out.error = ReplayError{number, 0, line, 0, std::move(token), std::move(message)};
    return out;
  };
  if (record.read_error) {
    out.error = *record.read_error;
    out.error->game = number;
    return out;
  }

  // Rules: the record's tags, then the caller's overrides.
  RuleOptions options;
  if (auto v = record.tag("Variant")) {
    Variant variant;
    if (!parse_variant(lower(trim(*v)), &variant))
      return whole_game(record.tag_line("Variant"), "",
                        "Variant tag: expected standard, kozdatu or bestemshi, got " + quoted(*v));
    options.variant = variant;
  }
  if (auto rules = record.tag("Rules")) {
    std::string_view rest = *rules;
    while (true) {
      size_t comma = rest.find(',');
      std::string item = lower(trim(rest.substr(0, comma)));
      if (item == "play-out")
        options.play_out = true;
      else if (item == "tuz")
        options.tuz = true;
      else if (item == "no-tuz")
        options.tuz = false;
      else if (!item.empty())
        return whole_game(
            record.tag_line("Rules"), "",
            "Rules tag: expected comma-separated options play-out, tuz, no-tuz; got " +
                quoted(item));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  if (overrides.variant) options.variant = overrides.variant;
  if (overrides.tuz) options.tuz = overrides.tuz;
  if (overrides.play_out) options.play_out = true;

  // FEN: a position string, or "startpos" (as UGI runners write it) for the variant's start.
  auto fen = record.tag("FEN");
  if (fen && lower(trim(*fen)) == "startpos") fen.reset();
  try {
    out.game = Game(fen ? parse_position(*fen, options) : Position::start(options.resolve()));
  } catch (const ParseError& e) {
    return whole_game(record.tag_line(fen ? "FEN" : "Variant"), "",
                      std::string(fen ? "FEN tag: " : "") + e.what());
  }

  Game& game = out.game;
  for (size_t k = 0; k < record.plies.size(); ++k) {
    const Record::Ply& ply = record.plies[k];
    auto bad = [&](std::string message) {
      // The last token of a record cut off in its moves may be a cut token ("91(8").
      if (record.unterminated && k + 1 == record.plies.size())
        message += "; the input ends after this token: the record looks truncated";
      out.error = ReplayError{number, int(k) + 1, ply.line, 0, ply.token, std::move(message)};
      return out;
    };
    MoveToken token;
    std::string why;
    if (!parse_move_token(ply.token, &token, &why)) return bad("not a move: " + why);
    if (game.over())
      return bad("move after the end of the game (" +
                 std::string(end_reason_name(game.end_reason())) + " after ply " +
                 std::to_string(game.ply_count()) + ")");
    MoveInfo info;
    if (!game.play(token.hole, &why, &info)) return bad("illegal move: " + why);
    std::string mismatch = check_move_token(token, info);
    if (!mismatch.empty()) {
      game.undo();
      return bad(mismatch);
    }
  }

  // The recorded result: the one after the moves, else the Result tag.
  std::string recorded_text = record.result_token;
  int result_line = record.result_line;
  if (auto tag = record.tag("Result")) {
    std::string t(trim(*tag));
    if (recorded_text.empty() || recorded_text == "*") {
      recorded_text = t;
      result_line = record.tag_line("Result");
    } else if (t != "*" && t != recorded_text) {
      return whole_game(record.result_line, recorded_text,
                        "the moves end with " + recorded_text + " but the Result tag (line " +
                            std::to_string(record.tag_line("Result")) + ") says " + t);
    }
  }
  Result recorded = Result::None;
  if (!recorded_text.empty() && !parse_result(recorded_text, &recorded))
    return whole_game(result_line, recorded_text,
                      "Result tag: expected 1-0, 0-1, 1/2-1/2 or *, got " + quoted(recorded_text));

  const bool ended_on_board = game.outcome() != Outcome::Ongoing;
  const auto score = game.score();
  const std::string score_text = std::to_string(score[0]) + "-" + std::to_string(score[1]);
  const std::string end_text =
      ended_on_board ? std::string(end_reason_name(game.end_reason())) + ", " + score_text : "";
  if (ended_on_board) {
    Result actual = game.result();
    if (recorded != Result::None && recorded != actual)
      return whole_game(result_line, recorded_text,
                        "the recorded result " + recorded_text +
                            " contradicts the end of the game: " + end_text + ", so " +
                            std::string(result_text(actual)));
  }
  // Count (TGK): the final totals; checked where the board ended the game.
  if (auto count = record.tag("Count")) {
    int white = 0, black = 0;
    const int line = record.tag_line("Count");
    if (!parse_count(*count, &white, &black))
      return whole_game(
          line, *count,
          "Count tag: expected the final totals '<White>-<Black>', e.g. '82-80', got " +
              quoted(*count));
    if (ended_on_board && (white != score[0] || black != score[1]))
      return whole_game(line, *count,
                        "the Count tag says " + std::to_string(white) + "-" +
                            std::to_string(black) + " but the game ended on the board at " +
                            score_text + " (" + std::string(end_reason_name(game.end_reason())) +
                            " after ply " + std::to_string(game.ply_count()) + ")");
  }
  const Position& last = game.position();
  if (record.zero &&
      (game.outcome() == Outcome::Ongoing || last.stones_on_row(last.side_to_move()) != 0))
    return whole_game(
        record.result_line, "{zero}",
        "{zero} says the side to move had no stones left, but " +
            (game.outcome() == Outcome::Ongoing
                 ? std::string("the game is not over")
                 : "the game ended by " + std::string(end_reason_name(game.end_reason()))));
  if (record.unterminated && !ended_on_board) {
    const Record::Ply& lastply = record.plies.back();
    out.warning = ReplayError{
        number,
        int(record.plies.size()),
        lastply.line,
        0,
        lastply.token,
        "the input ends inside the game's moves, with no result token and the game not over on "
        "the board: the record looks truncated (expected 1-0, 0-1, 1/2-1/2 or * after the moves)"};
  }
  if (game.outcome() == Outcome::Ongoing && recorded != Result::None)
    game.set_recorded_result(
        recorded, recorded == Result::Draw ? EndReason::Agreement : EndReason::Resignation);
  return out;
}

std::string write_record(const Game& game,
                         const std::vector<std::pair<std::string, std::string>>& tags,
                         RecordStyle style, const std::vector<MoveNote>& notes) {
  const std::string result(result_text(game.result()));
  // A move with its note: "65(10)?! {+1.25}".
  auto noted = [&notes](size_t i, std::string move) {
    if (i >= notes.size()) return move;
    move += notes[i].mark;
    if (!notes[i].comment.empty()) move += " {" + notes[i].comment + "}";
    return move;
  };
  std::string out;
  bool wrote_result = false;
  for (const auto& [name, value] : tags) {
    if (name == "Variant" || name == "Rules" || name == "FEN") continue;  // rewritten below
    if (name == "Result") {
      if (!wrote_result) out += tag_line(name, result);
      wrote_result = true;
    } else {
      out += tag_line(name, value);
    }
  }
  if (!wrote_result) out += tag_line("Result", result);

  const Rules rules = game.rules();
  const Variant variant = rules.variant();
  if (variant != Variant::Standard) out += tag_line("Variant", variant_name(variant));
  std::string options;
  auto add_option = [&](const char* o) {
    if (!options.empty()) options += ',';
    options += o;
  };
  if (rules.play_out) add_option("play-out");
  if (rules.tuz != Rules::for_variant(variant).tuz) add_option(rules.tuz ? "tuz" : "no-tuz");
  if (!options.empty()) out += tag_line("Rules", options);
  if (!(game.start() == Position::start(rules)))
    out += tag_line("FEN", format_position(game.start()));
  out += '\n';

  int number = game.start().move_number();
  Side side = game.start().side_to_move();
  const auto& moves = game.moves();
  if (style == RecordStyle::Tgk) {
    // One move number per line, lowercase x, no counts, no result in the moves; a game with no
    // moves gets its result as its movetext, so that it reads back as a game of its own.
    if (moves.empty()) return out + result + '\n';
    for (size_t i = 0; i < moves.size(); ++i) {
      if (side == Side::White) {
        out += std::to_string(number) + ". " + noted(i, format_move(moves[i], MoveStyle::Tgk));
        if (i + 1 == moves.size()) out += '\n';
      } else {
        if (i == 0)
          out += std::to_string(number) + "... ";
        else
          out += ' ';
        out += noted(i, format_move(moves[i], MoveStyle::Tgk)) + '\n';
        ++number;
      }
      side = opposite(side);
    }
    return out;
  }

  // PlayOK: "1. 65(10) 98 2. ..." wrapped at PlayOK's width, the result last, "{zero}" after it
  // when the side to move had no stones.
  std::string line;
  auto put = [&](const std::string& word) {
    if (line.empty()) {
      line = word;
    } else if (int(line.size() + 1 + word.size()) > kPlayOkLineWidth) {
      out += line + '\n';
      line = word;
    } else {
      line += ' ' + word;
    }
  };
  for (size_t i = 0; i < moves.size(); ++i) {
    std::string number_text;
    if (side == Side::White)
      number_text = std::to_string(number) + ".";
    else if (i == 0)
      number_text = std::to_string(number) + "...";
    std::string move =
        format_move(moves[i], MoveStyle::PlayOK) + (i < notes.size() ? notes[i].mark : "");
    if (style == RecordStyle::Pgn && !number_text.empty()) {
      put(number_text + " " + move);  // one word: the line may break before the number only
    } else {
      if (!number_text.empty()) put(number_text);
      put(move);
    }
    if (i < notes.size() && !notes[i].comment.empty()) put("{" + notes[i].comment + "}");
    if (side == Side::Black) ++number;
    side = opposite(side);
  }
  put(result);
  if (game.end_reason() == EndReason::NoMove) line += " {zero}";
  out += line + '\n';
  return out;
}

}  // namespace toguz
