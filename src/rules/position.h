// The position: a small value type (copy-make) for every variant of docs/rules.md.
// Depends on nothing outside the standard library.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>  // SSE2 is part of every x86-64: no -m flag needed
#endif

namespace toguz {

enum class Side : uint8_t { White = 0, Black = 1 };
constexpr Side opposite(Side s) {
  return Side(uint8_t(s) ^ 1);
}
constexpr int index(Side s) {
  return int(s);
}
constexpr const char* side_name(Side s) {
  return s == Side::White ? "White" : "Black";
}

enum class Variant : uint8_t { Standard, Kozdatu, Bestemshi };

// The rule set a game is played under: row length, tuz on/off, play-out.
struct Rules {
  int n = 9;              // holes per row, 9, 7 or 5 (stones per hole at the start too)
  bool tuz = true;        // tuz allowed (standard: yes; children's variants: off by default)
  bool play_out = false;  // skip the "decided above N*N" stop and play to the natural end

  static Rules for_variant(Variant v);
  Variant variant() const {
    return n == 9 ? Variant::Standard : n == 7 ? Variant::Kozdatu : Variant::Bestemshi;
  }
  int total_stones() const { return 2 * n * n; }
  int decided_above() const { return n * n; }
  bool operator==(const Rules&) const = default;
};

std::string_view variant_name(Variant v);              // "standard", "kozdatu", "bestemshi"
bool parse_variant(std::string_view s, Variant* out);  // false if unknown

// What one move did: the record notation and the front ends are built from it.
struct MoveInfo {
  int8_t hole = 0;       // hole played, 1..N
  int8_t last_hole = 0;  // hole where the last stone fell, 1..N, on row last_row
  Side last_row = Side::White;
  uint8_t captured = 0;          // stones taken by an even capture (0 if none)
  bool tuz_made = false;         // the landing hole became the mover's tuz (3 stones taken)
  uint8_t into_tuz[2] = {0, 0};  // stones sown into the tuz owned by White / Black
  uint8_t kazna_after = 0;       // the mover's kazna after the move
  bool kazna_changed = false;    // the mover's kazna grew (capture, tuz, or stones into his tuz)
};

enum class Outcome : uint8_t { Ongoing, Decided, NoMove, Repetition };

class Position {
 public:
  static constexpr int kMaxN = 9;
  static constexpr int kMaxHoles = 2 * kMaxN;
  static constexpr int kMaxStones = 2 * kMaxN * kMaxN;
  static constexpr int8_t kNoTuz = -1;

  // The start position of the rule set: N stones in every hole, White to move, move 1.
  static Position start(const Rules& rules = Rules{});

  // Builds a position from its parts; returns false and sets *why if it breaks docs/rules.md
  // (stone count, tuz placement, counts out of range). `holes[side][i]` is hole i+1;
  // `tuz_hole[owner]` is the hole number (1..N) on the opponent's row, 0 if none.
  static bool from_parts(const Rules& rules, const int holes[2][kMaxN], int kazna_white,
                         int kazna_black, const int tuz_hole[2], Side to_move, int move_number,
                         Position* out, std::string* why);

  Rules rules() const { return Rules{n_, bool(flags_ & kTuzFlag), bool(flags_ & kPlayOutFlag)}; }
  int n() const { return n_; }
  Side side_to_move() const { return Side(side_); }
  int move_number() const { return move_number_; }
  // The 64-bit hash key of the position (holes, kaznas, tuzes, side to move; not the move
  // number). See zobrist.h: an additive Zobrist sum, updated in O(1) per move, then mixed.
  uint64_t key() const { return zobrist_mix(hash_); }
  // The same without the kaznas: equal for positions that differ only in the kazna totals
  // (endgame tables and the solver store values that do not depend on them).
  uint64_t board_key() const;

  // Stones in `side`'s hole `hole` (1..N); a tuz hole holds 0.
  int stones(Side side, int hole) const { return board_[index(side) * n_ + hole - 1]; }
  // The 2N hole counts in sowing order (White's holes 1..N, then Black's 1..N; a tuz hole
  // holds 0), for readers that copy the whole board at once (the Python observation arrays).
  const uint8_t* hole_counts() const { return board_; }
  // Where `owner`'s tuz is in hole_counts() order (0..2N-1, on the opponent's row), -1 if none.
  int tuz_index(Side owner) const { return tuz_[index(owner)]; }
  int kazna(Side side) const { return kazna_[index(side)]; }
  // The hole number (1..N, on the opponent's row) of `owner`'s tuz, 0 if he has none.
  int tuz(Side owner) const { return tuz_[index(owner)] < 0 ? 0 : tuz_[index(owner)] % n_ + 1; }
  // Bitwise and of the two slots is -1 only when both are -1 (no tuz at all).
  bool any_tuz() const { return (tuz_[0] & tuz_[1]) != kNoTuz; }
  int stones_on_row(Side side) const;

