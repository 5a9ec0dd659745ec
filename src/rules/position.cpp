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
inline Lanes load_lanes(const void* p) {
  Lanes v;
  std::memcpy(&v, p, 16);
  return v;
}

// The tables play() reads for row length N (see play_n). Everything that depends only on the
// origin, the stone count, a hole or the mover is looked up rather than computed: the move is
// bound by the number of instructions it executes, and a table entry replaces a handful.
// Arrays of 8-byte values are indexed by hole + 1 (index 0: hole -1, "no tuz", "nothing
// taken"), so that one scaled index reaches an entry in a single instruction.
template <int N>
struct PlayTables {
  static constexpr int T = 2 * N;  // holes in sowing order
  // The stone count k: laps = k / T full rounds, and the byte offset in sow[s] of the run's
  // column: k % T, or T for a single stone (it goes to the next hole, where every other move
  // starts at the origin).
  struct Div {
    uint8_t laps, pad;
    uint16_t offset;
  } div[2 * N * N + 1];
  // sow[s][column]: what one more stone in each hole of the run (the rem holes from `start`)
  // does, for origin s. run[1 + i] = 1 when hole i is in it (run[0] = 0: hole -1, "no tuz").
  struct alignas(32) Sow {
    uint8_t run[1 + T];
    uint8_t pad[18 - T];
    uint8_t last;   // 19: the hole the last stone falls into (0..T-1)
    uint8_t keep;   // 20: 0 when it is the origin (emptied first), else 0xFF
    uint8_t extra;  // 21: stones of the run in it (1, or 0 when rem == 0)
    uint8_t pad2[2];
    uint32_t info;  // 24: MoveInfo's last_hole (byte 1: 1..N) and last_row (byte 2)
    uint32_t row;   // 28: the landing hole's row (0 White, 1 Black)
    uint64_t hash;  // 32: the sum of the run's hole weights
  } sow[T][T + 1];
  alignas(16) uint8_t laps_lanes[N + 1][16];  // l in every lane below T: what l laps add
  uint64_t laps_word[N + 1];  // ... to holes 16 and 17 (bytes 0, 1 of the word at 16..23)
  uint64_t laps_hash[N + 1];  // ... to the key's sum
  alignas(16) uint8_t origin_keep[T][16];  // all lanes but s: the origin emptied before sowing
  uint64_t origin_word_keep[T];             // the same for the word at bytes 16..23
  // Hole i (index 1 + i) emptied into o's kazna (stones sown into o's tuz, or taken by o):
  // the lanes but i, and the change per stone of the word at bytes 16..23 and of the key's
  // sum. Index 0 keeps every lane and changes nothing.
  alignas(16) uint8_t lane_keep[2][T + 1][16];
  uint64_t lane_word[2][T + 1];
  uint64_t lane_hash[2][T + 1];
  uint8_t exists[T + 1];  // 0 at index 0 (no tuz), 0xFF elsewhere
  uint64_t side_word[2], side_hash[2];  // the side change after `me` moved
};

template <int N>
constexpr PlayTables<N> make_play_tables() {
  constexpr int T = 2 * N;
  const auto& W = zobrist::kWeights;
  PlayTables<N> t{};
  // Holes 16 and 17 (N = 9) are bytes 0 and 1 of the word at bytes 16..23; kaznas 2 and 3.
  auto word_unit = [](int i) -> uint64_t { return i >= 16 ? uint64_t(1) << (8 * (i - 16)) : 0; };
  auto lanes_but = [](uint8_t* v, int i) {
    for (int j = 0; j < 16; ++j) v[j] = j == i ? 0 : 0xFF;
  };
  for (int k = 0; k <= 2 * N * N; ++k) {
    t.div[k].laps = uint8_t(k / T);
    t.div[k].offset = uint16_t((k == 1 ? T : k % T) * sizeof(typename PlayTables<N>::Sow));
  }
  for (int s = 0; s < T; ++s) {
    for (int col = 0; col <= T; ++col) {
      auto& e = t.sow[s][col];
      const int start = col == T ? (s + 1) % T : s, rem = col == T ? 1 : col;
      for (int j = 0; j < rem; ++j) {
        const int i = (start + j) % T;
        e.run[1 + i] = 1;
        e.hash += W.hole[i];
      }
      const int last = (start + rem - 1 + T) % T;
      e.last = uint8_t(last);
      e.keep = last == s ? 0 : 0xFF;
      e.extra = uint8_t(rem != 0);
      e.info = uint32_t(last % N + 1) << 8 | uint32_t(last / N) << 16;
      e.row = uint32_t(last / N);
    }
    lanes_but(t.origin_keep[s], s);
    t.origin_word_keep[s] = ~(uint64_t(0xFF) * word_unit(s));
  }
  uint64_t all = 0, all_word = 0;
  for (int i = 0; i < T; ++i) all += W.hole[i], all_word += word_unit(i);
  for (int l = 0; l <= N; ++l) {
    for (int j = 0; j < 16 && j < T; ++j) t.laps_lanes[l][j] = uint8_t(l);
    t.laps_word[l] = all_word * uint64_t(l);
    t.laps_hash[l] = all * uint64_t(l);
  }
  for (int o = 0; o < 2; ++o) {
    lanes_but(t.lane_keep[o][0], -1);
    for (int i = 0; i < T; ++i) {
      lanes_but(t.lane_keep[o][1 + i], i);
      t.lane_word[o][1 + i] = (uint64_t(1) << (16 + 8 * o)) - word_unit(i);
      t.lane_hash[o][1 + i] = W.kazna[o] - W.hole[i];
    }
  }
  for (int i = 1; i <= T; ++i) t.exists[i] = 0xFF;
  t.side_word[0] = uint64_t(1) << 48;       // side_ 0 -> 1
  t.side_word[1] = 0 - (uint64_t(1) << 48);  // side_ 1 -> 0
  t.side_hash[0] = W.side;
  t.side_hash[1] = 0 - W.side;
  return t;
}

