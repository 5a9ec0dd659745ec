// The lobby's behaviour without sockets (site/lobby/lobby.h): seeks, accepts, pools with a widening
// range on a fake clock, challenges, the seek limit, leaving, and the throttled broadcasts.
#include "site/lobby/lobby.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <map>
#include <string>
#include <vector>

#include "lobby_fakes.h"

namespace toguz::site {
namespace {

namespace json = boost::json;

using test::account;
using test::FakeClient;

struct LobbyFixture : ::testing::Test {
  int64_t now = 1000000;
  uint64_t counter = 0;
  std::map<int64_t, LobbyRating> ratings;  // by user id; else 1500 provisional
  std::map<std::string, Viewer> accounts;  // by lower-case name
  std::vector<PairedGame> games;
  bool fail_start = false;
  // The hooks the lobby needs here; the cluster's are left empty (one instance).
  LobbyHooks hooks() {
    LobbyHooks h;
    h.now_ms = [this] { return now; };
    h.random = [this] { return ++counter; };
    h.rating = [this](const Viewer& v, accounts::Speed) {
      auto it = ratings.find(v.user_id);
      return it == ratings.end() ? LobbyRating{} : it->second;
    };
    h.find_user = [this](const std::string& name) -> std::optional<Viewer> {
      std::string l = name;
      for (char& c : l) c = char(std::tolower(static_cast<unsigned char>(c)));
      auto it = accounts.find(l);
      if (it == accounts.end()) return std::nullopt;
      return it->second;
    };
    h.start_game = [this](const PairedGame& g) {
      if (fail_start) return PairedSeats{"server_error", "", "", ""};
      games.push_back(g);
      const std::string n = std::to_string(games.size());
      return PairedSeats{"", "game" + n, "w" + n, "b" + n};
    };
    h.playing = [] { return std::pair<int, int>{4, 2}; };
    return h;
  }
  Lobby lobby{hooks()};

  void send(FakeClient& c, json::object msg) { lobby.handle(c, msg); }
  // Aigerim (account 1) on a, Bolat (account 2) on b, an anonymous player on c.
  void join_two_accounts_and_a_guest(FakeClient& a, FakeClient& b, FakeClient& c) {
    lobby.join(a, account(1, "Aigerim"));
    lobby.join(b, account(2, "Bolat"));
    lobby.join(c, Viewer{});
  }
  std::string seek(FakeClient& c, json::object extra = {}) {
    json::object msg{{"type", "seek"},
                     {"clock", json::object{{"initial_ms", 180000}, {"increment_ms", 2000}}}};
    for (auto& kv : extra) msg[kv.key()] = kv.value();
    const size_t before = c.of("seek_created").size();
    send(c, msg);
    const auto created = c.of("seek_created");
    if (created.size() == before) return "";
    return std::string(created.back().at("id").as_string());
  }
};

TEST_F(LobbyFixture, JoinSendsTheLobbyState) {
  FakeClient a;
  lobby.join(a, account(1, "Aigerim"));
  ASSERT_EQ(a.got.size(), 1u);
  const json::object& m = a.got[0];
  EXPECT_EQ(m.at("type").as_string(), "lobby");
  EXPECT_EQ(m.at("you").as_string(), "Aigerim");
  EXPECT_TRUE(m.at("seeks").as_array().empty());
  EXPECT_EQ(m.at("pools").as_array().size(), 11u);
  EXPECT_EQ(m.at("pools").as_array()[3].as_object().at("id").as_string(), "3+2");
  EXPECT_EQ(m.at("pools").as_array()[3].as_object().at("speed").as_string(), "blitz");
  EXPECT_EQ(m.at("pools").as_array()[0].as_object().at("speed").as_string(), "bullet");
  EXPECT_EQ(m.at("pools").as_array()[10].as_object().at("speed").as_string(), "classical");
  // One player here plus the four seated in the two games being played.
  EXPECT_EQ(m.at("online").as_object().at("players").as_int64(), 5);
  EXPECT_EQ(m.at("online").as_object().at("games").as_int64(), 2);
  FakeClient anon;
  lobby.join(anon, Viewer{});
  EXPECT_TRUE(anon.got[0].at("you").is_null());
}

TEST_F(LobbyFixture, SeekIsListedAndAcceptStartsTheGameForBoth) {
  FakeClient a, b, watcher;
  join_two_accounts_and_a_guest(a, b, watcher);
  ratings[1] = {1623.4, false};
  const std::string id = seek(a, {{"rated", true}, {"color", "white"}});
  ASSERT_FALSE(id.empty()) << a.last_error_code();
  // Everyone sees it; only its maker as his own.
  ASSERT_EQ(b.of("seek_added").size(), 1u);
  const json::object s = b.of("seek_added")[0].at("seek").as_object();
  EXPECT_EQ(s.at("id").as_string(), id);
  EXPECT_EQ(s.at("username").as_string(), "Aigerim");
  EXPECT_EQ(s.at("rating").as_int64(), 1623);
  EXPECT_FALSE(s.at("provisional").as_bool());
  EXPECT_EQ(s.at("speed").as_string(), "blitz");
  EXPECT_TRUE(s.at("rated").as_bool());
  EXPECT_FALSE(s.at("mine").as_bool());
  EXPECT_TRUE(a.of("seek_added")[0].at("seek").as_object().at("mine").as_bool());
  EXPECT_EQ(watcher.of("seek_added").size(), 1u);
  // A later connection gets it in its lobby message.
  FakeClient late;
  lobby.join(late, Viewer{});
  EXPECT_EQ(late.got[0].at("seeks").as_array().size(), 1u);

  send(b, {{"type", "accept"}, {"id", id}});
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].white.username, "Aigerim");
  EXPECT_EQ(games[0].black.username, "Bolat");
  EXPECT_TRUE(games[0].rated);
  EXPECT_EQ(games[0].initial_ms, 180000);
  EXPECT_EQ(games[0].increment_ms, 2000);
  ASSERT_EQ(a.of("start").size(), 1u);
  ASSERT_EQ(b.of("start").size(), 1u);
  EXPECT_EQ(a.of("start")[0].at("side").as_string(), "white");
  EXPECT_EQ(a.of("start")[0].at("token").as_string(), "w1");
  EXPECT_EQ(b.of("start")[0].at("side").as_string(), "black");
  EXPECT_EQ(b.of("start")[0].at("token").as_string(), "b1");
  EXPECT_EQ(b.of("start")[0].at("game").as_string(), "game1");
  EXPECT_TRUE(watcher.of("start").empty());
  ASSERT_EQ(watcher.of("seek_removed").size(), 1u);
  EXPECT_EQ(watcher.of("seek_removed")[0].at("id").as_string(), id);
  EXPECT_EQ(lobby.seeks(), 0u);
}

