// An event's games as TGK records (rules.md "Game record") with the federation's tags, and the
// referee's check of a game's moves as the arbiter types them.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rules/game.h"
#include "tournament/event.h"

namespace toguz::tournament {

// A game's moves that the referee refused: names the move and what was wrong.
class MoveError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  // A move the rules refuse: "move 7 (White), '91(55)': why".
  MoveError(int move, std::string side, std::string token, std::string why)
      : std::runtime_error("move " + std::to_string(move) + " (" + side + "), '" + token +
                           "': " + why),
        move(move),
        side(std::move(side)),
        token(std::move(token)),
        why(std::move(why)) {}
  int move = 0;       // 0: not one move's error (the result, a forfeit with moves)
  std::string side;   // "White" or "Black"
  std::string token;  // as typed
  std::string why;
};

// Checks `tokens` (moves in the notation of rules.md, move numbers like "12." skipped) move by
// move against the rules, and `result` against how the board ended. Returns the holes played.
// Throws MoveError: "move 7 (White), '91(55)': the mover's kazna is 54 after the move, not 55
// (expected 91 (54))", or about the result ("the board ended 1-0, not 0-1"), or a forfeit with
// moves.
std::vector<int> check_moves(const std::vector<std::string>& tokens, BoardResult result);

// The board's game under the referee: its moves, and its result recorded when the board did
// not end it (a resignation, an agreed draw).
Game board_game(const Board& board);

// A game's result as a board's: a win as a forfeit win when `forfeit`; Pending while the game
// goes on (Result::None).
BoardResult board_result(Result r, bool forfeit = false);

// The tags of round `round`'s (0-based) board `b`, as event_tgk writes them.
std::vector<std::pair<std::string, std::string>> board_tags(const Event& event, int round,
                                                            const Board& b);

// Every board of every round, in round and board order, as TGK records: Event, Site, Date,
// Round, White, Black, Result, then WhiteELO / BlackELO and WhiteTitle / BlackTitle where known,
// and Termination "forfeit" on a forfeit. Records are separated by a blank line.
std::string event_tgk(const Event& event);

// An event from TGK records (as event_tgk writes them, or the federation's files): players in
// order of first appearance (rating and title from the tags), rounds from the Round tag
// ("3" or "3.1"), boards in file order, a bye for every player without a game in a round.
// Throws std::runtime_error naming the game (1-based) and line on a bad record.
Event event_from_tgk(std::string_view text, System system);

}  // namespace toguz::tournament
