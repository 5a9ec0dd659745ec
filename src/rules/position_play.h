// Position::play, inline (included at the end of position.h; not for direct use). This is the
// hot path of the search, perft and the Python env, so N = 9 is sown at the call site (7 and
// 5 go through one call). The tables are built at compile time in position.cpp (PlayTables'
// constructor). To change it safely: keep the layout asserted below, run the property tests
// (tests/unit/rules/property_test.cpp states the rules plainly and checks this move by move), perft
// and a Debug build (TOGUZ_CHECK_POSITIONS checks the position after every move), and measure
// with BM_Play (CONTRIBUTING.md).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace toguz::play_detail {

// Byte-lane vectors (GCC/Clang vector extensions: SSE2 on x86-64, NEON on ARM, plain code
// elsewhere; no -m flag needed).
using Lanes = uint8_t __attribute__((vector_size(16)));
inline Lanes load_lanes(const void* p) {
  Lanes v;
  std::memcpy(&v, p, 16);
  return v;
}
// Lanes 0..7 from lo, 8..15 from hi.
inline Lanes load_halves(const uint64_t* lo, const uint64_t* hi) {
  using Halves = uint64_t __attribute__((vector_size(16)));
  return Lanes(Halves{*lo, *hi});
}

// The tables play() reads for row length N. Everything that depends only on the origin s,
// its stone count k, a hole or the mover (who is s / N) is looked up rather than computed:
// the move's cost is its instruction count and the chain of loads before the landing hole is
// known.
template <int N>
struct PlayTables {
  static constexpr int T = 2 * N;  // holes in sowing order
  static constexpr int kMaxK = 2 * N * N;
  // move[s][k]: the whole sowing of k stones from origin s (k: 1..2N*N), added to the
  // position: lane[1 + i] to hole i (mod 256 per lane), `word` to bytes 16..23 (holes 16 and
  // 17, kaznas, tuzes, side; the bytes' signed changes times their place values) and `hash` to
  // the key's sum. lane[0] = 0 (index 0: "no tuz"). Laps included: one entry per (s, k),
  // 188 KB for N = 9.
  struct alignas(64) Move {
    // lane[1 + 17] (hole 17) is not kept: it is in the word, and no tuz. lane[1 + T..17] are
    // 0: the 16 lanes read from lane + 1 go past the board when N < 9.
    uint8_t lane[18];
    uint8_t last;  // the hole the last stone falls into (the hole after s when k == 1)
    uint8_t own;   // 1 when `last` is on the mover's own row
    int32_t cadd;  // the landing hole's count after sowing minus before (-153..162)
    uint64_t word;
    uint64_t hash;
    uint32_t info;     // MoveInfo's hole, last_hole and last_row (bytes 0, 1, 2)
    uint32_t taken16;  // 16 * (1 + last): take_keep[1 + last]'s byte offset in take_keep
    // The word times this has the mover's kazna in bits 56..63 (a multiply, not a shift by
    // a loaded count, which costs more instructions).
    uint64_t kazna_mult;
    uint32_t into_mine;  // 0xFF or 0xFF00: the stones sown into the mover's tuz in `into`
    // c + 8 * (the mover's tuz, -1: none) equals this only when a tuz may be made: c == 3 on
    // the opponent's row and no tuz yet (-5; else a value no sum reaches). One compare.
    int32_t tuz_key;
  };
  static_assert(sizeof(Move) == 64);
  // take_*[1 + i]: hole i emptied into the kazna of the side that does not own its row
  // (stones sown into a tuz, or taken by a capture: only ever from the opponent's row): the
  // lanes but i, and per stone the word and key changes. Index 0 keeps every lane and changes
  // nothing. Separate arrays, so that an 8-byte entry is reached by one scaled index.
  alignas(16) uint8_t take_keep[T + 1][16];
  uint64_t take_word[T + 1];
  uint64_t take_hash[T + 1];
  uint64_t word_keep[T + 1];  // the word's bits but hole i's byte (White's tuz on hole 16)
  // N = 9: take_keep[1 + i] as two 8-byte halves, lanes 0..7 and 8..15, for the tuz holes:
  // Black's tuz is on White's holes 0..7 (keep_lo), White's on Black's 9..16 (keep_hi), so
  // each tuz touches one half (8-byte entries: one scaled index).
  uint64_t keep_lo[T + 1];
  uint64_t keep_hi[T + 1];
  // row[s] = move[s]: a load, in parallel with the load of the origin's count, instead of a
  // multiply.
  const Move* row[T];
  // [kMaxK + 1], not padded to a power of two: rows 16 KB apart would put the same k of every
  // origin in one L1 set.
  Move move[T][kMaxK + 1];

