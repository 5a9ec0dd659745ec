#include "search/eval.h"

namespace toguz::search {

int evaluate(const Position& pos) {
  const Side us = pos.side_to_move(), them = opposite(us);
  int v = kStoneInKazna * (pos.kazna(us) - pos.kazna(them));
  v += kStoneOnRow * (pos.stones_on_row(us) - pos.stones_on_row(them));
  v += kTuzOwned * ((pos.tuz(us) != 0) - (pos.tuz(them) != 0));
  return v;
}

}  // namespace toguz::search
