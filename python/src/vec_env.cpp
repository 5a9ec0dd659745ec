// VecEnv: B games stepped at once for reinforcement learning (vec_env.h, docs/python.md).
// step() plays one move in every game, finishes each game's move (end checks, repetition
// window, observation rows, reward) a few games later so the freshly stored board is not read
// back at once, then restarts finished games; the observation buffers are written in place
// and viewed by NumPy without copies. With num_threads > 1 the games are split into chunks
// that a small pool (StepPool, below) runs on the caller's thread and its workers; every
// random draw comes from one seeded generator in slot order, so a seed gives the same games
// whatever the thread count. Speed matters here (it bounds the env's steps per second); the
// comments marked "Speed" give the reason for each choice, docs/python.md the figures.
#include "vec_env.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The per-game steps of step() are inlined into its loop (saves a call and its register
// saves per function and game; a few percent of a step).
#if defined(__GNUC__)
#define TOGUZ_HOT_INLINE [[gnu::always_inline]] inline
#else
#define TOGUZ_HOT_INLINE inline
#endif

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
int random_bit(SplitMix64& rng, uint32_t mask) {
  return kBits.kth[mask][rng.below(kBits.count[mask])];
}

// SplitMix64's increment: its state after k draws from s is s + k * kGolden.
constexpr uint64_t kGolden = [] {
  uint64_t state = 0;
  splitmix64(state);
  return state;
}();

// random_bit() as the draw after `draws` earlier ones from state `state` would give it (the
// generator's k-th value depends on its start and k alone).
int random_bit_at(uint64_t state, uint64_t draws, uint32_t mask) {
  SplitMix64 rng{state + draws * kGolden};
  return random_bit(rng, mask);
}

}  // namespace

StepPool::StepPool(int size) : blocks_(new Block[size_t(size)]) {
  for (int t = 1; t < size; ++t) workers_.emplace_back([this, t] { work(t); });
}

StepPool::~StepPool() {
  stop_.store(true);
  generation_.fetch_add(1);
  generation_.notify_all();
  for (std::thread& w : workers_) w.join();
}

namespace {
inline void cpu_relax() {
#if defined(__SSE2__)
  _mm_pause();
#endif
}

// Polls `ready` for at most StepPool::kSpinNs; true once it holds, false when the time ran
// out first (then the caller sleeps). The first polls pause in between, the later ones yield
// the CPU: when the scheduler has put two of the pool's threads on one CPU (the other CPU
// busy), the waiting one then lets the working one run instead of taking turns with it
// (which makes a step slower than on one thread); alone on its CPU a yield returns at once.
template <typename Ready>
bool spin_until(Ready ready) {
  constexpr int kPauses = 64;
  for (int i = 0; i < kPauses; ++i) {
    if (ready()) return true;
    cpu_relax();
  }
  const auto start = std::chrono::steady_clock::now();
  for (int i = 1;; ++i) {
    if (ready()) return true;
    std::this_thread::yield();
    // The clock every 8 polls only.
    if (i % 8 == 0 &&
        std::chrono::steady_clock::now() - start > std::chrono::nanoseconds(StepPool::kSpinNs))
      return false;
  }
}
}  // namespace

void StepPool::run(int chunks, const std::function<void(int)>& job) {
  const int threads = size();
  const uint32_t generation = generation_.load(std::memory_order_relaxed) + 1;
  job_.store(&job, std::memory_order_relaxed);
  chunks_.store(chunks, std::memory_order_relaxed);
  finished_.store(0, std::memory_order_relaxed);
  for (int t = 0; t < threads; ++t) {
    blocks_[t].lo.store(int(int64_t(chunks) * t / threads), std::memory_order_relaxed);
    blocks_[t].hi.store(int(int64_t(chunks) * (t + 1) / threads), std::memory_order_relaxed);
    blocks_[t].claim.store(uint64_t(generation) << 32, std::memory_order_relaxed);
  }
  // seq_cst store, then the sleeper count: a worker that counted itself as a sleeper either
  // is seen here or sees the new generation before it sleeps (the wait compares first).
  generation_.store(generation);
  if (sleepers_.load() > 0) generation_.notify_all();
  take_chunks(generation, 0);
  if (!spin_until([&] { return finished_.load(std::memory_order_acquire) == chunks; })) {
    caller_sleeping_.store(true);  // seq_cst: pairs with the workers' finished_ increment
    for (int done; (done = finished_.load()) != chunks;)
      finished_.wait(done, std::memory_order_acquire);
    caller_sleeping_.store(false, std::memory_order_relaxed);
  }
}

