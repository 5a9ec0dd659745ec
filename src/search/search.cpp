// The search of one thread (Searcher, search.h). run() prepares the root (history keys for
// repetition, the root moves ordered by gain), then deepens one ply at a time: each iteration
// searches every requested line with an aspiration window around the last score, reports the
// lines, and stops when the result is proven, a limit is hit or the time plan says the next
// iteration would not finish. search() is principal-variation alpha-beta (negamax, fail-soft)
// with the transposition table, endgame-table probes, repetition draws, mate-distance
// pruning, reverse futility, late move pruning and reductions, internal iterative reduction;
// qsearch() plays out captures and tuz-making moves at the horizon. Proven values come only
// from finished games (and table hits), never from pruning. What each piece gained:
// docs/engine.md.
#include "search/search.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "rules/random.h"
#include "search/eval.h"

namespace toguz::search {

namespace {

// Move-ordering keys (the table move is searched before any of these): moves that win stones
// (captures, tuz, stones into one's own tuz) by how much they win, then killers, then history.
constexpr int kOrderGain = 1 << 20;
constexpr int kOrderKiller = 1 << 19;
constexpr int kHistoryMax = 1 << 18;

// Selectivity, each kept by a fixed-node match (docs/engine.md). None of it can make a
// proven value: pruned nodes count as impure and never stand against a proven bound.
constexpr double kLmrDivisor = 1.25;  // smaller reduces more; chosen by match (docs/engine.md)
constexpr int kRfpDepth = 5;          // reverse futility up to this depth ...
constexpr int kRfpMargin = 120;       // ... when the evaluation beats beta by this per ply
constexpr int kLmpDepth = 4;          // late move pruning up to this depth: quiet moves from
constexpr int kLmpBase = 3;           // the (kLmpBase + depth)-th on are not searched
constexpr int kIirDepth = 4;          // internal iterative reduction from this depth

// Plies taken off a late quiet move at `depth`, the `searched`-th move of its node: about
// log(depth) * log(searched) / 1.25, so deep nodes and very late moves lose most.
int lmr_reduction(int depth, int searched) {
  static const auto table = [] {
    std::array<std::array<int8_t, Position::kMaxN + 1>, kMaxDepth + 1> t{};
    for (int d = 1; d <= kMaxDepth; ++d)
      for (int m = 1; m <= Position::kMaxN; ++m)
        t[d][m] = int8_t(0.5 + std::log(double(d)) * std::log(double(m)) / kLmrDivisor);
    return t;
  }();
  return table[std::min(depth, kMaxDepth)][std::min(searched, Position::kMaxN)];
}

// Levels for people (Options::skill 1..19; 20 = full strength): the depth searched and how
// far below the best a chosen move may score (centi-stones, i.e. stones lost by the choice
// as the shallow search sees it). Levels up to 12 choose among every move, higher ones among
// the best four. Up to level 10 a level either searches one ply deeper or narrows the margin;
// from 11 on each level searches deeper and narrows the margin (with the selective search a
// single ply more gains too little there). Calibrated by matches between neighbouring levels
// (docs/strength.md).
struct SkillLevel {
  int depth;
  int margin;
};
constexpr SkillLevel kSkillLevels[20] = {
    {0, 0},   {1, 600}, {1, 400}, {2, 400}, {2, 280}, {3, 280}, {3, 200},
    {4, 200}, {4, 150}, {5, 150}, {5, 110}, {6, 95},  {7, 80},  {8, 65},
    {9, 55},  {10, 45}, {11, 35}, {12, 25}, {14, 15}, {16, 8},
};

int kazna_sum(const Position& p) {
  return p.kazna(Side::White) + p.kazna(Side::Black);
}

// Incremental update when at most this many of the 22 input slots changed, else a full
// refresh: an update costs two column operations per changed slot, a refresh one per slot,
// and the update measured cheaper up to 14 changed slots (docs/nnue.md, "Incremental update").
constexpr int kMaxIncrementalSlots = 14;

}  // namespace

void Searcher::clear_history() {
  for (auto& k : killers_) k[0] = k[1] = 0;
  for (auto& row : history_)
    for (int& h : row) h = 0;
}

int Searcher::elapsed_ms() const {
  return int(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_).count());
}

