// The hash weights, generated at compile time from a fixed seed (keys are stable across
// builds, so keys printed in tests or written to disk stay valid).
//
// Additive Zobrist hashing: every hole i has a random 64-bit weight hole[i], every kazna a
// weight, every possible tuz a random value, and the side to move one more. The position's
// sum is  sum_i count_i * hole[i] + kazna_W * kazna[0] + kazna_B * kazna[1] + tuz terms
// + side  (mod 2^64), and Position::key() is that sum through a bijective mixer.
//
// Why not the classic xor of one random value per (hole, count): a move sows k stones, and
// the xor form needs one table lookup per stone touched, while the sum changes by
//   laps * (all weights) + (a prefix-sum range of weights) - k * hole[origin]
// whatever k is: O(1) per move, which lets play() sow with a few vector operations instead
// of a loop. Collisions: two different positions collide only if sum_i d_i * w_i == 0
// (mod 2^64) for their count differences d_i (|d_i| <= 162, not all zero): for random
// weights that has probability at most 2^-57 (2^-(64 - 7), 7 = the most factors of 2 in a
// nonzero d_i), close to the 2^-64 of the xor form and far below what a search can notice.
#pragma once

#include <cstdint>

#include "rules/position.h"
#include "rules/random.h"

namespace toguz::zobrist {

struct Weights {
  uint64_t hole[Position::kMaxHoles];
  uint64_t kazna[2];
  uint64_t tuz[2][Position::kMaxHoles];
  uint64_t side;
  // ring_sum[n][x] = sum of hole[j mod 2n] for j < x, x <= 4n: the weight of a run of sown
  // holes that may wrap round the ring once is a difference of two entries.
  uint64_t ring_sum[Position::kMaxN + 1][4 * Position::kMaxN + 1];
};

constexpr Weights make_weights() {
  Weights w{};
  uint64_t state = 0x70677A2D6B6579ull;  // fixed seed
  for (auto& v : w.hole) v = splitmix64(state);
  for (auto& v : w.kazna) v = splitmix64(state);
  for (auto& row : w.tuz)
    for (auto& v : row) v = splitmix64(state);
  w.side = splitmix64(state);
  for (int n = 1; n <= Position::kMaxN; ++n) {
    w.ring_sum[n][0] = 0;
    for (int x = 0; x < 4 * n; ++x) w.ring_sum[n][x + 1] = w.ring_sum[n][x] + w.hole[x % (2 * n)];
  }
  return w;
}

inline constexpr Weights kWeights = make_weights();

}  // namespace toguz::zobrist
