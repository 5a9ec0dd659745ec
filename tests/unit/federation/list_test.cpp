// The federation's list as CSV (docs/ratings-federation.md "The list"): the published table's
// columns under English and Russian headers, errors that name the line and the column, and
// the reader on random and mutated input.
#include <gtest/gtest.h>

#include <algorithm>

#include "federation/rating_list.h"
#include "rules/random.h"
#include "rules/text.h"

namespace toguz::federation {
namespace {

TEST(FederationList, EnglishHeader) {
  const auto list = parse_list(
      "No,Name,Region,Title,Rating before,Change,Rating after\n"
      "1,\"Eleusiz, Nurlan\",Almaty,GM,2200,+12,2212\n"
      "2,Aktayev Serik,Astana,,2100,-5,2095\n"
      "3,New Player,Oral,,,,1800\n");
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].name, "Eleusiz, Nurlan");
  EXPECT_EQ(list[0].region, "Almaty");
  EXPECT_EQ(list[0].title, "GM");
  EXPECT_EQ(list[0].before, 2200);
  EXPECT_EQ(list[0].change, 12);
  EXPECT_EQ(list[0].after, 2212);
  EXPECT_EQ(list[1].change, -5);
  EXPECT_FALSE(list[2].before.has_value());
  EXPECT_EQ(list[2].line, 4);
  EXPECT_FALSE(list[0].games.has_value());
}

TEST(FederationList, RussianHeaderSemicolonsAndBom) {
  const auto list = parse_list(
      "\xEF\xBB\xBF№;ФИО;Регион;Звание;Рейтинг до;Изменение;Рейтинг после;Партии;Код\r\n"
      "1;Кажгалиев Темірлан;Астана;МС;2050;0;2050;120;KZ-17\r\n");
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].name, "Кажгалиев Темірлан");
  EXPECT_EQ(list[0].title, "МС");
  EXPECT_EQ(list[0].games, 120);
  EXPECT_EQ(list[0].id, "KZ-17");
  // Columns in another order, an unknown column ignored, upper case.
  const auto other = parse_list("РЕЙТИНГ ПОСЛЕ,Примечание,ИМЯ\n1990,x,Сапарбеков Сәбит\n");
  EXPECT_EQ(other[0].after, 1990);
  EXPECT_EQ(other[0].name, "Сапарбеков Сәбит");
}

std::string error_of(const std::string& text) {
  try {
    parse_list(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(FederationList, ErrorsNameLineAndColumn) {
  EXPECT_EQ(error_of("name,after\nA,1900\nB,19x0\n"),
            "line 3, after: expected a whole number, got '19x0'");
  EXPECT_EQ(error_of("name,before,after\nA,1900\nB,1,2\n"),
            "line 2, after: the line ends before this column");
  EXPECT_EQ(error_of("number,name,region\n"), "line 1, after: the header has no such column");
  EXPECT_EQ(error_of("name,after,rating\n"), "line 1, after: the header names this column twice");
  EXPECT_EQ(error_of("name,after\n\"A,1900\n"), "line 2: a quoted field is not closed");
  EXPECT_EQ(error_of("name,after\n,1900\n"), "line 2, name: empty");
  EXPECT_EQ(error_of(""), "line 1: the list is empty: expected a header line");
  EXPECT_EQ(error_of("name,after,change\nA,1900,++3\n"),
            "line 2, change: expected a whole number, got '++3'");
  // A quoted line break: the next player's line is counted right.
  EXPECT_EQ(error_of("name,after\n\"A\nB\",1900\nC,x\n"),
            "line 4, after: expected a whole number, got 'x'");
}

struct Rng {
  uint64_t state;
  uint64_t below(uint64_t n) { return splitmix64(state) % n; }
};

// What list_csv writes, parse_list reads back the same, whatever the names hold.
TEST(FederationList, RoundTripProperty) {
  Rng rng{31};
  const std::vector<std::string> pieces = {"a", "Ә", "\"", ",", ";", " ", "Ж", "x y", "'", "<"};
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<ListEntry> list;
    for (int i = 0, n = 1 + int(rng.below(6)); i < n; ++i) {
      ListEntry e;
      e.number = i + 1;
      for (int k = 0, m = 1 + int(rng.below(6)); k < m; ++k)
        e.name += pieces[rng.below(pieces.size())];
      e.name = clean_display_text("N" + e.name + "N");  // names are read cleaned
      e.region = pieces[rng.below(2)];
      if (rng.below(2)) e.before = int(rng.below(3000));
      e.after = int(rng.below(3000));
      e.change = e.before ? *e.after - *e.before : 0;
      e.games = int(rng.below(100));
      e.id = rng.below(2) ? "" : "id" + std::to_string(i);
      list.push_back(e);
    }
    const auto back = parse_list(list_csv(list));
    ASSERT_EQ(back.size(), list.size());
    for (size_t i = 0; i < list.size(); ++i) {
      EXPECT_EQ(back[i].name, list[i].name);
      EXPECT_EQ(back[i].region, list[i].region);
      EXPECT_EQ(back[i].before, list[i].before);
      EXPECT_EQ(back[i].after, list[i].after);
      EXPECT_EQ(back[i].change, list[i].change);
      EXPECT_EQ(back[i].games, list[i].games);
      EXPECT_EQ(back[i].id, list[i].id);
    }
  }
}

// Mutated lists: the reader returns or throws InputError with a line inside the text, nothing
// else.
TEST(FederationList, MutatedInputFuzz) {
  Rng rng{7};
  const std::string base =
      "№;ФИО;Регион;Звание;Рейтинг до;Изменение;Рейтинг после\n"
      "1;\"Кажгалиев; Темірлан\";Астана;МС;2050;+3;2053\n2;B;;;1900;-1;1899\n";
  const std::string alphabet = ";,\"\n\r0123456789+-xЖ ";
  for (int trial = 0; trial < 5000; ++trial) {
    std::string text = base;
    for (int m = 0, n = 1 + int(rng.below(4)); m < n; ++m) {
      const size_t at = rng.below(text.size() + 1);
      switch (rng.below(3)) {
        case 0:
          text.insert(at, 1, alphabet[rng.below(alphabet.size())]);
          break;
        case 1:
          if (at < text.size()) text.erase(at, 1);
          break;
        default:
          text = text.substr(0, at);
          break;
      }
    }
    try {
      parse_list(text);
    } catch (const InputError& e) {
      EXPECT_GE(e.line, 1) << text;
      EXPECT_LE(e.line, 1 + int(std::count(text.begin(), text.end(), '\n'))) << text;
    }
  }
}

}  // namespace
}  // namespace toguz::federation
