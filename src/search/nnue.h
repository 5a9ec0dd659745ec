// The learned evaluation (NNUE): a small integer network whose first layer is kept as an
// accumulator and updated from the few inputs a move changes. Trained by train/nnue.py on
// self-play (docs/nnue.md: inputs, file format, how the shipped net was made). It applies to
// the standard game (9 holes, tuz allowed); other rule sets keep the hand-made evaluation.
//
// Inputs, from one side's view ("own" = that side), one-hot in 22 slots:
//   slots 0..8   own holes 1..9: stones 0..31 (more counts as 31), 32 inputs each
//   slots 9..17  the opponent's holes 1..9, the same
//   slot 18, 19  own kazna, the opponent's: 0..82 (more counts as 82), 83 inputs each
//   slot 20, 21  own tuz, the opponent's: the hole number 1..9 on the other row, 0 none
// Each side's accumulator is bias + the sum of its 22 active columns (int16, kHidden wide).
// The output, for the side to move: clipped ReLU of [mine, the opponent's] accumulators
// (0..kQA) times the output weights, plus the output bias, scaled to centi-stones.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "rules/position.h"

namespace toguz::search::nnue {

constexpr int kHoleBuckets = 32;
constexpr int kKaznaBuckets = 83;
constexpr int kTuzBuckets = 10;
constexpr int kSlots = 22;
constexpr int kKaznaBase = 18 * kHoleBuckets;             // 576
constexpr int kTuzBase = kKaznaBase + 2 * kKaznaBuckets;  // 742
constexpr int kFeatures = kTuzBase + 2 * kTuzBuckets;     // 762
constexpr int kHidden = 128;
constexpr int kQA = 255;  // first-layer quantisation: 1.0 = 255, the clipped ReLU's ceiling
constexpr int kQB = 64;   // output weights: 1.0 = 64

// The parameters, quantised (file format: docs/nnue.md).
struct Network {
  alignas(64) int16_t w1[kFeatures][kHidden];
  alignas(64) int16_t b1[kHidden];
  alignas(64) int16_t w2[2][kHidden];  // [0] the side to move's half, [1] the opponent's
  int32_t b2 = 0;                      // in units of 1 / (kQA * kQB)
  int32_t scale = 0;                   // centi-stones per output unit
};

// Parses a network file's bytes into *out. Returns false with *why set when the bytes are
// not a network of this shape (magic, version, sizes, length).
bool load_network(const uint8_t* data, size_t size, Network* out, std::string* why);
// The network compiled into the binary (src/search/nets/toguz.nnue), parsed once; null when
// those bytes are not a valid network (then the hand-made evaluation is used).
const Network* embedded_network();

// Whether the network was trained for `pos`'s rule set (9 holes, tuz allowed).
inline bool applies(const Position& pos) {
  return pos.n() == 9 && pos.rules().tuz;
}

// The active input of each slot, from White's view ([0]) and Black's ([1]).
using Slots = std::array<uint16_t, kSlots>;
void slots_of(const Position& pos, Slots out[2]);

// Both sides' first-layer sums and the inputs they were made from.
struct Accumulator {
  alignas(64) int16_t v[2][kHidden];
  Slots slots[2];
};

// Slots that differ between `a` and `b` (the same count from both views).
int changed_slots(const Slots& a, const Slots& b);
// acc from scratch: bias plus every active column. Before: acc->slots are set.
void refresh(const Network& net, Accumulator* acc);
// `to` from `from` by taking out the columns of the slots that changed and adding the new
// ones. Before: to->slots are set.
void update(const Network& net, const Accumulator& from, Accumulator* to);
// The evaluation in centi-stones for `side` to move, |value| < 20000.
int output(const Network& net, const Accumulator& acc, Side side);
// slots_of + refresh + output in one call (tools, tests, the root's ordering).
int evaluate(const Network& net, const Position& pos);

}  // namespace toguz::search::nnue
