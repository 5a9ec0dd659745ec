// Game records (rules.md "Game record"): a tolerant reader for PlayOK PGN and federation TGK,
// a replayer that checks every token against the rules, and a writer for both styles.
#include "rules/record.h"

#include <algorithm>
#include <cctype>

namespace toguz {

namespace {

constexpr int kPlayOkLineWidth = 59;  // PlayOK wraps movetext so that no line passes 59 chars

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

std::string quoted(std::string_view s) {
  std::string out(1, '\'');
  out += s;
  out += '\'';
  return out;
}

std::string at_line(int line) { return "line " + std::to_string(line) + ": "; }

bool is_result_word(std::string_view w) {
  return w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "\xC2\xBD-\xC2\xBD" || w == "*";
}

// The tokenizer and record splitter. One pass over the text; `line_` counts '\n'.
// A record ends where a tag line follows moves or a result, or where a move follows a result.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") text_.remove_prefix(3);  // UTF-8 BOM
  }

  std::vector<Record> read() {
    bool line_start = true;
    while (i_ < text_.size()) {
      char c = text_[i_];
      if (c == '\n') {
        ++line_;
        ++i_;
        line_start = true;
      } else if (is_space(c) || c == ',') {
        ++i_;
      } else if (line_start && (c == '[' || c == '%')) {
        if (c == '[') read_tag();
        else skip_to_line_end();  // PGN escape line
      } else {
        line_start = false;
        if (c == '{') read_comment();
        else if (c == '(') read_paren();
        else if (c == ';') skip_to_line_end();  // PGN rest-of-line comment
        else read_word();
      }
    }
    finish();
    return std::move(out_);
  }

 private:
  Record& current() {
    if (!open_) {
      cur_ = Record{};
      cur_.first_line = line_;
      open_ = true;
      has_moves_ = false;
      last_was_move_ = false;
    }
    return cur_;
  }

  void finish() {
    if (open_ && (!cur_.tags.empty() || !cur_.plies.empty() || !cur_.result_token.empty()))
      out_.push_back(std::move(cur_));
    open_ = false;
  }

  void skip_to_line_end() {
    while (i_ < text_.size() && text_[i_] != '\n') ++i_;
  }

  // [Name "value"] on one line; \" and \\ are escapes inside the value.
  void read_tag() {
    size_t end = text_.find('\n', i_);
    if (end == std::string_view::npos) end = text_.size();
    std::string_view whole = trim(text_.substr(i_, end - i_));
    auto bad = [&](const std::string& what) {
      throw ParseError(at_line(line_) + "tag: expected [Name \"value\"], " + what + " in " +
                       quoted(whole.substr(0, 80)));
    };
    size_t j = i_ + 1;
    auto skip_blanks = [&] {
      while (j < end && (text_[j] == ' ' || text_[j] == '\t')) ++j;
    };
    skip_blanks();
    size_t name_begin = j;
    while (j < end && (std::isalnum(static_cast<unsigned char>(text_[j])) || text_[j] == '_' || text_[j] == '-')) ++j;
    if (j == name_begin) bad("the name is missing");
    std::string name(text_.substr(name_begin, j - name_begin));
    skip_blanks();
    if (j >= end || text_[j] != '"') bad("the opening '\"' of the value is missing");
    ++j;
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
    if (!closed) bad("the closing '\"' of the value is missing");
    skip_blanks();
    if (j >= end || text_[j] != ']') bad("the closing ']' is missing");
    ++j;
    if (has_moves_) finish();
    Record& r = current();
    if (r.tags.empty() && r.plies.empty()) r.first_line = line_;
    if (!value.empty() && value.back() == '\r') value.pop_back();
    r.tags.emplace_back(std::move(name), std::move(value));
    i_ = j;  // the rest of the line (another tag, blanks) is read by the main loop
  }

