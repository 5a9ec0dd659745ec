// A batch of B games stepped together, for reinforcement learning from Python. The
// observation buffers are owned here and laid out row-major so that NumPy arrays can view
// them without copies; they are allocated once and never move.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "rules/position.h"
#include "rules/random.h"

namespace toguz::rl {

// SplitMix64: tiny, fast and the same on every platform, so a seed means the same games
// everywhere (std::uniform_int_distribution is not portable across standard libraries).
struct SplitMix64 {
  uint64_t state = 0;
  uint64_t next() { return splitmix64(state); }
  // Uniform in [0, bound) (Lemire's multiply-shift; the bias is below 2^-56 for bound <= 9).
  uint32_t below(uint32_t bound) { return uint32_t((unsigned __int128)next() * bound >> 64); }
};

// A fixed set of threads that share out one job at a time: run(chunks, job) calls job(c)
// once for every c in 0..chunks-1, each call on whichever thread claims c first (the caller
// takes part), and returns when all have returned. Thread t (the caller is 0) first claims
// the chunks of its own block, the t-th of size() equal runs of chunks, then helps with the
// others': the same games stay on the same core from step to step (their data in its cache)
// unless a thread falls behind. Between runs the workers poll for a bounded time (kSpinNs:
// the next step usually follows within microseconds, and waking a sleeping thread costs more
// than a step's share; see spin_until), then sleep, so an idle pool costs no CPU; a run wakes
// sleepers only when there are some (no system call while they poll).
class StepPool {
 public:
  explicit StepPool(int size);  // size-1 workers besides the caller
  ~StepPool();
  StepPool(const StepPool&) = delete;
  StepPool& operator=(const StepPool&) = delete;

  int size() const { return int(workers_.size()) + 1; }
  void run(int chunks, const std::function<void(int)>& job);

  // How long a waiting thread polls before it sleeps.
  static constexpr int64_t kSpinNs = 100'000;

 private:
  void work(int self);
  // Claims and runs chunks of run `generation`, its own block first, until none is left (or
  // a newer run started).
  void take_chunks(uint32_t generation, int self);

  // Speed: every word that one thread writes while another polls it sits on its own cache
  // line, so that polling does not pull the others' lines away.
  struct alignas(64) Block {
    std::atomic<uint64_t> claim{0};  // run number << 32 | chunks of this block claimed
    std::atomic<int> lo{0}, hi{0};   // its chunks (set by run() before it publishes)
  };
  std::vector<std::thread> workers_;
  std::unique_ptr<Block[]> blocks_;                  // one per thread
  alignas(64) std::atomic<uint32_t> generation_{0};  // the run number; workers poll it
  std::atomic<const std::function<void(int)>*> job_{nullptr};
  std::atomic<int> chunks_{0};
  std::atomic<bool> stop_{false};
  alignas(64) std::atomic<int> finished_{0};  // chunks of this run done
  std::atomic<bool> caller_sleeping_{false};  // run() waits on finished_: notify it
  alignas(64) std::atomic<int> sleepers_{0};  // workers asleep on generation_ (or about to be)
};

class VecEnv {
 public:
  // `batch` >= 1 games under `rules`, all at the start (after `random_start_plies` random
  // plies each, from `seed`). step() runs on `threads` >= 1 threads (the caller and
  // threads-1 workers, fewer for small batches); results do not depend on the thread count.
  VecEnv(int batch, const Rules& rules, uint64_t seed, int random_start_plies, int threads = 1);

  int batch() const { return batch_; }
  int n() const { return n_; }
  const Rules& rules() const { return rules_; }
  int random_start_plies() const { return random_start_plies_; }
  // Games per chunk of work for the threads (a multiple of 8: chunks own whole cache lines of
  // the byte buffers).
  static constexpr int kChunk = 64;
  // Threads step() uses (1: the caller alone).
  int threads() const { return pool_ ? pool_->size() : 1; }

  // Every game back to a start; the RNG restarts from `seed`. Rewards and done flags cleared.
  void reset(uint64_t seed);
  // Index of the first game whose action (0-based hole index) is not legal, -1 if all are.
  int first_illegal(const int64_t* actions) const;
  // Why action `a` is illegal in game `b` (for the error message).
  std::string illegal_reason(int b, int64_t a) const;
  // Plays actions[b] (0-based hole index, legal: check first_illegal first) in every game.
  // After: reward/done/winner/final_score/episode_length describe this step; a finished game
  // is already replaced by a new one (its observation is the new game's start). The moves
  // are split over the threads. With random start plies the finished games restart
  // afterwards on the calling thread, in slot order, so the RNG is drawn in the same order
  // whatever the thread count; without, a restart draws nothing and each thread restarts the
  // games it finished at once.
  void step(const int64_t* actions);
  // A uniformly random legal action for every game, from the batch's RNG. (When step() drew
  // them ahead, see there, they are copied: the same values, the RNG advanced alike.)
  void random_actions(int64_t* out);

