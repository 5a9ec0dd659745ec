// The match runner: engine specs, deterministic builtin matches, forfeits by misbehaving
// external engines (scripts in tests/data/match), resume, concurrency, PGN output.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "match/openings.h"
#include "match/runner.h"
#include "rules/record.h"
#include "test_util.h"

using namespace toguz;
using namespace toguz::match;

namespace {

Settings make_settings(const std::vector<std::string>& a, const std::vector<std::string>& b,
                       int pairs, uint64_t nodes = 300) {
  Settings s;
  s.engines = {parse_engine_spec(a), parse_engine_spec(b)};
  s.limits.nodes = nodes;
  s.pairs = pairs;
  s.openings = read_openings(test::data_path("match/openings.txt"), {});
  return s;
}

std::vector<std::string> script(const std::string& name) {
  return {"cmd=sh", "arg=" + test::data_path("match/" + name)};
}

std::string done_json(std::vector<PairResult> done) {
  std::sort(done.begin(), done.end(), [](auto& x, auto& y) { return x.index < y.index; });
  MatchState st;
  st.done = done;
  return state_to_json(st);
}

struct Collected {
  std::vector<GameRecord> games;
  std::vector<PairResult> pairs;
  RunOptions options() {
    RunOptions o;
    o.on_game = [this](const GameRecord& g, const Totals&) { games.push_back(g); };
    o.on_pair = [this](const PairResult& p, const Totals&, double) { pairs.push_back(p); };
    return o;
  }
};

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("toguz-match-test-" + std::to_string(getpid()) + "-" + name))
      .string();
}

}  // namespace

TEST(MatchSpec, ParsesEngines) {
  EngineSpec e = parse_engine_spec(
      {"cmd=/bin/eng", "arg=ugi", "arg=-q", "name=X", "option.Hash=64", "depth=4"});
  EXPECT_FALSE(e.builtin);
  EXPECT_EQ(e.cmd, "/bin/eng");
  EXPECT_EQ(e.args, (std::vector<std::string>{"ugi", "-q"}));
  EXPECT_EQ(e.name, "X");
  ASSERT_EQ(e.options.size(), 1u);
  EXPECT_EQ(e.options[0].first, "Hash");
  EXPECT_EQ(e.options[0].second, "64");
  EXPECT_EQ(e.limits.depth, 4);
  EngineSpec b = parse_engine_spec({"builtin", "skill=0"});
  EXPECT_TRUE(b.builtin);
  EXPECT_EQ(b.skill, 0);
}