template <int N>
inline constexpr PlayTables<N> kPlayTables = make_play_tables<N>();

}  // namespace

// The hot path of the whole project; speed beat clarity here. The plain statement of the
// rules is in tests/unit/property_test.cpp, which checks this against it move by move (and on
// random positions with large piles and every tuz placement).
// - A move is bound by the number of instructions it executes (the core runs several per
//   cycle, and the moves of a search or a benchmark are independent), so all that depends
//   only on the origin, the stone count, a hole or the mover comes from PlayTables: one copy
//   per row length N (a template, dispatched by a test that always predicts).
// - No branch depends on the position except the rare tuz-making case: in a search or over
//   random positions the others (the row of the last stone, even or odd, a tuz or not) are
//   coin tosses, and a misprediction costs as much as the whole move. Conditions are 0/1
//   values or all-ones masks.
// - Sowing k stones from the origin s adds laps = k / 2N to every hole and one more to the
//   rem = k % 2N holes from `start` on (the origin itself when k >= 2, the next hole when
//   k == 1), wrapping round once at most: that run is sow[s][column], a byte per hole.
// - Every count the move needs (stones sown into each tuz, stones in the landing hole) is
//   worked out from the counts before the move, never read back after a store.
// - Holes 0..15 are one 16-lane vector. Bytes 16..23 (holes 16 and 17, the kaznas, the tuzes,
//   the side to move, the row length) change by one 64-bit addition: each byte's new value
//   is in 0..255, so the sum of the byte changes times their place values is exactly the
//   change of the word (a stone moved from hole 16 into White's kazna is +2^16 - 1).
// - The key's sum changes by laps * (all weights) + (the run's weights) - k * weight(origin),
//   plus a weight difference per stone moved into a kazna: O(1) whatever k is (zobrist.h).
// - MoveInfo is packed into one register at the end (see there).
template <int N>
MoveInfo Position::play_n(int hole) {
  constexpr int T = 2 * N;
  static_assert(std::endian::native == std::endian::little, "play() adds bytes as little-endian words");
  static_assert(offsetof(Position, board_) == 0 && offsetof(Position, kazna_) == 18 &&
                offsetof(Position, tuz_) == 20 && offsetof(Position, side_) == 22 &&
                offsetof(Position, n_) == 23 && offsetof(Position, hash_) == 32);
  const auto& tab = kPlayTables<N>;
  unsigned char* const bytes = reinterpret_cast<unsigned char*>(this);
  const int me = side_;
  const int s = me * N + hole - 1;  // the origin
  const unsigned k = board_[s];
  const unsigned laps = tab.div[k].laps;
  const auto& sow = *reinterpret_cast<const typename PlayTables<N>::Sow*>(
      reinterpret_cast<const unsigned char*>(tab.sow[s]) + tab.div[k].offset);

  // Stones sown into a tuz go to its owner: the laps and one more if it is in the run.
  const int i0 = tuz_[0] + 1, i1 = tuz_[1] + 1;  // 1 + the tuz's hole; 0: none
  const unsigned into0 = (laps & tab.exists[i0]) + sow.run[i0];
  const unsigned into1 = (laps & tab.exists[i1]) + sow.run[i1];
  // The landing hole: its count before (0 if it is the origin), the laps, the last stone;
  // 0 if it is a tuz (its stones went to the owner).
  const int last = sow.last;
  unsigned c = (board_[last] & sow.keep) + laps + sow.extra;
  c &= 0u - unsigned((last + 1 != i0) & (last + 1 != i1));
  const unsigned on_opponent = sow.row ^ unsigned(me);
  const unsigned capture = on_opponent & ~c & 1;  // an even count (0 stones if it was a tuz)
  const unsigned captured = c & (0u - capture);
  const int taken = (last + 1) & -int(capture);  // 1 + the hole taken from; 0: none

  Lanes low = load_lanes(bytes);
  low = ((low & load_lanes(tab.origin_keep[s])) + load_lanes(tab.laps_lanes[laps]) +
         load_lanes(sow.run + 1)) &
        load_lanes(tab.lane_keep[0][i0]) & load_lanes(tab.lane_keep[1][i1]) &
        load_lanes(tab.lane_keep[me][taken]);
  std::memcpy(bytes, &low, 16);
  uint64_t word;  // bytes 16..23
  std::memcpy(&word, bytes + 16, 8);
  if constexpr (T > 16) {  // holes 16 and 17
    uint16_t run_high;
    std::memcpy(&run_high, sow.run + 17, 2);
    word = (word & tab.origin_word_keep[s]) + tab.laps_word[laps] + run_high;
  }
  word += into0 * tab.lane_word[0][i0] + into1 * tab.lane_word[1][i1] +
          captured * tab.lane_word[me][taken] + tab.side_word[me];
  std::memcpy(bytes + 16, &word, 8);
  // Grows after Black's move; stops at 65535 (the most a position string may say) instead of
  // wrapping to 0, which no position string accepts.
  move_number_ = uint16_t(move_number_ + (me & int(move_number_ != 0xFFFF)));
  hash_ = hash_ - k * zobrist::kWeights.hole[s] + tab.laps_hash[laps] + sow.hash +
          into0 * tab.lane_hash[0][i0] + into1 * tab.lane_hash[1][i1] +
          captured * tab.lane_hash[me][taken] + tab.side_hash[me];

  // Speed: the first eight fields packed in a register and stored at once. Filled field by
  // field, the 9-byte value was returned through a stack slot written in bytes and read back
  // in 8, a store-forwarding stall that cost a fifth of play(). Layout checked below.
  static_assert(offsetof(MoveInfo, hole) == 0 && offsetof(MoveInfo, last_hole) == 1 &&
                offsetof(MoveInfo, last_row) == 2 && offsetof(MoveInfo, captured) == 3 &&
                offsetof(MoveInfo, tuz_made) == 4 && offsetof(MoveInfo, into_tuz) == 5 &&
                offsetof(MoveInfo, kazna_after) == 7 && offsetof(MoveInfo, kazna_changed) == 8);
  const uint64_t packed = uint64_t(uint8_t(hole)) | sow.info | uint64_t(captured) << 24 |
                          uint64_t(into0 | into1 << 8) << 40 |
                          uint64_t(kazna_[me]) << 56;  // kazna_ holds the new total
  MoveInfo info;
  static_assert(std::is_trivially_copyable_v<MoveInfo>);
  std::memcpy(static_cast<void*>(&info), &packed, 8);
  info.kazna_changed = ((me ? into1 : into0) | captured) != 0;
  // A tuz: the last stone made 3 on the opponent's row and the mover has none (rare, and
  // once a player has a tuz never again, so the branch predicts well).
  if (__builtin_expect(on_opponent & (c == 3) & ((me ? i1 : i0) == 0), 0)) return make_tuz(last, info);
  return info;
}

// The rest of a tuz-making move, once play_n has sown: rules.md's other conditions, then the
// 3 stones to the mover's kazna and the hole marked. Rare, so plain code.
MoveInfo Position::make_tuz(int last, MoveInfo info) {
  const auto& W = zobrist::kWeights;
  const int me = side_ ^ 1;  // play_n already passed the move to the opponent
  const int n = n_, number = last % n, opp_tuz = tuz_[me ^ 1];
  if (!(flags_ & kTuzFlag) || number == n - 1 || (opp_tuz >= 0 && opp_tuz % n == number)) return info;
  board_[last] = 0;
  kazna_[me] = uint8_t(kazna_[me] + 3);
  tuz_[me] = int8_t(last);
  hash_ += 3 * (W.kazna[me] - W.hole[last]) + W.tuz[me][last];
  info.tuz_made = true;
  info.kazna_after = kazna_[me];
  info.kazna_changed = true;
  return info;
}

MoveInfo Position::play(int hole) {
  MoveInfo info = n_ == 9 ? play_n<9>(hole) : n_ == 7 ? play_n<7>(hole) : play_n<5>(hole);
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