  // { ... } possibly over several lines. "{zero}" after the result marks a no-move end.
  void read_comment() {
    int start_line = line_;
    size_t close = text_.find('}', i_);
    if (close == std::string_view::npos)
      throw ParseError(at_line(start_line) + "comment: '{' is never closed by '}'");
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
    int start_line = line_;
    size_t j = i_ + 1;
    int depth = 1;
    while (j < text_.size() && depth > 0) {
      if (text_[j] == '(') ++depth;
      else if (text_[j] == ')') --depth;
      else if (text_[j] == '\n') ++line_;
      ++j;
    }
    if (depth > 0) throw ParseError(at_line(start_line) + "'(' is never closed by ')'");
    std::string_view group = text_.substr(i_, j - i_);
    std::string_view inner = trim(group.substr(1, group.size() - 2));
    bool count = !inner.empty() && inner.size() <= 3 &&
                 std::all_of(inner.begin(), inner.end(), is_digit);
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
    size_t j = i_;
    while (j < text_.size() && !is_space(text_[j]) && text_[j] != ',' && text_[j] != '{' &&
           text_[j] != '(')
      ++j;
    std::string_view w = text_.substr(i_, j - i_);
    i_ = j;
    if (is_result_word(w)) {
      Record& r = current();
      if (!r.result_token.empty())
        throw ParseError(at_line(line_) + "a second result " + quoted(w) + " after " +
                         quoted(r.result_token) + " (expected a tag line starting the next game)");
      r.result_token = std::string(w);
      r.result_line = line_;
      has_moves_ = true;
      last_was_move_ = false;
      return;
    }
    // A move number "12." or "12..." (PlayOK may glue the move to it: "12.65").
    size_t k = 0;
    while (k < w.size() && is_digit(w[k])) ++k;
    if (k > 0 && k < w.size() && w[k] == '.') {
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
  size_t last_word_end_ = 0;
};

std::string tag_line(std::string_view name, std::string_view value) {
  std::string out = "[";
  out += name;
  out += " \"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n' || c == '\r') c = ' ';
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

std::vector<Record> read_records(std::string_view text) { return Reader(text).read(); }

Replayed replay_record(const Record& record, const RuleOptions& overrides) {
  Replayed out{Game(), std::nullopt};
  auto whole_game = [&](int line, std::string token, std::string message) {
    out.error = ReplayError{0, line, std::move(token), std::move(message)};
    return out;
  };

  // Rules: the record's tags, then the caller's overrides.
  RuleOptions options;
  if (auto v = record.tag("Variant")) {
    Variant variant;
    if (!parse_variant(lower(trim(*v)), &variant))
      return whole_game(record.first_line, "",
                        "Variant tag: expected standard, kozdatu or bestemshi, got " + quoted(*v));
    options.variant = variant;
  }
  if (auto rules = record.tag("Rules")) {
    std::string_view rest = *rules;
    while (true) {
      size_t comma = rest.find(',');
      std::string item = lower(trim(rest.substr(0, comma)));
      if (item == "play-out") options.play_out = true;
      else if (item == "tuz") options.tuz = true;
      else if (item == "no-tuz") options.tuz = false;
      else if (!item.empty())
        return whole_game(record.first_line, "",
                          "Rules tag: expected comma-separated options play-out, tuz, no-tuz; got " +
                              quoted(item));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  if (overrides.variant) options.variant = overrides.variant;
  if (overrides.tuz) options.tuz = overrides.tuz;
  if (overrides.play_out) options.play_out = true;

  auto fen = record.tag("FEN");
  try {
    out.game = Game(fen ? parse_position(*fen, options) : Position::start(options.resolve()));
  } catch (const ParseError& e) {
    return whole_game(record.first_line, "", std::string(fen ? "FEN tag: " : "") + e.what());
  }

  Game& game = out.game;
  for (size_t k = 0; k < record.plies.size(); ++k) {
    const Record::Ply& ply = record.plies[k];
    auto bad = [&](std::string message) {
      out.error = ReplayError{int(k) + 1, ply.line, ply.token, std::move(message)};
      return out;
    };
    MoveToken token;
    std::string why;
    if (!parse_move_token(ply.token, &token, &why)) return bad("not a move: " + why);
    if (game.over())
      return bad("move after the end of the game (" + std::string(end_reason_name(game.end_reason())) +
                 " after ply " + std::to_string(game.ply_count()) + ")");
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
      result_line = record.first_line;
    } else if (t != "*" && t != recorded_text) {
      return whole_game(record.result_line, recorded_text,
                        "the moves end with " + recorded_text + " but the Result tag says " + t);
    }
  }
  Result recorded = Result::None;
  if (!recorded_text.empty() && !parse_result(recorded_text, &recorded))
    return whole_game(result_line, recorded_text,
                      "Result tag: expected 1-0, 0-1, 1/2-1/2 or *, got " + quoted(recorded_text));

  if (game.outcome() != Outcome::Ongoing) {
    Result actual = game.result();
    auto score = game.score();
    if (recorded != Result::None && recorded != actual)
      return whole_game(result_line, recorded_text,
                        "the recorded result " + recorded_text + " contradicts the end of the game: " +
                            std::string(end_reason_name(game.end_reason())) + ", " +
                            std::to_string(score[0]) + "-" + std::to_string(score[1]) + ", so " +
                            std::string(result_text(actual)));
  }
  const Position& last = game.position();
  if (record.zero && (game.outcome() == Outcome::Ongoing ||
                      last.stones_on_row(last.side_to_move()) != 0))
    return whole_game(record.result_line, "{zero}",
                      "{zero} says the side to move had no stones left, but " +
                          (game.outcome() == Outcome::Ongoing
                               ? std::string("the game is not over")
                               : "the game ended by " + std::string(end_reason_name(game.end_reason()))));
  if (game.outcome() == Outcome::Ongoing && recorded != Result::None)
    game.set_recorded_result(recorded,
                             recorded == Result::Draw ? EndReason::Agreement : EndReason::Resignation);
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
  if (!(game.start() == Position::start(rules))) out += tag_line("FEN", format_position(game.start()));
  out += '\n';

  int number = game.start().move_number();
  Side side = game.start().side_to_move();
  const auto& moves = game.moves();
  if (style == RecordStyle::Tgk) {
    // One move number per line, lowercase x, no counts, no result in the moves.
    for (size_t i = 0; i < moves.size(); ++i) {
      if (side == Side::White) {
        out += std::to_string(number) + ". " + noted(i, format_move(moves[i], MoveStyle::Tgk));
        if (i + 1 == moves.size()) out += '\n';
      } else {
        if (i == 0) out += std::to_string(number) + "... ";
        else out += ' ';
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
