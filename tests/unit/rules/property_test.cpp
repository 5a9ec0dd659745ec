// Property tests over random play in every variant and rule option: each move is checked
// against a plain re-statement of docs/rules.md (written here independently of position.cpp), and
// the invariants of the position and the referee are checked after every ply.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

#include "rules/game.h"
#include "rules/notation.h"
#include "rules/position.h"

namespace toguz {
namespace {

// The position as plain arrays, for the reference move below.
struct Plain {
  int n;
  int holes[2][9];  // [side][hole-1]
  int kazna[2];
  int tuz[2];  // tuz[owner] = hole number on the opponent's row, 0 = none
  Side to_move;
};

Plain plain(const Position& p) {
  Plain q{};
  q.n = p.n();
  for (int s = 0; s < 2; ++s) {
    for (int h = 1; h <= q.n; ++h) q.holes[s][h - 1] = p.stones(Side(s), h);
    q.kazna[s] = p.kazna(Side(s));
    q.tuz[s] = p.tuz(Side(s));
  }
  q.to_move = p.side_to_move();
  return q;
}

// docs/rules.md "A move", stone by stone. Returns the MoveInfo fields it can predict.
MoveInfo reference_play(Plain& q, int hole, bool tuz_allowed) {
  const int n = q.n, me = index(q.to_move), opp = 1 - me;
  MoveInfo info;
  info.hole = int8_t(hole);
  const int before = q.kazna[me];
  int k = q.holes[me][hole - 1];
  q.holes[me][hole - 1] = 0;
  int side = me, h = hole;  // the hole the next stone goes into
  if (k == 1) {             // one stone: into the next hole
    if (++h > n) h = 1, side = 1 - side;
  }
  int last_side = side, last_hole = h;
  while (k > 0) {
    last_side = side, last_hole = h;
    const bool is_tuz = q.tuz[1 - side] == h;  // a tuz on `side`'s row belongs to the other
    if (is_tuz) {
      ++q.kazna[1 - side];
      ++info.into_tuz[1 - side];
    } else {
      ++q.holes[side][h - 1];
    }
    --k;
    if (++h > n) h = 1, side = 1 - side;
  }
  info.last_hole = int8_t(last_hole);
  info.last_row = Side(last_side);
  const bool in_tuz = q.tuz[1 - last_side] == last_hole;
  if (!in_tuz && last_side == opp) {
    int& c = q.holes[opp][last_hole - 1];
    if (c % 2 == 0) {
      q.kazna[me] += c;
      info.captured = uint8_t(c);
      c = 0;
    } else if (c == 3 && tuz_allowed && q.tuz[me] == 0 && last_hole != n &&
               q.tuz[opp] != last_hole) {
      q.kazna[me] += 3;
      c = 0;
      q.tuz[me] = last_hole;
      info.tuz_made = true;
    }
  }
  info.kazna_after = uint8_t(q.kazna[me]);
  info.kazna_changed = q.kazna[me] != before;
  q.to_move = opposite(q.to_move);
  return info;
}

bool same(const Plain& a, const Position& p) {
  Plain b = plain(p);
  if (a.to_move != b.to_move) return false;
  for (int s = 0; s < 2; ++s) {
    if (a.kazna[s] != b.kazna[s] || a.tuz[s] != b.tuz[s]) return false;
    for (int h = 0; h < a.n; ++h)
      if (a.holes[s][h] != b.holes[s][h]) return false;
  }
  return true;
}

bool same_info(const MoveInfo& a, const MoveInfo& b) {
  return a.hole == b.hole && a.last_hole == b.last_hole && a.last_row == b.last_row &&
         a.captured == b.captured && a.tuz_made == b.tuz_made && a.into_tuz[0] == b.into_tuz[0] &&
         a.into_tuz[1] == b.into_tuz[1] && a.kazna_after == b.kazna_after &&
         a.kazna_changed == b.kazna_changed;
}

int stones_total(const Position& p) {
  int sum = p.kazna(Side::White) + p.kazna(Side::Black);
  for (int s = 0; s < 2; ++s)
    for (int h = 1; h <= p.n(); ++h) sum += p.stones(Side(s), h);
  return sum;
}

// docs/rules.md "A move" 1: own holes that hold stones and are not the opponent's tuz.
uint32_t rule_mask(const Position& p) {
  const Side me = p.side_to_move();
  uint32_t mask = 0;
  for (int h = 1; h <= p.n(); ++h)
    if (p.stones(me, h) > 0 && p.tuz(opposite(me)) != h) mask |= 1u << (h - 1);
  return mask;
}

// docs/rules.md "End of the game", from the position and the history (positions before it).
Outcome rule_outcome(const Position& p, const std::vector<Position>& history) {
  const int nn = p.n() * p.n();
  if (!p.rules().play_out && (p.kazna(Side::White) > nn || p.kazna(Side::Black) > nn))
    return Outcome::Decided;
  if (rule_mask(p) == 0) return Outcome::NoMove;
  int seen = 0;
  for (const Position& h : history)
    seen += same(plain(h), p) && h.side_to_move() == p.side_to_move();
  if (seen >= 3) return Outcome::Repetition;
  return Outcome::Ongoing;
}

struct RuleCase {
  const char* name;
  Rules rules;
};

std::vector<RuleCase> rule_cases() {
  auto with = [](Variant v, bool tuz, bool play_out) {
    Rules r = Rules::for_variant(v);
    r.tuz = tuz;
    r.play_out = play_out;
    return r;
  };
  return {
      {"standard", with(Variant::Standard, true, false)},
      {"standard play-out", with(Variant::Standard, true, true)},
      {"standard tuz off", with(Variant::Standard, false, false)},
      {"kozdatu", with(Variant::Kozdatu, false, false)},
      {"kozdatu tuz", with(Variant::Kozdatu, true, false)},
      {"kozdatu play-out", with(Variant::Kozdatu, false, true)},
      {"bestemshi", with(Variant::Bestemshi, false, false)},
      {"bestemshi tuz", with(Variant::Bestemshi, true, false)},
      {"bestemshi tuz play-out", with(Variant::Bestemshi, true, true)},
      {"bestemshi play-out", with(Variant::Bestemshi, false, true)},
  };
}

#if defined(__SANITIZE_ADDRESS__)
constexpr int kGamesPerCase = 40;  // the sanitizer build is 3-10x slower
#else
constexpr int kGamesPerCase = 250;
#endif
constexpr int kMaxPlies = 1000;  // random play without tuz can wander; a repetition ends most

TEST(Property, RandomPlayAgreesWithTheRules) {
  std::mt19937_64 rng(20261130);
  for (const RuleCase& rc : rule_cases()) {
    SCOPED_TRACE(rc.name);
    int finished = 0, tuz_made = 0;
    for (int g = 0; g < kGamesPerCase; ++g) {
      Game game(Position::start(rc.rules));
      std::vector<Position> history{game.position()};
      for (int ply = 0; ply < kMaxPlies && !game.over(); ++ply) {
        const Position pos = game.position();
        const Position saved = pos;
        SCOPED_TRACE(format_position(pos));
        // Legal moves: the rule, and the referee agrees.
        const uint32_t mask = pos.legal_mask();
        ASSERT_EQ(mask, rule_mask(pos));
        ASSERT_EQ(game.legal_mask(), mask);
        ASSERT_NE(mask, 0u);
        for (int h = 1; h <= pos.n(); ++h) ASSERT_EQ(pos.is_legal(h), bool(mask >> (h - 1) & 1));
        ASSERT_FALSE(pos.is_legal(0));
        ASSERT_FALSE(pos.is_legal(pos.n() + 1));
        // Every legal child: the reference move, conservation, consistency, key.
        for (uint32_t m = mask; m; m &= m - 1) {
          const int hole = __builtin_ctz(m) + 1;
          Position child = pos;
          const MoveInfo info = child.play(hole);
          Plain expected = plain(pos);
          const MoveInfo expected_info = reference_play(expected, hole, pos.rules().tuz);
          ASSERT_TRUE(same(expected, child))
              << "hole " << hole << " gave " << format_position(child);
          ASSERT_TRUE(same_info(expected_info, info)) << "hole " << hole;
          tuz_made += info.tuz_made;
          std::string why;
          ASSERT_TRUE(child.consistent(&why)) << why;
          ASSERT_EQ(stones_total(child), pos.rules().total_stones());
          ASSERT_EQ(child.key(), child.compute_key());
          ASSERT_EQ(child.rules(), pos.rules());
          ASSERT_EQ(child.move_number(), pos.move_number() + (pos.side_to_move() == Side::Black));
          ASSERT_TRUE(pos.after(hole) == child);  // after() is play on a copy
          ASSERT_EQ(pos.after(hole).key(), child.key());
          ASSERT_TRUE(pos == saved);  // copy-make leaves the parent as it was
          ASSERT_EQ(pos.key(), saved.key());
        }
        // Play a random legal move through the referee.
        int pick = int(rng() % __builtin_popcount(mask));
        uint32_t m = mask;
        while (pick--) m &= m - 1;
        const int hole = __builtin_ctz(m) + 1;
        MoveInfo info;
        std::string why;
        ASSERT_TRUE(game.play(hole, &why, &info)) << why;
        ASSERT_TRUE(game.position() == pos.after(hole));
        history.push_back(game.position());
        // The end as docs/rules.md says, and the score and result that follow from it.
        const Outcome expected = rule_outcome(game.position(), history);
        ASSERT_EQ(game.outcome(), expected);
        ASSERT_EQ(game.over(), expected != Outcome::Ongoing);
        if (expected != Outcome::Ongoing) {
          const Position& end = game.position();
          std::array<int, 2> score{end.kazna(Side::White), end.kazna(Side::Black)};
          if (expected == Outcome::NoMove)
            score[index(opposite(end.side_to_move()))] +=
                end.stones_on_row(opposite(end.side_to_move()));
          ASSERT_EQ(game.score(), score);
          if (expected == Outcome::NoMove) {
            ASSERT_EQ(score[0] + score[1], end.rules().total_stones());
          }
          const Result result = expected == Outcome::Repetition ? Result::Draw
                                : score[0] > score[1]           ? Result::WhiteWins
                                : score[1] > score[0]           ? Result::BlackWins
                                                                : Result::Draw;
          ASSERT_EQ(game.result(), result);
          ASSERT_EQ(game.legal_mask(), 0u);
          ASSERT_FALSE(game.play(hole, &why));
          ASSERT_EQ(why, "the game is over");
          if (expected == Outcome::Repetition) {
            ASSERT_FALSE(end.any_tuz());
          }
          ++finished;
        }
        // Undo now and then: the earlier position comes back exactly, then replay.
        if (rng() % 7 == 0) {
          const Outcome outcome_after = game.outcome();
          const int plies = game.ply_count();
          ASSERT_TRUE(game.undo());
          ASSERT_TRUE(game.position() == pos);
          ASSERT_EQ(game.position().key(), pos.key());
          ASSERT_EQ(game.ply_count(), plies - 1);
          ASSERT_FALSE(game.over());
          ASSERT_TRUE(game.play(hole, &why)) << why;
          ASSERT_EQ(game.outcome(), outcome_after);
        }
      }
    }
    // The random games reach their ends, and in tuz games tuzes get made.
    EXPECT_GT(finished, kGamesPerCase * 9 / 10);
    if (rc.rules.tuz) {
      EXPECT_GT(tuz_made, 0);
    }
  }
}

// Undo back to the start restores every earlier position in turn.
TEST(Property, UndoWalksBackThroughTheWholeGame) {
  std::mt19937_64 rng(7);
  for (const RuleCase& rc : rule_cases()) {
    SCOPED_TRACE(rc.name);
    Game game(Position::start(rc.rules));
    std::vector<Position> seen{game.position()};
    while (!game.over() && game.ply_count() < kMaxPlies) {
      uint32_t m = game.legal_mask();
      for (int skip = int(rng() % __builtin_popcount(m)); skip > 0; --skip) m &= m - 1;
      ASSERT_TRUE(game.play(__builtin_ctz(m) + 1));
      seen.push_back(game.position());
    }
    for (int ply = game.ply_count(); ply > 0; --ply) {
      ASSERT_TRUE(game.position() == seen[ply]);
      ASSERT_TRUE(game.undo());
    }
    ASSERT_TRUE(game.position() == seen[0]);
    ASSERT_EQ(game.ply_count(), 0);
    ASSERT_FALSE(game.undo());
  }
}

// Positions that random play seldom reaches: big piles (a lap or more round the ring, up to
// every stone in one hole), tuzes on every allowed hole (holes 8 and 9 of Black's row
// included), either side to move, the largest move number. Every legal move of each is
// checked against the reference move, with the key recomputed.
TEST(Property, RandomPositionsAgreeWithTheRules) {
  std::mt19937_64 rng(20261131);
#if defined(__SANITIZE_ADDRESS__)
  constexpr int kPositionsPerCase = 300;
#else
  constexpr int kPositionsPerCase = 3000;
#endif
  for (const RuleCase& rc : rule_cases()) {
    SCOPED_TRACE(rc.name);
    const int n = rc.rules.n, total = rc.rules.total_stones();
    int laps_seen = 0, tuz_moves = 0, captures = 0, tuzes_made = 0;
    for (int made = 0; made < kPositionsPerCase;) {
      int holes[2][Position::kMaxN] = {};
      int tuz[2] = {0, 0};
      if (rc.rules.tuz) {
        for (int o = 0; o < 2; ++o)
          if (rng() % 3) tuz[o] = int(rng() % (n - 1)) + 1;  // never hole N
        if (tuz[0] && tuz[0] == tuz[1]) tuz[1] = 0;
      }
      // Stones in a few piles (some huge) or spread thin; the rest into the kaznas.
      const int piles = 1 + int(rng() % 6);
      int left = total;
      for (int p = 0; p < piles && left > 0; ++p) {
        const int side = int(rng() % 2), h = int(rng() % n);
        if (tuz[1 - side] == h + 1) continue;  // a tuz holds no stones
        const int c = rng() % 4 == 0 ? left : int(rng() % (left + 1)) / (1 + int(rng() % 4));
        holes[side][h] += c;
        left -= c;
      }
      for (int i = 0; i < 30 && left > 0; ++i) {
        const int side = int(rng() % 2), h = int(rng() % n);
        if (tuz[1 - side] == h + 1) continue;
        ++holes[side][h];
        --left;
      }
      const int white = int(rng() % (left + 1));
      const Side to_move = Side(rng() % 2);
      const int move_number = rng() % 8 == 0 ? 65535 : 1 + int(rng() % 200);
      Position pos;
      std::string why;
      ASSERT_TRUE(Position::from_parts(rc.rules, holes, white, left - white, tuz, to_move,
                                       move_number, &pos, &why))
          << why;
      const uint32_t mask = pos.legal_mask();
      ASSERT_EQ(mask, rule_mask(pos));
      if (mask == 0) continue;
      ++made;
      SCOPED_TRACE(format_position(pos));
      for (uint32_t m = mask; m; m &= m - 1) {
        const int hole = __builtin_ctz(m) + 1;
        Position child = pos;
        const MoveInfo info = child.play(hole);
        Plain expected = plain(pos);
        const MoveInfo expected_info = reference_play(expected, hole, pos.rules().tuz);
        ASSERT_TRUE(same(expected, child)) << "hole " << hole << " gave " << format_position(child);
        ASSERT_TRUE(same_info(expected_info, info)) << "hole " << hole;
        ASSERT_TRUE(child.consistent(&why)) << why;
        ASSERT_EQ(child.key(), child.compute_key());
        ASSERT_EQ(child.rules(), pos.rules());
        ASSERT_EQ(child.move_number(),
                  std::min(65535, pos.move_number() + (pos.side_to_move() == Side::Black)));
        laps_seen += pos.stones(pos.side_to_move(), hole) >= 2 * n;
        tuz_moves += info.into_tuz[0] + info.into_tuz[1] > 0;
        captures += info.captured > 0;
        tuzes_made += info.tuz_made;
      }
    }
    // The cases this test is for did come up.
    EXPECT_GT(laps_seen, 100);
    EXPECT_GT(captures, 100);
    if (rc.rules.tuz) {
      EXPECT_GT(tuz_moves, 100);
      EXPECT_GT(tuzes_made, 0);
    }
  }
}

}  // namespace
}  // namespace toguz
