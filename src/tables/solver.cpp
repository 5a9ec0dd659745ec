#include "tables/solver.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <new>
#include <thread>

#include <sys/mman.h>

#include "tables/tablebase.h"

namespace toguz::tables {

Position with_rules(const Position& pos, const Rules& rules) {
  int holes[2][Position::kMaxN] = {};
  for (int s = 0; s < 2; ++s)
    for (int h = 1; h <= pos.n(); ++h) holes[s][h - 1] = pos.stones(Side(s), h);
  int tuz[2] = {pos.tuz(Side::White), pos.tuz(Side::Black)};
  Position out;
  std::string why;
  bool ok = Position::from_parts(rules, holes, pos.kazna(Side::White), pos.kazna(Side::Black), tuz,
                                 pos.side_to_move(), pos.move_number(), &out, &why);
  return ok ? out : pos;
}

namespace {


// The table key: Position::key (holes, kaznas, tuzes, side; incremental, O(1)) in result
// mode; Position::board_key (the same without the kaznas) when `with_kaznas` is false.
inline uint64_t solver_key(const Position& p, bool with_kaznas) { return with_kaznas ? p.key() : p.board_key(); }

// Result mode: values -1/0/+1 under the position's rules (the "decided above N*N" stop
// included). Margin mode: final total minus the opponent's under play-out rules.
enum class Mode { Result, Margin };

constexpr int kInf = 1000;
constexpr int kProof = 255;
// Enhanced transposition cutoffs: with O(1) keys (Position::board_key) checking the children's
// stored bounds before searching any of them halves the nodes (study 6: 39 M -> 20 M).
constexpr bool kEtc = true;
enum Bound : uint8_t { kNone = 0, kLower = 1, kUpper = 2, kExact = 3 };

// One entry as the search reads it (a copy, checked against the key).
struct Entry {
  int16_t value = 0;
  uint8_t bound = kNone;
  int8_t move = 0;
  uint8_t depth = 0;  // plies searched below it; kProof: not cut by any depth limit
  uint8_t work = 0;   // log2 of the nodes searched below it
};

// Two 16-byte slots per bucket (one aligned half cache line); the one with less work behind it
// is replaced. Shared by the threads of a parallel solve without locks (as the engine's table,
// src/search/tt.h): a slot holds the key XOR the packed entry and the packed entry, read and
// written with relaxed atomics (plain moves on x86-64), so a slot torn by two threads writing
// at once no longer matches its key and reads as absent instead of as another position's entry.
class Table {
 public:
  // Anonymous mapping: the kernel hands out zero pages lazily (no 512 MB clearing pass at the
  // start) and may back it with huge pages, which cuts the TLB misses of random probes (the
  // probes dominate the solver's time).
  explicit Table(int log2) : mask_((size_t(1) << log2) - 2), bytes_(sizeof(Slot) << log2) {
    void* m = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    madvise(m, bytes_, MADV_HUGEPAGE);
#endif
    slots_ = static_cast<Slot*>(m);
  }
  ~Table() {
    munmap(slots_, bytes_);
  }
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;
  // Copies the entry of `key` into *out; false when there is none.
  bool find(uint64_t key, Entry* out) const {
    Slot* b = &slots_[key & mask_];
    for (int i = 0; i < 2; ++i) {
      uint64_t d = load(b[i].data);
      if ((load(b[i].check) ^ d) == key && (d >> 16 & 0xff) != kNone) {
        *out = unpack(d);
        return true;
      }
    }
    return false;
  }
  void store(uint64_t key, int value, Bound bound, int move, int depth, uint64_t work) {
    Slot* b = &slots_[key & mask_];
    uint64_t d0 = load(b[0].data), d1 = load(b[1].data);
    Slot* e = (load(b[0].check) ^ d0) == key           ? &b[0]
              : (load(b[1].check) ^ d1) == key         ? &b[1]
              : (d0 >> 40 & 0xff) <= (d1 >> 40 & 0xff) ? &b[0]
                                                       : &b[1];
    uint64_t d = uint64_t(uint16_t(value)) | uint64_t(bound) << 16 | uint64_t(uint8_t(move)) << 24 |
                 uint64_t(uint8_t(depth)) << 32 | uint64_t(64 - __builtin_clzll(work | 1)) << 40;
    std::atomic_ref<uint64_t>(e->check).store(key ^ d, std::memory_order_relaxed);
    std::atomic_ref<uint64_t>(e->data).store(d, std::memory_order_relaxed);
  }

