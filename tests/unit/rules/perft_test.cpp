// Perft tables from the vectors: every variant, the play-out option, mid-game positions.
#include "rules/perft.h"

#include <gtest/gtest.h>

#include "rules/notation.h"
#include "test_util.h"

namespace toguz {
namespace {

void check_table(const Position& start, const boost::json::array& leaves, int max_depth) {
  for (int d = 1; d <= int(leaves.size()) && d <= max_depth; ++d)
    EXPECT_EQ(perft(start, d), uint64_t(leaves[d - 1].as_int64()))
        << "depth " << d << " from " << format_position(start);
}

TEST(Perft, StandardFromStart) {
  auto v = test::read_json("perft.json");
  check_table(Position::start(), v.at("standard").at("leaves_by_depth").as_array(), 7);
}

TEST(Perft, ChildrensVariants) {
  auto v = test::read_json("perft.json");
  check_table(Position::start(Rules::for_variant(Variant::Kozdatu)),
              v.at("kozdatu").at("leaves_by_depth").as_array(), 99);
  check_table(Position::start(Rules::for_variant(Variant::Bestemshi)),
              v.at("bestemshi").at("leaves_by_depth").as_array(), 99);
  Rules play_out = Rules::for_variant(Variant::Bestemshi);
  play_out.play_out = true;
  check_table(Position::start(play_out),
              v.at("bestemshi_play_out").at("leaves_by_depth").as_array(), 99);
}

TEST(Perft, MidGamePositions) {
  auto v = test::read_json("perft-positions.json");
  for (auto& item : v.as_array()) {
    Position p = parse_position(std::string(item.at("position").as_string()));
    check_table(p, item.at("leaves_by_depth").as_array(), 99);
  }
}

TEST(Perft, FinishedRootIsOneLeaf) {
  Position p = parse_position("x,0,0,0,1,0,0,0,0/0,0,0,x,0,0,0,0,0 82 79 b 97");
  EXPECT_EQ(p.outcome(), Outcome::Decided);
  EXPECT_EQ(perft(p, 5), 1u);
  EXPECT_TRUE(perft_divide(p, 5).empty());
}

TEST(Perft, DivideSumsToTotal) {
  Position p = Position::start();
  uint64_t sum = 0;
  for (auto& [hole, n] : perft_divide(p, 4)) sum += n;
  EXPECT_EQ(sum, 5199u);
}

}  // namespace
}  // namespace toguz
