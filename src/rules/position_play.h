// Position::play, inline (included at the end of position.h; not for direct use). The hot
// path of the whole project: in a search, perft or benchmark the call, the dispatch on the
// row length, the saved registers and the return of MoveInfo were a large share of the
// move, so the standard row length (N = 9) is sown right at the call site (7 and 5: one
// call). Debug builds (TOGUZ_CHECK_POSITIONS) still check the position after every move.
// The tables are built at compile time in position.cpp (make_play_tables). The plain
// statement of the rules is in tests/unit/property_test.cpp, which checks this against it
// move by move.
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

// The tables play() reads for row length N. Everything that depends only on the origin s,
// its stone count k, a hole or the mover (who is s / N) is looked up rather than computed:
// the move is bound by the number of instructions it executes (and the loads in a row before
// the landing hole is known), and an entry replaces several.
template <int N>
struct PlayTables {
  static constexpr int T = 2 * N;  // holes in sowing order
  static constexpr int kMaxK = 2 * N * N;
  // move[s][k]: the whole sowing of k stones from origin s (k: 1..2N*N), added to the
  // position: lane[1 + i] to hole i (mod 256 per lane), `word` to bytes 16..23 (holes 16 and
  // 17, kaznas, tuzes, side; the bytes' signed changes times their place values) and `hash` to
  // the key's sum. lane[0] = 0 (index 0: "no tuz"). Laps and the rest in one entry (it was two,
  // a lap entry and a sow entry found through a step table: one load in a row and a dozen
  // instructions more per move, for a table 3 times smaller; 188 KB here for N = 9).
  struct alignas(64) Move {
    // lane[1 + T..19] are 0: the 16 lanes read from lane + 1 go past the board when N < 9.
    uint8_t lane[20];
    uint8_t last;  // the hole the last stone falls into (the hole after s when k == 1)
    uint8_t opp;   // 1 when `last` is on the opponent's row
    uint8_t cadd;  // the landing hole's count after sowing minus before, mod 256
    uint8_t tuz3;  // 3 when `last` is on the opponent's row, else 255 (no count is 255)
    uint64_t word;
    uint64_t hash;
    uint32_t info;         // MoveInfo's hole, last_hole and last_row (bytes 0, 1, 2)
    uint32_t kazna_shift;  // the word shifted left by this has the mover's kazna in bits 56..63
    uint64_t kazna_mask;   // the mover's kazna byte in the word
    uint64_t tuz_sign;     // the sign bit of the mover's tuz_ byte in the word
  };
  // take_*[1 + i]: hole i emptied into the kazna of the side that does not own its row
  // (stones sown into a tuz, or taken by a capture: only ever from the opponent's row): the
  // lanes but i, and per stone the word and key changes. Index 0 keeps every lane and changes
  // nothing. Separate arrays, so that an 8-byte entry is reached by one scaled index.
  alignas(16) uint8_t take_keep[T + 1][16];
  uint64_t take_word[T + 1];
  uint64_t take_hash[T + 1];
  uint64_t word_keep[T + 1];  // the word's bits but hole i's byte (White's tuz on hole 16)
  // [kMaxK + 1], not a power of two: rows 16 KB apart put the same k of every origin in one
  // L1 set, and that measured slower than the multiply.
  Move move[T][kMaxK + 1];
};

extern const PlayTables<9> kPlayTables9;
extern const PlayTables<7> kPlayTables7;
extern const PlayTables<5> kPlayTables5;

template <int N>
inline const PlayTables<N>& play_tables() {
  if constexpr (N == 9) return kPlayTables9;
  else if constexpr (N == 7) return kPlayTables7;
  else return kPlayTables5;
}

}  // namespace toguz::play_detail

namespace toguz {

// Speed beat clarity here:
// - No branch depends on the position except the rare tuz-making case: in a search or over
//   random positions the others (the row of the last stone, even or odd, a tuz or not) are
//   coin tosses, and a misprediction costs as much as the whole move. Conditions are 0/1
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
  static_assert(std::endian::native == std::endian::little, "play() adds bytes as little-endian words");
  const Tables& tab = play_detail::play_tables<N>();
  unsigned char* const bytes = reinterpret_cast<unsigned char*>(this);
  const size_t me = side_;
  const size_t s = me * N + size_t(hole) - 1;  // the origin
  const typename Tables::Move& mv = tab.move[s][board_[s]];

