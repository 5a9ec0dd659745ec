// The lobby across instances without sockets or Redis (server/lobby.h, LobbyHooks' publish and
// claim): three Lobby objects on one fake bus (every message delivered to every lobby, in
// order, when the test pumps it) and one shared set of claims. A seek made on one is listed
// and accepted on another, and the seeker gets his start; two accepts of one seek on two
// instances make one game; an accept wins over a later cancel; a challenge reaches the
// challenged account's instance and its accept starts the game for both; a declined one is
// gone everywhere.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "lobby_fakes.h"
#include "server/lobby.h"

namespace toguz::server {
namespace {

namespace json = boost::json;

using test::account;
using test::FakeClient;

struct LobbyCluster : ::testing::Test {
  std::deque<std::string> bus;
  std::set<std::string> claims;
  std::vector<PairedGame> games;  // every instance's, in order
  uint64_t counter = 0;
  std::unique_ptr<Lobby> lobbies[3];

  LobbyCluster() {
    for (int i = 0; i < 3; ++i) {
      LobbyHooks h;
      h.now_ms = [] { return int64_t(1000000); };
      h.random = [this] { return ++counter * 7919; };
      h.rating = [](const Viewer&, accounts::Speed) { return LobbyRating{}; };
      h.find_user = [](const std::string& name) -> std::optional<Viewer> {
        if (name == "Bolat") return account(2, "Bolat");
        return std::nullopt;
      };
      h.start_game = [this](const PairedGame& g) {
        games.push_back(g);
        const std::string n = std::to_string(games.size());
        return PairedSeats{"", "game" + n, "w" + n, "b" + n};
      };
      h.playing = [] { return std::pair<int, int>{0, 0}; };
      h.instance = {'i', char('0' + i)};
      h.publish = [this](const std::string& m) { bus.push_back(m); };
      h.claim = [this](const std::string& id) { return claims.insert(id).second; };
      lobbies[i] = std::make_unique<Lobby>(std::move(h));
    }
  }
  // Delivers what was published (and what that publishes) to every lobby.
  void pump() {
    while (!bus.empty()) {
      const std::string m = bus.front();
      bus.pop_front();
      for (auto& l : lobbies) l->on_bus(m);
    }
  }
  void send(int i, FakeClient& c, json::object msg) { lobbies[i]->handle(c, msg); }
  std::string seek(int i, FakeClient& c) {
    send(i, c,
         json::object{{"type", "seek"},
                      {"clock", json::object{{"initial_ms", 180000}, {"increment_ms", 2000}}},
                      {"color", "white"}});
    const auto created = c.of("seek_created");
    return created.empty() ? "" : std::string(created.back().at("id").as_string());
  }
};

TEST_F(LobbyCluster, ASeekMadeOnOneInstanceIsAcceptedOnAnother) {
  FakeClient a, b, c;
  lobbies[0]->join(a, Viewer{});
  lobbies[1]->join(b, Viewer{});
  lobbies[2]->join(c, Viewer{});
  const std::string id = seek(0, a);
  ASSERT_FALSE(id.empty());
  EXPECT_TRUE(b.of("seek_added").empty());  // nothing before the bus delivers it
  pump();
  ASSERT_EQ(b.of("seek_added").size(), 1u);
  EXPECT_EQ(b.of("seek_added")[0].at("seek").at("id").as_string(), id);
  EXPECT_FALSE(b.of("seek_added")[0].at("seek").at("mine").as_bool());
  EXPECT_EQ(lobbies[2]->seeks(), 1u);
  FakeClient late;  // a socket opening later lists it
  lobbies[2]->join(late, Viewer{});
  ASSERT_EQ(late.got.at(0).at("seeks").as_array().size(), 1u);

  send(1, b, json::object{{"type", "accept"}, {"id", id}});
  ASSERT_EQ(b.of("start").size(), 1u);
  EXPECT_EQ(b.of("start")[0].at("side").as_string(), "black");
  EXPECT_EQ(b.of("start")[0].at("token").as_string(), "b1");
  EXPECT_TRUE(a.of("start").empty());
  pump();
  ASSERT_EQ(a.of("start").size(), 1u);
  EXPECT_EQ(a.of("start")[0].at("game").as_string(), "game1");
  EXPECT_EQ(a.of("start")[0].at("side").as_string(), "white");
  EXPECT_EQ(a.of("start")[0].at("token").as_string(), "w1");
  EXPECT_EQ(games.size(), 1u);
  for (auto& l : lobbies) EXPECT_EQ(l->seeks(), 0u);
  EXPECT_EQ(c.of("seek_removed").size(), 1u);
}

TEST_F(LobbyCluster, TwoAcceptsOnTwoInstancesMakeOneGame) {
  FakeClient a, b, c;
  lobbies[0]->join(a, Viewer{});
  lobbies[1]->join(b, Viewer{});
  lobbies[2]->join(c, Viewer{});
  const std::string id = seek(0, a);
  pump();
  send(1, b, json::object{{"type", "accept"}, {"id", id}});
  send(2, c, json::object{{"type", "accept"}, {"id", id}});  // before the first is heard of
  pump();
  EXPECT_EQ(games.size(), 1u);
  EXPECT_EQ(b.of("start").size(), 1u);
  EXPECT_TRUE(c.of("start").empty());
  ASSERT_EQ(c.of("error").size(), 1u);
  EXPECT_NE(std::string(c.of("error")[0].at("message").as_string()).find("no such seek"),
            std::string::npos);
  EXPECT_EQ(a.of("start").size(), 1u);
}

TEST_F(LobbyCluster, AnAcceptElsewhereWinsOverALaterCancel) {
  FakeClient a, b;
  lobbies[0]->join(a, Viewer{});
  lobbies[1]->join(b, Viewer{});
  const std::string id = seek(0, a);
  pump();
  send(1, b, json::object{{"type", "accept"}, {"id", id}});
  send(0, a, json::object{{"type", "cancel"}, {"id", id}});
  ASSERT_EQ(a.of("error").size(), 1u);
  pump();
  EXPECT_EQ(a.of("start").size(), 1u);
  EXPECT_EQ(games.size(), 1u);
}

TEST_F(LobbyCluster, AChallengeReachesTheOtherInstance) {
  FakeClient a, b, c;
  lobbies[0]->join(a, account(1, "Aigerim"));
  lobbies[1]->join(b, account(2, "Bolat"));
  lobbies[2]->join(c, Viewer{});
  send(0, a, json::object{{"type", "challenge"}, {"to", "Bolat"}, {"color", "black"}});
  ASSERT_EQ(a.of("challenge_created").size(), 1u);
  const std::string id(a.of("challenge_created")[0].at("id").as_string());
  pump();
  ASSERT_EQ(b.of("challenge").size(), 1u);
  EXPECT_EQ(b.of("challenge")[0].at("challenge").at("from").as_string(), "Aigerim");
  EXPECT_TRUE(c.of("challenge").empty());  // for the challenged account only
  send(1, b, json::object{{"type", "challenge_accept"}, {"id", id}});
  ASSERT_EQ(b.of("start").size(), 1u);
  EXPECT_EQ(b.of("start")[0].at("side").as_string(), "white");
  pump();
  ASSERT_EQ(a.of("start").size(), 1u);
  EXPECT_EQ(a.of("start")[0].at("side").as_string(), "black");
  EXPECT_EQ(a.of("start")[0].at("game").as_string(), b.of("start")[0].at("game").as_string());
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].white.username, "Bolat");
  EXPECT_EQ(games[0].black.username, "Aigerim");

  // A declined challenge: the challenger hears why, and it is gone everywhere.
  send(0, a, json::object{{"type", "challenge"}, {"to", "Bolat"}});
  const std::string second(a.of("challenge_created").back().at("id").as_string());
  pump();
  send(1, b, json::object{{"type", "challenge_decline"}, {"id", second}});
  pump();
  const auto gone = a.of("challenge_gone");
  ASSERT_FALSE(gone.empty());
  EXPECT_EQ(gone.back().at("id").as_string(), second);
  EXPECT_EQ(gone.back().at("reason").as_string(), "declined");
  send(1, b, json::object{{"type", "challenge_accept"}, {"id", second}});
  EXPECT_EQ(games.size(), 1u);
}

}  // namespace
}  // namespace toguz::server