TEST(MatchSpec, RejectsBadEngines) {
  auto message = [](const std::vector<std::string>& t) {
    try {
      parse_engine_spec(t);
    } catch (const SpecError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(message({"name=x"}), "--engine: expected builtin or cmd=PATH");
  EXPECT_EQ(message({"builtin", "cmd=x"}), "--engine: give either builtin or cmd=PATH, not both");
  EXPECT_EQ(message({"builtin", "skill=21"}),
            "--engine: 'skill=21': expected skill=N with N in 0..20 (0 = random mover)");
  EXPECT_EQ(message({"builtin", "colour=red"}),
            "--engine: unknown key 'colour' (expected cmd, arg, name, skill, option.NAME, tc, "
            "movetime, nodes, depth)");
  EXPECT_EQ(message({"cmd"}).substr(0, 25), "--engine: 'cmd' is not KE");
}

TEST(MatchSpec, TimeControlAndSprt) {
  MoveLimits l;
  parse_tc("10+0.1", &l);
  EXPECT_EQ(l.tc_ms, 10000);
  EXPECT_EQ(l.inc_ms, 100);
  EXPECT_EQ(format_tc(l), "10+0.1");
  parse_tc("0.5", &l);
  EXPECT_EQ(l.tc_ms, 500);
  EXPECT_EQ(l.inc_ms, 0);
  EXPECT_THROW(parse_tc("10+x", &l), SpecError);
  EXPECT_THROW(parse_tc("-1", &l), SpecError);
  SprtParams p = parse_sprt({"elo0=-1 elo1=3", "alpha=0.1"});
  EXPECT_EQ(p.elo0, -1);
  EXPECT_EQ(p.elo1, 3);
  EXPECT_EQ(p.alpha, 0.1);
  EXPECT_EQ(p.beta, 0.05);
  EXPECT_THROW(parse_sprt({"elo0=5", "elo1=0"}), SpecError);
  EXPECT_THROW(parse_sprt({"gamma=1"}), SpecError);
}

TEST(MatchRunner, SelfPlayIsSymmetricAndDeterministic) {
  // The same deterministic engine on both sides: each opening gives the same game with the
  // colours swapped, so every pair scores exactly 1-1 (pentanomial bin 2), Elo exactly 0.
  Settings s = make_settings({"builtin"}, {"builtin", "name=copy"}, 2);
  Collected c1, c2;
  Summary a = run_match({s, {}, {}}, c1.options());
  Summary b = run_match({s, {}, {}}, c2.options());
  EXPECT_EQ(a.totals.games, 4);
  EXPECT_EQ(a.totals.penta, (Pentanomial{0, 0, 2, 0, 0}));
  EXPECT_EQ(a.totals.estimate().elo, 0.0);
  EXPECT_TRUE(a.complete);
  EXPECT_EQ(a.names[1], "copy");
  ASSERT_EQ(c1.games.size(), 4u);
  ASSERT_EQ(c2.games.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(c1.games[i].game.moves().size(), c2.games[i].game.moves().size());
    EXPECT_EQ(c1.games[i].result, c2.games[i].result);
    EXPECT_EQ(c1.games[i].notes.size(), c1.games[i].game.moves().size());
  }
  // Games 1 and 2 of a pair: the same moves, engine names swapped.
  EXPECT_EQ(c1.games[0].white, "builtin");
  EXPECT_EQ(c1.games[1].white, "copy");
  ASSERT_EQ(c1.games[0].game.ply_count(), c1.games[1].game.ply_count());
  for (int i = 0; i < c1.games[0].game.ply_count(); ++i)
    EXPECT_EQ(c1.games[0].game.moves()[i].hole, c1.games[1].game.moves()[i].hole);
}

TEST(MatchRunner, BuiltinBeatsRandomMover) {
  Settings s = make_settings({"builtin"}, {"builtin", "skill=0"}, 2);
  Summary sm = run_match({s, {}, {}}, {});
  EXPECT_EQ(sm.names[1], "random");
  EXPECT_EQ(sm.totals.wdl.wins, 4u);
  EXPECT_EQ(sm.totals.penta, (Pentanomial{0, 0, 0, 0, 2}));
  EXPECT_EQ(sm.totals.estimate().los, 1.0);
}

TEST(MatchRunner, ConcurrencyGivesTheSameGames) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "slow under sanitizers";
#endif
  Settings s = make_settings({"builtin"}, {"builtin", "skill=0"}, 3);
  s.openings.push_back("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1");
  Collected one, two;
  run_match({s, {}, {}}, one.options());
  RunOptions o = two.options();
  o.concurrency = 2;
  run_match({s, {}, {}}, o);
  EXPECT_EQ(done_json(one.pairs), done_json(two.pairs));
}

TEST(MatchRunner, ResumeGivesTheSameTotals) {
  Settings s = make_settings({"builtin"}, {"builtin", "skill=0", "name=rnd"}, 3);
  Summary full = run_match({s, {}, {}}, {});

  std::string path = temp_path("resume.json");
  std::filesystem::remove(path);
  RunOptions o;
  o.resume_path = path;
  o.max_pairs = 2;
  Summary part = run_match({s, {}, {}}, o);
  EXPECT_FALSE(part.complete);
  EXPECT_EQ(part.totals.pairs, 2);
  MatchState saved = state_from_json(test::read_file(path));
  EXPECT_EQ(saved.done.size(), 2u);
  EXPECT_EQ(settings_to_json(saved.settings), settings_to_json(s));

  o.max_pairs = 0;
  Summary rest = run_match(saved, o);
  EXPECT_TRUE(rest.complete);
  EXPECT_EQ(rest.totals.pairs, 3);
  EXPECT_EQ(rest.totals.penta, full.totals.penta);
  EXPECT_EQ(rest.totals.wdl.wins, full.totals.wdl.wins);
  EXPECT_EQ(rest.totals.wdl.losses, full.totals.wdl.losses);
  EXPECT_EQ(state_from_json(test::read_file(path)).done.size(), 3u);
  std::filesystem::remove(path);
}

TEST(MatchRunner, BadStateFileIsNamed) {
  try {
    state_from_json("{\"format\":\"toguz-match-state\",\"version\":1}");
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("malformed match state"), std::string::npos) << e.what();
  }
  EXPECT_THROW(state_from_json("not json"), std::runtime_error);
}

TEST(MatchRunner, IllegalMoveLoses) {
  Settings s = make_settings({"builtin"}, script("ugi-illegal.sh"), 1);
  Collected c;
  Summary sm = run_match({s, {}, {}}, c.options());
  EXPECT_EQ(sm.names[1], "illegal-mover");
  EXPECT_EQ(sm.totals.wdl.wins, 2u);
  EXPECT_EQ(sm.totals.forfeits[1].at("illegal move"), 2);
  ASSERT_EQ(c.games.size(), 2u);
  EXPECT_EQ(c.games[0].termination, "illegal move");
  EXPECT_EQ(c.games[0].result, Result::WhiteWins);  // the builtin engine had White
  EXPECT_EQ(c.games[1].result, Result::BlackWins);  // the script had White and lost at once
  EXPECT_EQ(c.games[1].game.ply_count(), 0);
  EXPECT_NE(c.games[1].detail.find("bestmove '10'"), std::string::npos) << c.games[1].detail;
}