  // Stones sown into a tuz go to its owner: a tuz hole held 0, so they are its lane.
  // Tables indexed by 1 + a hole (0: none) are reached as (table + 1)[hole].
  const ptrdiff_t tz0 = tuz_[0], tz1 = tuz_[1];  // the tuz's hole; -1: none
  const unsigned into0 = (mv.lane + 1)[tz0];
  const unsigned into1 = (mv.lane + 1)[tz1];
  // The landing hole's count after sowing. Only the mover's own tuz (on the opponent's row)
  // can take a capture's place: the landing hole must not be it.
  const ptrdiff_t last = mv.last;
  const unsigned c = uint8_t(board_[last] + mv.cadd);
  const unsigned capture = mv.opp & ~c & unsigned(last != tz0) & unsigned(last != tz1);  // even
  const unsigned captured = c & (0u - capture);
  // The landing hole's entries are reached from `last`, known early; the capture only selects
  // (the lanes kept) or multiplies (per stone taken, and captured is 0 without a capture).
  const ptrdiff_t taken = ((last + 1) & -ptrdiff_t(capture)) - 1;  // the hole taken from; -1: none
  const uint8_t* const keep_taken = (tab.take_keep + 1)[taken];

  play_detail::Lanes low = play_detail::load_lanes(bytes);
  low = (low + play_detail::load_lanes(mv.lane + 1)) &
        play_detail::load_lanes((tab.take_keep + 1)[tz0]) &
        play_detail::load_lanes((tab.take_keep + 1)[tz1]) & play_detail::load_lanes(keep_taken);
  std::memcpy(bytes, &low, 16);
  const uint64_t* const take_word = tab.take_word + 1;
  const uint64_t* const take_hash = tab.take_hash + 1;
  uint64_t word_before, word;  // bytes 16..23
  std::memcpy(&word_before, bytes + 16, 8);
  // The tuz stones go to the kaznas (bytes 2 and 3); the only tuz hole in the word is
  // White's on hole 16, emptied by a mask.
  const unsigned into = into0 | into1 << 8;
  word = word_before + mv.word;
  if constexpr (Tables::T > 16) word &= (tab.word_keep + 1)[tz0];
  word += (uint64_t(into) << 16) + captured * take_word[last];
  std::memcpy(bytes + 16, &word, 8);
  // Grows after Black's move; stops at 65535 (the most a position string may say) instead of
  // wrapping to 0, which no position string accepts: 65535 + 1 = 65536 less its bit 16.
  const unsigned number = unsigned(move_number_) + unsigned(me);
  move_number_ = uint16_t(number - (number >> 16));
  hash_ += mv.hash + into0 * take_hash[tz0] + into1 * take_hash[tz1] + captured * take_hash[last];

  static_assert(offsetof(MoveInfo, hole) == 0 && offsetof(MoveInfo, last_hole) == 1 &&
                offsetof(MoveInfo, last_row) == 2 && offsetof(MoveInfo, captured) == 3 &&
                offsetof(MoveInfo, tuz_made) == 4 && offsetof(MoveInfo, into_tuz) == 5 &&
                offsetof(MoveInfo, kazna_after) == 7 && offsetof(MoveInfo, kazna_changed) == 8);
  // The mover's kazna after the move is taken from the word in hand, not read back from the
  // byte just stored (a load that waits for the store).
  const uint64_t kazna_after = (word << mv.kazna_shift) & (uint64_t(0xFF) << 56);
  const uint64_t packed = mv.info | uint64_t(captured) << 24 | uint64_t(into) << 40 | kazna_after;
  MoveInfo info;
  static_assert(std::is_trivially_copyable_v<MoveInfo>);
  std::memcpy(static_cast<void*>(&info), &packed, 8);
  info.kazna_changed = ((word ^ word_before) & mv.kazna_mask) != 0;
  // A tuz: the last stone made 3 on the opponent's row and the mover has none (rare, and
  // once a player has a tuz never again, so the branch predicts well).
  const bool has_tuz = (word_before & mv.tuz_sign) == 0;  // the mover's tuz_ is not -1
  if (__builtin_expect((c == mv.tuz3) & !has_tuz, 0)) return make_tuz(int(last), info);
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
