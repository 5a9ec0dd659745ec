// The transposition table: 4-entry buckets of one cache line, replacement by depth and age.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace toguz::search {

enum Bound : uint8_t { kBoundNone = 0, kBoundUpper = 1, kBoundLower = 2, kBoundExact = 3 };

struct TTEntry {
  uint64_t key = 0;
  int16_t value = 0;   // relative to the node (see value_to_tt)
  uint8_t depth = 0;
  uint8_t move = 0;    // hole, 0 = none
  uint8_t bound = kBoundNone;
  bool pure = false;   // the subtree met only finished games: the value holds at any depth
  uint8_t age = 0;
  uint8_t unused = 0;
};
static_assert(sizeof(TTEntry) == 16);

class TranspositionTable {
 public:
  // Allocates about `mb` megabytes (a power-of-two number of buckets) and clears them.
  void resize(int mb);
  void clear();
  // Called once per search: entries of older searches become preferred victims.
  void new_search() { ++age_; }
  // The entry for `key`, or nullptr. The pointer is valid until the next store or resize.
  const TTEntry* probe(uint64_t key) const;
  // Stores into the entry of the same key, else over the least valuable one of the bucket
  // (lowest depth, older searches first). Keeps the old move when `move` is 0.
  void store(uint64_t key, int value, int depth, int move, Bound bound, bool pure);
  // Starts loading the bucket of `key` into the cache (a child's entry, probed soon after).
  void prefetch(uint64_t key) const { __builtin_prefetch(&buckets_[key & mask_]); }
  // Permille of the first 1000 entries used by the current search.
  int hashfull() const;

 private:
  static constexpr int kBucket = 4;
  struct alignas(64) Bucket {
    TTEntry e[kBucket];
  };
  std::unique_ptr<Bucket[]> buckets_;
  size_t mask_ = 0;
  uint8_t age_ = 0;
};

}  // namespace toguz::search
