// Team events (docs/tournaments.md "Team events"): teams with an ordered roster play matches on
// N boards, board 1 against board 1; the first-named team has White on the odd boards. The
// teams are paired by the individual round robin's Berger tables or by its Swiss, a team
// standing in for a player. Pure data and the rules that read it; no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tournament/event.h"

namespace toguz::tournament {

struct Team {
  std::string name;
  // Board order: the first `TeamEvent::boards` are the regular players, the rest reserves.
  std::vector<Player> roster;
  bool withdrawn = false;  // not paired in the rounds paired after (a round robin: forfeits)
};

// What ranks the teams first and what the Swiss pairs by: match points (a match won 2, drawn
// 1, lost 0) or board points (the games' points).
enum class TeamScoring : uint8_t { MatchPoints, BoardPoints };
std::string_view team_scoring_name(TeamScoring s);  // "match-points", "board-points"
bool parse_team_scoring(std::string_view s, TeamScoring* out);

enum class TeamTieBreak : uint8_t {
  MatchPoints,
  BoardPoints,
  SonnebornBerger,  // the opponents' match points times the board points scored against them
  DirectEncounter,  // the primary score in the matches among the tied teams
  Buchholz,         // the opponents' primary scores
};
// "match-points", "board-points", "sonneborn-berger", "direct-encounter", "buchholz"
std::string_view team_tie_break_name(TeamTieBreak t);
std::string_view team_tie_break_short(TeamTieBreak t);             // "MP", "BP", "TSB", "DE", "BH"
bool parse_team_tie_break(std::string_view s, TeamTieBreak* out);  // name or short form
// Match points first: BP, DE, TSB. Board points first: MP, DE, TSB.
std::vector<TeamTieBreak> default_team_tie_breaks(TeamScoring s);

// One team match of a round. The lineups are roster indexes in roster order; board b (0-based)
// has lineup[b], and a lineup shorter than the match leaves its last boards empty: such a board
// is a forfeit for the other team (both empty: a double forfeit). An empty lineup is a team
// that did not come.
struct TeamMatch {
  int home = -1;  // team indexes; home is the first-named team, White on boards 1, 3, 5...
  int away = -1;
  std::vector<int> home_lineup, away_lineup;
  std::vector<BoardResult> results;     // per board, White/Black by the board's colours
  std::vector<std::vector<int>> moves;  // per board: the holes played, when entered
};

struct TeamRound {
  std::vector<TeamMatch> matches;  // in match order
  std::vector<int> byes;           // the Swiss's odd team, a round robin's resting team
};

struct TeamEvent {
  std::string name, site, date;
  System system = System::Swiss;
  int rounds = 0;  // planned, for a Swiss
  int boards = 4;  // boards per match
  TeamScoring scoring = TeamScoring::MatchPoints;
  std::vector<TeamTieBreak> tie_breaks;  // empty = default_team_tie_breaks(scoring)
  // Round robin: the order is the Berger number; Swiss: team_seed_order.
  std::vector<Team> teams;
  std::vector<TeamRound> played;
  // Its board games submitted to the federation's rating list once finished (the site writes a
  // finished rated event's TGK file for `toguz ratings compute`).
  bool rated = false;

  int total_rounds() const;                    // `rounds`, or the Berger table's
  bool round_complete(int round_index) const;  // every board of every match has a result
  // Every round paired and every board of the last one in: nothing left to play.
  bool finished() const;
};

// Board b (0-based) has the first-named team's player with White: boards 1, 3, 5...
inline bool home_has_white(int board) {
  return board % 2 == 0;
}

// The mean rating of the first `boards` rated roster players (0: none rated).
int team_rating(const TeamEvent& ev, int team);
// Swiss seeding: team rating (higher first), then name, then entry order.
std::vector<int> team_seed_order(const TeamEvent& ev);
// The first `boards` roster players not withdrawn: the lineup a round starts with.
std::vector<int> default_lineup(const TeamEvent& ev, int team);

// A board's two players: roster indexes of the home and the away player (-1: empty board).
std::pair<int, int> board_players(const TeamMatch& m, int board);
// The result an empty board must have (a forfeit, or Pending when both players are there).
BoardResult forced_result(const TeamMatch& m, int board);
// Board points (half points) of the home or the away team in the match.
int match_half_points(const TeamMatch& m, bool home);
bool match_complete(const TeamMatch& m);
// A team that did not come (empty lineup): the match is not played for pairing and
// tie-breaks.
bool match_forfeited(const TeamMatch& m);
// Match points of the home or away team: 2 won, 1 drawn, 0 lost (0 until complete).
int match_points(const TeamMatch& m, bool home);

// Match points and board points (half points) of every team over the rounds paired so far;
// the Swiss's bye counts as a match won by forfeit: 2 match points, every board won.
struct TeamScore {
  int match_points = 0;
  int board_half_points = 0;
};
std::vector<TeamScore> team_scores(const TeamEvent& ev);
// The primary score of `scoring` (match points, or board half points).
int primary_score(const TeamEvent& ev, const TeamScore& s);

// Pairs the next round (Berger or Swiss, as the individual event does with the teams as its
// players; the Swiss by the primary score, ties ranked by the other score, then the seeding),
// with every lineup the default one. Throws std::runtime_error with the reason when it cannot.
TeamRound pair_next_team_round(const TeamEvent& ev);
void add_next_team_round(TeamEvent& ev);  // pairs it into the event

// The captain's lineup of `team` in round `round` (0-based): roster indexes in roster order, at
// most `boards`; empty: the team did not come. Resets the match's boards (the
// empty ones to their forfeit). Throws std::invalid_argument saying why it is refused: the team
// does not play that round, a result is in already, an index out of range or out of order.
void set_lineup(TeamEvent& ev, int round, int team, const std::vector<int>& lineup);

// Enters a board's result (0-based round, match, board) and its moves (already checked by the
// referee). Throws std::invalid_argument on an index out of range, or a result on an empty
// board other than its forfeit.
void set_board_result(TeamEvent& ev, int round, int match, int board, BoardResult r,
                      std::vector<int> moves = {});

// The individual event inside the team event: every roster player (team by team, in roster
// order) and every board with both players as an ordinary board, round by round. Its TGK and
// ratings are those of the games. `offsets[t]` is team t's first player.
struct IndividualView {
  Event event;
  std::vector<int> offsets;
};
IndividualView individual_view(const TeamEvent& ev);

}  // namespace toguz::tournament