  // Bit h-1 is set when hole h of the side to move may be played. A tuz always holds 0, so
  // "non-empty own hole" is the whole rule.
  uint32_t legal_mask() const;
  bool is_legal(int hole) const {
    return hole >= 1 && hole <= n_ && (legal_mask() >> (hole - 1) & 1);
  }

  // Plays `hole` (which must be legal) in place and returns what happened.
  // After: stones conserved, key updated incrementally, side and move number advanced.
  MoveInfo play(int hole);
  // Copy-make: the position after `hole`.
  Position after(int hole) const {
    Position p = *this;
    p.play(hole);
    return p;
  }

  // The end checks that need no history, in docs/rules.md order: decided, then no move.
  Outcome outcome() const;
  // A kazna holds more than N*N and the rules stop there (not under play-out).
  bool decided() const {
    return !(flags_ & kPlayOutFlag) && (kazna_[0] > n_ * n_ || kazna_[1] > n_ * n_);
  }
  // The final score once the game ended with `how` (on NoMove the stones left on the board
  // go to the side that is not to move). For Ongoing: the kaznas as they stand.
  std::array<int, 2> final_score(Outcome how) const;

  // The key computed from scratch; equals key() in a consistent position.
  uint64_t compute_key() const { return zobrist_mix(compute_hash()); }
  // Stones conserved, tuz holes empty, tuz placement legal, key matches. Sets *why if not.
  bool consistent(std::string* why = nullptr) const;

  bool operator==(const Position& o) const;

 private:
  static constexpr uint8_t kTuzFlag = 1, kPlayOutFlag = 2;
  // Linear hole index in sowing order: White's holes 0..N-1, then Black's N..2N-1.
  uint8_t board_[kMaxHoles] = {};
  uint8_t kazna_[2] = {0, 0};
  int8_t tuz_[2] = {kNoTuz, kNoTuz};  // linear index of the hole owned as tuz, or -1
  uint8_t side_ = 0;
  int8_t n_ = 9;
  uint8_t flags_ = kTuzFlag;
  uint16_t move_number_ = 1;
  uint64_t hash_ = 0;  // the additive Zobrist sum before mixing (see zobrist.h)

  uint64_t compute_hash() const;
  // play() for row length N (position_play.h): one copy per variant, see there.
  template <int N>
  MoveInfo play_n(int hole);
  MoveInfo play_small(int hole);               // play() for N = 7 and 5, out of line
  MoveInfo make_tuz(int last, MoveInfo info);  // play_n's rare case
  void check_after_play(int hole) const;       // aborts on an inconsistent position (debug builds)
  // A bijection on 64-bit values (so it keeps distinct sums distinct) that spreads every
  // input bit over the whole key: the sum's low bits alone mix poorly.
  static constexpr uint64_t zobrist_mix(uint64_t h) {
    h ^= h >> 31;
    h *= 0x7FB5D329728EA185ull;
    h ^= h >> 27;
    h *= 0x81DADEF4BC2DD44Dull;
    return h ^ (h >> 33);
  }
};

// Inline: it runs at every node of a search or perft and once per game and step of the Python
// environment. Speed: the board is read the way play() writes it (bytes 0..15 as one vector,
// 16 and 17 on their own), so reading it right after a move is forwarded from play()'s stores
// (a load from the mover's row that straddled them stalled); one compare for all 18 holes,
// then the mover's row is shifted out.
inline uint32_t Position::legal_mask() const {
#if defined(__SSE2__)
  __m128i low;
  std::memcpy(&low, board_, 16);
  const uint32_t empty = uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(low, _mm_setzero_si128()))) |
                         uint32_t(board_[16] == 0) << 16 | uint32_t(board_[17] == 0) << 17;
  return ~(empty >> (side_ * n_)) & ((1u << n_) - 1);
#else
  const uint8_t* row = board_ + side_ * n_;
  uint32_t mask = 0;
  for (int i = 0; i < n_; ++i) mask |= uint32_t(row[i] != 0) << i;
  return mask;
#endif
}

}  // namespace toguz

#include "rules/position_play.h"  // Position::play, inline
