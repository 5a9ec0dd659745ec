// `toguz match`: two engines (external UGI processes or the builtin engine) play pairs of games;
// prints progress and the statistics (Elo, LOS, SPRT). The work is in src/match.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/options.h"
#include "match/openings.h"
#include "match/runner.h"

namespace toguz::cli {

namespace {

namespace json = boost::json;
using namespace toguz::match;

std::atomic<bool> g_stop{false};
extern "C" void on_sigint(int) {
  g_stop = true;
}

struct MatchArgs {
  std::vector<std::vector<std::string>> engines;
  std::string tc;
  int movetime = 0;
  uint64_t nodes = 0;
  int depth = 0;
  int pairs = 1;
  std::string openings;
  int plies = 8;
  uint64_t seed = 1;
  int balance = 300;
  int balance_depth = 4;
  int concurrency = 1;
  std::vector<std::string> sprt;
  bool json_out = false;
  std::string pgn;
  std::string resume;
  int max_pairs = 0;
  int margin = 100;
  int hang = -1;
  int handshake = 10000;
  RuleFlags rules;
};

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string elo_text(double v) {
  if (std::isinf(v)) return v > 0 ? "+inf" : "-inf";
  return fmt("%+.1f", v == 0 ? 0.0 : v);
}

std::string width_text(double v) {
  return std::isfinite(v) ? fmt("%.1f", v) : "inf";
}

// JSON has no infinity: null. Rounded to 4 decimals (and no -0) so the output reads well.
json::value num(double v) {
  if (!std::isfinite(v)) return nullptr;
  double r = std::round(v * 1e4) / 1e4;
  return r == 0 ? 0.0 : r;
}

std::string duration_text(double seconds) {
  long s = std::lround(std::max(0.0, seconds));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return buf;
}

[[noreturn]] void fail(const std::string& msg, int code = 2) {
  std::cerr << "toguz match: " << msg << "\n";
  throw CLI::RuntimeError(code);
}

// The settings from the command line (openings generated or read here).
Settings settings_from_args(const MatchArgs& a, bool sprt_given) {
  Settings s;
  if (a.engines.size() != 2)
    fail("expected exactly two --engine, got " + std::to_string(a.engines.size()));
  for (const auto& tokens : a.engines) s.engines.push_back(parse_engine_spec(tokens));
  if (!a.tc.empty()) parse_tc(a.tc, &s.limits);
  s.limits.movetime_ms = a.movetime;
  s.limits.nodes = a.nodes;
  s.limits.depth = a.depth;
  for (const EngineSpec& e : s.engines)
    if (!merge_limits(s.limits, e.limits).any() &&
        !(e.builtin && e.skill == 0))  // random needs none
      fail(
          "no limit for an engine: give --tc, --movetime, --nodes or --depth (or tc=/depth=/... "
          "in its --engine)");
  RuleOptions ro = a.rules.options();
  s.rules = ro.resolve();
  s.pairs = a.pairs;
  s.seed = a.seed;
  if (!a.openings.empty()) {
    s.openings = read_openings(a.openings, ro);
  } else {
    OpeningGen gen;
    gen.count = a.pairs;
    gen.plies = a.plies;
    gen.seed = a.seed;
    gen.balance_cp = a.balance;
    gen.balance_depth = a.balance_depth;
    s.openings = generate_openings(gen, s.rules);
  }
  s.sprt = sprt_given;
  if (sprt_given) s.sprt_params = parse_sprt(a.sprt);
  s.margin_ms = a.margin;
  s.hang_ms = a.hang;
  s.handshake_ms = a.handshake;
  return s;
}

void print_summary(const Summary& sm, const Settings& st, bool as_json) {
  const Totals& t = sm.totals;
  Estimate e = t.estimate();
  if (as_json) {
    json::object forfeits;
    for (int i = 0; i < 2; ++i) {
      json::object f;
      for (auto& [k, v] : t.forfeits[i]) f[k] = v;
      forfeits[i == 0 ? "engine1" : "engine2"] = std::move(f);
    }
    json::object o{{"engines", json::array{json::value(sm.names[0]), json::value(sm.names[1])}},
                   {"games", t.games},
                   {"pairs", t.pairs},
                   {"wdl", json::array{t.wdl.wins, t.wdl.draws, t.wdl.losses}},
                   {"pentanomial", json::array(t.penta.begin(), t.penta.end())},
                   {"score", num(e.score)},
                   {"elo", num(e.elo)},
                   {"elo_ci95", num(e.elo_ci95)},
                   {"elo_interval", json::array{num(e.elo_lo), num(e.elo_hi)}},
                   {"nelo", num(e.nelo)},
                   {"nelo_ci95", num(e.nelo_ci95)},
                   {"los", num(e.los)},
                   {"llr", st.sprt ? num(sm.llr) : json::value(nullptr)},
                   {"sprt", st.sprt ? json::value(sprt_state_name(sm.sprt)) : json::value(nullptr)},
                   {"forfeits", std::move(forfeits)},
                   {"complete", sm.complete}};
    if (st.sprt)
      o["sprt_bounds"] =
          json::object{{"elo0", st.sprt_params.elo0},     {"elo1", st.sprt_params.elo1},
                       {"alpha", st.sprt_params.alpha},   {"beta", st.sprt_params.beta},
                       {"lower", st.sprt_params.lower()}, {"upper", st.sprt_params.upper()}};
    std::cout << json::serialize(o) << "\n";
    return;
  }
  std::cout << "Score of " << sm.names[0] << " vs " << sm.names[1] << ": " << t.wdl.wins << " - "
            << t.wdl.losses << " - " << t.wdl.draws << " (W - L - D)  " << fmt("%.3f", e.score)
            << "  " << t.games << " games\n";
  std::cout << "Pentanomial [0, 0.5, 1, 1.5, 2]: [" << t.penta[0] << ", " << t.penta[1] << ", "
            << t.penta[2] << ", " << t.penta[3] << ", " << t.penta[4] << "]\n";
  std::cout << "Elo " << elo_text(e.elo) << " +/- " << width_text(e.elo_ci95)
            << " (95%: " << elo_text(e.elo_lo) << " .. " << elo_text(e.elo_hi) << ")   nElo "
            << elo_text(e.nelo) << " +/- " << width_text(e.nelo_ci95) << "   LOS "
            << fmt("%.1f%%", 100 * e.los) << "\n";
  if (st.sprt) {
    const SprtParams& p = st.sprt_params;
    std::cout << "SPRT elo0=" << p.elo0 << " elo1=" << p.elo1 << " alpha=" << p.alpha
              << " beta=" << p.beta << ": LLR " << fmt("%.2f", sm.llr) << " ("
              << fmt("%.2f", p.lower()) << ", " << fmt("%.2f", p.upper()) << ") "
              << (sm.sprt == SprtState::AcceptH1   ? "H1 accepted"
                  : sm.sprt == SprtState::AcceptH0 ? "H0 accepted"
                                                   : "undecided")
              << "\n";
  }
  for (int i = 0; i < 2; ++i)
    if (!t.forfeits[i].empty()) {
      std::cout << "Forfeits by " << sm.names[i] << ":";
      for (auto& [k, v] : t.forfeits[i]) std::cout << " " << k << " " << v;
      std::cout << "\n";
    }
  if (!sm.complete)
    std::cout << "Match interrupted after " << t.pairs << " of " << st.pairs << " pairs\n";
}

void run(const MatchArgs& a, bool sprt_given, bool engines_given) {
  MatchState state;
  bool resuming = !a.resume.empty() && std::filesystem::exists(a.resume);
  try {
    if (resuming) {
      std::ifstream in(a.resume, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      try {
        state = state_from_json(ss.str());
      } catch (const std::exception& e) {
        fail(a.resume + ": " + e.what());
      }
      if (engines_given) {
        Settings given = settings_from_args(a, sprt_given);
        if (settings_to_json(given) != settings_to_json(state.settings))
          fail(a.resume +
               ": the match saved there has other settings than this command line; "
               "give only --resume FILE to continue it, or another file for a new match");
      }
    } else {
      state.settings = settings_from_args(a, sprt_given);
    }
  } catch (const CLI::Error&) {
    throw;  // already reported
  } catch (const SpecError& e) {
    fail(e.what());
  } catch (const ParseError& e) {
    fail(e.what());
  } catch (const std::runtime_error& e) {
    fail(e.what());
  }

  const Settings& st = state.settings;
  bool tty = isatty(2);
  auto t0 = std::chrono::steady_clock::now();
  int games_at_start = int(state.done.size()) * 2, games_now = games_at_start;
  int total_games = 2 * st.pairs;
  RunOptions ro;
  ro.concurrency = a.concurrency;
  ro.max_pairs = a.max_pairs;
  ro.resume_path = a.resume;
  ro.pgn_path = a.pgn;
  ro.stop = &g_stop;
  // W/D/L counted per game as games finish (the totals move per pair).
  Wdl live;
  {
    Totals before;
    for (const PairResult& p : state.done) before.add(p);
    live = before.wdl;
  }
  auto progress = [&](const Totals& t, int games_done) {
    Estimate e = t.estimate();
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    int played = games_done - games_at_start;
    double eta = played > 0 ? secs / played * (total_games - games_done) : 0;
    std::ostringstream s;
    s << "games " << games_done << "/" << total_games << "  W " << live.wins << " D " << live.draws
      << " L " << live.losses << "  Elo " << elo_text(e.elo) << " +/- " << width_text(e.elo_ci95)
      << "  left " << duration_text(eta);
    return s.str();
  };
  ro.on_game = [&](const GameRecord& g, const Totals& t) {
    ++games_now;
    int p = g.a_points2();
    ++(p == 2 ? live.wins : p == 1 ? live.draws : live.losses);
    if (tty) std::cerr << "\r" << progress(t, games_now) << "   " << std::flush;
  };
  ro.on_pair = [&](const PairResult& p, const Totals& t, double llr) {
    if (tty) {
      std::cerr << "\r" << progress(t, games_now) << (st.sprt ? "  LLR " + fmt("%.2f", llr) : "")
                << "   " << std::flush;
      return;
    }
    std::cerr << "pair " << p.index + 1 << ": " << p.games[0].result << " ("
              << p.games[0].termination << "), " << p.games[1].result << " ("
              << p.games[1].termination << ")  " << progress(t, t.games)
              << (st.sprt ? "  LLR " + fmt("%.2f", llr) : "") << "\n";
  };

  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sa.sa_flags = SA_RESETHAND;  // a second Ctrl-C ends the program at once
  sigaction(SIGINT, &sa, nullptr);
  Summary sm;
  try {
    sm = run_match(state, ro);
  } catch (const std::exception& e) {
    if (tty) std::cerr << "\n";
    fail(e.what(), 1);
  }
  signal(SIGINT, SIG_DFL);
  if (tty) std::cerr << "\n";
  print_summary(sm, st, a.json_out);
  if (!sm.complete && !a.resume.empty())
    std::cerr << "toguz match: state saved; continue with: toguz match --resume " << a.resume
              << "\n";
}

}  // namespace

void add_match(CLI::App& app) {
  auto a = std::make_shared<MatchArgs>();
  CLI::App* cmd =
      app.add_subcommand("match", "play two engines against each other and measure the difference");
  cmd->add_option("--engine", a->engines,
                  "cmd=PATH [arg=ARG]... [name=NAME] [option.NAME=VALUE]... or builtin [skill=N] "
                  "[option.NAME=VALUE]... (skill=0: random mover); per engine also tc=, movetime=, "
                  "nodes=, depth=; exactly two")
      ->allow_extra_args();
  cmd->add_option("--tc", a->tc, "clock per game and increment, seconds: 10+0.1");
  cmd->add_option("--movetime", a->movetime, "milliseconds per move")->check(CLI::PositiveNumber);
  cmd->add_option("--nodes", a->nodes, "nodes per move")->check(CLI::PositiveNumber);
  cmd->add_option("--depth", a->depth, "plies per move")->check(CLI::PositiveNumber);
  cmd->add_option("--pairs", a->pairs, "pairs of games (each opening with both colours)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--openings", a->openings, "file of position strings, one per line");
  cmd->add_option("--plies", a->plies, "random plies of a generated opening (default 8)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--seed", a->seed,
                  "seed of the generated openings and random movers (default 1)");
  cmd->add_option("--balance", a->balance,
                  "keep generated openings within this many cp (default 300)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--balance-depth", a->balance_depth,
                  "depth of the opening filter search, 0 = none (default 4)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--concurrency", a->concurrency, "games played at once (default 1)")
      ->check(CLI::PositiveNumber);
  auto* sprt =
      cmd->add_option("--sprt", a->sprt, "elo0=0 elo1=5 alpha=0.05 beta=0.05: stop when decided")
          ->expected(0, 4)
          ->allow_extra_args();
  cmd->add_flag("--json", a->json_out, "print the summary as one JSON object");
  cmd->add_option("--pgn", a->pgn, "write every game to this PGN file");
  cmd->add_option("--resume", a->resume,
                  "state file: saved after every pair; continues the match in it");
  cmd->add_option("--max-pairs", a->max_pairs,
                  "stop after this many pairs in this run (resume later)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--margin", a->margin, "clock overstep tolerated, ms (default 100)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--hang-ms", a->hang,
                  "wait past a move's budget before a silent engine has hung, ms (default 2000; "
                  "60000 with only --nodes/--depth)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--handshake-ms", a->handshake, "time for ugiok / readyok, ms (default 10000)")
      ->check(CLI::PositiveNumber);
  a->rules.add_to(cmd);
  cmd->callback([a, sprt, cmd] {
    bool engines_given = cmd->count("--engine") > 0;
    if (!engines_given && a->resume.empty())
      fail("expected two --engine (or --resume FILE of a saved match)");
    if (!engines_given && !std::filesystem::exists(a->resume))
      fail(a->resume + ": no saved match there; give two --engine to start one");
    run(*a, sprt->count() > 0, engines_given);
  });
}

}  // namespace toguz::cli