void StepPool::take_chunks(uint32_t generation, int self) {
  const int threads = size();
  for (int k = 0; k < threads; ++k) {
    Block& block = blocks_[(self + k) % threads];
    uint64_t s = block.claim.load(std::memory_order_acquire);
    for (;;) {
      // A claim succeeds only while the generation is this one: run() cannot return (and
      // the job and blocks cannot change) before every claimed chunk is finished.
      if (uint32_t(s >> 32) != generation) return;
      const int c = block.lo.load(std::memory_order_relaxed) + int(uint32_t(s));
      if (c >= block.hi.load(std::memory_order_relaxed)) break;
      if (!block.claim.compare_exchange_weak(s, s + 1, std::memory_order_acq_rel,
                                             std::memory_order_acquire))
        continue;
      const int chunks = chunks_.load(std::memory_order_relaxed);
      (*job_.load(std::memory_order_relaxed))(c);
      // seq_cst: the caller either sees this count or is seen asleep here.
      if (finished_.fetch_add(1) + 1 == chunks && caller_sleeping_.load()) finished_.notify_one();
      s = block.claim.load(std::memory_order_acquire);
    }
  }
}

void StepPool::work(int self) {
  uint32_t seen = 0;
  for (;;) {
    uint32_t generation = 0;
    const auto fresh = [&] {
      generation = generation_.load(std::memory_order_acquire);
      return generation != seen;
    };
    if (!spin_until(fresh)) {
      sleepers_.fetch_add(1);  // seq_cst, then generation_ seq_cst: see run()
      while (generation_.load() == seen) generation_.wait(seen, std::memory_order_acquire);
      sleepers_.fetch_sub(1, std::memory_order_relaxed);
      generation = generation_.load(std::memory_order_acquire);
    }
    if (stop_.load()) return;
    seen = generation;
    take_chunks(generation, self);
  }
}

VecEnv::VecEnv(int batch, const Rules& rules, uint64_t seed, int random_start_plies, int threads)
    : batch_(batch),
      n_(rules.n),
      rules_(rules),
      random_start_plies_(random_start_plies),
      start_(Position::start(rules)) {
  if (batch < 1) throw std::invalid_argument("batch must be at least 1");
  if (random_start_plies < 0) throw std::invalid_argument("random_start_plies must be >= 0");
  if (threads < 1) throw std::invalid_argument("threads must be at least 1");
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
  next_actions_.assign(b, 0);
  slots_.resize(b);
  // A thread per chunk at most: below that, waking it costs more than the moves it would play.
  threads = std::min(threads, std::max(1, batch / kChunk));
  if (threads > 1) pool_ = std::make_unique<StepPool>(threads);
  // About four chunks per thread, whole multiples of kChunk: few enough that claiming them
  // costs little, enough that a thread the machine holds up leaves its share to the others.
  chunk_games_ = kChunk * std::max(1, batch / (kChunk * 4 * threads));
  reset(seed);
}

void VecEnv::reset(uint64_t seed) {
  rng_.state = seed;
  prefetch_ = false;
  sampler_used_ = false;
  for (int b = 0; b < batch_; ++b) {
    start_game(b);
    reward[b] = 0.0f;
    done[b] = 0;
    winner[b] = -2;
    final_score[2 * b] = final_score[2 * b + 1] = 0;
    episode_length[b] = 0;
  }
}

TOGUZ_HOT_INLINE bool VecEnv::remember(Slot& slot, bool kaznas_changed) {
  if (kaznas_changed) {
    slot.window.clear();
    slot.window_bits = 0;
  }
  Seen& s = slot.window.emplace_back();
  s.key = slot.pos.key();
  std::memcpy(s.board, slot.pos.hole_counts(), sizeof s.board);
  // Two bits of the key in a 64-bit filter: when either was not set yet, no earlier position
  // of the window has this key.
  const uint64_t bits = uint64_t(1) << (s.key & 63) | uint64_t(1) << (s.key >> 58);
  const bool maybe = (slot.window_bits & bits) == bits;
  slot.window_bits |= bits;
  return maybe;
}