uint64_t Searcher::total_nodes() const {
  uint64_t n = nodes_;
  if (team_)
    for (const Searcher* h : *team_) n += h->nodes_published();
  return n;
}

void Searcher::check_limits() {
  published_.store(nodes_, std::memory_order_relaxed);
  if (stop_flag_->load(std::memory_order_relaxed) ||
      (plan_.hard_ms && elapsed_ms() >= plan_.hard_ms))
    stopped_ = true;
}

// Twofold repetition inside the search (the root counts), or threefold with the game's
// history. Only positions with the same kaznas can repeat, and kaznas never shrink, so the
// scan stops at the first position (same side to move) whose kazna sum differs.
bool Searcher::is_repetition(int ply, uint64_t key) const {
  const int cur = root_idx_ + ply;
  const int ks = ksums_[cur];
  int count = 0;
  for (int i = cur - 2; i >= 0 && ksums_[i] == ks; i -= 2) {
    if (keys_[i] != key) continue;
    if (i >= root_idx_ || ++count >= 2) return true;
  }
  return false;
}

int Searcher::static_eval(const Position& pos, int ply) {
  if (!net_ || !nnue::applies(pos)) return evaluate(pos);
  nnue::Accumulator& acc = acc_[ply];
  nnue::slots_of(pos, acc.slots);
  const nnue::Accumulator* base = nullptr;
  for (int q = ply - 1; q >= 0 && q >= ply - 2 && !base; --q)
    if (acc_valid_[q]) base = &acc_[q];
  if (base && nnue::changed_slots(base->slots[0], acc.slots[0]) <= kMaxIncrementalSlots)
    nnue::update(*net_, *base, &acc);
  else
    nnue::refresh(*net_, &acc);
  acc_valid_[ply] = true;
  return nnue::output(*net_, acc, pos.side_to_move());
}

