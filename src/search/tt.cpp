#include "search/tt.h"

#include <algorithm>

namespace toguz::search {

void TranspositionTable::resize(int mb) {
  const size_t bytes = size_t(std::max(1, mb)) << 20;
  size_t count = 1;
  while (count * 2 * sizeof(Bucket) <= bytes) count *= 2;
  buckets_ = std::make_unique<Bucket[]>(count);
  mask_ = count - 1;
  clear();
}

void TranspositionTable::clear() {
  if (!buckets_) return;
  std::fill(buckets_.get(), buckets_.get() + mask_ + 1, Bucket{});
  age_ = 0;
}

const TTEntry* TranspositionTable::probe(uint64_t key) const {
  const Bucket& b = buckets_[key & mask_];
  for (const TTEntry& e : b.e)
    if (e.key == key && e.bound != kBoundNone) return &e;
  return nullptr;
}

void TranspositionTable::store(uint64_t key, int value, int depth, int move, Bound bound, bool pure) {
  Bucket& b = buckets_[key & mask_];
  TTEntry* victim = nullptr;
  int worst = 1 << 30;
  for (TTEntry& e : b.e) {
    if (e.key == key || e.bound == kBoundNone) {
      victim = &e;
      break;
    }
    // An entry of an older search counts as 16 plies shallower.
    const int worth = e.depth - (e.age != age_ ? 16 : 0);
    if (worth < worst) worst = worth, victim = &e;
  }
  if (victim->key == key && move == 0) move = victim->move;
  victim->key = key;
  victim->value = int16_t(value);
  victim->depth = uint8_t(std::clamp(depth, 0, 255));
  victim->move = uint8_t(move);
  victim->bound = bound;
  victim->pure = pure;
  victim->age = age_;
}

int TranspositionTable::hashfull() const {
  int used = 0, seen = 0;
  for (size_t i = 0; i <= mask_ && seen < 1000; ++i) {
    for (const TTEntry& e : buckets_[i].e) {
      if (seen++ >= 1000) break;
      used += e.bound != kBoundNone && e.age == age_;
    }
  }
  return seen ? used * 1000 / seen : 0;
}

}  // namespace toguz::search
