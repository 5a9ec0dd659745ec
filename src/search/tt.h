// The transposition table: 4-entry buckets of one cache line, replacement by depth and age.
// Shared by the threads of a Lazy SMP search without locks: each entry is two 64-bit words
// (the key XOR the data, and the data), so an entry torn by two threads writing at once no
// longer matches its key and reads as absent instead of returning another position's value.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace toguz::search {

enum Bound : uint8_t { kBoundNone = 0, kBoundUpper = 1, kBoundLower = 2, kBoundExact = 3 };

// One entry as the search reads it (a copy, checked against the key).
struct TTEntry {
  int16_t value = 0;  // relative to the node (see value_to_tt)
  uint8_t depth = 0;
  uint8_t move = 0;  // hole, 0 = none
  uint8_t bound = kBoundNone;
  bool pure = false;  // the subtree met only finished games: the value holds at any depth
  uint8_t age = 0;
};

class TranspositionTable {
 public:
  // Allocates about `mb` megabytes (a power-of-two number of buckets) and clears them.
  // Not while a search runs.
  void resize(int mb);
  void clear();
  // Called once per search: entries of older searches become preferred victims.
  void new_search() { ++age_; }
  // Copies the entry for `key` into `out`; false when there is none.
  bool probe(uint64_t key, TTEntry& out) const;
  // Stores into the entry of the same key, else over the least valuable one of the bucket
  // (lowest depth, older searches first). Keeps the old move when `move` is 0.
  void store(uint64_t key, int value, int depth, int move, Bound bound, bool pure);
  // Starts loading the bucket of `key` into the cache (a child's entry, probed soon after).
  void prefetch(uint64_t key) const { __builtin_prefetch(&buckets_[key & mask_]); }
  // Permille of the first 1000 entries used by the current search.
  int hashfull() const;

 private:
  static constexpr int kBucket = 4;
  // Relaxed atomics: plain loads and stores on x86-64, but defined behaviour when threads race.
  struct Slot {
    std::atomic<uint64_t> check{0};  // key ^ data
    std::atomic<uint64_t> data{0};   // packed TTEntry; 0 = empty (bound kBoundNone)
  };
  struct alignas(64) Bucket {
    Slot e[kBucket];
  };
  static uint64_t pack(const TTEntry& e);
  static TTEntry unpack(uint64_t d);

  std::unique_ptr<Bucket[]> buckets_;
  size_t mask_ = 0;
  uint8_t age_ = 0;
};

}  // namespace toguz::search
