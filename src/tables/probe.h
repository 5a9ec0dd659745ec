// The engine's probe (search::TableProbe) answered by this folder: the endgame tables, when
// there are any, and the exact solver for positions within its reach.
#pragma once

#include <array>
#include <memory>

#include "search/table_probe.h"
#include "tables/solver.h"
#include "tables/tablebase.h"

namespace toguz::tables {

// Stones on the board up to which the engine tries the solver within a move's time: the
// 12-18-stone endgame set's results take at most a few million nodes (docs/tables.md).
constexpr int kProofReach = 18;

class TablesProbe : public search::TableProbe {
 public:
  // `tables` may be null (the solver alone). Opens every complete table now, so that probes
  // only read mapped memory and are safe from several search threads (Tablebase opens files
  // lazily otherwise, and a missing file would cost a failed open() per probe).
  explicit TablesProbe(std::shared_ptr<const Tablebase> tables, int reach = kProofReach)
      : tables_(std::move(tables)), reach_(reach) {
    if (tables_)
      for (const Config& c : all_configs()) usable_[size_t(c.id())] = tables_->complete(c);
  }
  bool probe(const Position& pos, int* board_value) const override {
    if (!tables_ || pos.n() != 9 || !pos.any_tuz()) return false;
    Config c{pos.tuz(pos.side_to_move()), pos.tuz(opposite(pos.side_to_move()))};
    return usable_[size_t(c.id())] && tables_->probe(pos, board_value);
  }
  int proof_reach() const override { return reach_; }
  bool prove(const Game& game, const search::ProofLimits& limits,
             search::Proof* out) const override {
    SolveOptions so;
    so.time_ms = limits.time_ms;
    so.max_nodes = limits.nodes;
    so.stop = limits.stop;
    so.threads = limits.threads;
    so.tables = tables_.get();
    // The table's largest size within the engine's hash (16-byte slots), at least 2^20.
    so.hash_log2 = 20;
    while (so.hash_log2 < 30 && (uint64_t(16) << (so.hash_log2 + 1)) <= uint64_t(limits.hash_mb)
                                                                            << 20)
      ++so.hash_log2;
    for (int i = 0; i < game.ply_count(); ++i) so.history.push_back(game.position_at(i).key());
    const Solution s = solve(game.position(), so);
    out->nodes = s.nodes;
    if (!s.proven || s.line.empty()) return false;
    out->result = s.result;
    out->has_margin = s.margin.has_value();
    out->margin = s.margin.value_or(0);
    out->line = s.line;
    return true;
  }

 private:
  std::shared_ptr<const Tablebase> tables_;
  int reach_;
  std::array<bool, 81> usable_{};
};

}  // namespace toguz::tables
