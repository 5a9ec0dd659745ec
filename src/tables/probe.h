// The engine's table probe (search::TableProbe) answered by the endgame tables of this folder.
#pragma once

#include <array>
#include <memory>

#include "search/table_probe.h"
#include "tables/tablebase.h"

namespace toguz::tables {

class TablesProbe : public search::TableProbe {
 public:
  // Opens every complete table of `tables` now, so that probes only read mapped memory and
  // are safe from several search threads (Tablebase opens files lazily otherwise, and a
  // missing file would cost a failed open() per probe).
  explicit TablesProbe(std::shared_ptr<const Tablebase> tables) : tables_(std::move(tables)) {
    for (const Config& c : all_configs()) usable_[size_t(c.id())] = tables_->complete(c);
  }
  bool probe(const Position& pos, int* board_value) const override {
    if (pos.n() != 9 || !pos.any_tuz()) return false;
    Config c{pos.tuz(pos.side_to_move()), pos.tuz(opposite(pos.side_to_move()))};
    return usable_[size_t(c.id())] && tables_->probe(pos, board_value);
  }

 private:
  std::shared_ptr<const Tablebase> tables_;
  std::array<bool, 81> usable_{};
};

}  // namespace toguz::tables