TEST_F(LobbyFixture, TwoAcceptsOfOneSeekMakeOneGame) {
  FakeClient a, b, c;
  lobby.join(a, Viewer{});
  lobby.join(b, Viewer{});
  lobby.join(c, Viewer{});
  const std::string id = seek(a);
  send(b, {{"type", "accept"}, {"id", id}});
  send(c, {{"type", "accept"}, {"id", id}});
  EXPECT_EQ(games.size(), 1u);
  EXPECT_EQ(b.of("start").size(), 1u);
  EXPECT_TRUE(c.of("start").empty());
  EXPECT_EQ(c.last_error_code(), "no_seek");
  // Anonymous players play casual games.
  EXPECT_FALSE(games[0].rated);
}

// A refusal's English is the same whatever its code; a field's refusal names the field.
TEST_F(LobbyFixture, RefusalsReadInEnglishWithTheirParameters) {
  FakeClient a;
  lobby.join(a, account(1, "Aigerim"));
  auto last = [&a](const char* key) {
    return std::string(a.of("error").back().at(key).as_string());
  };
  send(a, {{"type", "seek"}, {"clock", json::object{{"initial_ms", "soon"}}}});
  EXPECT_EQ(
      last("message"),
      "seek.clock: expected null or {\"initial_ms\":100..86400000,\"increment_ms\":0..3600000}");
  EXPECT_EQ(a.of("error").back().at("params").at("field").as_string(), "clock");
  seek(a, {{"days_per_move", 30}});
  EXPECT_EQ(last("message"), "seek.days_per_move: expected null or 1..14");
  seek(a, {{"rated", "yes"}});
  EXPECT_EQ(last("message"), "seek.rated: expected true or false");
  EXPECT_EQ(last("code"), "field_type");
  send(a, {{"type", "cancel"}, {"id", 7}});
  EXPECT_EQ(last("message"), "cancel.id: expected a string");
  send(a, {{"type", ""}});
  EXPECT_EQ(last("message"), "type: unknown message type ''");
  EXPECT_EQ(last("code"), "bad_message");
  send(a, {{"type", "challenge"}, {"to", ""}});
  EXPECT_EQ(last("message"), "challenge: no such player: ");
  EXPECT_EQ(last("code"), "no_user");
  EXPECT_EQ(lobby.seeks(), 0u);
}

