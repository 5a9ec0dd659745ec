// Game records: PlayOK PGN and federation TGK (read both, write either), rules.md "Game record".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rules/game.h"
#include "rules/notation.h"

namespace toguz {

// Why the reader could not read a game, or why a game did not replay. `game` is the 1-based
// number of the game in its input; `line` and `column` (1-based, in characters) point at the
// fault; `token` is the text at fault ("" when the message quotes it or there is none).
struct ReplayError {
  int game = 0;
  int ply = 0;  // 1-based ply of the bad token (0 for an error about the whole game)
  int line = 0;
  int column = 0;  // 0 when not known
  std::string token;
  std::string message;  // what was wrong and what was expected
};

// "game G, line L, column C: ply P, token 'T': message"; the parts that are not known (0 or
// empty) are left out. Every front end that reads records reports errors in this form.
std::string describe(const ReplayError& e);

// One game as written, before the moves are checked against the rules.
struct Record {
  std::vector<std::pair<std::string, std::string>> tags;  // in file order
  std::vector<int> tag_lines;                             // the line of each tag
  struct Ply {
    std::string token;  // as written, e.g. "65(10)", "27X", "65 (10)"
    int line = 0;       // 1-based line in the input
  };
  std::vector<Ply> plies;
  std::string result_token;  // "1-0", "0-1", "1/2-1/2", "*" or "" when absent
  bool zero = false;         // a "{zero}" comment after the result
  int result_line = 0;       // line of the result token (0 when absent)
  std::vector<std::string> comments;
  int first_line = 0;  // line of the record's first tag or move
  int number = 0;      // 1-based number of the game in its input
  // The game could not be read (a bad tag line, an unclosed '{' or '('): replay_record()
  // reports this; the reader went on at the next tag block.
  std::optional<ReplayError> read_error;
  // The input ended inside this game's moves with no result token after them, in a layout
  // that writes one (PGN), or in the middle of a line: the file may have been cut off.
  bool unterminated = false;

  // The value of a tag, or nullopt.
  std::optional<std::string> tag(std::string_view name) const;
  // The line of a tag (the record's first line when the tag is absent).
  int tag_line(std::string_view name) const;
};

// Record text as read: the games, and what the reader had to do to read them.
struct RecordFile {
  std::vector<Record> games;
  std::string note;  // "" or, e.g., "the text is not UTF-8; read as Windows-1251"
};

// The bytes of a record file as UTF-8 text. Windows-1251 (common in files from the region) is
// converted when the bytes are not UTF-8 and read as Cyrillic text; *note then says so. Throws
// ParseError with one message for empty input, binary data, an HTML page, and text that is
// neither UTF-8 nor Windows-1251.
std::string decode_record_text(std::string_view bytes, std::string* note);

// Reads every record in `bytes` (PGN or TGK, CRLF or LF, UTF-8 or Windows-1251). A new game
// starts at every tag block (a tag line after a line that is not one), after a result token
// and at a move after a result. A game with a syntax error is returned with read_error set
// and the reader goes on at the next tag block. Throws ParseError (decode_record_text) when
// the input is not a record at all.
RecordFile read_record_file(std::string_view bytes);
// read_record_file(text).games.
std::vector<Record> read_records(std::string_view text);

// A record replayed under the rules: the game, the first error if any, and a warning (the
// game looks truncated: Record::unterminated and the board did not end it) that a strict
// reader treats as an error.
struct Replayed {
  Game game;
  std::optional<ReplayError> error;
  std::optional<ReplayError> warning;
};

// Replays a record: the start from its FEN tag ("startpos" or absent: the variant's start),
// the rules from its Variant / Rules tags overridden by `overrides` where set; every token
// checked against the rules, the recorded result, {zero} and the Count tag checked against
// how the game ended. A recorded result on a game the board did not end (resignation, time,
// agreement) is kept. Errors about a tag name the tag's line.
Replayed replay_record(const Record& record, const RuleOptions& overrides = {});

// Pgn: PlayOK's moves and width, but a move number never ends a line (it stays with its move,
// as PGN readers and people expect; PlayOK's own files break there).
enum class RecordStyle { PlayOK, Tgk, Pgn };
// What may follow a move in a written record: a mark glued to it ("?!", "?", "??"; read back
// as part of the token) and a comment ("{...}", without the braces; none when empty).
struct MoveNote {
  std::string mark;
  std::string comment;
};
// Writes one game. Tags: the given ones in order (Result is set from the game), plus Variant /
// Rules / FEN when the game is not a standard game from the start. PlayOK style: moves on
// wrapped lines with PlayOK's (n) habit and X, the result last; TGK: one move number per line,
// lowercase x, no result in the moves, except in a game with no moves, whose movetext is its
// result alone (so that readers that split games at moves keep it a game of its own).
// `notes[i]`, where given, follows ply i + 1 (annotated games, toguz annotate).
std::string write_record(const Game& game,
                         const std::vector<std::pair<std::string, std::string>>& tags,
                         RecordStyle style = RecordStyle::PlayOK,
                         const std::vector<MoveNote>& notes = {});

}  // namespace toguz
