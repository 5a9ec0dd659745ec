#include "search/tt.h"

#include <algorithm>

namespace toguz::search {

namespace {
constexpr auto kRelaxed = std::memory_order_relaxed;
}

// Bit layout of the data word: value 0-15, depth 16-23, move 24-31, bound 32-39, pure 40-47,
// age 48-55. An empty slot is all zero (bound kBoundNone).
uint64_t TranspositionTable::pack(const TTEntry& e) {
  return uint64_t(uint16_t(e.value)) | uint64_t(e.depth) << 16 | uint64_t(e.move) << 24 |
         uint64_t(e.bound) << 32 | uint64_t(e.pure) << 40 | uint64_t(e.age) << 48;
}

TTEntry TranspositionTable::unpack(uint64_t d) {
  TTEntry e;
  e.value = int16_t(uint16_t(d));
  e.depth = uint8_t(d >> 16);
  e.move = uint8_t(d >> 24);
  e.bound = uint8_t(d >> 32);
  e.pure = uint8_t(d >> 40) != 0;
  e.age = uint8_t(d >> 48);
  return e;
}

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
  for (size_t i = 0; i <= mask_; ++i)
    for (Slot& s : buckets_[i].e) s.check.store(0, kRelaxed), s.data.store(0, kRelaxed);
  age_ = 0;
}

bool TranspositionTable::probe(uint64_t key, TTEntry& out) const {
  const Bucket& b = buckets_[key & mask_];
  for (const Slot& s : b.e) {
    const uint64_t d = s.data.load(kRelaxed);
    if ((s.check.load(kRelaxed) ^ d) != key || d == 0) continue;
    out = unpack(d);
    if (out.bound == kBoundNone) continue;
    return true;
  }
  return false;
}

void TranspositionTable::store(uint64_t key, int value, int depth, int move, Bound bound,
                               bool pure) {
  Bucket& b = buckets_[key & mask_];
  Slot* victim = nullptr;
  TTEntry old;
  int worst = 1 << 30;
  for (Slot& s : b.e) {
    const uint64_t d = s.data.load(kRelaxed);
    const TTEntry e = unpack(d);
    if (d == 0 || e.bound == kBoundNone || (s.check.load(kRelaxed) ^ d) == key) {
      victim = &s, old = e;
      break;
    }
    // An entry of an older search counts as 16 plies shallower.
    const int worth = e.depth - (e.age != age_ ? 16 : 0);
    if (worth < worst) worst = worth, victim = &s, old = e;
  }
  const bool same = old.bound != kBoundNone &&
                    (victim->check.load(kRelaxed) ^ victim->data.load(kRelaxed)) == key;
  if (same && move == 0) move = old.move;
  TTEntry e;
  e.value = int16_t(value);
  e.depth = uint8_t(std::clamp(depth, 0, 255));
  e.move = uint8_t(move);
  e.bound = bound;
  e.pure = pure;
  e.age = age_;
  const uint64_t d = pack(e);
  victim->data.store(d, kRelaxed);
  victim->check.store(key ^ d, kRelaxed);
}

int TranspositionTable::hashfull() const {
  int used = 0, seen = 0;
  for (size_t i = 0; i <= mask_ && seen < 1000; ++i) {
    for (const Slot& s : buckets_[i].e) {
      if (seen++ >= 1000) break;
      const TTEntry e = unpack(s.data.load(kRelaxed));
      used += e.bound != kBoundNone && e.age == age_;
    }
  }
  return seen ? used * 1000 / seen : 0;
}

}  // namespace toguz::search