int VecEnv::repetitions(const Slot& slot) {
  const int size = int(slot.window.size());
  const Seen& now = slot.window[size - 1];
  const size_t bytes = size_t(2 * slot.pos.n());
  int count = 1;
  // Speed: the positions with the same side to move are 2, 4, ... plies back, with the same
  // kaznas and no tuz (see Seen); keys first, the boards compared only when they match.
  for (int i = size - 3; i >= 0; i -= 2) {
    const Seen& s = slot.window[i];
    count += s.key == now.key && std::memcmp(s.board, now.board, bytes) == 0;
  }
  return count;
}

void VecEnv::start_game(int b) {
  Slot& slot = slots_[b];
  uint32_t mask = 0;
  // Random opening plies: a line that ends the game before its last ply is thrown away and
  // drawn again (after 100 such lines the plain start is used).
  for (int attempt = 0;; ++attempt) {
    slot.pos = start_;  // Speed: a copy, not Position::start() (its hash) at every restart
    slot.ply = 0;
    remember(slot, true);  // the start: no repetition yet
    mask = slot.pos.legal_mask();
    if (attempt >= 100) break;
    bool ended = false;
    for (int i = 0; i < random_start_plies_ && !ended; ++i) {
      ended = advance(slot, random_bit(rng_, mask) + 1, &mask) != Outcome::Ongoing;
    }
    if (!ended) break;
  }
  plies[b] = slot.ply;
  write_observation(b, mask);
}

Outcome VecEnv::advance(Slot& slot, int hole, uint32_t* mask) {
  const Played played = play(slot, hole);
  return settle(slot, played, mask);
}

VecEnv::Played VecEnv::play(Slot& slot, int hole) {
  Played p{slot.pos.side_to_move(), uint8_t(slot.pos.kazna(Side::White)),
           uint8_t(slot.pos.kazna(Side::Black))};
  slot.pos.play(hole);
  ++slot.ply;
  return p;
}

