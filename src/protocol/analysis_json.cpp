#include "protocol/analysis_json.h"

#include <sstream>

namespace toguz::protocol {

const char* result_word(int result) {
  return result > 0 ? "win" : result < 0 ? "loss" : "draw";
}

std::string analysis_json(const search::SearchResult& r, const search::Info& top) {
  std::ostringstream o;
  uint64_t nps = r.time_ms > 0 ? r.nodes * 1000 / uint64_t(r.time_ms) : top.nps;
  o << "{\"depth\":" << top.depth << ",\"seldepth\":" << top.seldepth << ",\"nodes\":" << r.nodes
    << ",\"nps\":" << nps << ",\"time_ms\":" << r.time_ms << ",\"bestmove\":";
  if (r.best_move)
    o << r.best_move;
  else
    o << "null";
  o << ",\"lines\":[";
  for (size_t i = 0; i < r.lines.size(); ++i) {
    const search::Info& l = r.lines[i];
    o << (i ? "," : "") << "{\"pv\":[";
    for (size_t j = 0; j < l.pv.size(); ++j) o << (j ? "," : "") << l.pv[j];
    o << "],\"score_cp\":";
    if (l.score.proven)
      o << "null";
    else
      o << l.score.cp;
    o << ",\"proven\":";
    if (!l.score.proven) {
      o << "null";
    } else {
      o << "{\"result\":\"" << result_word(l.score.result) << "\",\"margin\":";
      if (l.score.has_margin)
        o << l.score.margin;
      else
        o << "null";
      o << "}";
    }
    o << "}";
  }
  o << "]}";
  return o.str();
}

}  // namespace toguz::protocol
