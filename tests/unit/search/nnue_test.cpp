// The learned evaluation (search/nnue.h) and the win chances (search/wdl.h): the embedded
// network loads, an accumulator updated from the changed inputs equals one made from scratch
// along random games, the inputs follow the position, bad network bytes are refused with a
// reason, the search with the network is deterministic and differs from the hand-made one,
// and the win chances are certain for known results and grow with the score.
#include "search/nnue.h"

#include <gtest/gtest.h>

#include <cstring>

#include "rules/game.h"
#include "rules/notation.h"
#include "rules/random.h"
#include "search/wdl.h"
#include "test_util.h"

namespace toguz::search {
namespace {

TEST(Nnue, EmbeddedNetworkLoads) {
  const nnue::Network* net = nnue::embedded_network();
  ASSERT_NE(net, nullptr);
  EXPECT_GT(net->scale, 0);
  // The start position is symmetric: both views have the same inputs, the value is finite.
  const Position start = Position::start();
  nnue::Slots s[2];
  nnue::slots_of(start, s);
  EXPECT_EQ(s[0], s[1]);
  EXPECT_LT(std::abs(nnue::evaluate(*net, start)), 20000);
}

TEST(Nnue, InputsFollowThePosition) {
  const Position p = parse_position("x,12,1,2,5,0,1,1,40/1,5,x,8,1,6,5,3,2 15 54 w 36");
  nnue::Slots s[2];
  nnue::slots_of(p, s);
  // White's view: own hole 2 holds 12, own hole 9 holds 40 (counted as 31), kaznas 15 / 54.
  EXPECT_EQ(s[0][1], 1 * nnue::kHoleBuckets + 12);
  EXPECT_EQ(s[0][8], 8 * nnue::kHoleBuckets + 31);
  EXPECT_EQ(s[0][18], nnue::kKaznaBase + 15);
  EXPECT_EQ(s[0][19], nnue::kKaznaBase + nnue::kKaznaBuckets + 54);
  // Black's view sees the same board from the other row.
  EXPECT_EQ(s[1][9 + 1], 10 * nnue::kHoleBuckets + 12);
  EXPECT_EQ(s[1][18], nnue::kKaznaBase + 54);
  EXPECT_EQ(s[1][20], nnue::kTuzBase + p.tuz(Side::Black));
  EXPECT_EQ(s[1][21], nnue::kTuzBase + nnue::kTuzBuckets + p.tuz(Side::White));
  EXPECT_NE(p.tuz(Side::White), 0);
}

TEST(Nnue, IncrementalUpdateEqualsRefresh) {
  const nnue::Network* net = nnue::embedded_network();
  ASSERT_NE(net, nullptr);
  uint64_t rng = 7;
  int compared = 0, small = 0;
  for (int g = 0; g < 40; ++g) {
    Game game(Position::start());
    nnue::Accumulator prev;
    nnue::slots_of(game.position(), prev.slots);
    nnue::refresh(*net, &prev);
    while (!game.over()) {
      const uint32_t mask = game.legal_mask();
      int pick = int(splitmix64(rng) % uint64_t(__builtin_popcount(mask)));
      uint32_t m = mask;
      while (pick--) m &= m - 1;
      game.play(__builtin_ctz(m) + 1);
      nnue::Accumulator inc, full;
      nnue::slots_of(game.position(), inc.slots);
      nnue::slots_of(game.position(), full.slots);
      small += nnue::changed_slots(prev.slots[0], inc.slots[0]) <= 8;
      nnue::update(*net, prev, &inc);
      nnue::refresh(*net, &full);
      ASSERT_EQ(std::memcmp(inc.v, full.v, sizeof inc.v), 0) << "game " << g;
      ASSERT_EQ(nnue::output(*net, inc, game.position().side_to_move()),
                nnue::evaluate(*net, game.position()));
      prev = inc;
      ++compared;
    }
  }
  EXPECT_GT(compared, 1000);
  EXPECT_GT(small, compared / 4);  // most moves change few inputs: the update path is used
}

TEST(Nnue, RefusesBadNetworkBytes) {
  auto net = std::make_unique<nnue::Network>();
  std::string why;
  const std::string junk = "not a network at all, just text";
  EXPECT_FALSE(nnue::load_network(reinterpret_cast<const uint8_t*>(junk.data()), junk.size(),
                                  net.get(), &why));
  EXPECT_NE(why.find("TGZNNUE1"), std::string::npos) << why;
  std::string header = "TGZNNUE1";
  header += std::string("\x01\0\0\0\xfa\x02\0\0\x80\0\0\0", 12) + std::string(8, '\0');
  EXPECT_FALSE(nnue::load_network(reinterpret_cast<const uint8_t*>(header.data()), header.size(),
                                  net.get(), &why));
  EXPECT_NE(why.find("bytes, expected"), std::string::npos) << why;
  header[16] = 64;  // 64 hidden units: another shape
  EXPECT_FALSE(nnue::load_network(reinterpret_cast<const uint8_t*>(header.data()), header.size(),
                                  net.get(), &why));
  EXPECT_NE(why.find("64 hidden units"), std::string::npos) << why;
}

TEST(Nnue, SearchWithTheNetworkIsDeterministicAndItsOwn) {
  const Game game(parse_position("2,6,4,3,14,2,0,15,14/13,2,0,1,4,2,14,6,2 26 32 w 7"));
  Options nnue_opts, classic;
  nnue_opts.eval = EvalKind::Nnue;
  classic.eval = EvalKind::Classic;
  const SearchResult a = test::run(game, test::depth(8), nnue_opts);
  const SearchResult b = test::run(game, test::depth(8), nnue_opts);
  const SearchResult c = test::run(game, test::depth(8), classic);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.best_move, b.best_move);
  EXPECT_EQ(a.lines[0].score.cp, b.lines[0].score.cp);
  EXPECT_NE(a.nodes, c.nodes);
  EXPECT_TRUE(game.position().is_legal(a.best_move));
  // Other rule sets keep the hand-made evaluation: the same search either way.
  const Game small(Position::start(Rules::for_variant(Variant::Bestemshi)));
  EXPECT_EQ(test::run(small, test::depth(8), nnue_opts).nodes,
            test::run(small, test::depth(8), classic).nodes);
}

TEST(Wdl, KnownResultsAreCertainAndChancesGrowWithTheScore) {
  Score win, loss, draw;
  win.proven = loss.table = draw.proven = true;
  win.result = 1, loss.result = -1, draw.result = 0;
  EXPECT_EQ(wdl_of(win).win, 1000);
  EXPECT_EQ(wdl_of(loss).loss, 1000);
  EXPECT_EQ(wdl_of(draw).draw, 1000);
  int last_win = -1, last_loss = 1001;
  for (int cp = -3000; cp <= 3000; cp += 50) {
    Score s;
    s.cp = cp;
    const Wdl w = wdl_of(s);
    EXPECT_EQ(w.win + w.draw + w.loss, 1000) << cp;
    EXPECT_GE(w.draw, 0) << cp;
    EXPECT_GE(w.win, last_win) << cp;
    EXPECT_LE(w.loss, last_loss) << cp;
    last_win = w.win, last_loss = w.loss;
  }
  Score even;
  EXPECT_EQ(wdl_of(even).win, wdl_of(even).loss);  // a level score: even chances
  Score ahead;
  ahead.cp = 2000;  // twenty stones ahead
  EXPECT_GT(wdl_of(ahead).win, 800);
}

}  // namespace
}  // namespace toguz::search
