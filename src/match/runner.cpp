// The match runner (runner.h). play_game referees one game between two players: it asks each
// for a move under its limits and the clocks, checks the move with Game::play, and ends the
// game on the board's result, a forfeit (illegal move, crash, hang) or time. Then the resume
// file (the settings and every finished pair as JSON, written atomically after each pair),
// the PGN of a game with the engines' scores as comments, and run_match: --concurrency
// threads each start their own two players and take the next pair until the pairs, the SPRT
// or a stop say there is none left.
#include "match/runner.h"

#include <boost/json.hpp>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "rules/random.h"
#include "rules/record.h"

namespace toguz::match {

namespace {

RuleOptions rule_options(const Rules& r) {
  RuleOptions o;
  o.variant = r.variant();
  o.tuz = r.tuz;
  o.play_out = r.play_out;
  return o;
}

}  // namespace

int GameRecord::a_points2() const {
  bool a_white = round == 0;
  switch (result) {
    case Result::WhiteWins:
      return a_white ? 2 : 0;
    case Result::BlackWins:
      return a_white ? 0 : 2;
    default:
      return 1;
  }
}

GameRecord play_game(Player* white, Player* black, const Position& start,
                     const MoveLimits& white_limits, const MoveLimits& black_limits,
                     const Settings& settings, uint64_t seed) {
  GameRecord g;
  g.game = Game(start);
  Player* players[2] = {white, black};
  const MoveLimits* limits[2] = {&white_limits, &black_limits};
  int clock[2];
  for (int s = 0; s < 2; ++s) clock[s] = limits[s]->tc_ms;

  // A forfeit: the side `s` loses, recorded in the game and named in the termination.
  auto forfeit = [&](int s, const std::string& termination, const std::string& detail) {
    g.game.set_recorded_result(
        s == 0 ? Result::BlackWins : Result::WhiteWins,
        termination == "time" || termination == "hang" ? EndReason::Time : EndReason::Resignation);
    g.termination = termination;
    g.detail = players[s]->name() + ": " + detail;
  };

  for (int s = 0; s < 2 && g.termination.empty(); ++s) {
    std::string why;
    if (!players[s]->new_game(start.rules(), &why)) forfeit(s, "crash", why);
  }
  g.white = white->name();
  g.black = black->name();

  while (!g.game.over()) {
    int s = index(g.game.position().side_to_move());
    const MoveLimits& l = *limits[s];
    MoveRequest req;
    req.limits = l;
    for (int t = 0; t < 2; ++t) {
      // Each side's own clock; an engine without a clock sees none for either side.
      req.clock_ms[t] =
          l.tc_ms >= 0 ? std::max(0, limits[t]->tc_ms >= 0 ? clock[t] : clock[s]) : -1;
      req.inc_ms[t] = l.tc_ms >= 0 ? (limits[t]->tc_ms >= 0 ? limits[t]->inc_ms : l.inc_ms) : 0;
    }
    int budget = l.tc_ms >= 0        ? std::max(0, clock[s]) + settings.margin_ms
                 : l.movetime_ms > 0 ? l.movetime_ms
                                     : 0;
    int hang = settings.hang_ms >= 0 ? settings.hang_ms : budget > 0 ? 2000 : 60000;
    req.deadline_ms = budget + hang;
    req.seed = splitmix64_of(seed ^ uint64_t(g.game.ply_count()) * 0x100000001b3ULL);

    MoveReply reply = players[s]->think(g.game, req);
    if (reply.status == ReplyStatus::Crashed) {
      forfeit(s, "crash", reply.error);
      break;
    }
    if (reply.status == ReplyStatus::Hung) {
      forfeit(s, l.tc_ms >= 0 ? "time" : "hang", reply.error);
      break;
    }
    if (l.tc_ms >= 0) {
      clock[s] -= reply.elapsed_ms;
      if (clock[s] < -settings.margin_ms) {
        forfeit(s, "time",
                "used " + std::to_string(reply.elapsed_ms) + " ms, clock ran out by " +
                    std::to_string(-clock[s]) + " ms");
        break;
      }
      clock[s] = std::max(clock[s], 0) + l.inc_ms;
    }
    std::string why;
    if (reply.move < 1 || !g.game.play(reply.move, &why)) {
      forfeit(s, "illegal move",
              "bestmove '" + reply.move_text + "' in " + format_position(g.game.position()) +
                  (why.empty() ? std::string(": not a hole number") : ": " + why));
      break;
    }
    g.notes.push_back({reply.have_info, reply.info, reply.elapsed_ms});
  }
  g.result = g.game.result();
  if (g.termination.empty()) g.termination = std::string(end_reason_name(g.game.end_reason()));
  return g;
}

void Totals::add(const PairResult& p) {
  for (const auto& gs : p.games) {
    if (gs.a_points2 == 2)
      ++wdl.wins;
    else if (gs.a_points2 == 1)
      ++wdl.draws;
    else
      ++wdl.losses;
    ++games;
    if (gs.termination == "illegal move" || gs.termination == "crash" || gs.termination == "hang" ||
        gs.termination == "time")
      ++forfeits[gs.a_points2 == 0 ? 0 : 1][gs.termination];
  }
  ++penta[p.a_points2()];
  ++pairs;
}

// ---- the resume file ----

namespace json = boost::json;

namespace {

json::object limits_json(const MoveLimits& l) {
  return {{"tc_ms", l.tc_ms},
          {"inc_ms", l.inc_ms},
          {"movetime_ms", l.movetime_ms},
          {"nodes", l.nodes},
          {"depth", l.depth}};
}

MoveLimits limits_from(const json::object& o) {
  MoveLimits l;
  l.tc_ms = int(o.at("tc_ms").to_number<int64_t>());
  l.inc_ms = int(o.at("inc_ms").to_number<int64_t>());
  l.movetime_ms = int(o.at("movetime_ms").to_number<int64_t>());
  l.nodes = o.at("nodes").to_number<uint64_t>();
  l.depth = int(o.at("depth").to_number<int64_t>());
  return l;
}

json::object settings_object(const Settings& s) {
  json::array engines;
  for (const EngineSpec& e : s.engines) {
    json::array t;
    for (auto& tok : e.tokens) t.emplace_back(tok);
    engines.emplace_back(std::move(t));
  }
  json::array openings;
  for (auto& o : s.openings) openings.emplace_back(o);
  return {{"engines", std::move(engines)},
          {"limits", limits_json(s.limits)},
          {"variant", variant_name(s.rules.variant())},
          {"tuz", s.rules.tuz},
          {"play_out", s.rules.play_out},
          {"pairs", s.pairs},
          {"openings", std::move(openings)},
          {"seed", s.seed},
          {"sprt", s.sprt},
          {"sprt_params",
           {{"elo0", s.sprt_params.elo0},
            {"elo1", s.sprt_params.elo1},
            {"alpha", s.sprt_params.alpha},
            {"beta", s.sprt_params.beta}}},
          {"margin_ms", s.margin_ms},
          {"hang_ms", s.hang_ms},
          {"handshake_ms", s.handshake_ms}};
}

Settings settings_from(const json::object& o) {
  Settings s;
  for (const auto& e : o.at("engines").as_array()) {
    std::vector<std::string> tokens;
    for (const auto& t : e.as_array()) tokens.emplace_back(t.as_string());
    s.engines.push_back(parse_engine_spec(tokens));
  }
  if (s.engines.size() != 2) throw std::runtime_error("expected two engines");
  s.limits = limits_from(o.at("limits").as_object());
  Variant v;
  if (!parse_variant(std::string(o.at("variant").as_string()), &v))
    throw std::runtime_error("unknown variant");
  s.rules = Rules::for_variant(v);
  s.rules.tuz = o.at("tuz").as_bool();
  s.rules.play_out = o.at("play_out").as_bool();
  s.pairs = int(o.at("pairs").to_number<int64_t>());
  for (const auto& p : o.at("openings").as_array()) s.openings.emplace_back(p.as_string());
  if (s.openings.empty()) throw std::runtime_error("no openings");
  s.seed = o.at("seed").to_number<uint64_t>();
  s.sprt = o.at("sprt").as_bool();
  const auto& sp = o.at("sprt_params").as_object();
  s.sprt_params = {sp.at("elo0").to_number<double>(), sp.at("elo1").to_number<double>(),
                   sp.at("alpha").to_number<double>(), sp.at("beta").to_number<double>()};
  s.margin_ms = int(o.at("margin_ms").to_number<int64_t>());
  s.hang_ms = int(o.at("hang_ms").to_number<int64_t>());
  s.handshake_ms = int(o.at("handshake_ms").to_number<int64_t>());
  return s;
}

}  // namespace

std::string settings_to_json(const Settings& s) {
  return json::serialize(settings_object(s));
}

std::string state_to_json(const MatchState& state) {
  json::array done;
  for (const PairResult& p : state.done) {
    json::array games;
    for (const auto& g : p.games)
      games.push_back(json::object{{"result", g.result},
                                   {"termination", g.termination},
                                   {"plies", g.plies},
                                   {"a_points2", g.a_points2}});
    done.push_back(json::object{{"index", p.index}, {"games", std::move(games)}});
  }
  json::object o{{"format", "toguz-match-state"},
                 {"version", 1},
                 {"settings", settings_object(state.settings)},
                 {"sprt_state", sprt_state_name(state.sprt)},
                 {"done", std::move(done)}};
  return json::serialize(o) + "\n";
}

MatchState state_from_json(const std::string& text) {
  MatchState st;
  try {
    json::value v = json::parse(text);
    const json::object& o = v.as_object();
    if (o.at("format").as_string() != "toguz-match-state" ||
        o.at("version").to_number<int64_t>() != 1)
      throw std::runtime_error("not a toguz match state (format/version)");
    st.settings = settings_from(o.at("settings").as_object());
    std::string sprt(o.at("sprt_state").as_string());
    st.sprt = sprt == "H0"   ? SprtState::AcceptH0
              : sprt == "H1" ? SprtState::AcceptH1
                             : SprtState::Continue;
    for (const auto& pv : o.at("done").as_array()) {
      const json::object& po = pv.as_object();
      PairResult p;
      p.index = int(po.at("index").to_number<int64_t>());
      const json::array& games = po.at("games").as_array();
      if (games.size() != 2) throw std::runtime_error("a pair needs two games");
      for (int i = 0; i < 2; ++i) {
        const json::object& go = games[i].as_object();
        p.games[i].result = std::string(go.at("result").as_string());
        p.games[i].termination = std::string(go.at("termination").as_string());
        p.games[i].plies = int(go.at("plies").to_number<int64_t>());
        p.games[i].a_points2 = int(go.at("a_points2").to_number<int64_t>());
        if (p.games[i].a_points2 < 0 || p.games[i].a_points2 > 2)
          throw std::runtime_error("a_points2 out of range");
      }
      st.done.push_back(p);
    }
  } catch (const SpecError& e) {
    throw std::runtime_error(std::string("bad engine in the saved settings: ") + e.what());
  } catch (const std::runtime_error&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("malformed match state: ") + e.what());
  }
  return st;
}