int Searcher::search(const Position& pos, int alpha, int beta, int depth, int ply, bool pv_node) {
  pv_len_[ply] = ply;
  acc_valid_[ply] = false;
  ++nodes_;
  if (nodes_ >= node_limit_) stopped_ = true;
  if ((nodes_ & 1023) == 0) check_limits();
  if (stopped_) return 0;
  if (ply > seldepth_) seldepth_ = ply;

  const Outcome outcome = pos.outcome();
  if (outcome != Outcome::Ongoing) return terminal_value(pos, outcome, ply);
  const uint64_t key = pos.key();
  keys_[root_idx_ + ply] = key;
  ksums_[root_idx_ + ply] = uint16_t(kazna_sum(pos));
  if (!pos.any_tuz() && is_repetition(ply, key)) return kDraw;
  // An endgame table hit is exact: +-(kTablesWin + margin), below the
  // proven-by-distance band (no distance is known), so it counts as an impure value.
  if (tables_ && ply > 0) {
    int board_value;
    if (tables_->probe(pos, &board_value)) {
      const int margin =
          pos.kazna(pos.side_to_move()) - pos.kazna(opposite(pos.side_to_move())) + board_value;
      ++impure_;
      return margin > 0 ? kTablesWin + margin : margin < 0 ? -kTablesWin + margin : kDraw;
    }
  }
  if (depth <= 0 || ply >= kMaxPly - 1) {
    ++impure_;
    return qsearch(pos, alpha, beta, ply);
  }

  // Mate-distance pruning: no result here can beat a win on the next ply.
  alpha = std::max(alpha, -(kWin - ply));
  beta = std::min(beta, kWin - ply - 1);
  if (alpha >= beta) return alpha;

  const uint64_t impure_at_entry = impure_;
  const uint32_t mask = pos.legal_mask();
  int tt_move = 0;
  TTEntry e;
  if (tt_.probe(key, e)) {
    if (e.move && (mask >> (e.move - 1) & 1)) tt_move = e.move;
    if (!pv_node && (e.depth >= depth || e.pure)) {
      const int v = value_from_tt(e.value, ply);
      if (e.bound == kBoundExact || (e.bound == kBoundLower && v >= beta) ||
          (e.bound == kBoundUpper && v <= alpha)) {
        if (!e.pure) ++impure_;
        return v;
      }
    }
  }

  // Reverse futility: at a shallow non-PV node whose static evaluation beats beta by a
  // margin per ply, the opponent is assumed to have no refutation. The value is heuristic
  // (impure, never in the proven band) and the rule is not used against a proven beta.
  if (!pv_node && depth <= kRfpDepth && !is_proven_value(beta)) {
    const int eval = static_eval(pos, ply);
    if (eval - kRfpMargin * depth >= beta) {
      ++impure_;
      return eval;
    }
  }
  // Internal iterative reduction: a deep node without a table move was not searched before
  // (or not usefully): one ply less, and its ordering is learnt by the time it comes back.
  if (!tt_move && depth >= kIirDepth) --depth;

  const Side us = pos.side_to_move();
  const int alpha_orig = alpha;
  int best = -kInfinite, best_move = 0;

  // Searches one child; returns true on a beta cut-off. Updates best, alpha, the PV and, on
  // a cut-off by a quiet move, the killers and history.
  // `reduction` plies less for a late quiet move (LMR): searched with a null window first
  // and again at full depth when it beats alpha.
  auto visit = [&](const Position& child, int hole, bool quiet, bool first, int reduction) {
    int v;
    if (first) {
      v = -search(child, -beta, -alpha, depth - 1, ply + 1, pv_node);
    } else {
      v = -search(child, -alpha - 1, -alpha, depth - 1 - reduction, ply + 1, false);
      if (v > alpha && reduction > 0 && !stopped_)
        v = -search(child, -alpha - 1, -alpha, depth - 1, ply + 1, false);
      if (v > alpha && v < beta && pv_node && !stopped_)
        v = -search(child, -beta, -alpha, depth - 1, ply + 1, true);
    }
    if (stopped_ || v <= best) return false;
    best = v;
    best_move = hole;
    if (v <= alpha) return false;
    alpha = v;
    if (pv_node) {
      pv_[ply][ply] = int8_t(hole);
      for (int k = ply + 1; k < pv_len_[ply + 1]; ++k) pv_[ply][k] = pv_[ply + 1][k];
      pv_len_[ply] = std::max(pv_len_[ply + 1], ply + 1);
    }
    if (v < beta) return false;
    if (quiet) {
      if (killers_[ply][0] != hole) killers_[ply][1] = killers_[ply][0], killers_[ply][0] = hole;
      int& h = history_[index(us)][hole];
      h += depth * depth;
      if (h > kHistoryMax)
        for (auto& row : history_)
          for (int& x : row) x /= 2;
    }
    return true;
  };

  const int kazna_before = pos.kazna(us);
  bool cut = false;
  // The table move first, before the other children are made: it often cuts at once.
  if (tt_move) {
    Position child = pos;
    child.play(tt_move);
    cut = visit(child, tt_move, child.kazna(us) == kazna_before, true, 0);
    if (stopped_) return 0;
  }

  if (!cut) {
    // Copy-make the other children: the gain of a move is only known once it is played, and
    // a 40-byte copy per move is cheaper than predicting captures.
    const bool had_tuz = pos.tuz(us) != 0;
    Child children[Position::kMaxN];
    int count = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
      const int hole = std::countr_zero(m) + 1;
      if (hole == tt_move) continue;
      Child& c = children[count++];
      c.hole = hole;
      c.pos = pos;
      c.pos.play(hole);
      tt_.prefetch(c.pos.key());
      const int gain = c.pos.kazna(us) - kazna_before;
      if (gain > 0)
        c.order = kOrderGain + gain * 16 + (!had_tuz && c.pos.tuz(us) ? 32 : 0);
      else if (hole == killers_[ply][0])
        c.order = kOrderKiller + 1;
      else if (hole == killers_[ply][1])
        c.order = kOrderKiller;
      else
        c.order = history_[index(us)][hole];
    }
    for (int i = 0; i < count; ++i) {
      // Selection sort step: at most 9 moves, and a cut-off often comes first.
      int pick = i;
      for (int j = i + 1; j < count; ++j)
        if (children[j].order > children[pick].order) pick = j;
      std::swap(children[i], children[pick]);
      const Child& c = children[i];
      const bool first = i == 0 && !tt_move;
      // Late move reductions: quiet moves after the first (two at PV nodes), ordered after the
      // gains and killers, are searched shallower unless they prove better.
      const int searched = i + (tt_move ? 1 : 0);
      // Late move pruning: at shallow non-PV nodes, late quiet moves (the rest are quiet too:
      // the list is sorted) are not searched once a move that is not a proven loss was: so
      // a fail-low here never claims a proven loss that a skipped move might avoid.
      if (!pv_node && depth <= kLmpDepth && c.order < kOrderKiller && best > -kWinBound &&
          searched >= kLmpBase + depth) {
        ++impure_;
        break;
      }
      int reduction = 0;
      if (depth >= 3 && searched >= (pv_node ? 2 : 1) && c.order < kOrderKiller) {
        reduction = lmr_reduction(depth, searched) - (pv_node ? 1 : 0);
        reduction = std::clamp(reduction, 0, depth - 2);
      }
      if (visit(c.pos, c.hole, c.order < kOrderGain, first, reduction)) break;
      if (stopped_) return 0;
    }
  }
  if (stopped_) return 0;

  const Bound bound = best >= beta ? kBoundLower : best > alpha_orig ? kBoundExact : kBoundUpper;
  tt_.store(key, value_to_tt(best, ply), depth, best_move, bound, impure_ == impure_at_entry);
  return best;
}