 private:
  struct Slot {
    uint64_t check;  // key ^ data
    uint64_t data;   // packed Entry; 0 = empty
  };
  static uint64_t load(uint64_t& w) {
    return std::atomic_ref<uint64_t>(w).load(std::memory_order_relaxed);
  }
  static Entry unpack(uint64_t d) {
    return Entry{int16_t(uint16_t(d)), uint8_t(d >> 16), int8_t(uint8_t(d >> 24)), uint8_t(d >> 32),
                 uint8_t(d >> 40)};
  }
  size_t mask_;  // even: an index is the first of a bucket of two
  size_t bytes_;
  Slot* slots_ = nullptr;
};
static_assert(sizeof(uint64_t[2]) == 16);

struct Abort {};

// What the threads of one solve share besides the table: the nodes counted so far (added in
// steps of 4096 at each poll, so one thread's limit check sees the same counts as before) and
// the flag that stops the other threads once one has finished the current search.
struct Shared {
  std::atomic<uint64_t> polled_nodes{0};
  std::atomic<bool> done{false};
};

int sign(int v) { return (v > 0) - (v < 0); }

class Prover {
 public:
  Prover(const SolveOptions& o, Table* table, Shared* shared,
         std::chrono::steady_clock::time_point deadline, bool limited, int thread)
      : opt_(o),
        tt_(table),
        shared_(shared),
        deadline_(deadline),
        limited_(limited),
        thread_(thread) {}

  uint64_t nodes = 0;
  uint64_t table_hits = 0;
  std::vector<uint64_t> path_;  // Position::key of the ancestors of the node searched