TEST_F(LobbyFixture, RefusalsChangeNothing) {
  FakeClient a, anon, b;
  lobby.join(a, account(1, "Aigerim"));
  lobby.join(anon, Viewer{});
  lobby.join(b, account(2, "Bolat"));
  seek(anon, {{"rated", true}});
  EXPECT_EQ(anon.last_error_code(), "rated_needs_account");
  send(a, {{"type", "seek"}, {"rated", true}, {"clock", nullptr}});
  EXPECT_EQ(a.last_error_code(), "rated_needs_clock");
  seek(a, {{"color", "green"}});
  EXPECT_EQ(a.last_error_code(), "bad_field");
  seek(a, {{"range", json::array{1800, 1400}}});
  EXPECT_EQ(a.last_error_code(), "bad_field");
  send(a, {{"type", "seek"}, {"clock", json::object{{"initial_ms", "soon"}}}});
  EXPECT_EQ(a.last_error_code(), "bad_field");
  send(a, {{"type", "dance"}});
  EXPECT_EQ(a.last_error_code(), "bad_message");
  EXPECT_EQ(lobby.seeks(), 0u);

  const std::string rated = seek(a, {{"rated", true}});
  send(anon, {{"type", "accept"}, {"id", rated}});
  EXPECT_EQ(anon.last_error_code(), "rated_needs_account");
  send(a, {{"type", "accept"}, {"id", rated}});
  EXPECT_EQ(a.last_error_code(), "own_seek");
  send(b, {{"type", "cancel"}, {"id", rated}});
  EXPECT_EQ(b.last_error_code(), "no_seek");
  send(b, {{"type", "accept"}, {"id", "nope"}});
  EXPECT_EQ(b.last_error_code(), "no_seek");
  EXPECT_TRUE(games.empty());
  EXPECT_EQ(lobby.seeks(), 1u);

  // A game the server cannot start leaves the seek open.
  fail_start = true;
  send(b, {{"type", "accept"}, {"id", rated}});
  EXPECT_EQ(b.last_error_code(), "server_error");
  EXPECT_EQ(lobby.seeks(), 1u);
  send(a, {{"type", "cancel"}, {"id", rated}});
  EXPECT_EQ(lobby.seeks(), 0u);
  EXPECT_EQ(b.of("seek_removed").size(), 1u);
}

TEST_F(LobbyFixture, AtMostThreeSeeksPerPlayerOverAllHisSockets) {
  FakeClient a1, a2;
  lobby.join(a1, account(1, "Aigerim"));
  lobby.join(a2, account(1, "Aigerim"));
  EXPECT_EQ(lobby.players(), 1u);
  EXPECT_FALSE(seek(a1).empty());
  EXPECT_FALSE(seek(a2).empty());
  EXPECT_FALSE(seek(a1).empty());
  EXPECT_TRUE(seek(a2).empty());
  EXPECT_EQ(a2.last_error_code(), "too_many_seeks");
  EXPECT_EQ(a2.of("error").back().at("params").as_object().at("n").as_string(), "3");
  EXPECT_EQ(lobby.seeks(), 3u);
}

TEST_F(LobbyFixture, RangeRefusesARatingOutsideIt) {
  FakeClient a, b, c, d;
  lobby.join(a, account(1, "Aigerim"));
  lobby.join(b, account(2, "Bolat"));
  lobby.join(c, account(3, "Chingiz"));
  lobby.join(d, account(4, "Dana"));
  ratings[2] = {1900, false};
  ratings[3] = {1500, false};
  const std::string id = seek(a, {{"range", json::array{1400, 1800}}});
  send(b, {{"type", "accept"}, {"id", id}});
  EXPECT_EQ(b.last_error_code(), "out_of_range");
  EXPECT_TRUE(games.empty());
  // A provisional rating fits any range.
  send(d, {{"type", "accept"}, {"id", id}});
  EXPECT_EQ(games.size(), 1u);
  EXPECT_EQ(c.of("seek_removed").size(), 1u);
}

TEST_F(LobbyFixture, SeeksGoWithTheLastSocketOfTheirPlayerAndWhenHeStartsAGame) {
  FakeClient a1, a2, b, c, w;
  lobby.join(a1, account(1, "Aigerim"));
  lobby.join(a2, account(1, "Aigerim"));
  lobby.join(b, Viewer{});
  lobby.join(c, Viewer{});
  lobby.join(w, Viewer{});
  seek(a1);
  seek(a1);
  lobby.leave(a1);
  EXPECT_EQ(lobby.seeks(), 2u);  // the account's other socket is still here
  lobby.leave(a2);
  EXPECT_EQ(lobby.seeks(), 0u);
  EXPECT_EQ(w.of("seek_removed").size(), 2u);

  // Starting a game takes the players' other seeks away.
  const std::string sb = seek(b);
  seek(b);
  seek(c);
  send(c, {{"type", "accept"}, {"id", sb}});
  EXPECT_EQ(games.size(), 1u);
  EXPECT_EQ(lobby.seeks(), 0u);
  EXPECT_EQ(w.of("seek_removed").size(), 5u);
}

