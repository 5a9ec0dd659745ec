// UGI sessions driven in-process: a script goes in as an istream, the answers come out of an
// ostream and are checked line by line.
#include "protocol/ugi.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "rules/notation.h"
#include "search/score.h"
#include "test_util.h"

namespace toguz::protocol {
namespace {

std::vector<std::string> session(const std::string& script) {
  std::istringstream in(script);
  std::ostringstream out;
  {
    UgiSession s(in, out);
    s.run();
  }
  std::vector<std::string> lines;
  std::istringstream res(out.str());
  std::string line;
  while (std::getline(res, line)) lines.push_back(line);
  return lines;
}

const std::string kNoPosition = " (no position until a valid position command)";

bool starts_with(const std::string& s, const std::string& p) {
  return s.rfind(p, 0) == 0;
}

std::vector<std::string> with_prefix(const std::vector<std::string>& lines, const std::string& p) {
  std::vector<std::string> out;
  for (const auto& l : lines)
    if (starts_with(l, p)) out.push_back(l);
  return out;
}

int index_of(const std::vector<std::string>& lines, const std::string& prefix) {
  for (size_t i = 0; i < lines.size(); ++i)
    if (starts_with(lines[i], prefix)) return int(i);
  return -1;
}

int bestmove_of(const std::vector<std::string>& lines) {
  const auto b = with_prefix(lines, "bestmove ");
  if (b.size() != 1) return -1;
  return b[0] == "bestmove 0000" ? 0 : std::stoi(b[0].substr(9));
}

TEST(Ugi, Handshake) {
  const auto out = session("ugi\nisready\nquit\n");
  const std::vector<std::string> expected = {
      std::string("id name toguz ") + TOGUZ_VERSION,
      "id author the toguz developers",
      "option name Hash type spin default 16 min 1 max 4096",
      "option name Threads type spin default 1 min 1 max 256",
      "option name MultiPV type spin default 1 min 1 max 9",
      "option name Skill type spin default 20 min 1 max 20",
      "option name Seed type spin default 0 min 0 max 2147483647",
      "option name Variant type combo default standard var standard var kozdatu var bestemshi",
      "option name Tuz type combo default auto var auto var on var off",
      "option name PlayOut type check default false",
      "option name Eval type combo default nnue var classic var nnue",
      "ugiok",
      "readyok",
  };
  EXPECT_EQ(out, expected);
}

// Scripts end without "quit" after a go whose answer is checked: quit stops the search, the
// end of the input lets a finite search finish.
TEST(Ugi, PositionAndGoDepth) {
  const auto out = session("position startpos moves 6 4\ngo depth 4\n");
  const auto infos = with_prefix(out, "info depth ");
  ASSERT_EQ(infos.size(), 4u);
  for (int d = 1; d <= 4; ++d) {
    EXPECT_TRUE(starts_with(infos[d - 1], "info depth " + std::to_string(d) + " seldepth "))
        << infos[d - 1];
    EXPECT_NE(infos[d - 1].find(" multipv 1 score cp "), std::string::npos) << infos[d - 1];
    EXPECT_NE(infos[d - 1].find(" nodes "), std::string::npos);
    EXPECT_NE(infos[d - 1].find(" nps "), std::string::npos);
    EXPECT_NE(infos[d - 1].find(" time "), std::string::npos);
    EXPECT_NE(infos[d - 1].find(" pv "), std::string::npos);
  }
  Game g;
  ASSERT_TRUE(g.play(6));
  ASSERT_TRUE(g.play(4));
  const int best = bestmove_of(out);
  EXPECT_TRUE(g.position().is_legal(best)) << best;
  EXPECT_EQ(out.back().substr(0, 9), "bestmove ");
  // The last info's pv starts with the best move.
  EXPECT_NE(infos.back().find(" pv " + std::to_string(best)), std::string::npos);
}

TEST(Ugi, FenWithAndWithoutMoveNumberAndMoves) {
  const auto a = session(
      "position fen 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w moves 6\nquery p1turn\nquit\n");
  EXPECT_EQ(a, (std::vector<std::string>{"response false"}));
  const auto b = session(
      "position fen 9,9,9,9,9,1,10,10,10/10,10,10,10,0,9,9,9,9 10 0 b 1\nquery p1turn\n"
      "position fen 9,9,9,9,9,1,10,10,10/10,10,10,10,0,9,9,9,9 10 0 b\nquery p1turn\nquit\n");
  EXPECT_EQ(b, (std::vector<std::string>{"response false", "response false"}));
}

TEST(Ugi, OptionsAreTakenAndMultiPvShows) {
  const auto out = session(
      "setoption name Hash value 8\nsetoption name Threads value 2\nsetoption name multipv value "
      "3\n"
      "setoption name Skill value 20\nsetoption name PlayOut value false\nsetoption name Tuz value "
      "auto\n"
      "position startpos\ngo depth 3\n");
  EXPECT_EQ(with_prefix(out, "info string").size(), 0u);
  const auto infos = with_prefix(out, "info depth 3 ");
  ASSERT_EQ(infos.size(), 3u);
  for (int k = 1; k <= 3; ++k)
    EXPECT_NE(infos[k - 1].find(" multipv " + std::to_string(k) + " "), std::string::npos);
}

TEST(Ugi, VariantOption) {
  const auto out = session(
      "setoption name Variant value kozdatu\nposition startpos\ngo depth 3\n"
      "position startpos moves 8\nquit\n");
  const int best = bestmove_of(out);
  EXPECT_GE(best, 1);
  EXPECT_LE(best, 7);
  // Hole 8 does not exist in kozdatu.
  ASSERT_EQ(with_prefix(out, "info string error").size(), 1u);
  EXPECT_EQ(with_prefix(out, "info string error")[0],
            "info string error position: move 1 '8': not a hole number 1..7" + kNoPosition);
  // Without the option, a 7-hole position string is kozdatu by its length.
  const auto k = session("position fen 7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 0 w\ngo depth 2\n");
  EXPECT_GE(bestmove_of(k), 1);
  EXPECT_LE(bestmove_of(k), 7);
}

TEST(Ugi, IsReadyIsAnsweredDuringAnInfiniteSearch) {
  const auto out =
      session("position startpos\ngo infinite\nisready\nposition startpos\nstop\nisready\nquit\n");
  const int ready = index_of(out, "readyok");
  const int refused = index_of(out, "info string error position ignored");
  const int best = index_of(out, "bestmove ");
  ASSERT_GE(ready, 0);
  ASSERT_GE(best, 0);
  EXPECT_LT(ready, best) << "readyok comes while the search runs";
  EXPECT_GE(refused, 0) << "a position during go infinite is refused";
  EXPECT_EQ(with_prefix(out, "bestmove ").size(), 1u);
  EXPECT_EQ(out.back(), "readyok");
  EXPECT_TRUE(Position::start().is_legal(bestmove_of(out)));
}

TEST(Ugi, EndOfInputStopsAnInfiniteSearchAndLetsAFiniteOneAnswer) {
  EXPECT_EQ(with_prefix(session("position startpos\ngo infinite\n"), "bestmove ").size(), 1u);
  EXPECT_EQ(with_prefix(session("position startpos\ngo depth 5\n"), "bestmove ").size(), 1u);
}

TEST(Ugi, Queries) {
  EXPECT_EQ(session("query gameover\nquery p1turn\nquery result\n"),
            (std::vector<std::string>{"response false", "response true", "response none"}));
  // Black has won 82-80 (White to move with no stones).
  EXPECT_EQ(
      session(
          "position fen 0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,1 80 81 w\nquery gameover\nquery p1turn\n"
          "query result\n"),
      (std::vector<std::string>{"response true", "response true", "response p2win"}));
  // White's last move passes 81.
  EXPECT_EQ(
      session("position fen 0,0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0,0 80 80 w moves 9\nquery gameover\n"
              "query result\n"),
      (std::vector<std::string>{"response true", "response p1win"}));
  // The recorded threefold repetition.
  const auto v = test::read_json("repetition-game.json");
  const auto r = session("position startpos moves " + std::string(v.at("moves").as_string()) +
                         "\nquery gameover\nquery result\n");
  EXPECT_EQ(r, (std::vector<std::string>{"response true", "response draw"}));
}

TEST(Ugi, ScoresOfProvenResults) {
  // Akshuraev's study 1 is a forced win, study 2 a draw (tests/data/etudes.json).
  const auto win =
      session("position fen 0,0,0,1,x,1,3,2,1/0,0,2,2,0,0,0,0,0 78 72 w 40\ngo depth 20\n");
  const auto infos = with_prefix(win, "info depth ");
  ASSERT_FALSE(infos.empty());
  EXPECT_NE(infos.back().find(" score mate "), std::string::npos) << infos.back();
  EXPECT_EQ(infos.back().find(" score mate -"), std::string::npos) << infos.back();
  const auto draw =
      session("position fen x,0,0,0,0,0,4,1,1/0,2,x,0,0,1,0,0,0 77 76 w 40\ngo depth 30\n");
  const auto dinfos = with_prefix(draw, "info depth ");
  ASSERT_FALSE(dinfos.empty());
  EXPECT_NE(dinfos.back().find(" score cp 0 wdl 0 1000 0 "), std::string::npos) << dinfos.back();
  const auto loss =
      session("position fen 0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0 80 81 w\ngo depth 4\n");
  EXPECT_NE(with_prefix(loss, "info depth ").back().find(" score mate -2 "), std::string::npos);
}

TEST(Ugi, FormatScore) {
  search::Score s;
  s.cp = 35;
  EXPECT_EQ(format_score(s), "score cp 35 wdl 480 67 453");
  s.cp = -120;
  EXPECT_EQ(format_score(s), "score cp -120 wdl 419 67 514");
  s.proven = true;
  s.result = 1;
  s.plies = 7;
  EXPECT_EQ(format_score(s), "score mate 7 wdl 1000 0 0");
  s.result = -1;
  s.plies = 4;
  EXPECT_EQ(format_score(s), "score mate -4 wdl 0 0 1000");
  s.result = 0;
  s.cp = 0;
  EXPECT_EQ(format_score(s), "score cp 0 wdl 0 1000 0");
  // Endgame-table results (win/loss by m stones: +-(20000 + m)) are mates in the line's plies
  // to the tables' position; the heuristic range below them stays cp.
  EXPECT_EQ(format_score(search::make_score(20004, false, 3)), "score mate 3 wdl 1000 0 0");
  EXPECT_EQ(format_score(search::make_score(-20010, false, 2)), "score mate -2 wdl 0 0 1000");
  EXPECT_EQ(format_score(search::make_score(19999, false, 5)), "score cp 19999 wdl 1000 0 0");
  EXPECT_EQ(format_score(search::make_score(-19999, false, 5)), "score cp -19999 wdl 0 0 1000");
  EXPECT_TRUE(search::make_score(20001, false, 1).table);
  EXPECT_FALSE(search::make_score(20001, false, 1).proven);
  EXPECT_EQ(format_score(search::make_score(search::kWin - 9, false, 4)),
            "score mate 9 wdl 1000 0 0");
  search::Info info;
  info.depth = 3;
  info.seldepth = 4;
  info.multipv = 2;
  info.score = search::Score{};
  info.score.cp = 12;
  info.nodes = 1000;
  info.nps = 50000;
  info.time_ms = 20;
  info.pv = {3, 9, 1};
  EXPECT_EQ(format_info(info),
            "info depth 3 seldepth 4 multipv 2 score cp 12 wdl 471 67 462 nodes 1000 nps 50000 "
            "time 20 pv 3 9 1");
}

// Every go without a usable limit answers by itself, after an info string saying why (the
// script never sends stop; the end of the input lets a finite search finish).
TEST(Ugi, GoWithoutAUsableLimitIsBounded) {
  const std::vector<std::string> gos = {"go",
                                        "go p2time 60000 p2inc 100",
                                        "go depth 0",
                                        "go movetime 0",
                                        "go nodes 0",
                                        "go depth 99999",
                                        "go movetime 99999999999999999999",
                                        "go p1inc 5"};
  std::string script = "position startpos\n";
  for (const auto& g : gos) script += g + "\n";
  const auto out = session(script);
  const auto notes = with_prefix(out, "info string go: no usable limit (");
  ASSERT_EQ(notes.size(), gos.size());
  EXPECT_EQ(notes[0],
            "info string go: no usable limit (none was given); searching 1000 ms "
            "('go infinite' searches until stop)");
  EXPECT_TRUE(starts_with(notes[1],
                          "info string go: no usable limit (only the opponent's clock was "
                          "given (p1time is the side to move's)); "))
      << notes[1];
  EXPECT_TRUE(starts_with(notes[2], "info string go: no usable limit ('depth 0' is no limit); "))
      << notes[2];
  EXPECT_TRUE(
      starts_with(notes[5], "info string go: no usable limit ('depth 99999' was refused); "))
      << notes[5];
  const auto errors = with_prefix(out, "info string error ");
  EXPECT_EQ(errors, (std::vector<std::string>{
                        "info string error go: 'depth' value '99999' is out of range 0..1000",
                        "info string error go: 'movetime' value '99999999999999999999' is out of "
                        "range 0..2147483647",
                    }));
  // Each go answered by itself (a search until stop would never end this script).
  ASSERT_EQ(with_prefix(out, "bestmove ").size(), gos.size());
  for (const auto& b : with_prefix(out, "bestmove "))
    EXPECT_TRUE(Position::start().is_legal(std::stoi(b.substr(9)))) << b;
  // A finished game answers at once, with no note about limits.
  const auto over = session("position fen 0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,1 80 81 w\ngo\n");
  EXPECT_EQ(over, (std::vector<std::string>{
                      "info string error go: the game is over (no-move, 0-1); no move",
                      "bestmove 0000"}));
  // A usable limit says nothing of the kind; the side to move's clock is one (Black here).
  const auto timed =
      session("position startpos moves 6\ngo p1time 1 p2time 200\ngo depth 2 movetime 0\n");
  EXPECT_EQ(with_prefix(timed, "info string").size(), 0u);
  EXPECT_EQ(with_prefix(timed, "bestmove ").size(), 2u);
}

// A runner that misses the error must not go on as if the position had been taken: the
// queries and go say "no position" (with the answers that end its game) until a valid
// position, uginewgame or a rules option arrives.
TEST(Ugi, RefusedPositionLeavesNoPosition) {
  const std::string refused =
      "info string error go: no position (the last position command was refused); no move";
  for (const std::string bad : {"position startpos moves 6 0000", "position startpos moves 6 4 x",
                                "position fen 9,9,9/9,9,9 0 0 w", "position fen",
                                "position sideways", "position startpos 6 4"}) {
    SCOPED_TRACE(bad);
    const auto out = session("position startpos moves 6\n" + bad +
                             "\nquery gameover\nquery p1turn\nquery result\ngo depth 2\n");
    EXPECT_EQ(with_prefix(out, "response "),
              (std::vector<std::string>{"response true", "response none", "response none"}));
    const auto errors = with_prefix(out, "info string error ");
    ASSERT_EQ(errors.size(), 5u);
    EXPECT_TRUE(errors[0].size() > kNoPosition.size() &&
                errors[0].compare(errors[0].size() - kNoPosition.size(), kNoPosition.size(),
                                  kNoPosition) == 0)
        << errors[0];
    EXPECT_EQ(
        errors[1],
        "info string error query gameover: no position (the last position command was refused)");
    EXPECT_EQ(
        errors[2],
        "info string error query p1turn: no position (the last position command was refused)");
    EXPECT_EQ(
        errors[3],
        "info string error query result: no position (the last position command was refused)");
    EXPECT_EQ(errors[4], refused);
    EXPECT_EQ(with_prefix(out, "bestmove "), (std::vector<std::string>{"bestmove 0000"}));
  }
  // Each way back: a valid position, uginewgame, a rules option.
  for (const std::string back :
       {"position startpos moves 6", "uginewgame", "setoption name Tuz value auto"}) {
    SCOPED_TRACE(back);
    const auto out = session("position startpos moves 6 0\n" + back +
                             "\nquery gameover\nquery result\ngo depth 2\n");
    EXPECT_EQ(with_prefix(out, "response "),
              (std::vector<std::string>{"response false", "response none"}));
    EXPECT_EQ(with_prefix(out, "info string error ").size(), 1u);
    EXPECT_GE(bestmove_of(out), 1);
  }
  // Other errors leave the position alone.
  const auto kept = session(
      "position startpos moves 6\nsetoption name Hash value 0\nquery\ngo depth x depth 1\n"
      "query p1turn\n");
  EXPECT_EQ(with_prefix(kept, "response "), (std::vector<std::string>{"response false"}));
}

TEST(Ugi, BadInputGetsAnErrorAndTheSessionGoesOn) {
  const auto out = session(
      "hello world\n"
      "setoption name Foo value 1\n"
      "setoption name Hash value -5\n"
      "setoption name Skill value abc\n"
      "setoption Hash 5\n"
      "setoption name Variant value chess\n"
      "setoption name PlayOut value maybe\n"
      "position\n"
      "position nowhere\n"
      "position fen\n"
      "position fen 1,2,3 0 0 w\n"
      "position startpos moves 6 x 5\n"
      "query p1turn\n"
      "position startpos moves 6 6 0\n"
      "query\n"
      "query weather\n"
      "position fen 0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,1 80 81 w\n"
      "go depth 3\n"
      "position startpos\n"
      "go depth x nodes 100 sideways\n"
      "\n"
      "   \n"
      "isready\n"
      "quit\n"
      "isready\n");
  const auto errors = with_prefix(out, "info string error ");
  const std::vector<std::string> expected_start = {
      "info string error unknown command: hello world",
      "info string error setoption: unknown option 'Foo'",
      "info string error setoption Hash: value '-5' is out of range 1..4096",
      "info string error setoption Skill: value 'abc' is not an integer in 1..20",
      "info string error setoption: expected 'setoption name <name> value <value>'",
      "info string error setoption Variant: 'chess' is not standard, kozdatu or bestemshi",
      "info string error setoption PlayOut: 'maybe' is not true or false",
      "info string error position: expected 'startpos' or 'fen <position string>'" + kNoPosition,
      "info string error position: expected 'startpos' or 'fen', got 'nowhere'" + kNoPosition,
      "info string error position fen: the position string is missing" + kNoPosition,
  };
  ASSERT_GE(errors.size(), expected_start.size() + 7);
  for (size_t i = 0; i < expected_start.size(); ++i) EXPECT_EQ(errors[i], expected_start[i]);
  size_t i = expected_start.size();
  EXPECT_TRUE(starts_with(errors[i++], "info string error position fen: ")) << errors[i - 1];
  EXPECT_EQ(errors[i++],
            "info string error position: move 2 'x': not a hole number 1..9" + kNoPosition);
  EXPECT_EQ(errors[i++],
            "info string error query p1turn: no position (the last position command was refused)");
  EXPECT_EQ(errors[i++],
            "info string error position: move 3 '0': not a hole number 1..9" + kNoPosition);
  EXPECT_EQ(errors[i++], "info string error query: expected 'query gameover|p1turn|result'");
  EXPECT_EQ(errors[i++],
            "info string error query: unknown query 'weather' (gameover, p1turn, result)");
  EXPECT_EQ(errors[i++], "info string error go: the game is over (no-move, 0-1); no move");
  EXPECT_EQ(errors[i++], "info string error go: 'depth' needs an integer value, got 'x'");
  EXPECT_EQ(errors[i++], "info string error go: unknown parameter 'sideways' ignored");
  // "moves 6 x 5" left no position.
  EXPECT_EQ(with_prefix(out, "response "), (std::vector<std::string>{"response none"}));
  // The finished game answers bestmove 0000; the node-limited go still answers with a move.
  const auto best = with_prefix(out, "bestmove ");
  ASSERT_EQ(best.size(), 2u);
  EXPECT_EQ(best[0], "bestmove 0000");
  EXPECT_TRUE(Position::start().is_legal(std::stoi(best[1].substr(9))));
  // Nothing after quit is read.
  EXPECT_EQ(std::count(out.begin(), out.end(), "readyok"), 1);
}

}  // namespace
}  // namespace toguz::protocol
