// The engine's plain data types: the limits of a search, its options, the scores and lines it
// reports and its result. Shared by the Engine API (engine.h), the search itself (search.h)
// and the front ends; no code.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "search/table_probe.h"

namespace toguz::search {

// What a search may use. Zero / negative means "no limit of this kind"; with no limit at all
// (and not infinite) the search stops at kMaxDepth (100). A search also ends early once its
// result is proven (except when infinite). With only depth and node limits, one thread and
// the same table contents (e.g. after new_game), the search is deterministic: same move,
// same lines, same node count (a node limit is met exactly).
struct Limits {
  int depth = 0;
  uint64_t nodes = 0;
  int movetime_ms = 0;
  int time_ms[2] = {-1, -1};  // clock left for White (p1) and Black (p2), -1 = none
  int inc_ms[2] = {0, 0};
  bool infinite = false;  // search until stop()
};

// A score from the side to move's point of view. When `proven`, the game's end is known
// with best play: `plies` to the end and `result` (+1 win, 0 draw, -1 loss) and the exact
// stone margin when it is known (has_margin).
// The search proves wins and losses by their distance (shortest win, longest loss), not by
// margin: has_margin is set for a game that is already over (plies 0) and for a result the
// exact solver proved (Options::tables' prove(): `plies` is then the length of its line to the
// end, not the shortest, and has_margin says whether it proved the margin too). For a proven
// win/loss cp is +-(31000 - plies), beyond any heuristic score, so comparing cp orders all
// scores; a proven draw has cp 0.
// A win or loss the endgame tables know (Options::tables) is not `proven` (its distance to
// the end is unknown) but marked `table`: `result` is then +1 or -1, the margin is exact
// (cp = +-(20000 + margin stones)) and `plies` counts the line to the position the tables
// hold.
struct Score {
  int cp = 0;  // hundredths of a stone of expected margin
  bool proven = false;
  int result = 0;  // when proven: +1, 0, -1
  int plies = 0;   // when proven: plies to the end
  bool has_margin = false;
  int margin = 0;      // when has_margin: final total minus the opponent's
  bool table = false;  // a win/loss from the endgame tables (never with proven)
};

// One line of one iteration, as sent to callbacks.
struct Info {
  int depth = 0;
  int seldepth = 0;
  int multipv = 1;  // 1-based rank of this line
  Score score;
  uint64_t nodes = 0;
  uint64_t nps = 0;
  int time_ms = 0;
  std::vector<int> pv;  // holes, 1..N
};

// The static evaluation the search uses: the hand-made weighted features (eval.h) or the
// learned network (nnue.h; for the standard game, other rule sets use the hand-made one).
enum class EvalKind : uint8_t { Classic, Nnue };
constexpr EvalKind kDefaultEval = EvalKind::Nnue;
const char* eval_kind_name(EvalKind kind);                  // "classic", "nnue"
bool parse_eval_kind(const std::string& s, EvalKind* out);  // false if unknown

struct Options {
  int hash_mb = 16;
  EvalKind eval = kDefaultEval;
  int threads = 1;  // Lazy SMP search threads sharing the table (1 = deterministic)
  int multipv = 1;
  int skill = 20;     // 1..20, 20 = full strength; below: a depth limit by level and a
                      // seeded choice among moves scored near the best (search.cpp table)
  uint64_t seed = 0;  // for skill randomness; fixed seed = reproducible
  // Endgame tables probed at every node they hold (null = none). A table hit is scored
  // +-(kTablesWin + margin) (below the proven-by-distance band, above any heuristic score)
  // or 0 for a draw; it is not reported as proven (no distance to the end is known) but as
  // Score::table (a draw is not told apart from a heuristic 0). Its exact solver, when it
  // has one, answers a position with at most proof_reach() stones on the board before the
  // search (full strength, one line, a time or node limit): given half the move's time and
  // half the node limit, a proven result is the answer (one proven line, its first move); if
  // not proven, the search runs with the time and nodes left.
  std::shared_ptr<const TableProbe> tables;
};

struct SearchResult {
  int best_move = 0;        // 0 when the game is over (then lines[0] is the final result)
  std::vector<Info> lines;  // the final line per multipv rank
  uint64_t nodes = 0;
  int time_ms = 0;
};

using InfoCallback = std::function<void(const Info&)>;
using DoneCallback = std::function<void(const SearchResult&)>;

}  // namespace toguz::search
