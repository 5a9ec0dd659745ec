// The referee: a game's history, its end, its result. Every front end goes through it.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "rules/position.h"

namespace toguz {

enum class Result : uint8_t { None, WhiteWins, BlackWins, Draw };

// How a game ended. The first three come from the position; the others are recorded
// (a resignation, a loss on time, an agreed draw) and do not follow from the board.
enum class EndReason : uint8_t { None, Decided, NoMove, Repetition, Resignation, Time, Agreement };

std::string_view result_text(Result r);  // "1-0", "0-1", "1/2-1/2", "*"
bool parse_result(std::string_view s, Result* out);
std::string_view end_reason_name(EndReason r);  // "decided", "no-move", "repetition", ...
// The winner by score: more stones wins, equal is a draw.
Result result_from_score(const std::array<int, 2>& score);

class Game {
 public:
  explicit Game(const Position& start = Position::start());

  const Position& start() const { return positions_.front(); }
  const Position& position() const { return positions_.back(); }
  // Position before ply `ply` (0 = start); ply_count() gives the current one.
  const Position& position_at(int ply) const { return positions_[ply]; }
  const std::vector<MoveInfo>& moves() const { return moves_; }
  int ply_count() const { return int(moves_.size()); }
  Rules rules() const { return start().rules(); }

  // The end that follows from the board and the history (Ongoing if none).
  Outcome outcome() const { return outcome_; }
  bool over() const { return outcome_ != Outcome::Ongoing || recorded_ != Result::None; }
  EndReason end_reason() const;
  // Final score when the board ended the game, else the running kazna totals.
  std::array<int, 2> score() const;
  // The recorded result if one was set, else the one the board gives (None while ongoing).
  Result result() const;
  // How often the current position has occurred (1 = first time).
  int repetition_count() const;

  // Legal holes now (empty when the game is over).
  uint32_t legal_mask() const { return over() ? 0 : position().legal_mask(); }
  // Plays `hole`; on an illegal move or after the end returns false, sets *why, and
  // leaves the game as it was.
  bool play(int hole, std::string* why = nullptr, MoveInfo* info = nullptr);
  // Takes back the last move (and any recorded result). False at the start.
  bool undo();
  // Records a result that does not follow from the board (resignation, time, agreement).
  void set_recorded_result(Result r, EndReason reason);
  Result recorded_result() const { return recorded_; }

 private:
  Outcome compute_outcome() const;
  std::vector<Position> positions_;
  std::vector<MoveInfo> moves_;
  Outcome outcome_ = Outcome::Ongoing;
  Result recorded_ = Result::None;
  EndReason recorded_reason_ = EndReason::None;
};

}  // namespace toguz
