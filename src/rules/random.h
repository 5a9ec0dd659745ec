// SplitMix64 (Steele, Lea and Flood, 2014): the project's one small random generator. Tiny,
// fast and the same on every platform, so a seed means the same keys, games and choices
// everywhere (the standard library's distributions are not portable across implementations).
#pragma once

#include <cstdint>

namespace toguz {

// Advances `state` and returns the next value.
constexpr uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The value that follows `seed`: a well-mixed function of it (for deriving seeds).
constexpr uint64_t splitmix64_of(uint64_t seed) {
  return splitmix64(seed);
}

}  // namespace toguz
