#include "rules/perft.h"

#include <bit>
#include <cstdint>

namespace toguz {

namespace {

// Keys along the current path and the number of plies since a kazna last changed: only
// positions inside that window can repeat (kaznas never shrink), and none once a tuz exists.
struct Path {
  uint64_t keys[kMaxPerftDepth + 1];
  int reversible[kMaxPerftDepth + 1];
};

bool kaznas_changed(const Position& a, const Position& b) {
  return a.kazna(Side::White) != b.kazna(Side::White) ||
         a.kazna(Side::Black) != b.kazna(Side::Black);
}

bool repeated_thrice(const Path& path, int ply) {
  int count = 1;
  const uint64_t key = path.keys[ply];
  // back <= ply always holds (reversible[ply] <= ply); saying so keeps -Warray-bounds quiet.
  for (int back = 2; back <= path.reversible[ply] && back <= ply; back += 2)
    if (path.keys[ply - back] == key && ++count == 3) return true;
  return false;
}

// Speed: the bits of a legal-move mask (at most 9) counted by table. The portable x86-64
// build has no POPCNT instruction, and std::popcount became a library call.
struct BitCounts {
  uint8_t count[1 << Position::kMaxN];
};
constexpr BitCounts make_bit_counts() {
  BitCounts t{};
  for (int m = 1; m < (1 << Position::kMaxN); ++m) t.count[m] = uint8_t(t.count[m >> 1] + (m & 1));
  return t;
}
constexpr BitCounts kBits = make_bit_counts();

// The position's end (docs/rules.md: decided, no move, threefold repetition along the path).
// `mask` is its legal-move mask: no legal move is exactly the "no move" end.
bool finished(const Position& pos, uint32_t mask, const Path& path, int ply) {
  if (mask == 0 || pos.decided()) return true;
  return path.reversible[ply] >= 4 && !pos.any_tuz() && repeated_thrice(path, ply);
}

uint64_t perft_rec(const Position& pos, int depth, Path& path, int ply) {
  if (depth == 0) return 1;
  uint32_t mask = pos.legal_mask();
  if (finished(pos, mask, path, ply)) return 1;
  // Bulk count: every child of a live node is exactly one leaf at depth 1.
  if (depth == 1) return kBits.count[mask];
  uint64_t total = 0;
  while (mask) {
    int hole = std::countr_zero(mask) + 1;
    mask &= mask - 1;
    Position child = pos;
    child.play(hole);
    path.keys[ply + 1] = child.key();
    path.reversible[ply + 1] = kaznas_changed(pos, child) ? 0 : path.reversible[ply] + 1;
    total += perft_rec(child, depth - 1, path, ply + 1);
  }
  return total;
}

}  // namespace

uint64_t perft(const Position& pos, int depth) {
  Path path;
  path.keys[0] = pos.key();
  path.reversible[0] = 0;
  return perft_rec(pos, depth, path, 0);
}

std::vector<std::pair<int, uint64_t>> perft_divide(const Position& pos, int depth) {
  std::vector<std::pair<int, uint64_t>> out;
  if (depth < 1 || pos.outcome() != Outcome::Ongoing) return out;
  uint32_t mask = pos.legal_mask();
  Path path;
  path.keys[0] = pos.key();
  path.reversible[0] = 0;
  while (mask) {
    int hole = std::countr_zero(mask) + 1;
    mask &= mask - 1;
    Position child = pos;
    child.play(hole);
    path.keys[1] = child.key();
    path.reversible[1] = kaznas_changed(pos, child) ? 0 : 1;
    out.emplace_back(hole, perft_rec(child, depth - 1, path, 1));
  }
  return out;
}

}  // namespace toguz