  const Position& position(int b) const { return slots_[b].pos; }
  int ply(int b) const { return slots_[b].ply; }

  // The buffers the NumPy views show (shapes in the comments; row-major).
  std::vector<int32_t> holes;        // [B, 2, N] stones; a tuz holds 0
  std::vector<int32_t> kaznas;       // [B, 2]
  std::vector<int8_t> tuz;           // [B, 2, N] 1 where hole i+1 of row s is a tuz (owned by 1-s)
  std::vector<int8_t> side_to_move;  // [B] 0 = White, 1 = Black
  std::vector<uint8_t> legal;        // [B, N] bool: action i (hole i+1) is legal
  std::vector<uint32_t> legal_bits;  // [B] the same as bits: bit i set when action i is legal
  std::vector<float> reward;   // [B] last step: +1/0/-1 for the player who moved, at the end only
  std::vector<uint8_t> done;   // [B] bool: last step ended the game (it was reset)
  std::vector<int8_t> winner;  // [B] where done: 0 White, 1 Black, -1 draw; else -2
  std::vector<int32_t> final_score;     // [B, 2] where done: the finished game's totals
  std::vector<int32_t> episode_length;  // [B] where done: plies of the finished game
  std::vector<int32_t> plies;           // [B] plies played in the current game

  // Set while step() runs without the GIL: a second caller is refused instead of racing.
  std::atomic<bool> busy{false};

 private:
  // One position of the repetition window: its key and its board. The window holds every
  // position since the kaznas last changed, one per ply, so the side to move alternates
  // along it, and no tuz exists in it (it is only kept while none does).
  struct Seen {
    uint64_t key;
    uint8_t board[Position::kMaxHoles];
  };
  struct Slot {
    Position pos;
    int ply = 0;
    // Positions since the kaznas last changed (only kept while no tuz exists): kaznas never
    // shrink and a tuz never goes away, so only these can repeat the current position.
    std::vector<Seen> window;
    uint64_t window_bits = 0;        // a Bloom filter of the window's keys (see remember)
    int8_t shown_tuz[2] = {-1, -1};  // the tuz indices the tuz buffer shows for this game
  };
  void start_game(int b);
  // start_game(b) for the games lo..hi-1 whose done flag is set, in slot order.
  void restart_finished(int lo, int hi);
  // When this step draws ahead (prefetch_): the random action of game b, whose mover's legal
  // holes are `mask`, as random_actions() would draw it next.
  void draw_ahead(int b, uint32_t mask);
  // What settle() needs to know about the position before the move.
  struct Played {
    Side mover;
    uint8_t kazna_white, kazna_black;
  };
  // Plays `hole` (legal) in the slot and returns how the game stands, repetition included;
  // *mask = the legal mask of the side now to move. advance = play, then settle.
  static Outcome advance(Slot& slot, int hole, uint32_t* mask);
  static Played play(Slot& slot, int hole);
  static Outcome settle(Slot& slot, const Played& played, uint32_t* mask);
  // Appends slot.pos to its window (cleared first when `kaznas_changed`); false when no
  // earlier position of the window can equal it (then repetitions() is 1).
  static bool remember(Slot& slot, bool kaznas_changed);
  // Occurrences of slot.pos (the window's last entry) among the window, itself included.
  static int repetitions(const Slot& slot);
  // Writes slot b's observation (its position, legal mask `mask`) into the buffers.
  void write_observation(int b, uint32_t mask);
  template <int N>
  void write_observation_n(int b, uint32_t mask);
  // Settles game b after play() (rewards, end, observation); a finished game gets done = 1.
  template <int N>
  void finish(int b, const Played& played);
  // step() for the games lo..hi-1; finished games get done = 1 and are restarted here only
  // without random start plies (a restart then draws nothing from rng_).
  template <int N>
  void step_range(const int64_t* actions, int lo, int hi);
  void step_range(const int64_t* actions, int lo, int hi);

  int batch_, n_;
  Rules rules_;
  int random_start_plies_;
  SplitMix64 rng_;
  std::vector<Slot> slots_;
  Position start_;                  // Position::start(rules_), copied at every restart
  std::unique_ptr<StepPool> pool_;  // null when stepping on the caller alone
  int chunk_games_ = kChunk;        // games per chunk of step() on the pool
  // The random actions step() drew ahead for random_actions() (see step).
  std::vector<int64_t> next_actions_;
  // random_actions() was called since the last step or reset: it returned a copy of
  // next_actions_, legal in the present positions, so first_illegal() passes actions equal to
  // them; and the next step draws ahead (prefetch_).
  bool sampler_used_ = false;
  // The last step filled next_actions_ with the draws from prefetch_state_ (set by step()
  // before it plays; cleared by random_actions() and reset()).
  bool prefetch_ = false;
  uint64_t prefetch_state_ = 0;  // rng_.state when the step began
};

}  // namespace toguz::rl