TEST_F(LobbyFixture, TheStartGoesToTheSeeksOtherSocketWhenItsOwnClosed) {
  FakeClient a1, a2, b;
  lobby.join(a1, account(1, "Aigerim"));
  lobby.join(a2, account(1, "Aigerim"));
  lobby.join(b, Viewer{});
  const std::string id = seek(a1);
  lobby.leave(a1);
  send(b, {{"type", "accept"}, {"id", id}});
  EXPECT_EQ(a2.of("start").size(), 1u);
  EXPECT_TRUE(a1.of("start").empty());
}

TEST_F(LobbyFixture, PoolsPairByRatingWideningWithTime) {
  FakeClient a, b, c;
  join_two_accounts_and_a_guest(a, b, c);
  ratings[1] = {1500, false};
  ratings[2] = {1750, false};
  send(a, {{"type", "pool_join"}, {"pool", "3+2"}, {"range", nullptr}});
  send(b, {{"type", "pool_join"}, {"pool", "3+2"}});
  // An anonymous player waits in the same pool but only with other anonymous players.
  send(c, {{"type", "pool_join"}, {"pool", "3+2"}});
  lobby.tick();
  EXPECT_TRUE(games.empty());
  const auto pools = c.of("pools");
  ASSERT_FALSE(pools.empty());
  EXPECT_EQ(pools.back().at("pools").as_array()[3].as_object().at("waiting").as_int64(), 3);
  // 250 apart: 100 + 10 per second of the longer wait fits after 15 s.
  now += 14000;
  lobby.tick();
  EXPECT_TRUE(games.empty());
  now += 1000;
  lobby.tick();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_TRUE(games[0].rated);
  EXPECT_EQ(games[0].initial_ms, 180000);
  EXPECT_EQ(games[0].increment_ms, 2000);
  EXPECT_EQ(a.of("start").size(), 1u);
  EXPECT_EQ(b.of("start").size(), 1u);
  EXPECT_NE(a.of("start")[0].at("side"), b.of("start")[0].at("side"));
  EXPECT_TRUE(c.of("start").empty());
  // Leaving the pool; an unknown pool.
  send(c, {{"type", "pool_leave"}});
  send(c, {{"type", "pool_join"}, {"pool", "4+4"}});
  EXPECT_EQ(c.last_error_code(), "no_pool");
  now += 2000;
  lobby.tick();
  EXPECT_EQ(c.of("pools").back().at("pools").as_array()[3].as_object().at("waiting").as_int64(), 0);
}

TEST_F(LobbyFixture, OnePoolAtATimeAndTwoAnonymousPlayersPairAtOnce) {
  FakeClient a, b;
  lobby.join(a, Viewer{});
  lobby.join(b, Viewer{});
  send(a, {{"type", "pool_join"}, {"pool", "1+0"}});
  send(a, {{"type", "pool_join"}, {"pool", "5+0"}});
  send(b, {{"type", "pool_join"}, {"pool", "1+0"}});
  EXPECT_TRUE(games.empty());
  send(b, {{"type", "pool_join"}, {"pool", "5+0"}});
  ASSERT_EQ(games.size(), 1u);
  EXPECT_FALSE(games[0].rated);
  EXPECT_EQ(games[0].initial_ms, 300000);
}

