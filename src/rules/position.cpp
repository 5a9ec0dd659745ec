#include "rules/position.h"

#include <bit>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "rules/zobrist.h"

#if defined(__SSE2__)
#include <emmintrin.h>  // SSE2 is part of every x86-64, so this needs no -m flag
#endif

namespace toguz {

Rules Rules::for_variant(Variant v) {
  switch (v) {
    case Variant::Kozdatu: return Rules{7, false, false};
    case Variant::Bestemshi: return Rules{5, false, false};
    default: return Rules{9, true, false};
  }
}

std::string_view variant_name(Variant v) {
  switch (v) {
    case Variant::Kozdatu: return "kozdatu";
    case Variant::Bestemshi: return "bestemshi";
    default: return "standard";
  }
}

bool parse_variant(std::string_view s, Variant* out) {
  if (s == "standard" || s == "togyz" || s == "toguz") *out = Variant::Standard;
  else if (s == "kozdatu") *out = Variant::Kozdatu;
  else if (s == "bestemshi") *out = Variant::Bestemshi;
  else return false;
  return true;
}

Position Position::start(const Rules& rules) {
  Position p;
  p.n_ = int8_t(rules.n);
  p.flags_ = uint8_t((rules.tuz ? kTuzFlag : 0) | (rules.play_out ? kPlayOutFlag : 0));
  for (int i = 0; i < 2 * rules.n; ++i) p.board_[i] = uint8_t(rules.n);
  p.hash_ = p.compute_hash();
  return p;
}

bool Position::from_parts(const Rules& rules, const int holes[2][kMaxN], int kazna_white,
                          int kazna_black, const int tuz_hole[2], Side to_move, int move_number,
                          Position* out, std::string* why) {
  auto fail = [&](std::string msg) {
    if (why) *why = std::move(msg);
    return false;
  };
  const int n = rules.n;
  if (n != 9 && n != 7 && n != 5) return fail("row length must be 9, 7 or 5");
  const int total = rules.total_stones();
  Position p;
  p.n_ = int8_t(n);
  p.flags_ = uint8_t((rules.tuz ? kTuzFlag : 0) | (rules.play_out ? kPlayOutFlag : 0));
  p.side_ = uint8_t(to_move);
  if (move_number < 1 || move_number > 65535) return fail("move number must be 1..65535");
  p.move_number_ = uint16_t(move_number);
  int sum = 0;
  for (int s = 0; s < 2; ++s) {
    for (int i = 0; i < n; ++i) {
      int c = holes[s][i];
      if (c < 0 || c > total) return fail("hole count out of range 0.." + std::to_string(total));
      p.board_[s * n + i] = uint8_t(c);
      sum += c;
    }
  }
  if (kazna_white < 0 || kazna_white > total || kazna_black < 0 || kazna_black > total)
    return fail("kazna out of range 0.." + std::to_string(total));
  p.kazna_[0] = uint8_t(kazna_white);
  p.kazna_[1] = uint8_t(kazna_black);
  sum += kazna_white + kazna_black;
  for (int o = 0; o < 2; ++o) {
    int h = tuz_hole[o];
    if (h == 0) continue;
    const char* owner = o == 0 ? "White" : "Black";
    if (!rules.tuz) return fail(std::string("tuz (") + owner + "'s) not allowed: tuz is off in these rules");
    if (h < 1 || h > n) return fail("tuz hole out of range");
    if (h == n) return fail(std::string(owner) + "'s tuz cannot be on hole " + std::to_string(n));
    int idx = (1 - o) * n + h - 1;  // on the opponent's row
    if (p.board_[idx] != 0) return fail("a tuz hole holds no stones");
    p.tuz_[o] = int8_t(idx);
  }
  if (tuz_hole[0] && tuz_hole[0] == tuz_hole[1])
    return fail("the two tuzes cannot have the same hole number");
  if (sum != total)
    return fail("stones sum to " + std::to_string(sum) + ", expected " + std::to_string(total));
  p.hash_ = p.compute_hash();
  *out = p;
  return true;
}

int Position::stones_on_row(Side side) const {
  const uint8_t* row = board_ + index(side) * n_;
  int sum = 0;
  for (int i = 0; i < n_; ++i) sum += row[i];
  return sum;
}

uint32_t Position::legal_mask() const {
#if defined(__SSE2__)
  // Speed: one 16-byte compare instead of a loop (legal_mask runs at every node of a search
  // or perft). The load starts at the mover's row and may run past the board into the
  // object's next members (all initialized); those lanes are cut off by the mask. Reading the
  // object representation through unsigned char is well defined, and the static_assert keeps
  // the load inside the object.
  static_assert(sizeof(Position) >= offsetof(Position, board_) + kMaxN + 16);
  const auto* bytes = reinterpret_cast<const unsigned char*>(this) + offsetof(Position, board_);
  __m128i row;
  std::memcpy(&row, bytes + side_ * n_, 16);
  const uint32_t empty = uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(row, _mm_setzero_si128())));
  return ~empty & ((1u << n_) - 1);
