// Who is who (docs/ratings-federation.md "Identity"): the name key, the officer's name map,
// matching by id and by name and region, and the report of names that may be one player.
#include <gtest/gtest.h>

#include "federation/season.h"

namespace toguz::federation {
namespace {

TEST(FederationIdentity, NameKey) {
  EXPECT_EQ(name_key("  Ауесбаева.  Фарида "), "ауесбаева фарида");
  EXPECT_EQ(name_key("АУЕСБАЕВА ФАРИДА"), "ауесбаева фарида");
  // A Latin 'a' and 'o' in a Cyrillic word are the Cyrillic letters.
  EXPECT_EQ(name_key("Ауесбаевa Фaрида"), "ауесбаева фарида");
  EXPECT_EQ(name_key("ӘҒҚҢӨҰҮҺІ"), "әғқңөұүһі");
  EXPECT_EQ(name_key("Smith, John"), "smith john");  // Latin words stay Latin
  EXPECT_EQ(loose_key(name_key("Ізімғали Еламан")), name_key("Изимгали Еламан"));
}

TEST(FederationIdentity, NameMap) {
  const NameMap map = parse_name_map(
      "# settled by the officer\n"
      "Каракулова М. = Каракулова Мадина\n"
      "Ivanov Ivan @ Almaty = id:KZ-9\n"
      "Далиев Элдияр != Далиев Эльдияр\n");
  ASSERT_EQ(map.alias.size(), 2u);
  EXPECT_EQ(map.alias.at(identity_key({"", "Каракулова М", ""})).name, "Каракулова Мадина");
  EXPECT_EQ(map.alias.at(identity_key({"", "ivanov ivan", "ALMATY"})).id, "KZ-9");
  ASSERT_EQ(map.distinct.size(), 1u);
  try {
    parse_name_map("A = B\nno separator here\n");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "line 2: expected 'ALIAS = TARGET' or 'A != B'");
  }
  EXPECT_THROW(parse_name_map(" = B\n"), InputError);
  EXPECT_THROW(parse_name_map("A = id:\n"), InputError);
}

SeasonGame game(PlayerRef white, PlayerRef black) {
  static int round = 0;
  SeasonGame g;
  g.event = "E";
  g.date = {2026, 1, 1};
  g.round = std::to_string(++round);
  g.white = std::move(white);
  g.black = std::move(black);
  g.white_half_points = 1;
  return g;
}

TEST(FederationIdentity, MatchingByIdThenNameAndRegion) {
  ListEntry a;
  a.name = "Асанов Бек";
  a.region = "Ош";
  a.id = "KG-1";
  a.after = 2000;
  ListEntry b = a;
  b.region = "Нарын";
  b.id = "KG-2";
  const std::vector<ListEntry> list = {a, b};
  std::vector<SeasonGame> games = {
      game({"KG-2", "Asanov Bek", ""}, {"", "Other", ""}),  // by id, whatever the name
      game({"", "АСАНОВ  БЕК", "ош"}, {"", "Other", ""}),   // by name and region
      game({"", "Асанов Бек", ""}, {"", "Other", ""}),      // two candidates: settle it
  };
  SeasonResult s = compute_season(list, games, Profile{}, {});
  EXPECT_EQ(s.players[1].history.size(), 1u);
  EXPECT_EQ(s.players[0].history.size(), 1u);
  ASSERT_EQ(s.skipped.size(), 1u);
  EXPECT_EQ(s.skipped[0].reason, SkipReason::Ambiguous);
  // The same name in two regions is reported.
  ASSERT_EQ(s.ambiguous.size(), 1u);
  EXPECT_EQ(s.ambiguous[0].reasons, std::vector<Likeness>{Likeness::SameName});
  // The officer settles the name without a region.
  const NameMap map = parse_name_map("Асанов Бек = id:KG-1\n");
  s = compute_season(list, games, Profile{}, map);
  EXPECT_TRUE(s.skipped.empty());
  EXPECT_EQ(s.players[0].history.size(), 2u);
}

TEST(FederationIdentity, AmbiguousNames) {
  auto use = [](std::string name) { return NameUse{{"", std::move(name), ""}, 1, {"E"}}; };
  const std::vector<NameUse> uses = {
      use("Ізімгали Еламан"), use("Ізімғали Еламан"),    // Kazakh letters
      use("Шыңғыс Сырбай"),   use("Сырбай Шыңғыс"),      // word order
      use("Каракулова М."),   use("Каракулова Мадина"),  // initial
      use("Далиев Элдияр"),   use("Далиев Эльдияр"),     // one letter
      use("Далиева Асель"),   use("Кали Айдана"),        // alone
  };
  const auto groups = ambiguous_names(uses, {});
  ASSERT_EQ(groups.size(), 4u);
  std::vector<Likeness> reasons;
  for (const auto& g : groups) {
    EXPECT_EQ(g.names.size(), 2u);
    reasons.insert(reasons.end(), g.reasons.begin(), g.reasons.end());
  }
  std::sort(reasons.begin(), reasons.end());
  EXPECT_EQ(reasons, (std::vector<Likeness>{Likeness::Spelling, Likeness::WordOrder,
                                            Likeness::Initial, Likeness::Typo}));
  // A pair the officer says are two players leaves the report.
  const NameMap map = parse_name_map("Далиев Элдияр != Далиев Эльдияр\n");
  EXPECT_EQ(ambiguous_names(uses, map).size(), 3u);
}

}  // namespace
}  // namespace toguz::federation