  // Negamax alpha-beta, fail-soft.
  // Result mode: the value is -1/0/+1 under p's own rules (the stop above N*N included,
  //   repetition = draw); p must have no tuz for the search proper: with a tuz the result is
  //   the sign of the play-out margin, decided by null-window margin searches (whose table
  //   entries do not depend on the kaznas, so they serve every kazna split).
  // Margin mode: p has play-out rules; the value is the final margin.
  // Sets *rep when the value (or any child value it looked at) came from a repetition draw on
  // the path: such values depend on the path and are neither stored nor reported as margins.
  // `depth` > 0 limits the plies (iterative deepening, for move ordering): a node at depth 0
  // returns the kazna difference as a guess and sets horizon_; values that met no horizon are
  // proven and stored as such.
  int search(const Position& p, int alpha, int beta, bool* rep, Mode mode, int depth = kProof) {
    if ((++nodes & 4095) == 0) poll();
    Outcome o = p.outcome();
    Side me = p.side_to_move(), opp = opposite(me);
    if (o != Outcome::Ongoing) {
      auto sc = p.final_score(o);
      int d = sc[index(me)] - sc[index(opp)];
      return mode == Mode::Result ? sign(d) : d;
    }
    bool tuz = p.any_tuz();
    if (!tuz && repeats(p.key())) {
      *rep = true;
      return 0;
    }
    if (tuz && mode == Mode::Result) {
      Position po = p.rules().play_out ? p : with_rules(p, Rules{p.n(), true, true});
      if (alpha >= 0) return search(po, 0, 1, rep, Mode::Margin, depth) > 0 ? 1 : 0;
      if (beta <= 0) return search(po, -1, 0, rep, Mode::Margin, depth) < 0 ? -1 : 0;
      return null_window_sign(po, rep, Mode::Margin, depth);
    }
    int kd = p.kazna(me) - p.kazna(opp);
    int on_board = p.rules().total_stones() - p.kazna(me) - p.kazna(opp);
    if (!tuz && mode == Mode::Result) {
      // The final totals are the kaznas plus a split of the stones on the board, and a side wins
      // only above N*N (half the stones): a side whose kazna plus the board cannot pass N*N
      // cannot win, whatever the stop or a repetition makes of the game. (Study 5: without this
      // cut the proof and its line take more than 30 M nodes instead of 7 k.)
      int top = p.rules().decided_above();
      int lo = p.kazna(opp) + on_board > top ? -1 : 0, hi = p.kazna(me) + on_board > top ? 1 : 0;
      if (lo >= beta || lo == hi) return lo;
      if (hi <= alpha) return hi;
    }
    if (tuz) {
      // With a tuz the final totals are the kaznas plus a split of the stones on the board.
      if (opt_.tables) {
        int v;
        if (opt_.tables->probe(p, &v)) {
          ++table_hits;
          return kd + v;
        }
      }
      int lo = kd - on_board, hi = kd + on_board;
      if (lo >= beta || lo == hi) return lo;
      if (hi <= alpha) return hi;
    }
    if (depth <= 0) {
      horizon_ = true;
      // Result mode (no tuz) guesses a draw. The sign of the margin guess made every horizon a
      // win for the side ahead in kaznas, so its "win?" passes learnt nothing (study 5 not
      // proven in 120 s; with the draw guess the win is found through lines that make a tuz).
      if (mode == Mode::Result) return 0;
      return kd + board_guess(p);
    }
    // Margin mode keys leave the kaznas out (play-out values shift with them); values are then
    // stored relative to the kazna difference.
    uint64_t key = solver_key(p, mode == Mode::Result);
    int shift = mode == Mode::Margin ? kd : 0;
    int tt_move = 0;
    if (Entry te; tt_->find(key, &te)) {
      const Entry* e = &te;
      int v = e->value + shift;
      tt_move = e->move;
      if (e->depth >= std::min(depth, kProof)) {
      bool guess = e->depth < kProof;  // a depth-limited value: not a proof
      if (e->bound == kExact || (e->bound == kLower && v >= beta) || (e->bound == kUpper && v <= alpha)) {
        horizon_ = horizon_ || guess;
        return v;
      }
      if (guess) horizon_ = true;
      if (e->bound == kLower) alpha = std::max(alpha, v);
      if (e->bound == kUpper) beta = std::min(beta, v);
      }
    }

    // Children, ordered: table move, then by what the move gains at once.
    struct Child {
      Position pos;
      int hole;
      int order;
    };
    Child kids[Position::kMaxN];
    int count = 0;
    uint32_t mask = p.legal_mask();
    while (mask) {
      int h = __builtin_ctz(mask) + 1;
      mask &= mask - 1;
      Child& c = kids[count++];
      c.pos = p.after(h);
      c.hole = h;
      int gain = (c.pos.kazna(me) - p.kazna(me)) - (c.pos.kazna(opp) - p.kazna(opp));
      // Gain first; the cutoff history only breaks ties.
      int replies = __builtin_popcount(c.pos.legal_mask());
      c.order = h == tt_move ? 1 << 30
                : gain * (1 << 20) + mob_weight_ * (9 - replies) * (1 << 16) + std::min(history_[index(me)][h], (1 << 16) - 1);
    }
    // Enhanced transposition cutoff (margin mode): a child whose stored upper bound already
    // refutes it. Children with a tuz only: a tuz-free child may repeat the path.
    if (mode == Mode::Margin && kEtc)
      for (int i = 0; i < count; ++i) {
        const Position& c = kids[i].pos;
        if (!c.any_tuz() || c.outcome() != Outcome::Ongoing) continue;
        Entry te;
        const Entry* e = tt_->find(solver_key(c, false), &te) ? &te : nullptr;
        if (!e || !(e->bound & kUpper) || e->depth < std::min(depth - 1, kProof)) continue;
        int cv = e->value + (c.kazna(opp) - c.kazna(me));
        if (-cv >= beta) {
          horizon_ = horizon_ || e->depth < kProof;
          return -cv;
        }
      }
    // Insertion sort, highest order first, ties kept in hole order (at most 9 children; also
    // what std::sort did for so few, which GCC 12 warns about with a false -Warray-bounds).
    for (int i = 1; i < count; ++i)
      for (int j = i; j > 0 && kids[j - 1].order < kids[j].order; --j) std::swap(kids[j - 1], kids[j]);

    uint64_t start_nodes = nodes;
    int alpha0 = alpha;
    int best = -kInf, best_move = 0;
    bool my_rep = false;
    bool outer_horizon = horizon_;
    horizon_ = false;
    path_.push_back(p.key());
    // A lower bound (cutoff) rests on the cutoff child alone; an upper or exact bound on every
    // child. So only the children the bound rests on pass their repetition flag up: a win
    // proven past a refuted repetition draw is still stored.
    for (int i = 0; i < count; ++i) {
      bool child_rep = false;
      int v = -search(kids[i].pos, -beta, -std::max(alpha, best), &child_rep, mode, depth - 1);
      if (v >= beta) {
        best = v;
        best_move = kids[i].hole;
        my_rep = child_rep;
        history_[index(me)][best_move] += 1;
        break;
      }
      my_rep |= child_rep;
      if (v > best) {
        best = v;
        best_move = kids[i].hole;
      }
    }
    path_.pop_back();
    if (!my_rep) {
      Bound b = best <= alpha0 ? kUpper : best >= beta ? kLower : kExact;
      // A value that met a horizon is never marked proven, not even 255 plies below a search
      // without a depth limit (kProof): tuz-free lines can be that long.
      tt_->store(key, best - shift, b, best_move, horizon_ ? std::min(depth, kProof - 1) : kProof,
                 nodes - start_nodes);
    }
    horizon_ = horizon_ || outer_horizon;
    *rep |= my_rep;
    return best;
  }

