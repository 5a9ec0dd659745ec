#include "tables/solver.h"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <new>
#include <thread>

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
inline uint64_t solver_key(const Position& p, bool with_kaznas) {
  return with_kaznas ? p.key() : p.board_key();
}

// Result mode: values -1/0/+1 under the position's rules (the "decided above N*N" stop
// included). Margin mode: final total minus the opponent's under play-out rules.
enum class Mode { Result, Margin };

constexpr int kInf = 1000;
constexpr int kProof = 255;

// One entry as the search reads it: proven bounds lo <= value <= hi (a margin-mode entry holds
// them relative to the kazna difference, so one entry answers every split of the kaznas: with
// a tuz the margin is the kazna difference plus a function of the board), searched to `depth`
// plies (kProof: no depth limit, final).
struct Entry {
  int lo = -kInf, hi = kInf;
  int move = 0;
  int depth = 0;
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
  // `grow`: start with 2^16 slots of the mapping and double (in place) whenever half of them
  // are in use, so a solve touches (and the kernel zeroes) only what it needs: zeroing the pages
  // of a 512 MB table took longer than most 12-18-stone proofs. (Doubling at a quarter: 7% fewer
  // nodes on the 12-18-stone set's results, but twice the memory, and the page faults made its
  // slowest position twice as slow.) Growing is for one thread only; with several the whole table
  // is used from the start.
  Table(int log2, bool grow)
      : mask_((size_t(1) << (grow ? std::min(log2, 16) : log2)) - 2),
        max_mask_((size_t(1) << log2) - 2),
        bytes_(sizeof(Slot) << log2) {
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
  // Starts loading the bucket of `key` into the cache (a child's entry, probed soon after).
  void prefetch(uint64_t key) const {
    __builtin_prefetch(&slots_[key & mask_]);
  }
  // Copies the entry of `key` into *out; false when there is none.
  bool find(uint64_t key, Entry* out) const {
    Slot* b = &slots_[key & mask_];
    for (int i = 0; i < 2; ++i) {
      uint64_t d = load(b[i].data);
      if (d && (load(b[i].check) ^ d) == key) {
        *out = unpack(d);
        return true;
      }
    }
    return false;
  }
  // Records lo <= value <= hi. An entry of the same depth is narrowed (both are proven facts
  // at that depth); a deeper search's entry replaces a shallower one, and a final entry is not
  // replaced by a depth-limited one.
  void store(uint64_t key, int lo, int hi, int move, int depth, uint64_t work) {
    Slot* b = &slots_[key & mask_];
    uint64_t d0 = load(b[0].data), d1 = load(b[1].data);
    bool m0 = d0 && (load(b[0].check) ^ d0) == key,
         m1 = !m0 && d1 && (load(b[1].check) ^ d1) == key;
    Slot* e = m0 ? &b[0] : m1 ? &b[1] : (d0 >> 56) <= (d1 >> 56) ? &b[0] : &b[1];
    uint64_t w = uint64_t(64 - __builtin_clzll(work | 1));
    if (m0 || m1) {
      Entry old = unpack(m0 ? d0 : d1);
      w = std::max(w, (m0 ? d0 : d1) >> 56);
      if (old.depth == depth) {
        lo = std::max(lo, old.lo);
        hi = std::min(hi, old.hi);
        if (!move) move = old.move;
      } else if (old.depth > depth) {
        return;
      }
    }
    lo = std::max(lo, -kInf);
    hi = std::min(hi, kInf);
    uint64_t d = uint64_t(uint16_t(int16_t(lo))) | uint64_t(uint16_t(int16_t(hi))) << 16 |
                 uint64_t(uint8_t(move)) << 32 | uint64_t(uint8_t(depth)) << 40 |
                 uint64_t(1) << 48 | w << 56;
    if (!(m0 || m1) && !load(e->data) && ++used_ > (mask_ + 2) / 2 && mask_ < max_mask_) {
      grow();
      store(key, lo, hi, move, depth, work);
      return;
    }
    std::atomic_ref<uint64_t>(e->check).store(key ^ d, std::memory_order_relaxed);
    std::atomic_ref<uint64_t>(e->data).store(d, std::memory_order_relaxed);
  }

 private:
  // Doubles the slots in use: a bucket's entries stay or move to the bucket one old size
  // above (the next key bit decides), which nothing has used yet.
  void grow() {
    size_t old = mask_ + 2;
    mask_ = 2 * old - 2;
    for (size_t i = 0; i < old; ++i) {
      Slot& s = slots_[i];
      if (s.data && ((s.check ^ s.data) & old)) {
        slots_[i + old] = s;
        s = Slot{0, 0};
      }
    }
  }

  struct Slot {
    uint64_t check;  // key ^ data
    uint64_t data;   // packed Entry (bit 48 set); 0 = empty
  };
  static uint64_t load(uint64_t& w) {
    return std::atomic_ref<uint64_t>(w).load(std::memory_order_relaxed);
  }
  static Entry unpack(uint64_t d) {
    return Entry{int16_t(uint16_t(d)), int16_t(uint16_t(d >> 16)), int(uint8_t(d >> 32)),
                 int(uint8_t(d >> 40))};
  }
  size_t mask_;  // even: an index is the first of a bucket of two
  size_t max_mask_;
  size_t bytes_;
  size_t used_ = 0;  // slots filled (counted while growing)
  Slot* slots_ = nullptr;
};

struct Abort {};
struct Restart {};  // a try of Prover::with_restarts ran out of nodes

// What the threads of one solve share besides the table: the nodes counted so far (added in
// steps of 4096 at each poll, so one thread's limit check sees the same counts as before) and
// the flag that stops the other threads once one has finished the current search.
struct Shared {
  std::atomic<uint64_t> polled_nodes{0};
  std::atomic<bool> done{false};
};

int sign(int v) {
  return (v > 0) - (v < 0);
}

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

