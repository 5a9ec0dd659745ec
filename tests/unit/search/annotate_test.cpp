// Game review (search/annotate.h): marks follow the documented thresholds, losses and
// evaluations agree with each other, the summary counts the marks, a node-limited review is
// reproducible, progress is reported and a cancelled review stops.
#include "search/annotate.h"

#include <gtest/gtest.h>

#include <atomic>

#include "rules/record.h"
#include "test_util.h"

namespace toguz::search {
namespace {

Game master_game() {
  auto records = read_records(test::read_file(test::data_path("master-game.pgn")));
  Replayed r = replay_record(records.at(0));
  EXPECT_FALSE(r.error);
  return r.game;
}

Limits nodes(uint64_t n) {
  Limits l;
  l.nodes = n;
  return l;
}

TEST(Annotate, MarkThresholds) {
  EXPECT_STREQ(mark_for_loss(0), "");
  EXPECT_STREQ(mark_for_loss(kInaccuracyCp - 1), "");
  EXPECT_STREQ(mark_for_loss(kInaccuracyCp), "?!");
  EXPECT_STREQ(mark_for_loss(kMistakeCp - 1), "?!");
  EXPECT_STREQ(mark_for_loss(kMistakeCp), "?");
  EXPECT_STREQ(mark_for_loss(kBlunderCp - 1), "?");
  EXPECT_STREQ(mark_for_loss(kBlunderCp), "??");
  EXPECT_STREQ(mark_for_loss(2 * kProvenCp), "??");
}

TEST(Annotate, ReviewIsConsistent) {
  const Game game = master_game();
  int calls = 0, last_done = 0, last_total = 0;
  const GameReview r = review_game(game, nodes(3000), Options{}, [&](int done, int total) {
    ++calls;
    EXPECT_EQ(done, last_done + 1);
    last_done = done, last_total = total;
  });
  ASSERT_TRUE(r.complete);
  ASSERT_EQ(int(r.moves.size()), game.ply_count());
  EXPECT_EQ(calls, game.ply_count() + 1);
  EXPECT_EQ(last_total, game.ply_count() + 1);
  std::array<int, 2> marks[3] = {};
  int marked = 0;
  for (size_t k = 0; k < r.moves.size(); ++k) {
    const MoveReview& m = r.moves[k];
    EXPECT_EQ(m.ply, int(k) + 1);
    EXPECT_EQ(m.hole, game.moves()[k].hole);
    EXPECT_EQ(m.side, game.position_at(int(k)).side_to_move());
    EXPECT_GE(m.loss_cp, 0);
    EXPECT_EQ(m.mark, mark_for_loss(m.loss_cp));
    if (m.hole == m.best_hole) {
      EXPECT_EQ(m.loss_cp, 0) << "ply " << m.ply;
    }
    ASSERT_FALSE(m.best_pv.empty());
    EXPECT_EQ(m.best_pv[0], m.best_hole);
    EXPECT_TRUE(game.position_at(int(k)).legal_mask() >> (m.best_hole - 1) & 1u);
    // The evaluation after move k is the next position's score seen from White.
    if (k + 1 < r.moves.size()) {
      const MoveReview& next = r.moves[k + 1];
      const int next_white = next.side == Side::White ? next.best.cp : -next.best.cp;
      EXPECT_EQ(m.white.cp, next_white) << "ply " << m.ply;
    }
    if (!m.mark.empty()) ++marked;
    if (m.mark == "?!") ++marks[0][index(m.side)];
    if (m.mark == "?") ++marks[1][index(m.side)];
    if (m.mark == "??") ++marks[2][index(m.side)];
  }
  EXPECT_GT(marked, 0);  // the engine disagrees with a resigned-lost game somewhere
  for (int s = 0; s < 2; ++s) {
    EXPECT_EQ(r.players[s].inaccuracies, marks[0][s]);
    EXPECT_EQ(r.players[s].mistakes, marks[1][s]);
    EXPECT_EQ(r.players[s].blunders, marks[2][s]);
    EXPECT_GE(r.players[s].average_loss_cp, 0);
    EXPECT_LE(r.players[s].average_loss_cp, kBlunderCp);
  }
  EXPECT_EQ(r.players[0].moves, 9);
  EXPECT_EQ(r.players[1].moves, 8);

  // Node limited: the same review again.
  const GameReview again = review_game(game, nodes(3000), Options{});
  ASSERT_EQ(again.moves.size(), r.moves.size());
  for (size_t k = 0; k < r.moves.size(); ++k) {
    EXPECT_EQ(again.moves[k].white.cp, r.moves[k].white.cp);
    EXPECT_EQ(again.moves[k].best_pv, r.moves[k].best_pv);
    EXPECT_EQ(again.moves[k].loss_cp, r.moves[k].loss_cp);
  }
}

TEST(Annotate, CancelStops) {
  const Game game = master_game();
  std::atomic<bool> cancel{false};
  int calls = 0;
  const GameReview r = review_game(
      game, nodes(2000), Options{},
      [&](int done, int) {
        ++calls;
        if (done == 3) cancel = true;
      },
      &cancel);
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.moves.size(), 2u);  // plies 1 and 2 had both their positions searched
  EXPECT_EQ(calls, 3);
}

TEST(Annotate, FinishedGameEndsWithItsResult) {
  // White captures 2 to reach 82: the last evaluation is the proven White win.
  Game game(parse_position("0,0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0,1 80 79 w"));
  ASSERT_TRUE(game.play(9));
  const GameReview r = review_game(game, nodes(1000), Options{});
  ASSERT_EQ(r.moves.size(), 1u);
  EXPECT_TRUE(r.moves[0].white.proven);
  ASSERT_EQ(game.result(), Result::WhiteWins);
  EXPECT_EQ(r.moves[0].white.result, 1);
  EXPECT_EQ(r.moves[0].loss_cp, 0);
  EXPECT_EQ(r.moves[0].white_cp, r.moves[0].white.result * kProvenCp);
}

}  // namespace
}  // namespace toguz::search