  // The horizon guess of the mover's share of the board minus the opponent's, in stones: the
  // row difference plus 1.5 per non-empty hole more than the opponent (moves left; the
  // engine's eval has a mobility term too), rounded half away from zero. Tuned on the
  // studies' nodes to the proof (docs/tables.md): without the mobility term study 6 took
  // 12.5 M nodes and study 7 55.7 M, with it 8.3 M and 34.5 M.
  static int board_guess(const Position& p) {
    Side me = p.side_to_move(), opp = opposite(me);
    int mob = 0;
    for (int h = 1; h <= p.n(); ++h) mob += (p.stones(me, h) != 0) - (p.stones(opp, h) != 0);
    int e = 2 * (p.stones_on_row(me) - p.stones_on_row(opp)) + 3 * mob;
    return e >= 0 ? (e + 1) / 2 : -((-e + 1) / 2);
  }

  // The best move stored for `p` in `mode` (0: none); a result-mode position with a tuz is
  // searched in margin mode, under its board key.
  int stored_move(const Position& p, Mode mode) const {
    Entry e;
    return tt_->find(solver_key(p, mode == Mode::Result && !p.any_tuz()), &e) ? e.move : 0;
  }

  // The sign of p's value (the result, or the margin of a play-out position), by null-window
  // searches: "win?", then only if not "loss?". A won position never proves the exact draws
  // of its other moves.
  int null_window_sign(const Position& p, bool* rep, Mode mode, int depth = kProof) {
    if (search(p, 0, 1, rep, mode, depth) > 0) return 1;
    return search(p, -1, 0, rep, mode, depth) < 0 ? -1 : 0;
  }

 private:
  bool repeats(uint64_t key) const {
    for (auto it = path_.rbegin(); it != path_.rend(); ++it)
      if (*it == key) return true;
    for (uint64_t k : opt_.history)
      if (k == key) return true;
    return false;
  }
  void poll() {
    if (opt_.stop && opt_.stop->load(std::memory_order_relaxed)) throw Abort{};
    if (shared_->done.load(std::memory_order_relaxed)) throw Abort{};
    if (limited_ && std::chrono::steady_clock::now() >= deadline_) throw Abort{};
    uint64_t total = shared_->polled_nodes.fetch_add(4096, std::memory_order_relaxed) + 4096;
    if (opt_.max_nodes && total >= opt_.max_nodes) throw Abort{};
  }

  const SolveOptions& opt_;
  Table* tt_;
  Shared* shared_;
  std::chrono::steady_clock::time_point deadline_;
  bool limited_;

 public:
  const int thread_;  // 0: the main thread (first_depth)

 private:
  int history_[2][Position::kMaxN + 1] = {};