// ---- PGN ----

namespace {

std::string move_comment(const MoveNote& n) {
  char buf[64];
  std::string c = "{";
  if (n.have_info) {
    const search::Score& s = n.info.score;
    if (s.proven && s.result != 0)
      std::snprintf(buf, sizeof buf, "%sM%d/%d ", s.result > 0 ? "+" : "-", s.plies, n.info.depth);
    else
      std::snprintf(buf, sizeof buf, "%+.2f/%d ", (s.proven ? 0 : s.cp) / 100.0, n.info.depth);
    c += buf;
  }
  std::snprintf(buf, sizeof buf, "%.3fs}", n.elapsed_ms / 1000.0);
  return c + buf;
}

bool is_move_number(const std::string& t) {
  size_t i = 0;
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
  return i > 0 && i < t.size() && t.find_first_not_of('.', i) == std::string::npos;
}

}  // namespace

std::string game_pgn(const GameRecord& g, const Settings& settings) {
  char date[16];
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  std::strftime(date, sizeof date, "%Y.%m.%d", &tm);
  std::vector<std::pair<std::string, std::string>> tags{
      {"Event", "toguz match"},
      {"Site", "toguz"},
      {"Date", date},
      {"Round", std::to_string(g.pair + 1) + "." + std::to_string(g.round + 1)},
      {"White", g.white},
      {"Black", g.black},
      {"Result", std::string(result_text(g.result))},
      {"Termination", g.termination}};
  const MoveLimits& l = settings.limits;
  if (l.tc_ms >= 0) tags.emplace_back("TimeControl", format_tc(l));
  if (!g.detail.empty()) tags.emplace_back("TerminationDetails", g.detail);
  std::string text = write_record(g.game, tags, RecordStyle::PlayOK);

  // write_record gives the moves without comments: put one after each move token and
  // re-wrap the move text. Tokens are move numbers ("1."), moves, comments and the result.
  auto body = text.find("\n\n");
  if (body == std::string::npos) return text;
  std::string head = text.substr(0, body + 2);
  std::istringstream in(text.substr(body + 2));
  std::vector<std::string> tokens;
  std::string t;
  size_t move = 0;
  bool in_comment = false;
  while (in >> t) {
    bool is_move = !in_comment && t[0] != '{' && !is_move_number(t) &&
                   result_text(Result::None) != t && t != "1-0" && t != "0-1" && t != "1/2-1/2";
    if (t[0] == '{') in_comment = true;
    tokens.push_back(t);
    if (in_comment && t.back() == '}') in_comment = false;
    if (is_move && move < g.notes.size()) tokens.push_back(move_comment(g.notes[move++]));
  }
  std::string out = head, line;
  for (const std::string& tok : tokens) {
    if (!line.empty() && line.size() + 1 + tok.size() > 79) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + tok;
  }
  if (!line.empty()) out += line + "\n";
  return out;
}