  // Negamax alpha-beta, fail-soft, with no depth limit below a tuz.
  // Result mode: the value is -1/0/+1 under p's own rules (the stop above N*N included,
  //   repetition = draw). A node with a tuz is answered by null-window margin searches: with a
  //   tuz the result is the sign of the play-out margin (kaznas only grow, no repetition), and
  //   margin entries do not depend on the kaznas.
  // Margin mode: p has play-out rules; the value is the final margin.
  // Sets *rep when the value (or any child value it looked at) came from a repetition draw on
  // the path: such values depend on the path and are neither stored nor reported as margins.
  // `depth` < kProof limits the plies of tuz-free result-mode play (iterative deepening of a
  // tuz-free root): a node at depth 0 guesses a draw and sets horizon_; values that met no
  // horizon are final and stored as such.
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
      if (alpha >= 0) return search(po, 0, 1, rep, Mode::Margin) > 0 ? 1 : 0;
      if (beta <= 0) return search(po, -1, 0, rep, Mode::Margin) < 0 ? -1 : 0;
      return null_window_sign(po, rep, Mode::Margin);
    }
    int kd = p.kazna(me) - p.kazna(opp);
    int on_board = p.rules().total_stones() - p.kazna(me) - p.kazna(opp);
    int lo = -kInf, hi = kInf;  // bounds on the value known before searching the children
    if (!tuz && mode == Mode::Result) {
      // The final totals are the kaznas plus a split of the stones on the board, and a side wins
      // only above N*N (half the stones): a side whose kazna plus the board cannot pass N*N
      // cannot win, whatever the stop or a repetition makes of the game. (Study 5: without this
      // cut the proof and its line take more than 30 M nodes instead of 7 k.)
      int top = p.rules().decided_above();
      lo = p.kazna(opp) + on_board > top ? -1 : 0;
      hi = p.kazna(me) + on_board > top ? 1 : 0;
    } else if (tuz) {
      // With a tuz the final totals are the kaznas plus a split of the stones on the board.
      if (opt_.tables) {
        int v;
        if (opt_.tables->probe(p, &v)) {
          ++table_hits;
          return kd + v;
        }
      }
      lo = kd - on_board;
      hi = kd + on_board;
    }
    if (lo >= beta || lo == hi) return lo;
    if (hi <= alpha) return hi;
    if (depth <= 0) {
      // Only tuz-free result-mode play is depth-limited: guess a draw (the sign of a margin
      // guess made every horizon a win for the side ahead in kaznas, so the "win?" passes
      // learnt nothing).
      horizon_ = true;
      return 0;
    }
    // Margin mode keys leave the kaznas out (play-out values shift with them); values are then
    // stored relative to the kazna difference.
    const bool margin = mode == Mode::Margin;
    uint64_t key = solver_key(p, !margin);
    int shift = margin ? kd : 0;
    int tt_move = 0;
    if (Entry e; tt_->find(key, &e)) {
      tt_move = e.move;
      if (e.depth >= depth) {
        bool guess = e.depth < kProof;  // a depth-limited value: not final
        int elo = e.lo + shift, ehi = e.hi + shift;
        if (elo >= beta || ehi <= alpha || elo == ehi) {
          horizon_ = horizon_ || guess;
          return elo >= beta || elo == ehi ? elo : ehi;
        }
        if (guess) horizon_ = true;
        lo = std::max(lo, elo);
        hi = std::min(hi, ehi);
      }
    }
    alpha = std::max(alpha, lo);
    beta = std::min(beta, hi);

    // The children, each with what is known of its value for the mover without searching it:
    // a child that ends the game is exact; a child with a tuz (margin mode, or its sign in
    // result mode) is bounded by its kaznas and the board, and by its table entry (enhanced
    // transposition cutoffs). Tuz-free children may repeat the path: not bounded here.
    struct Child {
      Position pos;
      int hole;
      int order;
      int lo, hi;  // bounds on its value for the mover
    };
    Child kids[Position::kMaxN];
    int count = 0;
    int best_hi = -kInf;  // the most any child can give
    // Every child is made first and its bucket fetched, so the table probes below (random
    // addresses in a table of up to 512 MB) wait for memory about once per node instead of
    // once per child.
    for (uint32_t m = p.legal_mask(); m; m &= m - 1) {
      Child& c = kids[count++];
      c.hole = __builtin_ctz(m) + 1;
      c.pos = p.after(c.hole);
      if (c.pos.any_tuz()) tt_->prefetch(c.pos.board_key());
    }
    for (int i = 0; i < count; ++i) {
      Child& c = kids[i];
      const int h = c.hole;
      c.lo = -kInf;
      c.hi = kInf;
      const Position& cp = c.pos;
      uint32_t replies = cp.legal_mask();
      int gain = (cp.kazna(me) - p.kazna(me)) - (cp.kazna(opp) - p.kazna(opp));
      if (!replies || cp.decided()) {
        auto sc = cp.final_score(cp.outcome());
        int d = sc[index(me)] - sc[index(opp)];
        c.lo = c.hi = margin ? d : sign(d);
      } else if (cp.any_tuz()) {
        int ckd = -(kd + gain);  // the child's own kazna difference and bounds
        int con_board = cp.rules().total_stones() - cp.kazna(me) - cp.kazna(opp);
        int clo = ckd - con_board, chi = ckd + con_board;
        Entry e;
        if (tt_->find(cp.board_key(), &e)) {
          clo = std::max(clo, e.lo + ckd);
          chi = std::min(chi, e.hi + ckd);
        }
        c.lo = margin ? -chi : -sign(chi);
        c.hi = margin ? -clo : -sign(clo);
      }
      // A child known to refute needs no search (the look-ahead for children that end the
      // game, and the enhanced transposition cutoff). These bounds rest on no repetition and
      // no horizon: final.
      if (c.lo >= beta) {
        tt_->store(key, c.lo - shift, kInf, h, kProof, 1);
        return c.lo;
      }
      best_hi = std::max(best_hi, c.hi);
      // Order: the opponent's mobility after the move (fewer replies first), then the mover's
      // (more first), then what the move gains at once; helper threads break ties by a hash
      // of the position (Lazy SMP diversity).
      int mine = 0;
      for (int k = 1; k <= p.n(); ++k) mine += cp.stones(me, k) != 0;
      int jitter = thread_ ? int((key * uint64_t(2 * thread_ + 1)) >> (61 - 3 * (h % 7)) & 7) : 0;
      int fewer = 9 - __builtin_popcount(replies);
      c.order = h == tt_move  ? 1 << 30
                : gain_first_ ? (gain + 512) << 12 | fewer << 8 | mine << 4 | jitter
                              : fewer << 22 | mine << 18 | (gain + 512) << 3 | jitter;
    }
    // No child can reach alpha: every child was bounded without a search (final bounds).
    if (best_hi <= alpha) {
      tt_->store(key, -kInf, best_hi - shift, 0, kProof, 1);
      return best_hi;
    }
    // Insertion sort, highest order first, ties kept in hole order (at most 9 children; also
    // what std::sort did for so few, which GCC 12 warns about with a false -Warray-bounds).
    for (int i = 1; i < count; ++i)
      for (int j = i; j > 0 && kids[j - 1].order < kids[j].order; --j)
        std::swap(kids[j - 1], kids[j]);

    uint64_t start_nodes = nodes;
    int best = -kInf, best_move = 0;
    bool my_rep = false;
    bool outer_horizon = horizon_;
    horizon_ = false;
    path_.push_back(p.key());
    // A lower bound (cutoff) rests on the cutoff child alone; an upper or exact bound on every
    // child. So only the children the bound rests on pass their repetition flag up: a win
    // proven past a refuted repetition draw is still stored.
    for (int i = 0; i < count; ++i) {
      const Child& c = kids[i];
      int a = std::max(alpha, best);
      bool child_rep = false;
      int v;
      if (c.lo == c.hi)
        v = c.lo;  // the game ends there
      else if (c.hi <= a)
        v = c.hi;  // cannot beat what is known: no search
      else
        v = -search(c.pos, -beta, -a, &child_rep, mode, depth - 1);
      if (v >= beta) {
        best = v;
        best_move = c.hole;
        my_rep = child_rep;
        break;
      }
      my_rep |= child_rep;
      if (v > best) {
        best = v;
        best_move = c.hole;
      }
    }
    path_.pop_back();
    if (!my_rep) {
      // A value that met a horizon is never final, not even 255 plies below a search without
      // a depth limit (kProof): tuz-free lines can be that long.
      int d = horizon_ ? std::min(depth, kProof - 1) : kProof;
      int slo = best >= beta ? best : best > alpha ? best : -kInf;
      int shi = best <= alpha ? best : best < beta ? best : kInf;
      tt_->store(key, slo == -kInf ? -kInf : slo - shift, shi == kInf ? kInf : shi - shift,
                 best > alpha ? best_move : 0, d, nodes - start_nodes);
    }
    horizon_ = horizon_ || outer_horizon;
    *rep |= my_rep;
    return best;
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
  // Runs f() (a proof search without a depth limit) in tries of doubling node budgets,
  // 100 k first, each try with the other move order (material first instead of mobility
  // first): either order alone has rare positions it orders badly (the 12-18-stone set's
  // slowest: 10.9 M nodes with mobility first, 0.3 k with material first), and every value a
  // try stored is final, so the next try starts from what it proved.
  template <class F>
  auto with_restarts(F f) {
    size_t depth = path_.size();
    for (uint64_t budget = 100'000, t = 0;; budget *= 2, ++t) {
      gain_first_ = t % 2 == 1;
      restart_at_ = nodes + budget;
      try {
        auto r = f();
        restart_at_ = 0;
        gain_first_ = false;
        return r;
      } catch (const Restart&) {
        path_.resize(depth);
      } catch (...) {
        restart_at_ = 0;
        gain_first_ = false;
        throw;
      }
    }
  }

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
    if (restart_at_ && nodes >= restart_at_) throw Restart{};
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
  const int thread_;      // 0: the main thread (first_depth)
  bool horizon_ = false;  // a depth-limited node was met since it was last cleared

 private:
  uint64_t restart_at_ = 0;  // with_restarts: the node count that ends the current try
  bool gain_first_ = false;  // with_restarts: order by material first
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
bool line_ends_with(const Position& root, const std::vector<int>& line,
                    const std::vector<uint64_t>& history, int result) {
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

// The first pass of thread t's iterative deepening of a tuz-free root (steps of 2 plies):
// thread 0 deepens from 1, thread 1 from 2, and so on. A root with a tuz is proven at once
// with no depth limit by every thread (they differ in their order's tie-breaks).
int first_depth(int thread, bool tuz) {
  return tuz ? kProof : 1 + thread % 2;
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
  Table table(std::clamp(options.hash_log2, 10, 30), options.threads <= 1);
  Shared shared;
  std::vector<std::unique_ptr<Prover>> provers;
  for (int t = 0; t < std::clamp(options.threads, 1, 64); ++t)
    provers.push_back(std::make_unique<Prover>(options, &table, &shared, deadline, limited, t));
  auto finish = [&] {
    for (auto& pr : provers) {
      sol.nodes += pr->nodes;
      sol.table_hits += pr->table_hits;
    }
    sol.time_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    return sol;
  };

  // 1. The result under the root's rules (3-valued; with a tuz, the sign of the margin), by
  // "win?" and, only if not, "loss?" (null_window_sign). With a tuz at the root: one proof
  // search with no depth limit. Without one, repetitions make deep tuz-free play a maze:
  // iterative deepening of the tuz-free play by 2 plies (study 5: 7 k nodes; steps of 3:
  // 36.8 M), a draw guessed at the horizon, every position with a tuz below it proven in full;
  // the first pass that meets no horizon is the proof.
  std::vector<int> results(provers.size());
  int w = run_parallel(provers, shared, [&](Prover& pr) {
    for (int depth = first_depth(pr.thread_, root.any_tuz());; depth += 2) {
      bool rep = false;
      pr.horizon_ = false;
      int d = std::min(depth, kProof);
      results[size_t(pr.thread_)] =
          d == kProof
              ? pr.with_restarts([&] { return pr.null_window_sign(root, &rep, Mode::Result); })
              : pr.null_window_sign(root, &rep, Mode::Result, d);
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
        // One try in the mobility order: restarts with the material order cost the margin
        // steps more than they save (docs/tables.md, "Restarts").
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