#else
  const uint8_t* row = board_ + side_ * n_;
  uint32_t mask = 0;
  for (int i = 0; i < n_; ++i) mask |= uint32_t(row[i] != 0) << i;
  return mask;
#endif
}

namespace {

// Byte-lane vectors (GCC/Clang vector extensions: SSE2 on x86-64, NEON on ARM, plain code
// elsewhere; no -m flag needed).
using Lanes = uint8_t __attribute__((vector_size(16)));

// kPrefix + 16 - x, read as 16 bytes, is 0xFF in lanes 0..x-1 and 0 above (0 <= x <= 16).
alignas(32) constexpr uint8_t kPrefix[32] = {
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

inline Lanes lanes_below(int x) {
  Lanes v;
  std::memcpy(&v, kPrefix + 16 - x, 16);
  return v;
}

// laps_rem[n][k] = k / 2n and k % 2n (a table: the divisor changes with the variant).
struct DivTable {
  uint8_t laps[Position::kMaxN + 1][Position::kMaxStones + 1];
  uint8_t rem[Position::kMaxN + 1][Position::kMaxStones + 1];
};
constexpr DivTable make_div_table() {
  DivTable t{};
  for (int n = 1; n <= Position::kMaxN; ++n)
    for (int k = 0; k <= Position::kMaxStones; ++k) {
      t.laps[n][k] = uint8_t(k / (2 * n));
      t.rem[n][k] = uint8_t(k % (2 * n));
    }
  return t;
}
constexpr DivTable kDiv = make_div_table();

}  // namespace

// The hot path of the whole project; speed beat clarity here. The plain statement of the
// rules is in tests/unit/property_test.cpp, which checks this against it move by move.
// - Sowing k stones from the origin adds `laps` = k / 2N to every hole and one more to the
//   `rem` = k % 2N holes from `start` on (the origin itself when k >= 2, the next hole when
//   k == 1), wrapping round once at most. That is done without a loop or a branch: holes
//   0..15 as one 16-lane vector add of masks made from kPrefix, holes 16 and 17 (N = 9 only)
//   by two scalar compares.
// - The key's sum changes by laps * (all weights) + (a ring_sum range) - k * weight(origin):
//   O(1) whatever k is (zobrist.h).
// - Stones sown into a tuz and the even capture are applied without branches (a missing tuz
//   reads hole 0 and moves 0 stones).
// - MoveInfo is packed into one register at the end (see there).
MoveInfo Position::play(int hole) {
  const auto& W = zobrist::kWeights;
  const int n = n_, total = 2 * n_;
  const int me = side_;
  const int s = me * n + hole - 1;
  const int k = board_[s];
  const int old_kazna0 = kazna_[0], old_kazna1 = kazna_[1];
  int start = k == 1 ? s + 1 : s;  // one stone goes to the next hole, more start at the origin
  if (start == total) start = 0;
  const int laps = kDiv.laps[n][k], rem = kDiv.rem[n][k];
  const int end = start + rem;  // exclusive; past `total` the run wraps to hole 0
  {
    const int end1 = end < total ? end : total;
    const int end2 = end - total > 0 ? end - total : 0;
    const Lanes one = Lanes{} + 1;
    const Lanes run = (lanes_below(end1 < 16 ? end1 : 16) & ~lanes_below(start < 16 ? start : 16)) |
                      lanes_below(end2 < 16 ? end2 : 16);
    // The origin is emptied in the same add (a byte store to it first would stall the wide
    // load below: store forwarding fails when a load spans a smaller, earlier store).
    const Lanes origin = s < 16 ? lanes_below(s + 1) & ~lanes_below(s) : Lanes{};
    const Lanes add = (run & one) + (lanes_below(total < 16 ? total : 16) & uint8_t(laps)) -
                      (origin & uint8_t(k));
    Lanes low;
    std::memcpy(&low, board_, 16);
    low += add;
    std::memcpy(board_, &low, 16);
    if (n == 9) {  // holes 16 and 17 (Black's 8 and 9): in the run when (i - start) mod 18 < rem
      for (int i = 16; i < 18; ++i) {
        const int d = i >= start ? i - start : i - start + 18;
        board_[i] = uint8_t(board_[i] - (i == s ? k : 0) + laps + (d < rem));
      }
    }
  }
  uint64_t hash = hash_ - uint64_t(k) * W.hole[s] + uint64_t(laps) * W.ring_sum[n][total] +
                  (W.ring_sum[n][end] - W.ring_sum[n][start]);
  int last = end - 1;
  if (last >= total) last -= total;
  if (last < 0) last += total;
  // Stones that fell into a tuz go to its owner at once.
  // The branch is stable (no tuz for the first part of a game, then one for the rest).
  int into_tuz[2] = {0, 0};
  if (any_tuz()) for (int o = 0; o < 2; ++o) {
    const int t = tuz_[o];
    const int ti = t < 0 ? 0 : t;
    const int c = board_[ti] & -int(t >= 0);
    hash += uint64_t(c) * (W.kazna[o] - W.hole[ti]);
    board_[ti] = uint8_t(board_[ti] - c);
    kazna_[o] = uint8_t(kazna_[o] + c);
    into_tuz[o] = c;
  }
  const int last_row = last >= n;
  const int c = board_[last];
  const bool on_opponent = last_row != me;
  const int captured = (on_opponent && (c & 1) == 0) ? c : 0;
  hash += uint64_t(captured) * (W.kazna[me] - W.hole[last]);
  board_[last] = uint8_t(c - captured);
  kazna_[me] = uint8_t(kazna_[me] + captured);
  // Bitwise & and | rather than && and ||: whether the last stone lands on the opponent's
  // row is a coin toss, and a branch on it mispredicts half the time.
  const int last_number = last - last_row * n;  // 0-based hole number on its row
  const bool tuz_made = on_opponent & (c == 3) & bool(flags_ & kTuzFlag) & (tuz_[me] < 0) &
                        (last_number != n - 1) &
                        ((tuz_[1 - me] < 0) | (tuz_[1 - me] - me * n != last_number));
  if (tuz_made) {
    hash += 3 * (W.kazna[me] - W.hole[last]) + W.tuz[me][last];
    board_[last] = 0;
    kazna_[me] = uint8_t(kazna_[me] + 3);
    tuz_[me] = int8_t(last);
  }
  hash += me ? -W.side : W.side;
  // Grows after Black's move; stops at 65535 (the most a position string may say) instead of
  // wrapping to 0, which no position string accepts.
  move_number_ = uint16_t(move_number_ + (me & int(move_number_ != 0xFFFF)));
  side_ = uint8_t(me ^ 1);
  hash_ = hash;
  const int last_hole = last_number + 1;
  const int kazna_after = kazna_[me];
  const bool kazna_changed = kazna_after != (me ? old_kazna1 : old_kazna0);
  MoveInfo info;
  if constexpr (std::endian::native == std::endian::little) {
    // Speed: the first eight fields packed in a register and stored at once. Filled field by
    // field, the 9-byte value was returned through a stack slot written in bytes and read back
    // in 8, a store-forwarding stall that cost a fifth of play(). Layout checked below.
    static_assert(offsetof(MoveInfo, hole) == 0 && offsetof(MoveInfo, last_hole) == 1 &&
                  offsetof(MoveInfo, last_row) == 2 && offsetof(MoveInfo, captured) == 3 &&
                  offsetof(MoveInfo, tuz_made) == 4 && offsetof(MoveInfo, into_tuz) == 5 &&
                  offsetof(MoveInfo, kazna_after) == 7 && offsetof(MoveInfo, kazna_changed) == 8);
    const uint64_t packed = uint64_t(uint8_t(hole)) | uint64_t(uint8_t(last_hole)) << 8 |
                            uint64_t(last_row) << 16 | uint64_t(captured) << 24 |
                            uint64_t(tuz_made) << 32 | uint64_t(into_tuz[0]) << 40 |
                            uint64_t(into_tuz[1]) << 48 | uint64_t(kazna_after) << 56;
    static_assert(std::is_trivially_copyable_v<MoveInfo>);
    std::memcpy(static_cast<void*>(&info), &packed, 8);
  } else {
    info.hole = int8_t(hole);
    info.last_hole = int8_t(last_hole);
    info.last_row = Side(last_row);
    info.captured = uint8_t(captured);
    info.tuz_made = tuz_made;
    info.into_tuz[0] = uint8_t(into_tuz[0]);
    info.into_tuz[1] = uint8_t(into_tuz[1]);
    info.kazna_after = uint8_t(kazna_after);
  }
  info.kazna_changed = kazna_changed;
#ifdef TOGUZ_CHECK_POSITIONS
  // Debug builds (the sanitizer build of make test): every stone accounted for, tuz holes
  // empty, and the incremental key equal to the recomputed one, after every move.
  if (std::string why; !consistent(&why)) {
    std::fprintf(stderr, "toguz: inconsistent position after playing hole %d: %s\n", hole, why.c_str());
    std::abort();
  }
#endif
  return info;
}

Outcome Position::outcome() const {
  if (decided()) return Outcome::Decided;
  // A tuz holds no stones, so "no stones in his non-tuz holes" is "no legal move".
  if (legal_mask() == 0) return Outcome::NoMove;
  return Outcome::Ongoing;
}

std::array<int, 2> Position::final_score(Outcome how) const {
  std::array<int, 2> score{kazna_[0], kazna_[1]};
  if (how == Outcome::NoMove) {
    Side other = opposite(Side(side_));
    score[index(other)] += stones_on_row(other);
  }
  return score;
}

uint64_t Position::compute_hash() const {
  const auto& W = zobrist::kWeights;
  uint64_t hash = 0;
  for (int i = 0; i < 2 * n_; ++i) hash += uint64_t(board_[i]) * W.hole[i];
  hash += uint64_t(kazna_[0]) * W.kazna[0] + uint64_t(kazna_[1]) * W.kazna[1];
  for (int o = 0; o < 2; ++o)
    if (tuz_[o] >= 0) hash += W.tuz[o][tuz_[o]];
  if (side_) hash += W.side;
  return hash;
}

uint64_t Position::board_key() const {
  const auto& W = zobrist::kWeights;
  return zobrist_mix(hash_ - uint64_t(kazna_[0]) * W.kazna[0] - uint64_t(kazna_[1]) * W.kazna[1]);
}

bool Position::consistent(std::string* why) const {
  auto fail = [&](const char* msg) {
    if (why) *why = msg;
    return false;
  };
  int sum = kazna_[0] + kazna_[1];
  for (int i = 0; i < 2 * n_; ++i) sum += board_[i];
  if (sum != 2 * n_ * n_) return fail("stones not conserved");
  for (int i = 2 * n_; i < kMaxHoles; ++i)
    if (board_[i]) return fail("stones outside the board");
  for (int o = 0; o < 2; ++o) {
    int t = tuz_[o];
    if (t < 0) continue;
    if (!(flags_ & kTuzFlag)) return fail("tuz in a game without tuz");
    if (t / n_ != 1 - o) return fail("tuz on its owner's own row");
    if (t % n_ == n_ - 1) return fail("tuz on hole N");
    if (board_[t]) return fail("stones in a tuz hole");
  }
  if (tuz_[0] >= 0 && tuz_[1] >= 0 && tuz_[0] % n_ == tuz_[1] % n_)
    return fail("two tuzes with the same number");
  if (hash_ != compute_hash()) return fail("incremental key differs from the recomputed key");
  return true;
}

bool Position::operator==(const Position& o) const {
  if (n_ != o.n_ || flags_ != o.flags_ || side_ != o.side_ || move_number_ != o.move_number_ ||
      kazna_[0] != o.kazna_[0] || kazna_[1] != o.kazna_[1] || tuz_[0] != o.tuz_[0] ||
      tuz_[1] != o.tuz_[1])
    return false;
  for (int i = 0; i < kMaxHoles; ++i)
    if (board_[i] != o.board_[i]) return false;
  return true;
}

}  // namespace toguz
