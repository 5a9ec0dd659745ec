// The one JSON shape of scores and lines (protocol/analysis_json.h, docs/web-protocol.md
// "Scores and lines"): every kind of score, a line with its notation, the analysis object
// with the earlier names kept for one release.
#include "protocol/analysis_json.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "rules/position.h"

namespace toguz::protocol {
namespace {

namespace json = boost::json;

json::value parsed(const json::object& o) {
  return json::parse(json::serialize(o));
}

TEST(AnalysisJson, HeuristicScoreFromBothSides) {
  search::Score s;
  s.cp = 153;
  EXPECT_EQ(parsed(score_json(s, Side::White)),
            json::parse(R"({"cp":153,"white_cp":153,"proven":null,"table":null,
                                "wdl":[527,66,407]})"));
  EXPECT_EQ(parsed(score_json(s, Side::Black)),
            json::parse(R"({"cp":153,"white_cp":-153,"proven":null,"table":null,
                                "wdl":[527,66,407]})"));
}

TEST(AnalysisJson, ProvenScores) {
  search::Score win;  // a finished game: margin known, plies 0
  win.cp = 31000, win.proven = true, win.result = 1, win.has_margin = true, win.margin = 4;
  EXPECT_EQ(parsed(score_json(win, Side::Black)), json::parse(R"({"cp":31000,"white_cp":-31000,
                "proven":{"result":"win","margin":4,"plies":0},"table":null,"wdl":[1000,0,0]})"));
  search::Score loss;  // proven by distance: no margin
  loss.cp = -(31000 - 7), loss.proven = true, loss.result = -1, loss.plies = 7;
  EXPECT_EQ(parsed(score_json(loss, Side::White)).at("proven"),
            json::parse(R"({"result":"loss","margin":null,"plies":7})"));
  search::Score draw;
  draw.proven = true, draw.plies = 12;
  EXPECT_EQ(parsed(score_json(draw, Side::White)).at("proven"),
            json::parse(R"({"result":"draw","margin":null,"plies":12})"));
}

TEST(AnalysisJson, TableScoresCarryTheirMargin) {
  search::Score win;  // cp = kTablesWin + 6 stones
  win.cp = 20006, win.table = true, win.result = 1, win.plies = 3;
  json::value v = parsed(score_json(win, Side::White));
  EXPECT_EQ(v.at("proven"), nullptr);
  EXPECT_EQ(v.at("table"), json::parse(R"({"result":"win","margin":6,"plies":3})"));
  search::Score loss;
  loss.cp = -20002, loss.table = true, loss.result = -1, loss.plies = 5;
  EXPECT_EQ(parsed(score_json(loss, Side::Black)).at("table"),
            json::parse(R"({"result":"loss","margin":-2,"plies":5})"));
}

TEST(AnalysisJson, LineWithNotationFromThePosition) {
  search::Info l;
  l.multipv = 2, l.depth = 5, l.seldepth = 9, l.nodes = 1234;
  l.score.cp = -40;
  l.pv = {6, 9};
  const Position start = Position::start();
  json::value v = parsed(line_json(l, start));
  EXPECT_EQ(v, json::parse(R"js({"multipv":2,"depth":5,"seldepth":9,"nodes":1234,"pv":[6,9],
      "pv_notation":["65(10)","98"],
      "score":{"cp":-40,"white_cp":-40,"proven":null,"table":null,"wdl":[451,67,482]}})js"));
  // Black to move after 65(10): white_cp is the other sign; notation stops at an illegal hole.
  Position after = start;
  after.play(6);
  l.pv = {9, 0, 1};
  v = parsed(line_json(l, after));
  EXPECT_EQ(v.at("score").at("white_cp"), 40);
  EXPECT_EQ(v.at("pv").as_array().size(), 3u);
  EXPECT_EQ(v.at("pv_notation"), json::parse(R"(["98"])"));
}

TEST(AnalysisJson, AnalysisObjectWithTheEarlierNames) {
  search::SearchResult r;
  r.best_move = 6, r.nodes = 5000, r.time_ms = 10;
  search::Info l;
  l.depth = 4, l.score.cp = 25, l.pv = {6};
  r.lines.push_back(l);
  search::Info proven = l;
  proven.multipv = 2;
  proven.score = search::Score{};
  proven.score.cp = 31000 - 3, proven.score.proven = true, proven.score.result = 1;
  proven.score.plies = 3;
  r.lines.push_back(proven);
  search::Info top = l;
  top.seldepth = 8;
  json::value v = json::parse(analysis_json(r, top, Position::start()));
  EXPECT_EQ(v.at("depth"), 4);
  EXPECT_EQ(v.at("seldepth"), 8);
  EXPECT_EQ(v.at("nps"), 500000);
  EXPECT_EQ(v.at("bestmove"), 6);
  const json::array& lines = v.at("lines").as_array();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].at("score_cp"), 25);
  EXPECT_EQ(lines[0].at("proven"), nullptr);
  EXPECT_EQ(lines[1].at("score_cp"), nullptr);
  EXPECT_EQ(lines[1].at("proven"), lines[1].at("score").at("proven"));
  EXPECT_EQ(lines[1].at("proven").at("plies"), 3);
  r.best_move = 0;
  EXPECT_EQ(json::parse(analysis_json(r, top, Position::start())).at("bestmove"), nullptr);
}

}  // namespace
}  // namespace toguz::protocol
