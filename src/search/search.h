// The search of one thread: iterative deepening over principal-variation alpha-beta
// (negamax, fail-soft) with aspiration windows, a shared transposition table, move ordering
// (table move, captures and tuz makers by gain, killers, history), late move reductions and
// shallow pruning (docs/engine.md, "Selectivity"), repetition draws and proven results.
// Engine (engine.cpp) owns the thread and the callbacks.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "rules/game.h"
#include "search/nnue.h"
#include "search/score.h"
#include "search/timeman.h"
#include "search/tt.h"
#include "search/types.h"

namespace toguz::search {

using Clock = std::chrono::steady_clock;

class Searcher {
 public:
  explicit Searcher(TranspositionTable& tt) : tt_(tt) {}

  // Forgets killers and history (a new game).
  void clear_history();

  // Searches the current position of `game` under `limits` and `options`, calling `on_info`
  // once per finished iteration and multipv line. Before: the game is not over. Stops when
  // a limit is reached, when `stop` becomes true, or when the result is proven.
  // Deterministic for the same game, limits, options and table contents when only depth and
  // node limits apply.
  // Lazy SMP: `thread_index` 0 is the main thread, which alone keeps the limits, reports and
  // answers; a helper (index >= 1) searches the same position into the shared table, with
  // staggered iteration depths, until `stop`, and returns an empty result. The main thread's
  // `team` (helpers, may be null) only adds their nodes to the reported counts; its node
  // limit counts its own nodes. With no helpers the search is the deterministic one above.
  SearchResult run(const Game& game, const Limits& limits, const Options& options,
                   const std::atomic<bool>& stop, Clock::time_point start,
                   const InfoCallback& on_info, int thread_index = 0,
                   const std::vector<Searcher*>* team = nullptr);

  // Nodes searched so far in the current or last search (published every 1024 nodes while
  // it runs, exact at its end); safe to read from another thread.
  uint64_t nodes_published() const { return published_.load(std::memory_order_relaxed); }

 private:
  struct RootMove {
    int hole = 0;
    Position pos;
    int score = -kInfinite;  // exact when it was searched as a PV move this iteration
    bool pure = false;       // the score is proven (the subtree met only finished games)
    int pv_len = 0;
    std::array<int8_t, kMaxPly> pv{};
  };
  struct Child {
    Position pos;
    int order;
    int hole;
  };

  // The best-move history that the time plan reads between iterations.
  struct IterationHistory {
    int last_best = 0;       // the previous iteration's best move
    double instability = 0;  // best-move changes, halved each iteration
  };

  // The steps of run(), in order.
  void prepare(const Game& game, const Limits& limits, const Options& options,
               const std::atomic<bool>& stop, Clock::time_point start, bool helper,
               const std::vector<Searcher*>* team);  // state, limits, history keys
  void order_root_moves(const Position& root);       // by the stones each move gains
  static bool helper_skips(int thread_index, int depth);
  void search_lines(int depth, int lines, int last_score);  // one iteration, every line
  bool time_is_up(int depth, int prev_score, int score, IterationHistory* h) const;
  SearchResult answer(std::vector<Info> lines, int multipv, const Options& options,
                      uint64_t root_key);  // the move (a level's choice below 20) and lines

  int search(const Position& pos, int alpha, int beta, int depth, int ply, bool pv_node);
  int search_root(int alpha, int beta, int depth, int pv_idx);
  int qsearch(const Position& pos, int alpha, int beta, int ply);
  // The static evaluation of `pos`, the node at `ply` of the current path: the hand-made one,
  // or the network with the accumulator of the nearest evaluated ancestor updated by the
  // inputs that changed (a full refresh when too many did).
  int static_eval(const Position& pos, int ply);
  bool is_repetition(int ply, uint64_t key) const;
  void check_limits();
  uint64_t total_nodes() const;
  int elapsed_ms() const;
  Info make_info(const RootMove& rm, int depth, int rank, bool all_pure) const;
  int pick_skill_move(const std::vector<Info>& lines, int skill, uint64_t seed, uint64_t key) const;

  TranspositionTable& tt_;
  const std::atomic<bool>* stop_flag_ = nullptr;
  Clock::time_point start_;
  TimePlan plan_;
  uint64_t node_limit_ = 0;
  const TableProbe* tables_ = nullptr;  // Options::tables, probed in search()
  uint64_t nodes_ = 0;
  std::atomic<uint64_t> published_{0};
  const std::vector<Searcher*>* team_ = nullptr;
  uint64_t impure_ = 0;  // heuristic leaves and unproven table cut-offs met so far
  int seldepth_ = 0;
  bool stopped_ = false;

  std::vector<uint64_t> keys_;   // game history, then the current path (index root_idx_ + ply)
  std::vector<uint16_t> ksums_;  // the two kaznas' sum at each of those positions
  int root_idx_ = 0;
  std::vector<RootMove> root_moves_;

  // The network when Options::eval is Nnue (null: the hand-made evaluation), and one
  // accumulator per ply of the current path; acc_valid_[p] says the node now at ply p has
  // computed its own (cleared on entering any node at ply p).
  const nnue::Network* net_ = nullptr;
  std::unique_ptr<nnue::Accumulator[]> acc_;
  bool acc_valid_[kMaxPly + 1] = {};

  int killers_[kMaxPly + 1][2] = {};
  int history_[2][Position::kMaxN + 1] = {};
  int8_t pv_[kMaxPly + 1][kMaxPly + 1] = {};
  int pv_len_[kMaxPly + 1] = {};
};

}  // namespace toguz::search
