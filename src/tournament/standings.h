// Standings with tie-breaks, and the crosstable (docs/tournaments.md gives the definitions).
#pragma once

#include <vector>

#include "tournament/event.h"

namespace toguz::tournament {

// One player's round: the opponent, his colour and his points.
struct RoundEntry {
  enum Kind : uint8_t { Game, Forfeit, Bye, Absent } kind = Absent;
  int opponent = -1;  // player index (-1 for a bye or when absent)
  char colour = '-';  // 'W', 'B', '-'
  int half_points = 0;
  bool pending = false;  // the game has no result yet
};

struct Standing {
  int player = 0;  // index into Event::players
  int rank = 0;    // 1-based; players equal on score and every tie-break share a rank
  int half_points = 0;
  std::vector<double> tie_breaks;  // in the order of the tie-break list used
  std::vector<RoundEntry> rounds;  // one per round paired
};

// Every player's rounds (index: player, then round).
std::vector<std::vector<RoundEntry>> round_entries(const Event& event);

// The standings after the rounds paired so far, best first: score, then each tie-break in
// `event.tie_breaks` (or the system's default), then pairing order.
std::vector<Standing> standings(const Event& event);

// The tie-break list `standings` uses.
std::vector<TieBreak> tie_breaks_of(const Event& event);

}  // namespace toguz::tournament