// ---- the match ----

namespace {

PairResult::GameSummary summarise(const GameRecord& g) {
  return {std::string(result_text(g.result)), g.termination, g.game.ply_count(), g.a_points2()};
}

void write_file_atomically(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw std::runtime_error(path + ": cannot write the match state");
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace

Summary run_match(MatchState state, const RunOptions& options) {
  const Settings& settings = state.settings;
  if (settings.engines.size() != 2) throw std::runtime_error("a match needs exactly two engines");
  if (settings.openings.empty()) throw std::runtime_error("a match needs at least one opening");
  std::vector<Position> starts;
  for (const std::string& s : settings.openings)
    starts.push_back(parse_position(s, rule_options(settings.rules)));
  MoveLimits limits[2];
  for (int e = 0; e < 2; ++e) limits[e] = merge_limits(settings.limits, settings.engines[e].limits);

  std::mutex mu;
  Summary summary;
  std::set<int> done;
  for (const PairResult& p : state.done) {
    summary.totals.add(p);
    done.insert(p.index);
  }
  summary.llr = settings.sprt ? llr_pentanomial(summary.totals.penta, settings.sprt_params.elo0,
                                                settings.sprt_params.elo1)
                              : 0;
  summary.sprt = state.sprt;
  int next = 0, started = 0;
  std::string fatal;
  std::ofstream pgn;
  if (!options.pgn_path.empty()) {
    pgn.open(options.pgn_path, state.done.empty() ? std::ios::trunc : std::ios::app);
    if (!pgn) throw std::runtime_error(options.pgn_path + ": cannot write the PGN file");
  }

  // Takes the next pair to play, or -1 when the match should not start another one.
  auto take = [&]() -> int {
    std::lock_guard lock(mu);
    if (!fatal.empty() || summary.sprt != SprtState::Continue) return -1;
    if (options.stop && options.stop->load()) return -1;
    if (options.max_pairs > 0 && started >= options.max_pairs) return -1;
    while (next < settings.pairs && done.count(next)) ++next;
    if (next >= settings.pairs) return -1;
    ++started;
    return next++;
  };

  auto worker = [&]() {
    std::unique_ptr<Player> players[2];
    for (int e = 0; e < 2; ++e) {
      players[e] = make_player(settings.engines[e], settings);
      std::string why;
      if (!players[e]->start(&why)) {
        std::lock_guard lock(mu);
        if (fatal.empty()) fatal = "cannot start engine " + std::to_string(e + 1) + ": " + why;
        return;
      }
    }
    {
      std::lock_guard lock(mu);
      for (int e = 0; e < 2; ++e) summary.names[e] = players[e]->name();
    }
    for (int index; (index = take()) >= 0;) {
      const Position& start = starts[size_t(index) % starts.size()];
      PairResult pair;
      pair.index = index;
      std::vector<GameRecord> games;
      for (int round = 0; round < 2; ++round) {
        int w = round, b = 1 - round;  // round 0: engine A White
        uint64_t seed =
            splitmix64_of(settings.seed * 0x9e3779b97f4a7c15ULL + uint64_t(index) * 2 + round);
        GameRecord g = play_game(players[w].get(), players[b].get(), start, limits[w], limits[b],
                                 settings, seed);
        g.pair = index;
        g.round = round;
        pair.games[round] = summarise(g);
        {
          std::lock_guard lock(mu);
          if (options.on_game) options.on_game(g, summary.totals);
        }
        games.push_back(std::move(g));
      }
      std::lock_guard lock(mu);
      summary.totals.add(pair);
      done.insert(index);
      state.done.push_back(pair);
      if (settings.sprt) {
        summary.llr = llr_pentanomial(summary.totals.penta, settings.sprt_params.elo0,
                                      settings.sprt_params.elo1);
        if (summary.sprt == SprtState::Continue)
          summary.sprt = settings.sprt_params.decide(summary.llr);
        state.sprt = summary.sprt;
      }
      if (pgn.is_open()) {
        for (const GameRecord& g : games) pgn << game_pgn(g, settings) << "\n";
        pgn.flush();
      }
      if (!options.resume_path.empty())
        write_file_atomically(options.resume_path, state_to_json(state));
      if (options.on_pair) options.on_pair(pair, summary.totals, summary.llr);
    }
    for (auto& p : players) p->shutdown();
  };

  int n = std::max(1, options.concurrency);
  std::vector<std::thread> threads;
  for (int i = 1; i < n; ++i) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (!fatal.empty()) throw std::runtime_error(fatal);
  summary.complete = summary.sprt != SprtState::Continue || int(done.size()) >= settings.pairs;
  summary.interrupted = !summary.complete;
  return summary;
}

}  // namespace toguz::match