TEST(MatchRunner, CrashLoses) {
  Settings s = make_settings({"builtin"}, script("ugi-exit.sh"), 1);
  Collected c;
  Summary sm = run_match({s, {}, {}}, c.options());
  EXPECT_EQ(sm.totals.wdl.wins, 2u);
  EXPECT_EQ(sm.totals.forfeits[1].at("crash"), 2);
  ASSERT_EQ(c.games.size(), 2u);
  EXPECT_NE(c.games[0].detail.find("exit status 3"), std::string::npos) << c.games[0].detail;
}

TEST(MatchRunner, HangAndSlowClockLose) {
  Settings s = make_settings({"builtin"}, script("ugi-silent.sh"), 1);
  s.hang_ms = 200;
  Collected c;
  Summary sm = run_match({s, {}, {}}, c.options());
  EXPECT_EQ(sm.totals.wdl.wins, 2u);
  EXPECT_EQ(sm.totals.forfeits[1].at("hang"), 2);
  // Under a clock, a silent engine loses on time (the builtin one keeps its node limit, so it
  // never comes near its own clock, even under sanitizers).
  parse_tc("0.2", &s.limits);
  Summary timed = run_match({s, {}, {}}, {});
  EXPECT_EQ(timed.totals.forfeits[1].at("time"), 2);
}

TEST(MatchRunner, NoHandshakeIsAnError) {
  Settings s = make_settings({"builtin"}, script("ugi-no-handshake.sh"), 1);
  s.handshake_ms = 200;
  try {
    run_match({s, {}, {}}, {});
    FAIL() << "the match ran";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no ugiok within 200 ms"), std::string::npos) << e.what();
  }
}

TEST(MatchRunner, PgnReplaysWithAComment) {
  Settings s = make_settings({"builtin"}, {"builtin", "skill=0"}, 1);
  s.openings = {s.openings[1]};  // not the start: the record carries a FEN tag
  Collected c;
  run_match({s, {}, {}}, c.options());
  ASSERT_EQ(c.games.size(), 2u);
  for (const GameRecord& g : c.games) {
    std::string pgn = game_pgn(g, s);
    std::vector<Record> records = read_records(pgn);
    ASSERT_EQ(records.size(), 1u) << pgn;
    Replayed r = replay_record(records[0]);
    EXPECT_FALSE(r.error) << r.error->message << "\n" << pgn;
    EXPECT_EQ(r.game.ply_count(), g.game.ply_count());
    EXPECT_EQ(r.game.result(), g.result);
    EXPECT_EQ(records[0].tag("Termination"), g.termination);
    // One comment per move: "{+0.35/8 0.012s}" for the engine, "{0.000s}" for the random mover.
    // (plus PlayOK's {zero} after the result when the game ended for lack of stones).
    size_t comments = 0;
    for (size_t at = 0; (at = pgn.find("s}", at)) != std::string::npos; ++at) ++comments;
    EXPECT_EQ(comments, size_t(g.game.ply_count())) << pgn;
    EXPECT_NE(pgn.find("[FEN \"" + s.openings[0] + "\"]"), std::string::npos) << pgn;
  }
}

TEST(MatchOpenings, GeneratedAreDistinctAndRepeatable) {
  OpeningGen gen;
  gen.count = 6;
  gen.plies = 6;
  gen.seed = 42;
  gen.balance_depth = 2;
  std::vector<std::string> a = generate_openings(gen, Rules{});
  std::vector<std::string> b = generate_openings(gen, Rules{});
  EXPECT_EQ(a, b);
  ASSERT_EQ(a.size(), 6u);
  std::vector<uint64_t> keys;
  for (auto& s : a) {
    Position p = parse_position(s);
    EXPECT_EQ(p.outcome(), Outcome::Ongoing);
    EXPECT_EQ(p.move_number(), 4);  // 6 plies from the start
    keys.push_back(p.key());
  }
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(std::unique(keys.begin(), keys.end()), keys.end());
  gen.seed = 43;
  EXPECT_NE(generate_openings(gen, Rules{}), a);
}

TEST(MatchOpenings, BadFileNamesTheLine) {
  std::string path = temp_path("openings.txt");
  {
    std::ofstream out(path);
    out << "# comment\n9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1\n9,9,9/9,9,9 0 0 w\n";
  }
  try {
    read_openings(path, {});
    FAIL() << "accepted";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":3: ", 0), 0u) << e.what();
  }
  std::filesystem::remove(path);
}
