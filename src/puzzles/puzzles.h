// Puzzles mined from real games (docs/puzzles.md): positions where one move is clearly best,
// found by a multi-PV search, confirmed by a deeper one and, with few stones left, proven by the
// exact solver. Depends on the rules, the search and the solver only. Never prints.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "rules/game.h"

namespace toguz::puzzles {

struct MineOptions {
  int depth = 10;         // the multi-PV search that finds candidates (plies)
  int confirm_depth = 0;  // the deeper search that confirms them; 0 = depth + 2
  // The best move must beat the second by this much (centi-stones) at both depths, and every
  // move of the solver's side on the line too; a reply on the line is "forced" by the same gap.
  int margin_cp = 500;
  int skip_plies = 8;              // the opening's first plies are not mined
  int max_line = 7;                // the longest solution line (plies)
  int prove_stones = 24;           // board stones at or below which the solver is asked for a proof
  uint64_t solver_nodes = 300000;  // node limit of each solver call
  int hash_mb = 4;                 // cleared before every search (each is independent of the last)
};

// Where a puzzle comes from.
struct Source {
  std::string file;                                       // the record file as given
  int game = 0;                                           // 1-based game number in the file
  std::vector<std::pair<std::string, std::string>> tags;  // the game's tags
  int ply = 0;                                            // plies played before the puzzle
  int played = 0;                                         // the hole played there in the game
};

struct Puzzle {
  std::string position;                    // format_position of the puzzle position
  Side side = Side::White;                 // the side to move (the solver's side)
  std::vector<int> line;                   // holes: the solution, forced replies included
  std::vector<std::string> line_notation;  // the same in PlayOK notation
  int best_cp = 0;                         // the confirming search's score of the best move
  int second_cp = 0;                       // and of the second best (side to move's view)
  bool proven = false;                     // the solver proved the first move the only best one
  int proven_result = 0;             // when proven: +1 win, 0 draw, -1 loss for the side to move
  std::optional<int> proven_margin;  // when proven and known: final margin for the side to move
  std::vector<std::string> themes;
  int difficulty = 1;      // 1..10, see docs/puzzles.md
  int found_depth = 0;     // the depth from which the search keeps the solution move
  uint64_t key = 0;        // Position::key of the puzzle position
  uint64_t board_key = 0;  // Position::board_key (kaznas left out)
  Source source;
};

// Mines one replayed game. `game` holds the whole game; every position from ply
// options.skip_plies on that is not over is examined. Deterministic for the same options.
std::vector<Puzzle> mine_game(const Game& game, const Source& source, const MineOptions& options);

// Re-checks a puzzle at `depth` (multi-PV 2, fresh tables): the first move of the line is the
// engine's best and beats the second by at least margin_cp. *why says what failed.
bool recheck_puzzle(const Puzzle& puzzle, int depth, int margin_cp, std::string* why);
// Re-proves a proven puzzle with the solver (node limit `nodes` per call): the first move is
// again the only best one by margin_cp, with the same result and margin.
bool reprove_puzzle(const Puzzle& puzzle, int margin_cp, uint64_t nodes, std::string* why);

// Duplicates: the same position key, or the same board (kaznas left out) with the same first
// move of the solution. add() returns false for a duplicate of one added before.
class Deduper {
 public:
  bool add(const Puzzle& p);
  bool add(uint64_t key, uint64_t board_key, int first_move);
  size_t size() const { return keys_.size(); }

 private:
  std::unordered_set<uint64_t> keys_;
  std::unordered_set<uint64_t> boards_;  // board_key mixed with the first move
};

// One puzzle as one line of JSON (no newline), in the shape of docs/puzzles.md.
std::string puzzle_json(const Puzzle& p);
// A line written by puzzle_json read back; false (and *why, when given) when it is not one.
bool read_puzzle(const std::string& line, Puzzle* out, std::string* why);

// A whole build: the games of `inputs` (record files, in order) mined into the JSON-lines file
// `out`, with a state file `out` + ".state" (the games done, the output's size then, a hash of
// the inputs and options). With the same inputs and options a new build resumes after the games
// done and gives the same file as one uninterrupted build. Bad games are reported and skipped.
struct BuildProgress {
  int games_done = 0;  // games finished (mined or skipped as bad), all files together
  int games_total = 0;
  int puzzles = 0;      // puzzles in the file
  int duplicates = 0;   // puzzles dropped as duplicates in this run
  int bad_games = 0;    // games that did not read or replay (this run)
  std::string message;  // "" or a note about a bad game / the resume
};
struct BuildOptions {
  MineOptions mine;
  int stop_after = 0;  // stop after this many games in this run (0 = all): for tests
  std::function<void(const BuildProgress&)> on_progress;  // after every game and on notes
};
// Throws std::runtime_error with a message naming the file on an unreadable input, an
// unwritable output, or a state file made from other inputs or options.
BuildProgress build_puzzle_file(const std::vector<std::string>& inputs, const std::string& out,
                                const BuildOptions& options);

}  // namespace toguz::puzzles
