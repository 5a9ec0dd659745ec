// The JSON of a score, of a scored line and of a whole analysis: one shape, written here and
// nowhere else, for `toguz analyze --json`, the server (POST /api/analyze, the WebSocket's
// analysis, hint and review) and the Python module (which converts these objects to dicts).
// The shape is documented once, in docs/web-protocol.md ("Scores and lines").
#pragma once

#include <boost/json.hpp>
#include <string>

#include "rules/position.h"
#include "search/types.h"

namespace toguz::protocol {

// "win", "draw" or "loss" for a proven result +1 / 0 / -1.
const char* result_word(int result);

// A score from the side to move's view: {"cp","white_cp","proven","table"}. `to_move` is the
// side whose view `s` is, so that white_cp can be White's view of the same score.
boost::json::object score_json(const search::Score& s, Side to_move);

// A line of a search from `pos`: {"multipv","depth","seldepth","nodes","pv","pv_notation",
// "score"}. pv_notation stops where the line stops being legal (the search never gives such
// a line) or the game is over.
boost::json::object line_json(const search::Info& line, const Position& pos);

// The analysis object of `toguz analyze --json` and POST /api/analyze (no trailing newline):
// depth, seldepth, nodes, nps, time_ms, bestmove and the lines of `r` from `pos`, each with the
// deprecated aliases score_cp and proven of the earlier shape. `top` is the last iteration's
// first line (depth and seldepth reached); nps is computed from the result's nodes and time
// when time > 0.
std::string analysis_json(const search::SearchResult& r, const search::Info& top,
                          const Position& pos);

}  // namespace toguz::protocol
