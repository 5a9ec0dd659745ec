#include "vec_env.h"

#include <cstring>
#include <stdexcept>

namespace toguz::rl {

namespace {

// Speed: the k-th set bit of a legal mask (N <= 9, so masks < 512) and the number of set
// bits, by table: the portable x86-64 build has no POPCNT, and this runs once per game and step.
struct BitTables {
  uint8_t count[512] = {};
  int8_t kth[512][9] = {};
  constexpr BitTables() {
    for (int m = 0; m < 512; ++m) {
      int c = 0;
      for (int i = 0; i < 9; ++i) kth[m][i] = -1;
      for (int i = 0; i < 9; ++i)
        if (m >> i & 1) kth[m][c++] = int8_t(i);
      count[m] = uint8_t(c);
    }
  }
};
constexpr BitTables kBits;

// A uniformly random set bit of `mask` (not 0).
int random_bit(SplitMix64& rng, uint32_t mask) { return kBits.kth[mask][rng.below(kBits.count[mask])]; }

}  // namespace

VecEnv::VecEnv(int batch, const Rules& rules, uint64_t seed, int random_start_plies)
    : batch_(batch), n_(rules.n), rules_(rules), random_start_plies_(random_start_plies) {
  if (batch < 1) throw std::invalid_argument("batch must be at least 1");
  if (random_start_plies < 0) throw std::invalid_argument("random_start_plies must be >= 0");
  size_t b = size_t(batch), n = size_t(n_);
  holes.assign(b * 2 * n, 0);
  kaznas.assign(b * 2, 0);
  tuz.assign(b * 2 * n, 0);
  side_to_move.assign(b, 0);
  legal.assign(b * n, 0);
  reward.assign(b, 0.0f);
  done.assign(b, 0);
  winner.assign(b, -2);
  final_score.assign(b * 2, 0);
  episode_length.assign(b, 0);
  plies.assign(b, 0);
  legal_bits.assign(b, 0);
  slots_.resize(b);
  reset(seed);
}

void VecEnv::reset(uint64_t seed) {
  rng_.state = seed;
  for (int b = 0; b < batch_; ++b) {
    start_game(b);
    reward[b] = 0.0f;
    done[b] = 0;
    winner[b] = -2;
    final_score[2 * b] = final_score[2 * b + 1] = 0;
    episode_length[b] = 0;
  }
}

int VecEnv::repetitions(const Slot& slot) {
  const Position& now = slot.pos;
  const int size = int(slot.keys.size());
  const uint64_t key = slot.keys[size - 1];  // now's key (advance pushed it last)
  int count = 1;
  // Speed: every ply while no tuz exists is in the window, so the positions with the same
  // side to move are 2, 4, ... plies back (the kaznas are the same in the whole window);
  // keys first, the boards compared only when they match.
  for (int i = size - 3; i >= 0; i -= 2) {
    if (slot.keys[i] != key) continue;
    const Position& p = slot.window[i];
    count += p.side_to_move() == now.side_to_move() && p.tuz_index(Side::White) == now.tuz_index(Side::White) &&
             p.tuz_index(Side::Black) == now.tuz_index(Side::Black) &&
             std::memcmp(p.hole_counts(), now.hole_counts(), size_t(2 * now.n())) == 0;
  }
  return count;
}

void VecEnv::start_game(int b) {
  Slot& slot = slots_[b];
  // Random opening plies: a line that ends the game before its last ply is thrown away and
  // drawn again (after 100 such lines the plain start is used).
  for (int attempt = 0;; ++attempt) {
    slot.pos = Position::start(rules_);
    slot.ply = 0;
    slot.window.assign(1, slot.pos);
    slot.keys.assign(1, slot.pos.key());
    if (attempt >= 100) break;
    bool ended = false;
    for (int i = 0; i < random_start_plies_ && !ended; ++i) {
      ended = advance(slot, random_bit(rng_, slot.pos.legal_mask()) + 1) != Outcome::Ongoing;
    }
    if (!ended) break;
  }
  plies[b] = slot.ply;
  write_observation(b);
}

Outcome VecEnv::advance(Slot& slot, int hole) {
  int kw = slot.pos.kazna(Side::White), kb = slot.pos.kazna(Side::Black);
  slot.pos.play(hole);
  ++slot.ply;
  Outcome how = slot.pos.outcome();
  if (how == Outcome::Ongoing && !slot.pos.any_tuz()) {
    // Repetition bookkeeping only while no tuz exists (afterwards no position can recur).
    if (slot.pos.kazna(Side::White) != kw || slot.pos.kazna(Side::Black) != kb) {
      slot.window.clear();
      slot.keys.clear();
    }
    slot.window.push_back(slot.pos);
    slot.keys.push_back(slot.pos.key());
    if (repetitions(slot) >= 3) how = Outcome::Repetition;
  }
  return how;
}

// Speed: kSpread[m] has byte i = bit i of m: eight legal-mask bytes from one table read.
struct SpreadTable {
  uint64_t v[256] = {};
  constexpr SpreadTable() {
    for (int m = 0; m < 256; ++m)
      for (int i = 0; i < 8; ++i) v[m] |= uint64_t(m >> i & 1) << (8 * i);
  }
};
constexpr SpreadTable kSpread;

void VecEnv::write_observation(int b) {
  switch (n_) {
    case 9: return write_observation_n<9>(b);
    case 7: return write_observation_n<7>(b);
    default: return write_observation_n<5>(b);
  }
}

// One copy per row length, so that every copy below has a constant size and compiles to a
// few wide moves (this runs once per game and step, as often as play()).
template <int N>
void VecEnv::write_observation_n(int b) {
  const Position& pos = slots_[b].pos;
  const uint8_t* board = pos.hole_counts();  // White's holes, then Black's: the [2, N] order
  int32_t* h = &holes[size_t(b) * 2 * N];
  for (int i = 0; i < 2 * N; ++i) h[i] = board[i];
  const int tuz_w = pos.tuz_index(Side::White), tuz_b = pos.tuz_index(Side::Black);
  const uint32_t mask = pos.legal_mask();
  kaznas[2 * b] = pos.kazna(Side::White);
  kaznas[2 * b + 1] = pos.kazna(Side::Black);
  side_to_move[b] = int8_t(pos.side_to_move());
  legal_bits[b] = mask;
  // Built in a local array, then copied: stores through the int8_t (char) pointer could
  // alias the position and would force reloads.
  int8_t t[2 * N] = {};
  // In the same order as the holes (White's tuz is on Black's row and vice versa).
  if (tuz_w >= 0) t[tuz_w] = 1;
  if (tuz_b >= 0) t[tuz_b] = 1;
  std::memcpy(&tuz[size_t(b) * 2 * N], t, sizeof t);
  uint8_t l[16];
  const uint64_t low = kSpread.v[mask & 0xFF], high = kSpread.v[mask >> 8];
  std::memcpy(l, &low, 8);
  std::memcpy(l + 8, &high, 8);
  std::memcpy(&legal[size_t(b) * N], l, N);
}

int VecEnv::first_illegal(const int64_t* actions) const {
  for (int b = 0; b < batch_; ++b) {
    int64_t a = actions[b];
    if (a < 0 || a >= n_ || !((legal_bits[b] >> a) & 1)) return b;
  }
  return -1;
}

std::string VecEnv::illegal_reason(int b, int64_t a) const {
  const Position& pos = slots_[b].pos;
  std::string legal_list;
  for (int i = 0; i < n_; ++i)
    if ((pos.legal_mask() >> i) & 1) legal_list += (legal_list.empty() ? "" : ", ") + std::to_string(i);
  std::string why = a < 0 || a >= n_ ? "out of range 0.." + std::to_string(n_ - 1)
                    : pos.tuz(opposite(pos.side_to_move())) == a + 1 ? "the hole is the opponent's tuz"
                                                                      : "the hole is empty";
  return "illegal action " + std::to_string(a) + " in game " + std::to_string(b) + " (" + why +
         "); legal actions: " + legal_list;
}

void VecEnv::step(const int64_t* actions) {
  for (int b = 0; b < batch_; ++b) {
    Slot& slot = slots_[b];
    Side mover = slot.pos.side_to_move();
    Outcome how = advance(slot, int(actions[b]) + 1);
    if (how == Outcome::Ongoing) {
      reward[b] = 0.0f;
      done[b] = 0;
      winner[b] = -2;
      plies[b] = slot.ply;
      write_observation(b);
      continue;
    }
    std::array<int, 2> score = slot.pos.final_score(how);
    int w = how == Outcome::Repetition || score[0] == score[1] ? -1 : score[0] > score[1] ? 0 : 1;
    reward[b] = w < 0 ? 0.0f : w == index(mover) ? 1.0f : -1.0f;
    done[b] = 1;
    winner[b] = int8_t(w);
    final_score[2 * b] = score[0];
    final_score[2 * b + 1] = score[1];
    episode_length[b] = slot.ply;
    start_game(b);
  }
}

void VecEnv::random_actions(int64_t* out) {
  for (int b = 0; b < batch_; ++b) out[b] = random_bit(rng_, legal_bits[b]);
}

}  // namespace toguz::rl
