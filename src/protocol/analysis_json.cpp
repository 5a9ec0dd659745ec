#include "protocol/analysis_json.h"

#include "rules/notation.h"
#include "search/score.h"
#include "search/wdl.h"

namespace toguz::protocol {

namespace json = boost::json;

const char* result_word(int result) {
  return result > 0 ? "win" : result < 0 ? "loss" : "draw";
}

namespace {

// {"result","margin","plies"} of a result known to the end (proven) or to the tables (whose
// margin is exact: cp is +-(kTablesWin + margin)).
json::object result_json(const search::Score& s) {
  json::value margin = nullptr;
  if (s.has_margin)
    margin = s.margin;
  else if (s.table && !s.proven)
    margin = s.cp > 0 ? s.cp - search::kTablesWin : s.cp + search::kTablesWin;
  return json::object{{"result", result_word(s.result)}, {"margin", margin}, {"plies", s.plies}};
}

}  // namespace

json::object score_json(const search::Score& s, Side to_move) {
  const search::Wdl w = search::wdl_of(s);
  return json::object{
      {"cp", s.cp},
      {"white_cp", to_move == Side::White ? s.cp : -s.cp},
      {"proven", s.proven ? json::value(result_json(s)) : json::value(nullptr)},
      {"table", s.table && !s.proven ? json::value(result_json(s)) : json::value(nullptr)},
      {"wdl", json::array{w.win, w.draw, w.loss}}};
}

json::object line_json(const search::Info& line, const Position& pos) {
  json::array pv, notation;
  Position p = pos;
  bool legal = true;
  for (int h : line.pv) {
    pv.push_back(h);
    legal = legal && p.outcome() == Outcome::Ongoing && p.is_legal(h);
    if (legal) notation.push_back(json::string(format_move(p.play(h))));
  }
  return json::object{{"multipv", line.multipv},
                      {"depth", line.depth},
                      {"seldepth", line.seldepth},
                      {"nodes", line.nodes},
                      {"pv", std::move(pv)},
                      {"pv_notation", std::move(notation)},
                      {"score", score_json(line.score, pos.side_to_move())}};
}

std::string analysis_json(const search::SearchResult& r, const search::Info& top,
                          const Position& pos) {
  const uint64_t nps = r.time_ms > 0 ? r.nodes * 1000 / uint64_t(r.time_ms) : top.nps;
  json::array lines;
  for (const search::Info& l : r.lines) {
    json::object o = line_json(l, pos);
    // The earlier shape's names, kept for one release (docs/web-protocol.md).
    o["score_cp"] = l.score.proven ? json::value(nullptr) : json::value(l.score.cp);
    o["proven"] = o["score"].as_object()["proven"];
    lines.push_back(std::move(o));
  }
  return json::serialize(
      json::object{{"depth", top.depth},
                   {"seldepth", top.seldepth},
                   {"nodes", r.nodes},
                   {"nps", nps},
                   {"time_ms", r.time_ms},
                   {"bestmove", r.best_move ? json::value(r.best_move) : json::value(nullptr)},
                   {"lines", std::move(lines)}});
}

}  // namespace toguz::protocol
