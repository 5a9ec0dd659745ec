// The match runner: plays pairs of games (each opening once with each colour) between two
// players, referees them with toguz::Game, keeps the clocks, and reports through callbacks.
// It never prints; the CLI formats what it receives.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "match/player.h"
#include "match/spec.h"
#include "match/stats.h"
#include "rules/game.h"
#include "rules/notation.h"

namespace toguz::match {

// What the runner noted about one move, for the record's comment.
struct MoveNote {
  bool have_info = false;
  search::Info info;
  int elapsed_ms = 0;
};

// One finished game.
struct GameRecord {
  int pair = 0;              // 0-based pair index
  int round = 0;             // 0: engine A has White, 1: engine B has White
  std::string white, black;  // display names
  Game game;
  Result result = Result::None;
  // How it ended: "decided", "no-move", "repetition" (from the board) or, recorded by the
  // referee, "illegal move", "crash", "hang", "time".
  std::string termination;
  std::string detail;           // the referee's explanation for a forfeit
  std::vector<MoveNote> notes;  // one per move played
  // Engine A's points in half points (0, 1, 2).
  int a_points2() const;
};

// Plays one game from `start`. players[0] has White. `seed` fixes random movers.
GameRecord play_game(Player* white, Player* black, const Position& start,
                     const MoveLimits& white_limits, const MoveLimits& black_limits,
                     const Settings& settings, uint64_t seed);

// A pair as kept in the resume file and the totals.
struct PairResult {
  int index = 0;
  struct GameSummary {
    std::string result;  // "1-0", ...
    std::string termination;
    int plies = 0;
    int a_points2 = 0;
  };
  GameSummary games[2];
  int a_points2() const { return games[0].a_points2 + games[1].a_points2; }
};

// Totals from engine A's point of view.
struct Totals {
  Wdl wdl;
  Pentanomial penta{};
  int games = 0;
  int pairs = 0;
  // Forfeits by termination ("illegal move", "crash", "hang", "time") per engine (0 = A).
  std::map<std::string, int> forfeits[2];
  Estimate estimate() const { return match::estimate(penta); }
  void add(const PairResult& p);
};

struct Summary {
  Totals totals;
  std::string names[2];
  double llr = 0;
  SprtState sprt = SprtState::Continue;
  bool complete = false;     // every pair played (or the SPRT stopped the match)
  bool interrupted = false;  // stopped early by max_pairs or a stop request
};

// The match's state as saved after every pair: settings and the finished pairs.
struct MatchState {
  Settings settings;
  std::vector<PairResult> done;
  SprtState sprt = SprtState::Continue;  // the first SPRT decision reached, if any
};
std::string state_to_json(const MatchState& state);
// Throws std::runtime_error naming what is wrong with the file's content.
MatchState state_from_json(const std::string& text);
// JSON of the settings alone, to compare a resumed match with its command line.
std::string settings_to_json(const Settings& s);

// Writes a finished game as PlayOK-style PGN with a comment per move ({score/depth time}).
std::string game_pgn(const GameRecord& g, const Settings& settings);

struct RunOptions {
  int concurrency = 1;
  int max_pairs = 0;                  // stop after this many pairs in this run (0 = no limit)
  std::string resume_path;            // "" = no resume file
  std::string pgn_path;               // "" = no PGN
  std::atomic<bool>* stop = nullptr;  // set from outside (e.g. SIGINT) to stop after the
                                      // pairs in progress
  std::function<void(const GameRecord&, const Totals&)> on_game;
  std::function<void(const PairResult&, const Totals&, double llr)> on_pair;
};

// Runs the match from `state` (a new one has no finished pairs) to the end, an SPRT
// decision or a stop. Throws std::runtime_error when an engine cannot be started at all.
Summary run_match(MatchState state, const RunOptions& options);

}  // namespace toguz::match