// Quiescence: the static evaluation (stand pat) or a better line of captures and tuz-making
// moves only, so a leaf is not scored in the middle of an exchange. Before: `pos` is ongoing.
// Each such move grows a kazna, so the line is finite and cannot repeat; no table, no PV.
int Searcher::qsearch(const Position& pos, int alpha, int beta, int ply) {
  acc_valid_[ply] = false;
  int best = static_eval(pos, ply);
  if (best >= beta || ply >= kMaxPly - 1) return best;
  if (best > alpha) alpha = best;
  for (uint32_t m = pos.legal_mask(); m; m &= m - 1) {
    const int hole = std::countr_zero(m) + 1;
    Position child = pos;
    const MoveInfo info = child.play(hole);
    if (info.captured == 0 && !info.tuz_made) continue;
    ++nodes_;
    if (nodes_ >= node_limit_) stopped_ = true;
    if ((nodes_ & 1023) == 0) check_limits();
    if (stopped_) return 0;
    if (ply + 1 > seldepth_) seldepth_ = ply + 1;
    const Outcome o = child.outcome();
    const int v = o != Outcome::Ongoing ? -terminal_value(child, o, ply + 1)
                                        : -qsearch(child, -beta, -alpha, ply + 1);
    if (stopped_) return 0;
    if (v > best) {
      best = v;
      if (v >= beta) return v;
      if (v > alpha) alpha = v;
    }
  }
  return best;
}