 public:
  bool horizon_ = false;  // a depth-limited node was met since it was last cleared
  // Ordering: fewer replies first, weighted by mob_weight_ (tuned on the studies).
  int mob_weight_ = 1;
};

// Walks from `root` (whose exact value in `mode` is `value`) down a line of children that keep
// the value, until the game ends under the root's own rules (`real`, played along) or a
// repetition closes the line.
std::vector<int> walk_line(Prover& pr, Position pos, Position real, int value, Mode mode,
                           const std::vector<uint64_t>& history) {
  std::vector<int> line;
  std::vector<uint64_t> keys;  // real keys along the line (for repetition and its completion)
  pr.path_.clear();
  for (int guard = 0; guard < 4000; ++guard) {
    if (real.outcome() != Outcome::Ongoing || pos.outcome() != Outcome::Ongoing) break;
    // A position repeated on the line: the draw is claimed at its third occurrence, so play the
    // cycle once more.
    if (!real.any_tuz()) {
      auto it = std::find(keys.begin(), keys.end(), real.key());
      if (it != keys.end()) {
        size_t from = size_t(it - keys.begin()), len = keys.size() - from;
        std::vector<int> cycle(line.end() - long(len), line.end());
        line.insert(line.end(), cycle.begin(), cycle.end());
        break;
      }
      if (std::find(history.begin(), history.end(), real.key()) != history.end()) break;
    }
    keys.push_back(real.key());
    pr.path_.push_back(pos.key());
    int chosen = 0;
    Position next;
    // The stored best move first: another move may be far harder to refute than to skip (study
    // 5 deepened by 3: the line took more than 160 M nodes in hole order, 30 with this).
    int first = pr.stored_move(pos, mode);
    uint32_t mask = pos.legal_mask();
    if (!(first > 0 && (mask >> (first - 1) & 1))) first = 0;
    int order[Position::kMaxN], count = 0;
    if (first) order[count++] = first;
    for (uint32_t m = mask; m; m &= m - 1)
      if (int h = __builtin_ctz(m) + 1; h != first) order[count++] = h;
    for (int i = 0; i < count; ++i) {
      int h = order[i];
      Position c = pos.after(h);
      bool rep = false;
      int target = -value;
      int v = -pr.search(c, target - 1, target + 1, &rep, mode);
      if (v == value) {
        chosen = h;
        next = c;
        break;
      }
    }
    if (!chosen) break;  // cannot happen when `value` is exact
    line.push_back(chosen);
    value = -value;
    pos = next;
    real.play(chosen);
  }
  pr.path_.clear();
  return line;
}

// Plays `line` from `root` after `history` and says whether the game ends with `result` for
// the root's side to move.
bool line_ends_with(const Position& root, const std::vector<int>& line, const std::vector<uint64_t>& history, int result) {
  Position p = root;
  std::vector<uint64_t> seen = history;
  for (int h : line) {
    if (p.outcome() != Outcome::Ongoing || !p.is_legal(h)) return false;
    seen.push_back(p.key());
    p.play(h);
  }
  Outcome o = p.outcome();
  int d;
  if (o == Outcome::Ongoing) {
    if (std::count(seen.begin(), seen.end(), p.key()) < 2) return false;
    d = 0;  // third occurrence: repetition draw
  } else {
    auto sc = p.final_score(o);
    Side me = root.side_to_move();
    d = sc[index(me)] - sc[index(opposite(me))];
  }
  return sign(d) == result;
}

// The first pass of thread t's iterative deepening (steps of `step` plies) towards the proof.
// Thread 0 deepens from 1; thread 1 runs the proof at once, without deepening, feeding the
// table with proven values while thread 0's passes order it; threads 2.. deepen from other
// depths. Study 6 / 7, nodes of the busier of two threads when the first proves (one thread:
// 8.33 M / 34.5 M): this 6.4-6.7 M / 15.7-18.5 M; both deepening from 1: 4.4 M / 186 M;
// thread 1 from 2: 4.4 M / 26-27 M (docs/tables.md, "Threads").
int first_depth(int thread, int step, bool tuz) {
  if (thread == 1 && tuz) return kProof;
  return 1 + (thread > 1 ? (thread - 1) % step : 0);
}

// Runs `f(prover)` once per prover, each on its own thread (the first on the calling thread),
// over the shared table: the first to return wins and stops the others (Lazy SMP; every value
// a search stores is proven or depth-tagged, so any finisher's answer is the proven one).
// Returns the winner's index, or -1 when every prover hit a limit (time, nodes, stop).
template <class F>
int run_parallel(std::vector<std::unique_ptr<Prover>>& provers, Shared& shared, F f) {
  std::atomic<int> winner{-1};
  shared.done.store(false);
  auto run = [&](size_t t) {
    Prover& pr = *provers[t];
    pr.path_.clear();  // an aborted search leaves its path behind
    try {
      f(pr);
      int none = -1;
      if (winner.compare_exchange_strong(none, int(t))) shared.done.store(true);
    } catch (const Abort&) {
    }
  };
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < provers.size(); ++t) helpers.emplace_back(run, t);
  run(0);
  for (auto& h : helpers) h.join();
  shared.done.store(false);
  return winner.load();
}

}  // namespace