TEST_F(LobbyFixture, ChallengesAcceptedDeclinedAndCancelled) {
  FakeClient a, b, anon;
  lobby.join(a, account(1, "Aigerim"));
  lobby.join(anon, Viewer{});
  accounts["bolat"] = account(2, "Bolat");
  json::object challenge{{"type", "challenge"},
                         {"to", "BOLAT"},
                         {"rated", true},
                         {"color", "black"},
                         {"clock", json::object{{"initial_ms", 300000}, {"increment_ms", 3000}}}};
  // Bolat is not in the lobby yet: he sees it when he comes.
  send(a, challenge);
  ASSERT_EQ(a.of("challenge_created").size(), 1u) << a.last_error_code();
  const std::string id(a.of("challenge_created")[0].at("id").as_string());
  lobby.join(b, account(2, "Bolat"));
  ASSERT_EQ(b.of("challenge").size(), 1u);
  const json::object ch = b.of("challenge")[0].at("challenge").as_object();
  EXPECT_EQ(ch.at("from").as_string(), "Aigerim");
  EXPECT_EQ(ch.at("color").as_string(), "black");
  EXPECT_EQ(ch.at("speed").as_string(), "blitz");
  // Only Bolat answers it.
  send(anon, {{"type", "challenge_accept"}, {"id", id}});
  EXPECT_EQ(anon.last_error_code(), "no_challenge");
  send(b, {{"type", "challenge_accept"}, {"id", id}});
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].white.username, "Bolat");
  EXPECT_EQ(games[0].black.username, "Aigerim");
  EXPECT_TRUE(games[0].rated);
  EXPECT_EQ(a.of("start")[0].at("side").as_string(), "black");
  EXPECT_EQ(b.of("start")[0].at("side").as_string(), "white");
  EXPECT_EQ(a.of("challenge_gone")[0].at("reason").as_string(), "accepted");
  EXPECT_EQ(b.of("challenge_gone")[0].at("reason").as_string(), "accepted");
  send(b, {{"type", "challenge_accept"}, {"id", id}});
  EXPECT_EQ(b.last_error_code(), "no_challenge");

  send(a, challenge);
  const std::string id2(a.of("challenge_created").back().at("id").as_string());
  send(b, {{"type", "challenge_decline"}, {"id", id2}});
  EXPECT_EQ(a.of("challenge_gone").back().at("reason").as_string(), "declined");
  send(a, challenge);
  const std::string id3(a.of("challenge_created").back().at("id").as_string());
  send(a, {{"type", "challenge_cancel"}, {"id", id3}});
  EXPECT_EQ(b.of("challenge_gone").back().at("reason").as_string(), "cancelled");
  EXPECT_EQ(games.size(), 1u);

  // Refusals (a minute later: the three challenges above spent three of the minute's five).
  now += 60000;
  send(anon, {{"type", "challenge"}, {"to", "Bolat"}});
  EXPECT_EQ(anon.last_error_code(), "not_logged_in");
  send(a, {{"type", "challenge"}, {"to", "aigerim"}});
  EXPECT_EQ(a.last_error_code(), "challenge_self");
  send(a, {{"type", "challenge"}, {"to", "Nobody"}});
  EXPECT_EQ(a.last_error_code(), "no_user");
  send(a, {{"type", "challenge"}, {"to", "Bolat"}, {"rated", true}});
  EXPECT_EQ(a.last_error_code(), "rated_needs_clock");
  for (int i = 0; i < 3; ++i) send(a, {{"type", "challenge"}, {"to", "Bolat"}});
  send(a, {{"type", "challenge"}, {"to", "Bolat"}});
  EXPECT_EQ(a.last_error_code(), "too_many_challenges");
  // The challenger leaving takes his challenges away.
  const size_t gone = b.of("challenge_gone").size();
  lobby.leave(a);
  EXPECT_EQ(b.of("challenge_gone").size(), gone + 3);
}

TEST_F(LobbyFixture, OnlineAndPoolsAreSentAtMostEveryTwoSeconds) {
  FakeClient a;
  lobby.join(a, Viewer{});
  lobby.tick();
  EXPECT_EQ(a.of("online").size(), 1u);
  EXPECT_EQ(a.of("pools").size(), 1u);
  lobby.tick();  // nothing changed
  EXPECT_EQ(a.of("online").size(), 1u);
  FakeClient b;
  lobby.join(b, Viewer{});
  send(b, {{"type", "pool_join"}, {"pool", "10+0"}});
  now += 1000;
  lobby.tick();  // changed, but too soon
  EXPECT_EQ(a.of("online").size(), 1u);
  EXPECT_EQ(a.of("pools").size(), 1u);
  now += 1000;
  lobby.tick();
  ASSERT_EQ(a.of("online").size(), 2u);
  EXPECT_EQ(a.of("online").back().at("players").as_int64(), 2 + 4);
  ASSERT_EQ(a.of("pools").size(), 2u);
  EXPECT_EQ(a.of("pools").back().at("pools").as_array()[6].as_object().at("waiting").as_int64(), 1);
  // Leaving takes the pool place too.
  lobby.leave(b);
  now += 2000;
  lobby.tick();
  EXPECT_EQ(a.of("pools").back().at("pools").as_array()[6].as_object().at("waiting").as_int64(), 0);
  EXPECT_EQ(lobby.connections(), 1u);
  send(a, {{"type", "ping"}});
  EXPECT_EQ(a.got.back().at("type").as_string(), "pong");
}

}  // namespace
}  // namespace toguz::site
