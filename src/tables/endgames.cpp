#include "tables/endgames.h"

#include <algorithm>

#include "rules/random.h"
#include "tables/solver.h"

namespace toguz::tables {

namespace {

bool fits(const Position& p, const EndgameRecipe& r) {
  int on_board = p.rules().total_stones() - p.kazna(Side::White) - p.kazna(Side::Black);
  return on_board >= r.min_stones && on_board <= r.max_stones && p.any_tuz() &&
         p.kazna(Side::White) <= p.rules().decided_above() &&
         p.kazna(Side::Black) <= p.rules().decided_above() && p.outcome() == Outcome::Ongoing &&
         __builtin_popcount(p.legal_mask()) >= 2;
}

// Board values by open addressing over a flat array (key, value): far faster than a node-based
// map for tens of millions of boards, and no less plain.
struct Plain {
  explicit Plain(uint64_t max_boards) : slots(1 << 16), limit(max_boards) {}
  struct Slot {
    uint64_t key = 0;  // board_key, 0 = empty (a real key of 0 is simply not stored)
    int32_t value = 0;
  };
  std::vector<Slot> slots;
  uint64_t limit;
  uint64_t used = 0;
  bool full = false;

  // The board value: the mover's final share of the stones now on the board minus the
  // opponent's, with best play to the natural end (play-out rules).
  int board_value(const Position& p) {
    if (full) return 0;  // over the limit: the caller discards the value
    uint32_t mask = p.legal_mask();
    Side me = p.side_to_move(), opp = opposite(me);
    if (!mask) return -p.stones_on_row(opp);  // no move: the opponent takes his row
    uint64_t key = p.board_key();
    size_t i = key & (slots.size() - 1);
    for (; slots[i].key; i = (i + 1) & (slots.size() - 1))
      if (slots[i].key == key) return slots[i].value;
    int best = -1000;
    for (; mask; mask &= mask - 1) {
      Position c = p.after(__builtin_ctz(mask) + 1);
      int gain = (c.kazna(me) - p.kazna(me)) - (c.kazna(opp) - p.kazna(opp));
      best = std::max(best, gain - board_value(c));
    }
    if (used >= limit) {
      full = true;
      return 0;
    }
    // The children's stores may have taken slot i: probe again from the key.
    for (i = key & (slots.size() - 1); slots[i].key; i = (i + 1) & (slots.size() - 1)) {
    }
    if (key) slots[i] = Slot{key, best}, ++used;
    if (used * 2 > slots.size()) grow();
    return best;
  }
  void grow() {
    std::vector<Slot> old(slots.size() * 2);
    old.swap(slots);
    for (const Slot& o : old) {
      if (!o.key) continue;
      size_t i = o.key & (slots.size() - 1);
      while (slots[i].key) i = (i + 1) & (slots.size() - 1);
      slots[i] = o;
    }
  }
};

}  // namespace

std::vector<Position> random_endgames(const EndgameRecipe& recipe) {
  std::vector<Position> out;
  for (uint64_t g = 0; int(out.size()) < recipe.count; ++g) {
    uint64_t state = recipe.seed + g;
    Position p = Position::start();
    while (p.outcome() == Outcome::Ongoing) {
      if (fits(p, recipe)) {
        out.push_back(p);
        break;
      }
      uint32_t mask = p.legal_mask();
      int pick = int(splitmix64(state) % uint64_t(__builtin_popcount(mask)));
      for (int i = 0; i < pick; ++i) mask &= mask - 1;
      p.play(__builtin_ctz(mask) + 1);
    }
  }
  return out;
}

std::optional<int> plain_margin(const Position& pos, uint64_t max_boards) {
  if (!pos.any_tuz()) return std::nullopt;
  Position p = with_rules(pos, Rules{pos.n(), pos.rules().tuz, true});
  Side me = p.side_to_move();
  int kd = p.kazna(me) - p.kazna(opposite(me));
  Plain plain(max_boards);
  int v = kd + plain.board_value(p);
  if (plain.full) return std::nullopt;
  return v;
}

}  // namespace toguz::tables