// One pass over the root moves from index pv_idx on (the earlier ones are the better lines
// of this iteration, excluded for multi-PV). Moves that fail low get -kInfinite so a stable
// sort keeps them in their previous order.
int Searcher::search_root(int alpha, int beta, int depth, int pv_idx) {
  int best = -kInfinite;
  pv_len_[0] = 0;
  for (int i = pv_idx; i < int(root_moves_.size()); ++i) {
    RootMove& rm = root_moves_[i];
    const uint64_t impure_before = impure_;
    int v;
    if (i == pv_idx) {
      v = -search(rm.pos, -beta, -alpha, depth - 1, 1, true);
    } else {
      v = -search(rm.pos, -alpha - 1, -alpha, depth - 1, 1, false);
      if (v > alpha && v < beta) v = -search(rm.pos, -beta, -alpha, depth - 1, 1, true);
    }
    if (stopped_) return best;
    if (i == pv_idx || v > alpha) {
      rm.score = v;
      rm.pure = impure_ == impure_before;
      rm.pv[0] = int8_t(rm.hole);
      rm.pv_len = 1;
      for (int k = 1; k < pv_len_[1] && k < kMaxPly; ++k) rm.pv[rm.pv_len++] = pv_[1][k];
    } else {
      rm.score = -kInfinite;
      rm.pure = impure_ == impure_before;
    }
    best = std::max(best, v);
    if (v > alpha) {
      alpha = v;
      if (v >= beta) break;
    }
  }
  std::stable_sort(root_moves_.begin() + pv_idx, root_moves_.end(),
                   [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
  return best;
}

Info Searcher::make_info(const RootMove& rm, int depth, int rank, bool all_pure) const {
  Info info;
  info.depth = depth;
  info.seldepth = std::max(seldepth_, depth);
  info.multipv = rank;
  // A draw is reported proven only when the move's own subtree is proven and, for the first
  // line (the position's score), every other root move's bound is proven too.
  info.score = make_score(rm.score, rm.pure && (rank > 1 || all_pure), rm.pv_len);
  info.nodes = total_nodes();
  const auto us =
      std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start_).count();
  info.time_ms = int(us / 1000);
  info.nps = uint64_t(double(info.nodes) * 1e6 / double(std::max<int64_t>(us, 1)));
  info.pv.assign(rm.pv.begin(), rm.pv.begin() + rm.pv_len);
  return info;
}

// Skill below 20: a seeded choice among the lines whose score is within a skill-dependent
// margin of the best, weighted towards the better ones. A line that loses by force is never
// chosen when the best does not, and a proven win is never given up.
int Searcher::pick_skill_move(const std::vector<Info>& lines, int skill, uint64_t seed,
                              uint64_t key) const {
  const Score& best = lines[0].score;
  if (best.proven && best.result > 0) return lines[0].pv[0];
  const int margin = kSkillLevels[skill].margin;
  std::vector<std::pair<int, int>> candidates;  // (weight, hole)
  int total = 0;
  for (const Info& line : lines) {
    const Score& s = line.score;
    if (line.pv.empty()) continue;
    if (s.proven && s.result < 0 && !(best.proven && best.result < 0)) continue;
    const int loss = best.cp - s.cp;
    if (loss > margin) continue;
    const int weight = margin - loss + 1;
    candidates.emplace_back(weight, line.pv[0]);
    total += weight;
  }
  if (candidates.empty()) return lines[0].pv[0];
  uint64_t state = seed ^ key;
  int r = int(splitmix64(state) % uint64_t(total));
  for (auto& [w, hole] : candidates) {
    if (r < w) return hole;
    r -= w;
  }
  return candidates.front().second;
}

void Searcher::prepare(const Game& game, const Limits& limits, const Options& options,
                       const std::atomic<bool>& stop, Clock::time_point start, bool helper,
                       const std::vector<Searcher*>* team) {
  stop_flag_ = &stop;
  start_ = start;
  team_ = helper ? nullptr : team;
  plan_ = helper ? TimePlan{} : plan_time(limits, game.position().side_to_move());
  node_limit_ = limits.nodes > 0 && !helper ? limits.nodes : UINT64_MAX;
  tables_ = options.tables.get();
  net_ = options.eval == EvalKind::Nnue ? nnue::embedded_network() : nullptr;
  if (net_ && !acc_) acc_ = std::make_unique<nnue::Accumulator[]>(kMaxPly + 1);
  std::fill(std::begin(acc_valid_), std::end(acc_valid_), false);
  nodes_ = 0;
  published_.store(0, std::memory_order_relaxed);
  impure_ = 0;
  stopped_ = false;
  for (auto& k : killers_) k[0] = k[1] = 0;
  if (!helper) tt_.new_search();

  // History keys (index 0..ply_count) then room for the path; no allocation while searching.
  root_idx_ = game.ply_count();
  keys_.assign(size_t(root_idx_) + kMaxPly + 2, 0);
  ksums_.assign(keys_.size(), 0);
  for (int i = 0; i <= root_idx_; ++i) {
    keys_[i] = game.position_at(i).key();
    ksums_[i] = uint16_t(kazna_sum(game.position_at(i)));
  }
}

void Searcher::order_root_moves(const Position& root) {
  root_moves_.clear();
  const int kazna_before = root.kazna(root.side_to_move());
  for (uint32_t m = root.legal_mask(); m; m &= m - 1) {
    RootMove rm;
    rm.hole = std::countr_zero(m) + 1;
    rm.pos = root.after(rm.hole);
    rm.score = rm.pos.kazna(root.side_to_move()) - kazna_before;  // initial order: gain
    rm.pv[0] = int8_t(rm.hole);
    rm.pv_len = 1;
    root_moves_.push_back(rm);
  }
  std::stable_sort(root_moves_.begin(), root_moves_.end(),
                   [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
  for (RootMove& rm : root_moves_) rm.score = -kInfinite;
}

// Helpers skip some iterations, each in its own pattern (blocks of 1..4 depths, shifted), so
// the threads are spread over two or three depths and fill the table for each other.
bool Searcher::helper_skips(int thread_index, int depth) {
  if (thread_index == 0 || depth <= 1) return false;
  const int i = (thread_index - 1) % 20;
  constexpr int kSkipSize[20] = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
  constexpr int kSkipPhase[20] = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7};
  return (depth + kSkipPhase[i]) / kSkipSize[i] % 2;
}

void Searcher::search_lines(int depth, int lines, int last_score) {
  seldepth_ = 0;
  for (int pv_idx = 0; pv_idx < lines && !stopped_; ++pv_idx) {
    // One line alone gets an aspiration window around the last score, widened on a fail.
    int alpha = -kInfinite, beta = kInfinite, delta = 40;
    if (lines == 1 && depth >= 4 && !is_proven_value(last_score)) {
      alpha = std::max(last_score - delta, -kInfinite);
      beta = std::min(last_score + delta, kInfinite);
    }
    while (true) {
      const int v = search_root(alpha, beta, depth, pv_idx);
      if (stopped_) break;
      if (v <= alpha && alpha > -kInfinite)
        alpha = std::max(v - delta, -kInfinite);
      else if (v >= beta && beta < kInfinite)
        beta = std::min(v + delta, kInfinite);
      else
        break;
      delta *= 2;
      if (delta > 1000) alpha = -kInfinite, beta = kInfinite;
    }
  }
  // Multi-PV: a later line can score above an earlier one (its move was only bounded by a
  // null window, with pruning, while the earlier line was searched), so the lines are
  // ordered by their own searches' scores.
  if (!stopped_)
    std::stable_sort(root_moves_.begin(), root_moves_.begin() + lines,
                     [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
}

// No new iteration once 3/5 of the soft budget is gone (the next one would take longer than
// all before it), the budget scaled by how critical the move looks: up to 2x while the best
// move keeps changing, up to 1.5x more when the score drops (2.5x in all), 0.7x when the best
// move has not changed for several iterations.
bool Searcher::time_is_up(int depth, int prev_score, int score, IterationHistory* h) const {
  if (depth > 1)
    h->instability = h->instability * 0.5 + (root_moves_[0].hole != h->last_best ? 1.0 : 0.0);
  h->last_best = root_moves_[0].hole;
  if (!plan_.soft_ms) return false;
  double scale = h->instability < 0.1 && depth >= 8 ? 0.7 : 1.0 + std::min(h->instability, 1.0);
  const int drop = prev_score - score;
  if (depth >= 5 && drop > 20 && !is_proven_value(score) && !is_proven_value(prev_score))
    scale *= 1.0 + std::min(drop, 200) / 400.0;
  scale = std::min(scale, 2.5);
  return elapsed_ms() >= int(plan_.soft_ms * scale * 0.6);
}

SearchResult Searcher::answer(std::vector<Info> lines, int multipv, const Options& options,
                              uint64_t root_key) {
  SearchResult result;
  if (lines.empty()) {  // not even depth 1 finished: the best-ordered moves, statically scored
    for (int k = 0; k < multipv; ++k) {
      RootMove& rm = root_moves_[k];
      const Outcome o = rm.pos.outcome();
      rm.score = o != Outcome::Ongoing ? -terminal_value(rm.pos, o, 1) : -static_eval(rm.pos, 1);
      lines.push_back(make_info(rm, 0, k + 1, false));
    }
  }
  const int skill = std::clamp(options.skill, 1, 20);
  result.best_move = lines[0].pv[0];
  if (skill < 20) result.best_move = pick_skill_move(lines, skill, options.seed, root_key);
  lines.resize(std::min<size_t>(lines.size(), size_t(multipv)));
  result.lines = std::move(lines);
  result.nodes = nodes_;  // the engine adds its helpers' nodes once they have stopped
  result.time_ms = elapsed_ms();
  return result;
}

SearchResult Searcher::run(const Game& game, const Limits& limits, const Options& options,
                           const std::atomic<bool>& stop, Clock::time_point start,
                           const InfoCallback& on_info, int thread_index,
                           const std::vector<Searcher*>* team) {
  const bool helper = thread_index > 0;
  const Position& root = game.position();
  prepare(game, limits, options, stop, start, helper, team);
  order_root_moves(root);

  const int n_root = int(root_moves_.size());
  const int skill = std::clamp(options.skill, 1, 20);
  const int multipv = std::clamp(options.multipv, 1, n_root);
  const int skill_pvs = skill <= 12 ? n_root : std::min(4, n_root);
  const int search_pvs = helper ? 1 : skill < 20 ? std::max(multipv, skill_pvs) : multipv;
  int max_depth = limits.depth > 0 ? std::min(limits.depth, kMaxDepth) : kMaxDepth;
  if (skill < 20) max_depth = std::min(max_depth, kSkillLevels[skill].depth);

  std::vector<Info> lines;  // the last finished iteration, one per searched line
  int last_score = 0;
  IterationHistory history;
  for (int depth = 1; depth <= max_depth; ++depth) {
    if (helper_skips(thread_index, depth)) continue;
    search_lines(depth, search_pvs, last_score);
    if (stopped_) break;  // an unfinished iteration is dropped: same answer for the same nodes

    bool all_pure = true;
    for (const RootMove& rm : root_moves_) all_pure = all_pure && rm.pure;
    lines.clear();
    for (int k = 0; k < search_pvs && !helper; ++k) {
      lines.push_back(make_info(root_moves_[k], depth, k + 1, all_pure));
      if (on_info && k < multipv) on_info(lines.back());
    }
    const int prev_score = last_score;
    last_score = root_moves_[0].score;

    // Deeper iterations cannot change a proven result: every root move proven, or a forced
    // win/loss within this depth (a proven value comes only from finished games: reductions
    // and pruning never make one).
    if (helper) {
      if (all_pure || (is_proven_value(last_score) && kWin - std::abs(last_score) <= depth)) break;
      continue;
    }
    const Score& s = lines[0].score;
    const bool proven =
        all_pure || (search_pvs == 1 && s.proven && s.result != 0 && s.plies <= depth);
    if (proven && !limits.infinite) break;
    if (time_is_up(depth, prev_score, last_score, &history)) break;
    if (n_root == 1 && plan_.soft_ms && !limits.infinite) break;  // a forced move needs no time
  }

  published_.store(nodes_, std::memory_order_relaxed);
  if (helper) return SearchResult{};
  return answer(std::move(lines), multipv, options, root.key());
}

}  // namespace toguz::search
