// Names as every page and record shows them (rules/text.h clean_display_text), and the server's
// rules for a guest's name (server/text_input.h): no invisible or bidi characters, no rating
// after the name, no account's name under look-alike letters.
#include <gtest/gtest.h>

#include <string>

#include "rules/text.h"
#include "server/text_input.h"

namespace toguz {
namespace {

TEST(DisplayText, InvisibleAndFormatCharactersAreRemoved) {
  // Zero-width space, non-joiner, joiner, word joiner, the BOM, the soft hyphen.
  EXPECT_EQ(clean_display_text("Ai\u200Bge\u200Cri\u200Dm\u2060\uFEFF\u00AD"), "Aigerim");
  // The bidi controls: RLO, LRE, PDF, LRI, RLI, FSI, PDI, LRM, RLM, ALM.
  EXPECT_EQ(clean_display_text("\u202Eevil\u202A\u202C\u2066\u2067\u2068name\u2069\u200E\u200F"
                               "\u061C"),
            "evilname");
  // Tags, variation selectors, the combining grapheme joiner, Hangul fillers, the blank braille
  // pattern, the line separator, private use, noncharacters.
  EXPECT_EQ(clean_display_text("B\U000E0041o\uFE0Fl\u034Fa\u3164t\u2800\u2028\uE000\uFDD0\uFFFF"),
            "Bolat");
  // Nothing visible at all: nothing left.
  EXPECT_EQ(clean_display_text("\u3164\u200B\u115F\u2800"), "");
  // Controls (C0, DEL, C1) go; white space of every kind is one space, none at the ends.
  EXPECT_EQ(clean_display_text("a\x01\x7f\u0085b"), "a b");
  EXPECT_EQ(clean_display_text("\t Smith \u00A0\u3000&\n\r Sons\u2003"), "Smith & Sons");
  // Malformed UTF-8 is dropped byte by byte; what is left is well-formed.
  EXPECT_EQ(clean_display_text("ok\xC0\xAF\xED\xA0\x80\xFF!"), "ok!");
}

TEST(DisplayText, LettersOfEveryScriptStayAndCutsFallBetweenCharacters) {
  const std::string kazakh = "Әлия Ңұрғали Өмір Үміт Һ Іңкәр";
  EXPECT_EQ(clean_display_text(kazakh), kazakh);
  EXPECT_EQ(clean_display_text("Ахмет 🐎 (кумалак)"), "Ахмет 🐎 (кумалак)");
  EXPECT_EQ(clean_display_text("ЖаЖаЖа", 4), "ЖаЖа");
  EXPECT_EQ(clean_display_text("ab cd", 3), "ab");  // no space left at the end of a cut
  // Cleaning is idempotent.
  const std::string once = clean_display_text("\u202E x\u200B y \u2066");
  EXPECT_EQ(clean_display_text(once), once);
  EXPECT_EQ(once, "x y");
}

TEST(GuestNames, RatingLikeEndingsAreSeen) {
  for (const char* n : {"Aigerim (2500)", "Aigerim(1500?)", "Bolat [2100]", "Bolat ( 2 100 )",
                        "(2500)", "Нурлан （２５００）", "x (1,900+)"})
    EXPECT_TRUE(server::ends_in_rating(n)) << n;
  for (const char* n : {"Aigerim", "Aigerim 2500", "Team (A)", "Bolat (the 2nd)", "()", "2500)",
                        "Aigerim (2500) x"})
    EXPECT_FALSE(server::ends_in_rating(n)) << n;
}

TEST(GuestNames, LookAlikeLettersReadAsTheUsername) {
  EXPECT_EQ(server::lookalike_username_key("Aigerim"), "aigerim");
  EXPECT_EQ(server::lookalike_username_key("\u0410igerim"), "aigerim");           // Cyrillic А
  EXPECT_EQ(server::lookalike_username_key("B\u043Elat"), "bolat");               // Cyrillic о
  EXPECT_EQ(server::lookalike_username_key("\uFF21\uFF49gerim_1"), "aigerim_1");  // full width
  EXPECT_EQ(server::lookalike_username_key("\u039Flzhas"), "olzhas");             // Greek Ο
  EXPECT_EQ(server::lookalike_username_key("Айгерим"), "");  // й is no Latin letter
  EXPECT_EQ(server::lookalike_username_key("Ai gerim"), "");
  EXPECT_EQ(server::lookalike_username_key(""), "");
}

}  // namespace
}  // namespace toguz
