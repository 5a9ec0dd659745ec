// The JSON of an analysis (`toguz analyze --json`, the server's POST /api/analyze): one
// object with depth, seldepth, nodes, nps, time_ms, bestmove and the lines with their scores.
#pragma once

#include <string>

#include "search/engine.h"

namespace toguz::protocol {

// "win", "draw" or "loss" for a proven result +1 / 0 / -1.
const char* result_word(int result);

// The analysis object (no trailing newline). `top` is the last iteration's first line (depth
// and seldepth reached); nps is computed from the result's nodes and time when time > 0.
std::string analysis_json(const search::SearchResult& r, const search::Info& top);

}  // namespace toguz::protocol
