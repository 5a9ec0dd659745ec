// A refusal is a code with its parameters: its English and its HTTP status come from the
// catalogue (src/site/texts.json), the form picked by its parameters or by name.
#include "site/refusal.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace toguz::site {
namespace {

namespace http = boost::beast::http;

TEST(Refusal, EnglishAndStatusFollowFromTheCode) {
  const Refusal r("stale", {{"ply", "3"}, {"now", "4"}});
  EXPECT_EQ(r.code(), "stale");
  EXPECT_EQ(r.english(), "move: stale (ply 3, the game is at ply 4)");
  EXPECT_EQ(r.status(), http::status::conflict);
  EXPECT_EQ(r.params().at("ply"), "3");
  EXPECT_EQ(Refusal("no_tournament", {{"id", "abc"}}).status(), http::status::not_found);
  EXPECT_EQ(Refusal("rate_limit", {{"n", "20"}}).english(),
            "rate limit: more than 20 messages per second");
}

TEST(Refusal, TheFormIsTheOneWithTheseParametersOrTheNamedOne) {
  EXPECT_EQ(Refusal("no_game").english(), "no such game");
  EXPECT_EQ(Refusal("no_game", {{"id", "x1"}}).english(), "no such game: x1");
  EXPECT_EQ(Refusal("store_busy", {{"action", "move"}}).english(),
            "move: the database is busy: nothing can be saved now; try again soon");
  EXPECT_EQ(Refusal("bad_message", {}, "object").english(), "expected a JSON object");
  EXPECT_EQ(Refusal("bad_message", {{"detail", "x"}}, "unknown_type").english(),
            "type: unknown message type 'x'");
  EXPECT_EQ(Refusal("no_takeback", {}, "any").english(), "takeback: no move to take back");
  EXPECT_THROW(Refusal("no_takeback", {}, "no-such-form").english(), std::logic_error);
}

TEST(Refusal, AnUnknownCodeIsABug) {
  EXPECT_THROW(Refusal("no-such-code"), std::logic_error);
  EXPECT_FALSE(refusal_known("no-such-code"));
  EXPECT_TRUE(refusal_known("tournament_full"));
}

TEST(Refusal, OnTheWireTheCodeTheParametersAndTheEnglish) {
  const Refusal r("not_your_turn", {{"action", "hint"}});
  const auto m = boost::json::parse(r.message()).as_object();
  EXPECT_EQ(m.at("type"), "error");
  EXPECT_EQ(m.at("code"), "not_your_turn");
  EXPECT_EQ(m.at("params").as_object().at("action"), "hint");
  EXPECT_EQ(m.at("message"), "hint: not your turn");
  const auto res = r.response();
  EXPECT_EQ(res.result(), http::status::conflict);
  const auto b = boost::json::parse(res.body()).as_object();
  EXPECT_EQ(b.at("code"), "not_your_turn");
  EXPECT_EQ(b.at("error"), "hint: not your turn");
}

}  // namespace
}  // namespace toguz::site