  constexpr PlayTables();  // position.cpp, at compile time
};

extern const PlayTables<9> kPlayTables9;
extern const PlayTables<7> kPlayTables7;
extern const PlayTables<5> kPlayTables5;

template <int N>
inline const PlayTables<N>& play_tables() {
  if constexpr (N == 9)
    return kPlayTables9;
  else if constexpr (N == 7)
    return kPlayTables7;
  else
    return kPlayTables5;
}

}  // namespace toguz::play_detail

namespace toguz {

// The rules this code keeps:
// - No branch depends on the position except the rare tuz-making case (the others are coin
//   tosses in a search, and a misprediction costs as much as the move). Conditions are 0/1
//   values or all-ones masks.
// - Sowing k stones from the origin s is one table entry, move[s][k]: a lane change per hole,
//   a word change and a key change (the key is an additive Zobrist sum, zobrist.h).
// - Every count the move needs (stones sown into each tuz, stones in the landing hole) is
//   worked out from the counts before the move, never read back after a store.
// - Holes 0..15 are one 16-lane vector. Bytes 16..23 (holes 16 and 17, the kaznas, the tuzes,
//   the side to move, the row length) change by 64-bit additions: each byte's new value
//   is in 0..255, so the sum of the byte changes times their place values is exactly the
//   change of the word (a stone moved from hole 16 into White's kazna is +2^16 - 1).
// - MoveInfo is packed into one register at the end.
template <int N>
inline MoveInfo Position::play_n(int hole) {
  using Tables = play_detail::PlayTables<N>;
  static_assert(std::endian::native == std::endian::little,
                "play() adds bytes as little-endian words");
  const Tables* tab_address = &play_detail::play_tables<N>();
#if defined(__GNUC__)
  // One register for every table: otherwise GCC treats each array as its own symbol and
  // rebuilds their addresses in the caller's loop.
  asm("" : "+r"(tab_address));
#endif
  const Tables& tab = *tab_address;
  unsigned char* const bytes = reinterpret_cast<unsigned char*>(this);
  const size_t me = side_;
  const size_t s = me * N + size_t(hole) - 1;  // the origin
  const typename Tables::Move& mv = tab.row[s][board_[s]];
  // Grows after Black's move; stops at 65535 (the most a position string may say) instead of
  // wrapping to 0, which no position string accepts: the carry out of 16 bits taken back.
  // (Early, so that `me` is not held in a register to the end.)
  uint16_t number;
  const bool wrapped = __builtin_add_overflow(move_number_, uint16_t(me), &number);
  move_number_ = uint16_t(number - wrapped);

  // Stones sown into a tuz go to its owner: a tuz hole held 0, so they are its lane.
  // Tables indexed by 1 + a hole (0: none) are reached as (table + 1)[hole]. The tuzes come
  // first so that their registers are free early.
  const ptrdiff_t tz0 = tuz_[0], tz1 = tuz_[1];  // the tuz's hole; -1: none
  const unsigned into0 = (mv.lane + 1)[tz0];
  const unsigned into1 = (mv.lane + 1)[tz1];
  const uint64_t* const take_hash = tab.take_hash + 1;
  uint64_t hash = hash_ + mv.hash + into0 * take_hash[tz0] + into1 * take_hash[tz1];
  play_detail::Lanes low = play_detail::load_lanes(bytes) + play_detail::load_lanes(mv.lane + 1);
  if constexpr (N == 9) {
    low &= play_detail::load_halves(&(tab.keep_lo + 1)[tz1], &(tab.keep_hi + 1)[tz0]);
  } else {
    low &= play_detail::load_lanes((tab.take_keep + 1)[tz0]) &
           play_detail::load_lanes((tab.take_keep + 1)[tz1]);
  }
  // The tuz stones go to the kaznas (bytes 2 and 3); the only tuz hole in the word is
  // White's on hole 16, emptied by a mask.
  const unsigned into = into0 | into1 << 8;
  const uint64_t into16 = uint64_t(into) << 16;
  uint64_t word;  // bytes 16..23
  std::memcpy(&word, bytes + 16, 8);
  word += mv.word;
  if constexpr (Tables::T > 16) word &= (tab.word_keep + 1)[tz0];
  word += into16;

  // The landing hole's count after sowing. Only the mover's own tuz is on the opponent's row:
  // the landing hole must not be it.
  const ptrdiff_t last = mv.last;
  const unsigned c = unsigned(board_[last] + mv.cadd);
  const ptrdiff_t my_tuz = tuz_[me];
  // A capture: even, on the opponent's row, not the tuz. Bit 0 of `no_capture` set if not.
  const unsigned no_capture = (c | mv.own | unsigned(last == my_tuz)) & 1;
  const unsigned capture_mask = no_capture - 1;  // all ones for a capture
  const unsigned captured = c & capture_mask;
  // A tuz: the last stone made 3 on the opponent's row and the mover has none (rare, and
  // once a player has a tuz never again, so the branch at the end predicts well).
  bool tuz_made = int32_t(c + 8 * my_tuz) == mv.tuz_key;
#if defined(__GNUC__)
  // Computed here, not at the branch, so both sides of the compare are not kept to the end.
  asm("" : "+r"(tuz_made));
#endif
  // The landing hole's entries are reached from `last`, known early; the capture only selects
  // (the lanes kept: take_keep[0] without a capture) or multiplies (per stone taken, and
  // captured is 0 without a capture).
  low &= play_detail::load_lanes(tab.take_keep[0] + (mv.taken16 & capture_mask));
  std::memcpy(bytes, &low, 16);
  word += captured * (tab.take_word + 1)[last];
  std::memcpy(bytes + 16, &word, 8);
  hash_ = hash + captured * take_hash[last];

  static_assert(offsetof(MoveInfo, hole) == 0 && offsetof(MoveInfo, last_hole) == 1 &&
                offsetof(MoveInfo, last_row) == 2 && offsetof(MoveInfo, captured) == 3 &&
                offsetof(MoveInfo, tuz_made) == 4 && offsetof(MoveInfo, into_tuz) == 5 &&
                offsetof(MoveInfo, kazna_after) == 7 && offsetof(MoveInfo, kazna_changed) == 8);
  // The mover's kazna after the move is taken from the word in hand, not read back from the
  // byte just stored (a load that waits for the store).
  const uint64_t kazna_after = (word * mv.kazna_mult) & (uint64_t(0xFF) << 56);
  const uint64_t packed = mv.info | (into16 | captured) << 24 | kazna_after;
  MoveInfo info;
  static_assert(std::is_trivially_copyable_v<MoveInfo>);
  std::memcpy(static_cast<void*>(&info), &packed, 8);
  // The mover's kazna grew by the capture and the stones sown into his tuz.
  info.kazna_changed = ((into & mv.into_mine) | captured) != 0;
  if (__builtin_expect(tuz_made, 0)) return make_tuz(int(last), info);
  return info;
}

inline MoveInfo Position::play(int hole) {
  static_assert(offsetof(Position, board_) == 0 && offsetof(Position, kazna_) == 18 &&
                offsetof(Position, tuz_) == 20 && offsetof(Position, side_) == 22 &&
                offsetof(Position, n_) == 23 && offsetof(Position, hash_) == 32);
  MoveInfo info = __builtin_expect(n_ == 9, 1) ? play_n<9>(hole) : play_small(hole);
#ifdef TOGUZ_CHECK_POSITIONS
  check_after_play(hole);  // debug builds: every stone accounted for, key recomputed
#endif
  return info;
}

}  // namespace toguz
