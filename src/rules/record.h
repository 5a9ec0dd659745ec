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

// One game as written, before the moves are checked against the rules.
struct Record {
  std::vector<std::pair<std::string, std::string>> tags;  // in file order
  struct Ply {
    std::string token;  // as written, e.g. "65(10)", "27X", "65 (10)"
    int line = 0;       // 1-based line in the input
  };
  std::vector<Ply> plies;
  std::string result_token;       // "1-0", "0-1", "1/2-1/2", "*" or "" when absent
  bool zero = false;              // a "{zero}" comment after the result
  int result_line = 0;            // line of the result token (0 when absent)
  std::vector<std::string> comments;
  int first_line = 0;             // line of the record's first tag or move

  // The value of a tag, or nullopt.
  std::optional<std::string> tag(std::string_view name) const;
};

// Reads every record in `text` (PGN or TGK, CRLF or LF, UTF-8). Throws ParseError naming the
// line and what was expected when the text is not a record at all.
std::vector<Record> read_records(std::string_view text);

// A record replayed under the rules: the game, and the first error if any.
struct ReplayError {
  int ply = 0;         // 1-based ply of the bad token (0 for an error about the whole game)
  int line = 0;
  std::string token;
  std::string message;
};
struct Replayed {
  Game game;
  std::optional<ReplayError> error;
};

// Replays a record: the start from its FEN tag (or the variant's start), the rules from its
// Variant / Rules tags overridden by `overrides` where set; every token checked against the
// rules, the recorded result and {zero} checked against how the game ended. A recorded
// result on a game the board did not end (resignation, time, agreement) is kept.
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
// wrapped lines with PlayOK's (n) habit and X; TGK: one move number per line, lowercase x.
// `notes[i]`, where given, follows ply i + 1 (annotated games, toguz annotate).
std::string write_record(const Game& game,
                         const std::vector<std::pair<std::string, std::string>>& tags,
                         RecordStyle style = RecordStyle::PlayOK,
                         const std::vector<MoveNote>& notes = {});

}  // namespace toguz
