// Zobrist tables, generated at compile time from a fixed seed (keys are stable across builds,
// so keys written to disk or printed in tests stay valid).
#pragma once

#include <cstdint>

#include "rules/position.h"

namespace toguz::zobrist {

constexpr uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// hole[h][0] and kazna[s][0] are 0, so an empty hole contributes nothing and a chain of
// "+1 stone" updates starting from an empty hole xors to hole[h][count] (used when stones
// sown into a tuz leave at once).
struct Tables {
  uint64_t hole[Position::kMaxHoles][Position::kMaxStones + 1];
  uint64_t kazna[2][Position::kMaxStones + 1];
  uint64_t tuz[2][Position::kMaxHoles];
  uint64_t side;
};

constexpr Tables make_tables() {
  Tables t{};
  uint64_t state = 0x70677A2D6B6579ull;  // fixed seed
  for (auto& row : t.hole)
    for (int c = 1; c <= Position::kMaxStones; ++c) row[c] = splitmix64(state);
  for (auto& row : t.kazna)
    for (int c = 1; c <= Position::kMaxStones; ++c) row[c] = splitmix64(state);
  for (auto& row : t.tuz)
    for (auto& v : row) v = splitmix64(state);
  t.side = splitmix64(state);
  return t;
}

inline constexpr Tables kTables = make_tables();

}  // namespace toguz::zobrist
