#include "search/nnue.h"

#include <algorithm>
#include <cstring>
#include <memory>

// The bytes of src/search/nets/toguz.nnue, generated at build time (scripts/embed-net.cmake).
extern const unsigned char kToguzEmbeddedNet[];
extern const unsigned long kToguzEmbeddedNetSize;

namespace toguz::search::nnue {

namespace {

constexpr char kMagic[8] = {'T', 'G', 'Z', 'N', 'N', 'U', 'E', '1'};
constexpr uint32_t kVersion = 1;
constexpr size_t kHeaderSize = 28;

uint32_t get32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// Reads `count` little-endian int16 values from *p into out and advances *p.
void get16s(const uint8_t** p, int16_t* out, size_t count) {
  for (size_t i = 0; i < count; ++i, *p += 2) out[i] = int16_t(uint16_t((*p)[0] | (*p)[1] << 8));
}

}  // namespace

bool load_network(const uint8_t* data, size_t size, Network* out, std::string* why) {
  const size_t expected =
      kHeaderSize + sizeof(int16_t) * (kHidden + kFeatures * kHidden + 2 * kHidden);
  if (size < kHeaderSize || std::memcmp(data, kMagic, 8) != 0) {
    *why = "not a toguz network (expected the magic TGZNNUE1)";
    return false;
  }
  if (get32(data + 8) != kVersion || get32(data + 12) != uint32_t(kFeatures) ||
      get32(data + 16) != uint32_t(kHidden)) {
    *why = "network version " + std::to_string(get32(data + 8)) + " with " +
           std::to_string(get32(data + 12)) + " inputs and " + std::to_string(get32(data + 16)) +
           " hidden units; this build reads version 1, " + std::to_string(kFeatures) + " and " +
           std::to_string(kHidden);
    return false;
  }
  if (size != expected) {
    *why =
        "network file of " + std::to_string(size) + " bytes, expected " + std::to_string(expected);
    return false;
  }
  out->scale = int32_t(get32(data + 20));
  out->b2 = int32_t(get32(data + 24));
  const uint8_t* p = data + kHeaderSize;
  get16s(&p, out->b1, kHidden);
  get16s(&p, &out->w1[0][0], size_t(kFeatures) * kHidden);
  get16s(&p, &out->w2[0][0], 2 * kHidden);
  return true;
}

const Network* embedded_network() {
  static const std::unique_ptr<Network> net = [] {
    auto n = std::make_unique<Network>();
    std::string why;
    if (!load_network(kToguzEmbeddedNet, kToguzEmbeddedNetSize, n.get(), &why)) n.reset();
    return n;
  }();
  return net.get();
}

void slots_of(const Position& pos, Slots out[2]) {
  for (int view = 0; view < 2; ++view) {
    const Side own = Side(view), opp = opposite(own);
    Slots& s = out[view];
    for (int h = 1; h <= 9; ++h) {
      s[h - 1] = uint16_t((h - 1) * kHoleBuckets + std::min(pos.stones(own, h), kHoleBuckets - 1));
      s[h + 8] = uint16_t((h + 8) * kHoleBuckets + std::min(pos.stones(opp, h), kHoleBuckets - 1));
    }
    s[18] = uint16_t(kKaznaBase + std::min(pos.kazna(own), kKaznaBuckets - 1));
    s[19] = uint16_t(kKaznaBase + kKaznaBuckets + std::min(pos.kazna(opp), kKaznaBuckets - 1));
    s[20] = uint16_t(kTuzBase + pos.tuz(own));
    s[21] = uint16_t(kTuzBase + kTuzBuckets + pos.tuz(opp));
  }
}

int changed_slots(const Slots& a, const Slots& b) {
  int n = 0;
  for (int i = 0; i < kSlots; ++i) n += a[i] != b[i];
  return n;
}

// Plain loops over kHidden int16 lanes: the compiler vectorises them (SSE2 on any x86-64).
void refresh(const Network& net, Accumulator* acc) {
  for (int view = 0; view < 2; ++view) {
    int16_t* v = acc->v[view];
    std::memcpy(v, net.b1, sizeof net.b1);
    for (int i = 0; i < kSlots; ++i) {
      const int16_t* w = net.w1[acc->slots[view][i]];
      for (int j = 0; j < kHidden; ++j) v[j] = int16_t(v[j] + w[j]);
    }
  }
}

void update(const Network& net, const Accumulator& from, Accumulator* to) {
  for (int view = 0; view < 2; ++view) {
    int16_t* v = to->v[view];
    std::memcpy(v, from.v[view], sizeof from.v[view]);
    for (int i = 0; i < kSlots; ++i) {
      const uint16_t was = from.slots[view][i], now = to->slots[view][i];
      if (was == now) continue;
      const int16_t* sub = net.w1[was];
      const int16_t* add = net.w1[now];
      for (int j = 0; j < kHidden; ++j) v[j] = int16_t(v[j] - sub[j] + add[j]);
    }
  }
}

int output(const Network& net, const Accumulator& acc, Side side) {
  const int16_t* halves[2] = {acc.v[index(side)], acc.v[index(opposite(side))]};
  int32_t sum = 0;
  for (int h = 0; h < 2; ++h) {
    const int16_t* a = halves[h];
    const int16_t* w = net.w2[h];
    for (int j = 0; j < kHidden; ++j)
      sum += int32_t(std::clamp<int16_t>(a[j], 0, kQA)) * int32_t(w[j]);
  }
  const int64_t raw = int64_t(sum) + net.b2;
  const int64_t cp = raw * net.scale / (int64_t(kQA) * kQB);
  return int(std::clamp<int64_t>(cp, -19999, 19999));
}

int evaluate(const Network& net, const Position& pos) {
  Accumulator acc;
  slots_of(pos, acc.slots);
  refresh(net, &acc);
  return output(net, acc, pos.side_to_move());
}

}  // namespace toguz::search::nnue