Solution solve(const Position& root, const SolveOptions& options) {
  auto t0 = std::chrono::steady_clock::now();
  auto deadline = t0 + std::chrono::milliseconds(options.time_ms);
  bool limited = options.time_ms > 0;
  Solution sol;
  Table table(std::clamp(options.hash_log2, 10, 30));
  Shared shared;
  std::vector<std::unique_ptr<Prover>> provers;
  for (int t = 0; t < std::clamp(options.threads, 1, 64); ++t)
    provers.push_back(std::make_unique<Prover>(options, &table, &shared, deadline, limited, t));
  auto finish = [&] {
    for (auto& pr : provers) {
      sol.nodes += pr->nodes;
      sol.table_hits += pr->table_hits;
    }
    sol.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    return sol;
  };

  // 1. The result under the root's rules (3-valued; with a tuz, the sign of the margin).
  // Iterative deepening: shallow searches fill the table with good first moves; the first
  // iteration that meets no horizon is the proof.
  // Depths 1, 4, 7, ...: steps of 3 plies cost fewer repeated passes than steps of 1 and
  // still order well (study 6: 12.6 M nodes instead of 19.9 M; measured in docs/tables.md).
  // A root without a tuz steps by 2 (study 5: 7 k nodes; steps of 3: 36.8 M).
  // Each pass asks "win?" and, only if not, "loss?" (null_window_sign, as below a tuz).
  const int step = root.any_tuz() ? 3 : 2;
  std::vector<int> results(provers.size());
  int w = run_parallel(provers, shared, [&](Prover& pr) {
    for (int depth = first_depth(pr.thread_, step, root.any_tuz());; depth += step) {
      bool rep = false;
      pr.horizon_ = false;
      results[size_t(pr.thread_)] =
          pr.null_window_sign(root, &rep, Mode::Result, std::min(depth, kProof));
      if (!pr.horizon_) break;
    }
  });
  if (w < 0) return finish();
  sol.result = results[size_t(w)];
  sol.proven = true;
  Prover& pr = *provers[size_t(w)];
  try {
    sol.line = walk_line(pr, root, root, sol.result, Mode::Result, options.history);
  } catch (const Abort&) {
    sol.line_cut = true;  // proven, but the limit came before the line was walked
    return finish();
  }

  // 2. The play-out margin by MTD(f): null-window searches that close in on it, starting from
  //    what the result says when a tuz makes the two agree. The table keeps its entries.
  if (options.want_margin) {
    Position po = with_rules(root, Rules{root.n(), root.rules().tuz, true});
    int total = root.rules().total_stones();
    int lower = -total, upper = total;  // the margin lies in [lower, upper]
    if (root.any_tuz() && !root.rules().play_out) {
      if (sol.result > 0) lower = 1;
      if (sol.result < 0) upper = -1;
      if (sol.result == 0) lower = upper = 0;
    }
    // One margin search over all threads: the first value, and whether it rests on a
    // repetition; false when a limit was hit.
    std::vector<int> values(provers.size());
    std::vector<char> reps(provers.size());
    auto searched = [&](int a, int b, int* v, bool* rep) {
      int win = run_parallel(provers, shared, [&](Prover& p) {
        bool r = false;
        values[size_t(p.thread_)] = p.search(po, a, b, &r, Mode::Margin);
        reps[size_t(p.thread_)] = r;
      });
      if (win < 0) return false;
      *v = values[size_t(win)];
      *rep = *rep || reps[size_t(win)];
      return true;
    };
    bool rep = false, cut = false;
    int guess = sol.result > 0 ? lower : sol.result < 0 ? upper : 0;
    while (lower < upper && !rep) {
      const int beta = guess == lower ? guess + 1 : guess;
      int v;
      if (!searched(beta - 1, beta, &v, &rep)) {
        cut = true;
        break;
      }
      if (v < beta)
        upper = v;
      else
        lower = v;
      guess = v;
    }
    // One exact search confirms it (and covers a draw proven without any search).
    int v = 0;
    if (!cut && !rep && lower == upper && !searched(lower - 1, lower + 1, &v, &rep)) cut = true;
    if (!cut && !rep && lower == upper && v == lower) {
      sol.margin = v;
      try {
        std::vector<int> l = walk_line(pr, po, root, v, Mode::Margin, options.history);
        if (line_ends_with(root, l, options.history, sol.result)) sol.line = l;
      } catch (const Abort&) {
        cut = true;
      }
    }
    sol.margin_needs_repetition = rep;
    sol.margin_timed_out = cut;
  }
  return finish();
}

}  // namespace toguz::tables
