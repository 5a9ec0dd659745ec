// The server's words in a translatable form (src/server/texts.h): error codes with their
// parameters, the default names, the tags of an exported record.
#include "server/texts.h"

#include <gtest/gtest.h>

namespace toguz::server {
namespace {

std::string code_of(const char* message) {
  const json::object o = error_code(message);
  return o.at("code").is_null() ? "" : std::string(o.at("code").as_string());
}

TEST(ServerTexts, ErrorMessagesGetTheirCodeAndParameters) {
  json::object o = error_code("move: stale (ply 3, the game is at ply 14)");
  EXPECT_EQ(o.at("code"), "stale");
  EXPECT_EQ(o.at("params").as_object().at("ply"), "3");
  EXPECT_EQ(o.at("params").as_object().at("now"), "14");
  o = error_code("record: line 7, ply 12 '65(9)': the capture count says 9, the move captures 10");
  EXPECT_EQ(o.at("code"), "record_move");
  const json::object& p = o.at("params").as_object();
  EXPECT_EQ(p.at("line"), "7");
  EXPECT_EQ(p.at("ply"), "12");
  EXPECT_EQ(p.at("token"), "65(9)");
  EXPECT_EQ(p.at("detail"), "the capture count says 9, the move captures 10");
  EXPECT_EQ(code_of("hint: not your turn"), "not_your_turn");
  EXPECT_EQ(code_of("move: not your turn"), "not_your_turn");
  EXPECT_EQ(code_of("move: hole 3 is empty"), "illegal_move");
  EXPECT_EQ(code_of("record: line 2: expected a tag"), "record_line");
  EXPECT_EQ(code_of("invite: wrong invite code"), "wrong_invite");
  EXPECT_EQ(code_of("offer_draw: declined; again after 4 more moves"), "draw_wait");
  EXPECT_EQ(code_of("claim_win: the opponent has been gone less than 60 s"), "claim_early");
  EXPECT_EQ(code_of("analyze: no engine help in an online game until it is over"),
            "no_engine_help");
  EXPECT_EQ(code_of("the engine is busy (3 analyses, hints and reviews already waiting); try again "
                    "in a moment"),
            "engine_busy");
  EXPECT_EQ(code_of("Origin: not this server's"), "origin");
  EXPECT_EQ(code_of("analyze: more than 12 analyses a minute from this address"), "analyze_rate");
  // an unknown message has no code: the client shows the message itself
  EXPECT_EQ(code_of("something new"), "");
  EXPECT_TRUE(error_code("something new").at("params").as_object().empty());
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
}

}  // namespace
}  // namespace toguz::server
