// The server's words in a translatable form (src/site/texts.h): error codes with their
// parameters, the default names, the tags of an exported record. And the names it shows: no
// invisible or bidi characters (rules/text.h clean_display_text), no rating after a guest's name,
// no account's name under look-alike letters (site/text_input.h).
#include "site/texts.h"

#include <gtest/gtest.h>

#include "rules/text.h"
#include "site/text_input.h"

namespace toguz::site {
namespace {

// The catalogue compiled in (src/site/texts.json) gives each code its HTTP status.
TEST(ServerTexts, EachRefusalCodeHasItsStatus) {
  EXPECT_EQ(refusal_status("no_tournament"), 404);
  EXPECT_EQ(refusal_status("tournament_not_creator"), 403);
  EXPECT_EQ(refusal_status("tournament_full"), 409);
  EXPECT_EQ(refusal_status("rate_limit"), 429);
  EXPECT_EQ(refusal_status("store_busy"), 503);
  EXPECT_EQ(refusal_status("not_logged_in"), 401);
  EXPECT_EQ(refusal_status("tournament_name"), 400);
  EXPECT_EQ(refusal_status("no-such-code"), 400);
  // Codes given directly (not found from English) are in the catalogue too, so clients and
  // API users read one list.
  EXPECT_EQ(refusal_status("username_taken"), 409);
  EXPECT_EQ(refusal_status("login_locked_account"), 429);
  EXPECT_EQ(refusal_status("no_endpoint"), 404);
}

// The English of a refusal is the catalogue's, with the refusal's parameters in place.
TEST(ServerTexts, ARefusalReadsAsTheCatalogueSays) {
  EXPECT_EQ(Refusal("stale", {{"ply", "3"}, {"now", "14"}}).english(),
            "move: stale (ply 3, the game is at ply 14)");
  EXPECT_EQ(Refusal("record_move", {{"line", "7"},
                                    {"ply", "12"},
                                    {"token", "65(9)"},
                                    {"detail", "the capture count says 9, the move captures 10"}})
                .english(),
            "record: line 7, ply 12 '65(9)': the capture count says 9, the move captures 10");
  EXPECT_EQ(Refusal("origin").english(), "Origin: not this server's");
  EXPECT_EQ(Refusal("analyze_rate", {{"n", "12"}}).english(),
            "analyze: more than 12 analyses a minute from this address");
  EXPECT_EQ(fault_refusal(store::StoreFault::Busy, "move").english(),
            "move: the database is busy: nothing can be saved now; try again soon");
  EXPECT_EQ(fault_refusal(store::StoreFault::Full).code(), "store_full");
}

TEST(ServerTexts, DefaultNamesAreMarked) {
  GameRow r;
  r.engine_side = 1;
  r.level = 7;
  r.white_name = kNamePlayer;
  r.black_name = engine_name(7);
  EXPECT_EQ(default_name_code(r, 0), "player");
  EXPECT_EQ(default_name_code(r, 1), "engine");
  r.white_name = "Aigerim";
  r.black_name = "toguz (level 3)";  // not the engine's name at this level
  EXPECT_TRUE(default_name_code(r, 0).is_null());
  EXPECT_TRUE(default_name_code(r, 1).is_null());
  r.engine_side = -1;
  r.white_name = kNameWhite;
  r.black_name = kNameGuest;
  EXPECT_EQ(default_name_code(r, 0), "white");
  EXPECT_EQ(default_name_code(r, 1), "guest");
}

TEST(ServerTexts, ExportTagsCarryDateTimeControlAndTermination) {
  GameRow r;
  r.white_name = "A";
  r.black_name = "B";
  r.created_ms = 1796072726000;  // 2026-11-30 21:05:26 UTC
  r.clock_initial_ms = 300000;
  r.clock_increment_ms = 5000;
  r.status = "over";
  r.reason = "timeout";
  auto tag = [](const std::vector<std::pair<std::string, std::string>>& tags,
                const std::string& name) {
    for (const auto& [k, v] : tags)
      if (k == name) return v;
    return std::string("(none)");
  };
  auto tags = export_tags(r);
  EXPECT_EQ(tag(tags, "Date"), "2026.11.30");
  EXPECT_EQ(tag(tags, "TimeControl"), "300+5");
  EXPECT_EQ(tag(tags, "Termination"), "time forfeit");
  EXPECT_EQ(tag(tags, "White"), "A");
  r.clock_initial_ms = -1;
  r.reason = "resign";
  tags = export_tags(r);
  EXPECT_EQ(tag(tags, "TimeControl"), "-");
  EXPECT_EQ(tag(tags, "Termination"), "normal");
  r.clock_initial_ms = 1500;
  r.clock_increment_ms = 0;
  r.status = "playing";
  r.reason.clear();
  tags = export_tags(r);
  EXPECT_EQ(tag(tags, "TimeControl"), "1.5+0");
  EXPECT_EQ(tag(tags, "Termination"), "unterminated");
  r.status = "aborted";
  r.reason = "aborted";
  EXPECT_EQ(tag(export_tags(r), "Termination"), "abandoned");
  EXPECT_EQ(tag(export_tags(r), "WhiteElo"), "(none)");  // a casual game has no ratings
}

TEST(ServerTexts, RatedGamesCarryEloAndTheirChanges) {
  GameRow r;
  r.rated = true;
  r.white_rating = 1512;
  r.black_rating = 1488;
  r.status = "playing";
  auto tag = [](const GameRow& row, const std::string& name) {
    for (const auto& [k, v] : export_tags(row))
      if (k == name) return v;
    return std::string("(none)");
  };
  EXPECT_EQ(tag(r, "WhiteElo"), "1512");
  EXPECT_EQ(tag(r, "BlackElo"), "1488");
  EXPECT_EQ(tag(r, "WhiteRatingDiff"), "(none)");  // not over yet
  r.status = "over";
  r.reason = "kazna";
  r.white_diff = 9;
  r.black_diff = -9;
  EXPECT_EQ(tag(r, "WhiteRatingDiff"), "+9");
  EXPECT_EQ(tag(r, "BlackRatingDiff"), "-9");
}

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
    EXPECT_TRUE(site::ends_in_rating(n)) << n;
  for (const char* n : {"Aigerim", "Aigerim 2500", "Team (A)", "Bolat (the 2nd)", "()", "2500)",
                        "Aigerim (2500) x"})
    EXPECT_FALSE(site::ends_in_rating(n)) << n;
}

TEST(GuestNames, LookAlikeLettersReadAsTheUsername) {
  EXPECT_EQ(site::lookalike_username_key("Aigerim"), "aigerim");
  EXPECT_EQ(site::lookalike_username_key("\u0410igerim"), "aigerim");           // Cyrillic А
  EXPECT_EQ(site::lookalike_username_key("B\u043Elat"), "bolat");               // Cyrillic о
  EXPECT_EQ(site::lookalike_username_key("\uFF21\uFF49gerim_1"), "aigerim_1");  // full width
  EXPECT_EQ(site::lookalike_username_key("\u039Flzhas"), "olzhas");             // Greek Ο
  EXPECT_EQ(site::lookalike_username_key("Айгерим"), "");  // й is no Latin letter
  EXPECT_EQ(site::lookalike_username_key("Ai gerim"), "");
  EXPECT_EQ(site::lookalike_username_key(""), "");
}

}  // namespace
}  // namespace toguz::site
