// Round robin by the Berger tables (FIDE Handbook C.05, Annex 1), single or double.
#pragma once

#include "tournament/event.h"

namespace toguz::tournament {

// Rounds of a single cycle for `players` players: n - 1 for even n, n for odd n.
int berger_rounds(int players);

// Round `round` (1-based, up to berger_rounds() for a single cycle, twice that when `double_`)
// for players 0..players-1, player i having Berger number i + 1. For an odd number the
// missing highest number is a rest: its opponent is in Round::byes. In a double round robin
// the second cycle repeats the first with colours reversed, and the first cycle's last two
// rounds are exchanged (the FIDE recommendation, so no one gets three same colours in a row
// across the cycles). Throws std::invalid_argument on a round out of range or players < 2.
Round berger_round(int players, int round, bool double_ = false);

}  // namespace toguz::tournament