TOGUZ_HOT_INLINE Outcome VecEnv::settle(Slot& slot, const Played& played, uint32_t* mask) {
  const Position& pos = slot.pos;
  // pos.outcome() spelled out, so that the legal mask is computed once for the end check and
  // the observation.
  *mask = pos.legal_mask();
  if (pos.decided()) return Outcome::Decided;
  if (*mask == 0) return Outcome::NoMove;
  if (pos.any_tuz()) return Outcome::Ongoing;  // no position can recur once a tuz exists
  const bool maybe = remember(slot, pos.kazna(Side::White) != played.kazna_white ||
                                        pos.kazna(Side::Black) != played.kazna_black);
  return maybe && repetitions(slot) >= 3 ? Outcome::Repetition : Outcome::Ongoing;
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

void VecEnv::write_observation(int b, uint32_t mask) {
  switch (n_) {
    case 9:
      return write_observation_n<9>(b, mask);
    case 7:
      return write_observation_n<7>(b, mask);
    default:
      return write_observation_n<5>(b, mask);
  }
}

// Every copy below has a constant size (one instance per row length); this runs once per
// game and step, as often as play(). Nothing is written outside game b's rows (other
// threads write the neighbouring games).
template <int N>
TOGUZ_HOT_INLINE void VecEnv::write_observation_n(int b, uint32_t mask) {
  constexpr int kHoles = 2 * N;
  const Position& pos = slots_[b].pos;
  const uint8_t* board = pos.hole_counts();  // White's holes, then Black's: the [2, N] order
  int32_t* h = &holes[size_t(b) * kHoles];
#if defined(__SSE2__)
  // The 16 first hole counts widened to int32 in registers.
  __m128i bytes;
  std::memcpy(&bytes, board, 16);  // board holds kMaxHoles = 18 bytes
  const __m128i zero = _mm_setzero_si128();
  const __m128i words_lo = _mm_unpacklo_epi8(bytes, zero),
                words_hi = _mm_unpackhi_epi8(bytes, zero);
  const __m128i ints[4] = {_mm_unpacklo_epi16(words_lo, zero), _mm_unpackhi_epi16(words_lo, zero),
                           _mm_unpacklo_epi16(words_hi, zero), _mm_unpackhi_epi16(words_hi, zero)};
  constexpr int kFull = kHoles / 4;  // whole groups of four holes
  static_assert(kHoles - 4 * kFull == 2, "2N = 4k + 2 for N = 5, 7, 9");
  for (int i = 0; i < kFull; ++i) _mm_storeu_si128(reinterpret_cast<__m128i*>(h + 4 * i), ints[i]);
  // The last two holes in one 8-byte store (the stores are what this function spends).
  const uint64_t last = uint64_t(board[kHoles - 2]) | uint64_t(board[kHoles - 1]) << 32;
  std::memcpy(h + kHoles - 2, &last, 8);
#else
  for (int i = 0; i < kHoles; ++i) h[i] = board[i];
#endif
  // The tuz row only when a tuz appeared or the game restarted (at most three times a game).
  const int8_t tuz_w = int8_t(pos.tuz_index(Side::White)),
               tuz_b = int8_t(pos.tuz_index(Side::Black));
  Slot& slot = slots_[b];
  if (tuz_w != slot.shown_tuz[0] || tuz_b != slot.shown_tuz[1]) {
    int8_t* t = &tuz[size_t(b) * kHoles];
    std::memset(t, 0, kHoles);
    if (tuz_w >= 0) t[tuz_w] = 1;
    if (tuz_b >= 0) t[tuz_b] = 1;
    slot.shown_tuz[0] = tuz_w;
    slot.shown_tuz[1] = tuz_b;
  }
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  // Both kaznas in one store (int32 White, then Black).
  const uint64_t both =
      uint64_t(uint32_t(pos.kazna(Side::White))) | uint64_t(uint32_t(pos.kazna(Side::Black))) << 32;
  std::memcpy(&kaznas[2 * size_t(b)], &both, 8);
#else
  kaznas[2 * b] = pos.kazna(Side::White);
  kaznas[2 * b + 1] = pos.kazna(Side::Black);
#endif
  side_to_move[b] = int8_t(pos.side_to_move());
  legal_bits[b] = mask;
  // Speed: from registers, not through a buffer on the stack (a 16-byte store read back in
  // parts waits for store forwarding).
  const uint64_t low = kSpread.v[mask & 0xFF];
  uint8_t* l = &legal[size_t(b) * N];
  if constexpr (N > 8) {
    std::memcpy(l, &low, 8);
    l[8] = uint8_t(mask >> 8 & 1);
  } else {
    std::memcpy(l, &low, N);
  }
}

int VecEnv::first_illegal(const int64_t* actions) const {
  // Speed: the actions random_actions() returned, unchanged, are legal (they were drawn from
  // the present masks); comparing them is cheaper than testing each against its mask.
  if (sampler_used_ &&
      std::memcmp(actions, next_actions_.data(), sizeof(int64_t) * size_t(batch_)) == 0)
    return -1;
  // Then the whole batch without branches (it is legal unless the caller erred).
  uint32_t bad = 0;
  for (int b = 0; b < batch_; ++b) {
    const uint64_t a = uint64_t(actions[b]);  // negative ones become huge
    bad |= uint32_t(a >= uint64_t(n_)) | (~legal_bits[b] >> (a & 31) & 1);
  }
  if (!bad) return -1;
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
    if ((pos.legal_mask() >> i) & 1)
      legal_list += (legal_list.empty() ? "" : ", ") + std::to_string(i);
  std::string why = a < 0 || a >= n_ ? "out of range 0.." + std::to_string(n_ - 1)
                    : pos.tuz(opposite(pos.side_to_move())) == a + 1
                        ? "the hole is the opponent's tuz"
                        : "the hole is empty";
  return "illegal action " + std::to_string(a) + " in game " + std::to_string(b) + " (" + why +
         "); legal actions: " + legal_list;
}

TOGUZ_HOT_INLINE void VecEnv::draw_ahead(int b, uint32_t mask) {
  if (prefetch_) next_actions_[b] = random_bit_at(prefetch_state_, uint64_t(b), mask);
}

template <int N>
TOGUZ_HOT_INLINE void VecEnv::finish(int b, const Played& played) {
  Slot& slot = slots_[b];
  uint32_t mask;
  const Outcome how = settle(slot, played, &mask);
  if (how == Outcome::Ongoing) {
    // Speed: reward and winner are 0 and -2 wherever done is 0 (every writer keeps it so):
    // one load instead of three stores in the usual case.
    if (done[b]) {
      reward[b] = 0.0f;
      done[b] = 0;
      winner[b] = -2;
    }
    plies[b] = slot.ply;
    write_observation_n<N>(b, mask);
    draw_ahead(b, mask);
    return;
  }
  std::array<int, 2> score = slot.pos.final_score(how);
  int w = how == Outcome::Repetition || score[0] == score[1] ? -1 : score[0] > score[1] ? 0 : 1;
  reward[b] = w < 0 ? 0.0f : w == index(played.mover) ? 1.0f : -1.0f;
  done[b] = 1;
  winner[b] = int8_t(w);
  final_score[2 * b] = score[0];
  final_score[2 * b + 1] = score[1];
  episode_length[b] = slot.ply;
}

template <int N>
void VecEnv::step_range(const int64_t* actions, int lo, int hi) {
  // Speed: game b's move is finished (end checks, observation) after the moves of the next
  // kLag games are played. play() writes the board in a 16-byte and an 8-byte store, and
  // reading it back across both (the mover's row) stalls until they reach the cache (store
  // forwarding fails); a few hundred instructions later they have.
  constexpr int kLag = 2;
  Played pending[kLag] = {};
  for (int b = lo; b < hi; ++b) {
    if (b - lo >= kLag) finish<N>(b - kLag, pending[(b - lo) % kLag]);
    pending[(b - lo) % kLag] = play(slots_[b], int(actions[b]) + 1);
  }
  for (int b = std::max(lo, hi - kLag); b < hi; ++b) finish<N>(b, pending[(b - lo) % kLag]);
  // Without random start plies a restart draws nothing from rng_, so the thread that finished
  // the games restarts them, in any order. (Speed: here, not in finish(), where the call
  // slows the whole loop.)
  if (random_start_plies_ == 0) restart_finished(lo, hi);
}

void VecEnv::restart_finished(int lo, int hi) {
  for (int b = lo; b < hi; b += 8) {
    uint64_t any;  // eight done flags at once (most steps end few games)
    if (b + 8 <= hi) {
      std::memcpy(&any, &done[b], 8);
      if (!any) continue;
    }
    for (int i = b; i < std::min(b + 8, hi); ++i) {
      if (!done[i]) continue;
      start_game(i);
      draw_ahead(i, legal_bits[i]);
    }
  }
}

void VecEnv::step_range(const int64_t* actions, int lo, int hi) {
  switch (n_) {
    case 9:
      return step_range<9>(actions, lo, hi);
    case 7:
      return step_range<7>(actions, lo, hi);
    default:
      return step_range<5>(actions, lo, hi);
  }
}

void VecEnv::step(const int64_t* actions) {
  // Speed: after a step that random_actions() followed, this step also draws the next random
  // actions, game by game while the masks are at hand (and on the threads), as the sampler
  // would draw them from the generator's present state; random_actions() then copies them.
  // Only without random start plies: with them the restarts below draw first.
  prefetch_ = sampler_used_ && random_start_plies_ == 0;
  prefetch_state_ = rng_.state;
  sampler_used_ = false;
  if (!pool_) {
    step_range(actions, 0, batch_);
  } else {
    // Chunks taken in turn by whichever thread is free: on a loaded machine a thread that
    // is not running leaves its share to the others instead of holding up the step.
    const int chunks = (batch_ + chunk_games_ - 1) / chunk_games_;
    pool_->run(chunks, [&](int c) {
      step_range(actions, c * chunk_games_, std::min(batch_, (c + 1) * chunk_games_));
    });
  }
  // With random start plies the finished games restart here, in slot order (the plies draw
  // from rng_); without, step_range() restarted them.
  if (random_start_plies_ > 0) restart_finished(0, batch_);
}

void VecEnv::random_actions(int64_t* out) {
  if (prefetch_ && prefetch_state_ == rng_.state) {
    std::memcpy(out, next_actions_.data(), sizeof(int64_t) * size_t(batch_));
    rng_.state += uint64_t(batch_) * kGolden;  // the batch_ draws step() made in its stead
  } else {
    for (int b = 0; b < batch_; ++b) next_actions_[b] = random_bit(rng_, legal_bits[b]);
    std::memcpy(out, next_actions_.data(), sizeof(int64_t) * size_t(batch_));
  }
  prefetch_ = false;
  sampler_used_ = true;
}

}  // namespace toguz::rl
