#include "rules/position.h"

#include "rules/zobrist.h"

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
  p.key_ = p.compute_key();
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
  p.key_ = p.compute_key();
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
  const uint8_t* row = board_ + side_ * n_;
  uint32_t mask = 0;
  for (int i = 0; i < n_; ++i) mask |= uint32_t(row[i] != 0) << i;
  return mask;
}

// The hot path of the whole project. Sowing is done as a range increment (with a separate
// slow path for k >= 2N, where whole laps are added and the key is recomputed), and the key is
// updated per touched hole from the shared table; see zobrist.h for why Z[h][0] == 0.
MoveInfo Position::play(int hole) {
  const auto& Z = zobrist::kTables;
  const int n = n_, total = 2 * n_;
  const int me = side_;
  const int s = me * n + hole - 1;
  const int k = board_[s];
  const int old_kazna0 = kazna_[0], old_kazna1 = kazna_[1];
  uint64_t key = key_ ^ Z.hole[s][k];
  board_[s] = 0;
  int start = k == 1 ? s + 1 : s;
  if (start == total) start = 0;
  int last;
  bool slow_key = false;
  if (k < total) {
    const int end = start + k;  // exclusive, may pass the end of the ring once
    const int first_end = end < total ? end : total;
    for (int i = start; i < first_end; ++i) {
      key ^= Z.hole[i][board_[i]] ^ Z.hole[i][board_[i] + 1];
      ++board_[i];
    }
    for (int i = 0; i < end - total; ++i) {
      key ^= Z.hole[i][board_[i]] ^ Z.hole[i][board_[i] + 1];
      ++board_[i];
    }
    last = end - 1 < total ? end - 1 : end - 1 - total;
  } else {
    const int laps = k / total, rem = k % total;
    for (int i = 0; i < total; ++i) board_[i] = uint8_t(board_[i] + laps);
    for (int j = 0, i = start; j < rem; ++j) {
      ++board_[i];
      if (++i == total) i = 0;
    }
    last = (start + k - 1) % total;
    slow_key = true;
  }
  MoveInfo info;
  // Stones that fell into a tuz go to its owner at once. The xor chain over a hole that
  // started empty telescopes to Z[t][count], so one xor takes the hole back to 0.
  for (int o = 0; o < 2; ++o) {
    const int t = tuz_[o];
    if (t >= 0 && board_[t]) {
      const int c = board_[t];
      key ^= Z.hole[t][c];
      board_[t] = 0;
      kazna_[o] = uint8_t(kazna_[o] + c);
      info.into_tuz[o] = uint8_t(c);
    }
  }
  const int last_row = last >= n;
  if (last_row != me && last != tuz_[me]) {
    const int c = board_[last];
    if ((c & 1) == 0) {
      key ^= Z.hole[last][c];
      board_[last] = 0;
      kazna_[me] = uint8_t(kazna_[me] + c);
      info.captured = uint8_t(c);
    } else if (c == 3 && (flags_ & kTuzFlag) && tuz_[me] < 0 && last - last_row * n != n - 1 &&
               (tuz_[1 - me] < 0 || tuz_[1 - me] - (1 - last_row) * n != last - last_row * n)) {
      key ^= Z.hole[last][3] ^ Z.tuz[me][last];
      board_[last] = 0;
      kazna_[me] = uint8_t(kazna_[me] + 3);
      tuz_[me] = int8_t(last);
      info.tuz_made = true;
    }
  }
  key ^= Z.kazna[0][old_kazna0] ^ Z.kazna[0][kazna_[0]] ^ Z.kazna[1][old_kazna1] ^
         Z.kazna[1][kazna_[1]] ^ Z.side;
  if (me == 1) ++move_number_;
  side_ = uint8_t(me ^ 1);
  key_ = key;
  if (slow_key) key_ = compute_key();
  info.hole = int8_t(hole);
  info.last_hole = int8_t(last - last_row * n + 1);
  info.last_row = Side(last_row);
  info.kazna_after = kazna_[me];
  info.kazna_changed = kazna_[me] != (me ? old_kazna1 : old_kazna0);
  return info;
}

Outcome Position::outcome() const {
  if (!(flags_ & kPlayOutFlag) && (kazna_[0] > n_ * n_ || kazna_[1] > n_ * n_))
    return Outcome::Decided;
  if (stones_on_row(Side(side_)) == 0) return Outcome::NoMove;
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

uint64_t Position::compute_key() const {
  const auto& Z = zobrist::kTables;
  uint64_t key = 0;
  for (int i = 0; i < 2 * n_; ++i) key ^= Z.hole[i][board_[i]];
  key ^= Z.kazna[0][kazna_[0]] ^ Z.kazna[1][kazna_[1]];
  for (int o = 0; o < 2; ++o)
    if (tuz_[o] >= 0) key ^= Z.tuz[o][tuz_[o]];
  if (side_) key ^= Z.side;
  return key;
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
  if (key_ != compute_key()) return fail("incremental key differs from the recomputed key");
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
