// An over-the-board or online event: its players, its rounds and their results
// (docs/tournaments.md). Pure data and the rules that read it; no I/O, no clock.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toguz::tournament {

struct Player {
  std::string name;
  int rating = 0;            // federation rating, 0 = unrated
  std::string title;         // as the federation writes it, "" = none
  std::string id{};          // the federation's id of the player, "" = none
  std::string federation{};  // the player's federation or region code, "" = none
  // Withdrawn by the arbiter: not paired in the rounds paired after (a round robin's boards
  // against him are forfeits); his games so far stand.
  bool withdrawn = false;
};

// One board's result as the arbiter enters it. A forfeit is a win without a game: it scores
// as a win, but the pairing and the tie-breaks treat the round as not played.
enum class BoardResult : uint8_t {
  Pending,
  WhiteWins,
  BlackWins,
  Draw,
  WhiteForfeitWin,  // "+-": Black did not play
  BlackForfeitWin,  // "-+": White did not play
};
std::string_view board_result_text(BoardResult r);  // "*", "1-0", "0-1", "1/2-1/2", "+-", "-+"
// Also accepts "1/2", "½-½" and "=" for a draw, "1-0f" and "0-1f" for the forfeits (a command
// line takes "-+" for an option). False on anything else.
bool parse_board_result(std::string_view s, BoardResult* out);
// Points (in half points) for White and Black; 0 for both while pending.
int white_half_points(BoardResult r);
int black_half_points(BoardResult r);
bool is_forfeit(BoardResult r);

struct Board {
  int white = -1;  // player indexes into Event::players
  int black = -1;
  BoardResult result = BoardResult::Pending;
  std::vector<int> moves;  // holes played (1..9), when the game's moves were entered
};

struct Round {
  std::vector<Board> boards;  // in board order
  std::vector<int> byes;      // players without a game this round
};

enum class System : uint8_t { RoundRobin, DoubleRoundRobin, Swiss };
std::string_view system_name(System s);  // "round-robin", "double-round-robin", "swiss"
bool parse_system(std::string_view s, System* out);

enum class TieBreak : uint8_t { Buchholz, BuchholzCut1, SonnebornBerger, Wins, DirectEncounter };
std::string_view tie_break_name(TieBreak t);   // "buchholz", "buchholz-cut1", "sonneborn-berger",
                                               // "wins", "direct-encounter"
std::string_view tie_break_short(TieBreak t);  // "BH", "BH-1", "SB", "W", "DE"
bool parse_tie_break(std::string_view s, TieBreak* out);  // the name or the short form
// Swiss: BH-1, BH, SB, W, DE. Round robin: DE, SB, W.
std::vector<TieBreak> default_tie_breaks(System s);

struct Event {
  std::string name;
  std::string site;
  std::string date;  // as written in the records, "2026.12.01"
  System system = System::Swiss;
  int rounds = 0;                    // planned, for a Swiss (a round robin has its table's)
  std::vector<TieBreak> tie_breaks;  // empty = default_tie_breaks(system)
  // Round robin: the order is the Berger number (enter players in the drawn order).
  // Swiss: pairing numbers follow pairing_order().
  std::vector<Player> players;
  std::vector<Round> played;  // the rounds paired so far

  // Half points a bye is worth: 2 (one point) in a Swiss, 0 in a round robin (everyone rests
  // once when the number of players is odd).
  int bye_half_points() const { return system == System::Swiss ? 2 : 0; }
  // Rounds in total: `rounds` for a Swiss, the Berger table's for a round robin.
  int total_rounds() const;
  bool round_complete(int round_index) const;  // every board has a result
};

// Swiss pairing numbers: player indexes by rating (higher first), then title present, then
// name, then entry order. Element 0 has pairing number 1.
std::vector<int> pairing_order(const std::vector<Player>& players);

// Pairs the next round: a Berger round for a round robin, a Dutch round for a Swiss
// (swiss.h), leaving withdrawn players out (a round robin's board with one withdrawn player
// is a forfeit win for the other). Throws std::runtime_error with the reason when the event
// cannot be paired now (a result missing, every round paired, fewer than two players taking
// part).
Round pair_next_round(const Event& event);

// Half points of every player over the rounds paired so far (pending boards count nothing).
std::vector<int> half_points(const Event& event);

// "2.5", "3", "0.5": half points as a score.
std::string score_text(int half_points);

}  // namespace toguz::tournament
