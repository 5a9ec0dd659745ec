// Self-play data: games the engine plays against itself, every searched
// position stored with its search score and the game's final result, in the binary format of
// docs/selfplay-format.md. Written by `toguz selfplay`, read by `toguz tune` and Python.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "rules/position.h"
#include "search/engine.h"

namespace toguz::search {

constexpr char kSelfplayMagic[8] = {'T', 'G', 'Z', 'S', 'E', 'L', 'F', 'P'};
constexpr uint32_t kSelfplayVersion = 1;
constexpr uint32_t kSelfplayRecordSize = 48;
constexpr uint32_t kSelfplayHeaderSize = 16;

// One stored position (48 bytes on disk, docs/selfplay-format.md).
struct SelfplayRecord {
  std::array<uint8_t, 18> holes{};  // White's holes 1..9, then Black's 1..9 (0 past N)
  std::array<uint8_t, 2> kazna{};   // White, Black
  std::array<uint8_t, 2> tuz{};     // the hole of the tuz owned by White / Black (on the other
                                    // row), 0 = none
  uint8_t side = 0;                 // side to move: 0 White, 1 Black
  uint8_t n = 9;                    // holes per row
  uint8_t rules = 0;                // bit 0 tuz allowed, bit 1 play-out
  int8_t result = 0;                // final result for White: +1 win, 0 draw, -1 loss
  uint8_t proven = 0;               // 1 when `score` is a proven result
  int16_t score = 0;         // search score for the side to move (cp; +-(31000 - plies) proven)
  uint16_t ply = 0;          // plies played before this position in its game
  uint16_t move_number = 1;  // the position's move number
  uint8_t best_move = 0;     // the searched best hole
  int16_t final_margin = 0;  // White's final total minus Black's
  uint32_t game = 0;         // game index in the run
  uint16_t game_plies = 0;   // length of the game
  uint32_t nodes = 0;        // nodes of the search

  // The position this record holds (move number and rules included). Throws
  // std::runtime_error when the fields do not make a valid position.
  Position position() const;
};

// Encoding: exactly kSelfplayRecordSize bytes, little-endian.
void encode_record(const SelfplayRecord& r, uint8_t* out);
SelfplayRecord decode_record(const uint8_t* in);
// The 16-byte header: magic, version, record size.
std::string selfplay_header();

// Reads a whole file. Throws std::runtime_error naming the file and what is wrong (bad magic,
// an unknown version, a record size other than 48, a truncated record).
std::vector<SelfplayRecord> read_selfplay(const std::string& path);

struct SelfplaySettings {
  int games = 1;
  uint64_t nodes = 2000;  // per move
  int random_plies = 8;   // uniformly random opening plies (not stored), from `seed`
  uint64_t seed = 1;
  int concurrency = 1;
  Rules rules;
  int hash_mb = 16;
  // The evaluation the games are played with: the hand-made one makes a first net's data
  // from nothing (make net); the default, the shipped network, the data of the next one.
  EvalKind eval = kDefaultEval;
  int max_plies = 1000;  // a game still going after this many plies is dropped
  // Continue an interrupted run: keep the whole records already in the file (a partial last
  // record is cut off) and play on from the game after the last one stored.
  bool resume = false;
};

// For resuming: the number of the first game not yet in `path` (the last stored record's game
// + 1, 0 for an absent or empty file), after cutting a partial last record off. Throws
// std::runtime_error when the file exists but is not self-play data of this version.
uint32_t selfplay_resume_point(const std::string& path);

// Plays settings.games games (games resume point .. games-1 when settings.resume) and writes every
// searched position to `path` in game order (the same file for the same settings and seed, whatever
// the concurrency). `progress` is called (from one thread at a time) after each game is written
// with games done and positions so far. Returns the number of positions. Throws std::runtime_error
// when the file cannot be written.
uint64_t run_selfplay(const SelfplaySettings& settings, const std::string& path,
                      const std::function<void(int games, uint64_t positions)>& progress = nullptr);

}  // namespace toguz::search
