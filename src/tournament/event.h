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
  DoubleForfeit,    // "--": neither played; no points
};
// "*", "1-0", "0-1", "1/2-1/2", "+-", "-+", "--"
std::string_view board_result_text(BoardResult r);
// Also accepts "1/2", "½-½" and "=" for a draw, "1-0f", "0-1f" and "0-0f" for the forfeits (a
// command line takes "-+" for an option). False on anything else.
bool parse_board_result(std::string_view s, BoardResult* out);
// Points (in half points) for White and Black; 0 for both while pending.
int white_half_points(BoardResult r);
int black_half_points(BoardResult r);
bool is_forfeit(BoardResult r);  // one of the three forfeits

struct Board {
  int white = -1;  // player indexes into Event::players
  int black = -1;
  BoardResult result = BoardResult::Pending;
  std::vector<int> moves;  // holes played (1..9), when the game's moves were entered
};

// A bye the player asked for before the round was paired: he is not paired and scores
// half a point or nothing.
enum class ByeKind : uint8_t { Half, Zero };
std::string_view bye_kind_name(ByeKind k);              // "half", "zero"
bool parse_bye_kind(std::string_view s, ByeKind* out);  // false on anything else

struct Round {
  std::vector<Board> boards;     // in board order
  std::vector<int> byes;         // the pairing's bye (a Swiss's odd player, a round robin's rest)
  std::vector<int> half_byes{};  // requested half-point byes
  std::vector<int> zero_byes{};  // requested zero-point byes
};

struct ByeRequest {
  int player = 0;
  int round = 0;  // 1-based, a round not yet paired
  ByeKind kind = ByeKind::Half;
};

enum class System : uint8_t { RoundRobin, DoubleRoundRobin, Swiss };
std::string_view system_name(System s);  // "round-robin", "double-round-robin", "swiss"
bool parse_system(std::string_view s, System* out);

enum class TieBreak : uint8_t {
  Buchholz,
  BuchholzCut1,
  SonnebornBerger,
  Wins,
  DirectEncounter,
  Median,  // Buchholz without the highest and the lowest contribution
};
// "buchholz", "buchholz-cut1", "sonneborn-berger", "wins", "direct-encounter", "median"
std::string_view tie_break_name(TieBreak t);
std::string_view tie_break_short(TieBreak t);  // "BH", "BH-1", "SB", "W", "DE", "BH-M1"
const std::vector<TieBreak>& all_tie_breaks();
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

  // Requested byes for rounds not yet paired (a Swiss only; request_bye checks the limits).
  std::vector<ByeRequest> bye_requests;
  int max_half_byes = 2;             // half-point byes per player in the whole event
  bool half_bye_last_round = false;  // whether a half-point bye may be had in the last round
  // Pairs who must not meet (same club, family): a Swiss never pairs them. Player indexes,
  // first < second.
  std::vector<std::pair<int, int>> forbidden;
  // Baku acceleration (a Swiss): the top half gets virtual points for pairing in rounds
  // 1..accelerated_rounds (pairing_half_points). 0 = none.
  int accelerated_rounds = 0;
  // A player who loses a board by forfeit is withdrawn (record_forfeit), unless kept.
  bool forfeit_withdraws = true;
  // Submitted to the federation's rating list once finished (the site writes a finished rated
  // event's TGK file for `toguz ratings compute`: docs/ratings-federation.md).
  bool rated = false;

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

// Pairs the next round into the event (pair_next_round) and drops the bye requests it granted.
void add_next_round(Event& event);
// Takes the last round back (to be paired again): its requested byes become requests again.
// The caller checks that it has no results.
void take_back_round(Event& event);

// Half points of every player over the rounds paired so far (pending boards count nothing;
// a requested half-point bye 1).
std::vector<int> half_points(const Event& event);

// The scores the Swiss pairs round `round` (1-based) with: half_points plus the Baku virtual
// points. Group A is the first 2*ceil(n/4) pairing numbers; it gets 1 point in the first
// ceil(accelerated_rounds/2) rounds, 1/2 in the other accelerated rounds, nothing after.
std::vector<int> pairing_half_points(const Event& event, int round);

// Why a bye request is refused: not a Swiss, no such player, the player withdrawn, the round
// already paired or beyond the last, a bye already asked for that round, a half-point bye in
// the last round when half_bye_last_round is false or beyond max_half_byes (those had and
// those asked for).
enum class ByeRefusal : uint8_t {
  None,
  NotSwiss,
  NoPlayer,
  Withdrawn,
  RoundNotOpen,
  AlreadyAsked,
  LastRound,
  OverLimit
};
ByeRefusal check_bye(const Event& event, const ByeRequest& request);
// Records a requested bye, or throws std::invalid_argument saying check_bye's reason.
void request_bye(Event& event, const ByeRequest& request);
// Takes back a request not yet paired; false if there was none.
bool cancel_bye(Event& event, int player, int round);
// Half-point byes had and asked for.
int half_byes_of(const Event& event, int player);

// Forbids a pair, or throws std::invalid_argument: not a Swiss (a round robin's table is
// fixed), the same player twice, a player out of range. Adding a pair twice changes nothing.
void forbid_pair(Event& event, int a, int b);
bool unforbid_pair(Event& event, int a, int b);
bool is_forbidden(const Event& event, int a, int b);

// Enters a forfeit on board `board` (0-based) of round `round` (0-based): WhiteForfeitWin,
// BlackForfeitWin or DoubleForfeit. When the event's forfeit_withdraws is set and `keep` is
// false, the player(s) who did not come are withdrawn. Returns those withdrawn.
std::vector<int> record_forfeit(Event& event, int round, int board, BoardResult result, bool keep);

// "2.5", "3", "0.5": half points as a score.
std::string score_text(int half_points);

}  // namespace toguz::tournament
