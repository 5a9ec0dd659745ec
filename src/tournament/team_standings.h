// A team event's standings with its tie-breaks, each player's board results, the board prizes,
// the printed tables and the TGK file of its games (docs/tournaments.md "Team events").
#pragma once

#include <string>
#include <vector>

#include "tournament/report.h"
#include "tournament/team.h"

namespace toguz::tournament {

// One team's round: the opponent (-1 for a bye or a rest), whether it was first-named, the
// points of the match, and whether the match counts as played (not a bye, not a forfeited
// match, complete).
struct TeamRoundEntry {
  int opponent = -1;
  bool home = false;
  int match_points = 0;
  int board_half_points = 0;
  bool played = false;
};

struct TeamStanding {
  int team = 0;
  int rank = 0;  // 1-based; teams equal on the score and every tie-break share one
  TeamScore score;
  std::vector<double> tie_breaks;  // in the order of team_tie_breaks_of
};

std::vector<TeamTieBreak> team_tie_breaks_of(const TeamEvent& ev);
// Index: team, then round.
std::vector<std::vector<TeamRoundEntry>> team_round_entries(const TeamEvent& ev);
// Best first: the primary score, each tie-break, then the seeding.
std::vector<TeamStanding> team_standings(const TeamEvent& ev);

// One player's points on one board number over the event: games over the board, boards scored
// (games and forfeits), half points.
struct BoardPrizeRow {
  int team = 0, player = 0;  // roster index
  int board = 0;             // 0-based
  int games = 0, scored = 0, half_points = 0;
};
// Per board number, the players who had a result there, best first: points, then fewer boards
// (the better percentage), then name.
std::vector<std::vector<BoardPrizeRow>> board_prizes(const TeamEvent& ev);

// The tables `toguz tournament team` prints (and the arbiter page's print pages, in the words
// `w`).
// round 1-based: a row per match, then a row per board
Table team_round_table(const TeamEvent& ev, int round, const ReportWords& w = {});
Table team_standings_table(const TeamEvent& ev, const std::vector<TeamStanding>& st,
                           const ReportWords& w = {});
Table board_prizes_table(const TeamEvent& ev, int board, const ReportWords& w = {});  // 0-based
// A tie-break's short name in the words `w` ("TSB" in English).
std::string team_tie_break_word(TeamTieBreak t, const ReportWords& w = {});
// Every player's board results: team, player, then "R<round> b<board> <w|b> <result>" per round.
Table player_results_table(const TeamEvent& ev);

// The print-friendly pages (html_page's) of round `round`'s matches (1-based), and of the
// standings with the board prizes.
std::string team_pairings_page(const TeamEvent& ev, int round, const ReportWords& w = {});
std::string team_standings_page(const TeamEvent& ev, const ReportWords& w = {});

// Every board with two players as a TGK record (tgk.h's tags, and WhiteTeam, BlackTeam and
// Board "<match>.<board>"), in round, match and board order: ordinary games between named
// players that `toguz ratings compute` reads.
std::string team_event_tgk(const TeamEvent& ev);

}  // namespace toguz::tournament
