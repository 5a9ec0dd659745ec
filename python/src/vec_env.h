// A batch of B games stepped together, for reinforcement learning from Python. The
// observation buffers are owned here and laid out row-major so that NumPy arrays can view
// them without copies; they are allocated once and never move.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "rules/position.h"
#include "rules/random.h"

namespace toguz::rl {

// SplitMix64: tiny, fast and the same on every platform, so a seed means the same games
// everywhere (std::uniform_int_distribution is not portable across standard libraries).
struct SplitMix64 {
  uint64_t state = 0;
  uint64_t next() { return splitmix64(state); }
  // Uniform in [0, bound) (Lemire's multiply-shift; the bias is below 2^-56 for bound <= 9).
  uint32_t below(uint32_t bound) { return uint32_t((unsigned __int128)next() * bound >> 64); }
};

class VecEnv {
 public:
  // `batch` >= 1 games under `rules`, all at the start (after `random_start_plies` random
  // plies each, from `seed`).
  VecEnv(int batch, const Rules& rules, uint64_t seed, int random_start_plies);

  int batch() const { return batch_; }
  int n() const { return n_; }
  const Rules& rules() const { return rules_; }
  int random_start_plies() const { return random_start_plies_; }

  // Every game back to a start; the RNG restarts from `seed`. Rewards and done flags cleared.
  void reset(uint64_t seed);
  // Index of the first game whose action (0-based hole index) is not legal, -1 if all are.
  int first_illegal(const int64_t* actions) const;
  // Why action `a` is illegal in game `b` (for the error message).
  std::string illegal_reason(int b, int64_t a) const;
  // Plays actions[b] (0-based hole index, legal: check first_illegal first) in every game.
  // After: reward/done/winner/final_score/episode_length describe this step; a finished game
  // is already replaced by a new one (its observation is the new game's start).
  void step(const int64_t* actions);
  // A uniformly random legal action for every game, from the batch's RNG.
  void random_actions(int64_t* out);

  const Position& position(int b) const { return slots_[b].pos; }
  int ply(int b) const { return slots_[b].ply; }

  // The buffers the NumPy views show (shapes in the comments; row-major).
  std::vector<int32_t> holes;         // [B, 2, N] stones; a tuz holds 0
  std::vector<int32_t> kaznas;        // [B, 2]
  std::vector<int8_t> tuz;            // [B, 2, N] 1 where hole i+1 of row s is a tuz (owned by 1-s)
  std::vector<int8_t> side_to_move;   // [B] 0 = White, 1 = Black
  std::vector<uint8_t> legal;         // [B, N] bool: action i (hole i+1) is legal
  std::vector<uint32_t> legal_bits;   // [B] the same as bits: bit i set when action i is legal
  std::vector<float> reward;          // [B] last step: +1/0/-1 for the player who moved, at the end only
  std::vector<uint8_t> done;          // [B] bool: last step ended the game (it was reset)
  std::vector<int8_t> winner;         // [B] where done: 0 White, 1 Black, -1 draw; else -2
  std::vector<int32_t> final_score;   // [B, 2] where done: the finished game's totals
  std::vector<int32_t> episode_length;  // [B] where done: plies of the finished game
  std::vector<int32_t> plies;         // [B] plies played in the current game

  // Set while step() runs without the GIL: a second caller is refused instead of racing.
  std::atomic<bool> busy{false};

 private:
  struct Slot {
    Position pos;
    int ply = 0;
    // Positions since the kaznas last changed (only kept while no tuz exists): kaznas never
    // shrink, so only these can repeat the current position. keys[i] = window[i].key().
    std::vector<Position> window;
    std::vector<uint64_t> keys;
  };
  void start_game(int b);
  // Plays `hole` (legal) in the slot and returns how the game stands, repetition included.
  static Outcome advance(Slot& slot, int hole);
  void write_observation(int b);
  template <int N>
  void write_observation_n(int b);
  // Occurrences of slot.pos among the window (itself included), ignoring the move number.
  static int repetitions(const Slot& slot);

  int batch_, n_;
  Rules rules_;
  int random_start_plies_;
  SplitMix64 rng_;
  std::vector<Slot> slots_;
};

}  // namespace toguz::rl
