// Position (position.h): the variants, building and checking a position from its parts, the
// end checks and final score, the hash computed from scratch, and the tables of
// position_play.h built at compile time. play() itself is inline in position_play.h; only the
// rare tuz-making step (make_tuz) and the row lengths 7 and 5 (play_small) are called here.
#include "rules/position.h"

#include <bit>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "rules/zobrist.h"

namespace toguz {

Rules Rules::for_variant(Variant v) {
  switch (v) {
    case Variant::Kozdatu:
      return Rules{7, false, false};
    case Variant::Bestemshi:
      return Rules{5, false, false};
    default:
      return Rules{9, true, false};
  }
}

std::string_view variant_name(Variant v) {
  switch (v) {
    case Variant::Kozdatu:
      return "kozdatu";
    case Variant::Bestemshi:
      return "bestemshi";
    default:
      return "standard";
  }
}

bool parse_variant(std::string_view s, Variant* out) {
  if (s == "standard" || s == "togyz" || s == "toguz")
    *out = Variant::Standard;
  else if (s == "kozdatu")
    *out = Variant::Kozdatu;
  else if (s == "bestemshi")
    *out = Variant::Bestemshi;
  else
    return false;
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
    const char* owner = side_name(Side(o));
    if (!rules.tuz)
      return fail(std::string("tuz (") + owner + "'s) not allowed: tuz is off in these rules");
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

namespace play_detail {

// The tables of position_play.h for row length N, at compile time.
template <int N>
constexpr PlayTables<N>::PlayTables()
    : take_keep{}, take_word{}, take_hash{}, word_keep{}, keep_lo{}, keep_hi{}, row{}, move{} {
  using Tables = PlayTables<N>;
  const auto& W = zobrist::kWeights;
  Tables& t = *this;
  // Holes 16 and 17 (N = 9) are bytes 0 and 1 of the word at bytes 16..23; kaznas 2 and 3,
  // the side to move 6.
  auto word_unit = [](int i) -> uint64_t { return i >= 16 ? uint64_t(1) << (8 * (i - 16)) : 0; };
  auto kazna_unit = [](int o) -> uint64_t { return uint64_t(1) << (16 + 8 * o); };
  for (int s = 0; s < T; ++s) {
    t.row[s] = t.move[s];
    const int me = s / N;
    // The side change after `me` moved: side_ 0 -> 1 or 1 -> 0.
    const uint64_t side_word = me == 0 ? uint64_t(1) << 48 : 0 - (uint64_t(1) << 48);
    const uint64_t side_hash = me == 0 ? W.side : 0 - W.side;
    for (int k = 1; k <= Tables::kMaxK; ++k) {
      auto& e = t.move[s][k];
      // The origin is emptied, then one stone to each hole from s on (a single stone: the
      // next hole), round the board as often as it takes.
      int change[T] = {};
      change[s] -= k;
      if (k == 1)
        change[(s + 1) % T] += 1;
      else
        for (int j = 0; j < k; ++j) change[(s + j) % T] += 1;
      for (int i = 0; i < T; ++i) {
        if (1 + i < int(sizeof(e.lane))) e.lane[1 + i] = uint8_t(change[i]);  // hole 17: the word
        e.word += uint64_t(int64_t(change[i])) * word_unit(i);
        e.hash += uint64_t(int64_t(change[i])) * W.hole[i];
      }
      e.word += side_word;
      e.hash += side_hash;
      const int last = k == 1 ? (s + 1) % T : (s + k - 1) % T;
      e.last = uint8_t(last);
      e.own = uint8_t(last / N == me);
      e.cadd = change[last];
      // c + 8 * my_tuz is -5 only for c == 3 and my_tuz == -1 (c: 1..162, my_tuz >= 0 or -1).
      e.tuz_key = last / N != me ? 3 - 8 : 0x7FFFFFFF;
      e.info = uint32_t(s % N + 1) | uint32_t(last % N + 1) << 8 | uint32_t(last / N) << 16;
      e.taken16 = uint32_t(16 * (1 + last));
      e.kazna_mult = uint64_t(1) << (40 - 8 * me);  // kazna_[me] is the word's byte 2 + me
      e.into_mine = uint32_t(0xFF) << (8 * me);
    }
  }
  for (int j = 0; j < 16; ++j) t.take_keep[0][j] = 0xFF;
  t.word_keep[0] = ~uint64_t(0);
  for (int i = 0; i < T; ++i) {
    const int gainer = 1 - i / N;  // tuz stones and captures come from the gainer's opponent's row
    for (int j = 0; j < 16; ++j) t.take_keep[1 + i][j] = j == i ? 0 : 0xFF;
    t.take_word[1 + i] = kazna_unit(gainer) - word_unit(i);
    t.take_hash[1 + i] = W.kazna[gainer] - W.hole[i];
    t.word_keep[1 + i] = ~(uint64_t(0xFF) * word_unit(i));
  }
  for (int i = -1; i < T; ++i) {
    for (int j = 0; j < 8; ++j) {
      t.keep_lo[1 + i] |= uint64_t(t.take_keep[1 + i][j]) << (8 * j);
      t.keep_hi[1 + i] |= uint64_t(t.take_keep[1 + i][8 + j]) << (8 * j);
    }
  }
}

constexpr PlayTables<9> kPlayTables9;
constexpr PlayTables<7> kPlayTables7;
constexpr PlayTables<5> kPlayTables5;

}  // namespace play_detail

MoveInfo Position::play_small(int hole) {
  return n_ == 7 ? play_n<7>(hole) : play_n<5>(hole);
}

// The rest of a tuz-making move, once play_n has sown: docs/rules.md's other conditions, then the
// 3 stones to the mover's kazna and the hole marked. Rare, so plain code.
MoveInfo Position::make_tuz(int last, MoveInfo info) {
  const auto& W = zobrist::kWeights;
  const int me = side_ ^ 1;  // play_n already passed the move to the opponent
  const int n = n_, number = last % n, opp_tuz = tuz_[me ^ 1];
  if (!(flags_ & kTuzFlag) || number == n - 1 || (opp_tuz >= 0 && opp_tuz % n == number))
    return info;
  board_[last] = 0;
  kazna_[me] = uint8_t(kazna_[me] + 3);
  tuz_[me] = int8_t(last);
  hash_ += 3 * (W.kazna[me] - W.hole[last]) + W.tuz[me][last];
  info.tuz_made = true;
  info.kazna_after = kazna_[me];
  info.kazna_changed = true;
  return info;
}

void Position::check_after_play(int hole) const {
  // Every stone accounted for, tuz holes empty, and the incremental key equal to the
  // recomputed one, after every move (debug builds and the sanitizer build of make test).
  if (std::string why; !consistent(&why)) {
    std::fprintf(stderr, "toguz: inconsistent position after playing hole %d: %s\n", hole,
                 why.c_str());
    std::abort();
  }
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
