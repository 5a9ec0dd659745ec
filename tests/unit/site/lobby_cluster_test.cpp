// The lobby across instances without sockets or Redis (site/lobby/lobby.h, LobbyHooks' publish and
// claim): three Lobby objects on one fake bus (every message delivered to every lobby, in
// order, when the test pumps it) and one shared set of claims. A seek made on one is listed
// and accepted on another, and the seeker gets his start; two accepts of one seek on two
// instances make one game; an accept wins over a later cancel; a challenge reaches the
// challenged account's instance and its accept starts the game for both; a declined one is
// gone everywhere. The pools: players waiting on two instances are paired once, by the
// coordinator only, which a new coordinator takes over with every waiting player; the online
// counts are summed.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "lobby_fakes.h"
#include "site/lobby/lobby.h"

namespace toguz::site {
namespace {

namespace json = boost::json;

using test::account;
using test::FakeClient;

struct LobbyCluster : ::testing::Test {
  std::deque<std::string> bus;
  std::set<std::string> claims;
  std::vector<PairedGame> games;  // every instance's, in order
  uint64_t counter = 0;
  int coordinator = 2;  // the lobby that pairs the pools (-1: none)
  int64_t now = 1000000;
  std::vector<int64_t> users[3];  // each instance's accounts
  std::unique_ptr<Lobby> lobbies[3];

  LobbyCluster() {
    for (int i = 0; i < 3; ++i) {
      LobbyHooks h;
      h.now_ms = [this] { return now; };
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
      h.coordinator = [this, i] { return coordinator == i; };
      h.users = [this, i] { return users[i]; };
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
  void pool_join(int i, FakeClient& c, const std::string& pool = "3+0") {
    send(i, c, json::object{{"type", "pool_join"}, {"pool", pool}});
  }
  // How many wait in `pool` as a socket opening on lobby i is told.
  int64_t waiting(int i, const std::string& pool = "3+0") {
    FakeClient probe;
    lobbies[i]->join(probe, Viewer{});
    lobbies[i]->leave(probe);
    for (const json::value& p : probe.got.at(0).at("pools").as_array())
      if (p.at("id").as_string() == pool) return p.at("waiting").as_int64();
    return -1;
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

TEST_F(LobbyCluster, TwoPlayersInAPoolOnTwoInstancesGetOneGame) {
  coordinator = -1;  // none for now: nobody pairs
  FakeClient a, b;
  lobbies[0]->join(a, Viewer{});
  lobbies[1]->join(b, Viewer{});
  pool_join(0, a);
  pool_join(1, b);
  pump();
  for (auto& l : lobbies) l->tick();
  pump();
  EXPECT_TRUE(games.empty());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(waiting(i), 2) << "lobby " << i;

  coordinator = 2;
  for (auto& l : lobbies) l->tick();
  EXPECT_TRUE(a.of("start").empty());  // the pairing is on the bus
  pump();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].initial_ms, 180000);
  EXPECT_EQ(games[0].increment_ms, 0);
  ASSERT_EQ(a.of("start").size(), 1u);
  ASSERT_EQ(b.of("start").size(), 1u);
  EXPECT_EQ(a.of("start")[0].at("game"), b.of("start")[0].at("game"));
  EXPECT_NE(a.of("start")[0].at("side"), b.of("start")[0].at("side"));
  EXPECT_NE(a.of("start")[0].at("token"), b.of("start")[0].at("token"));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(waiting(i), 0) << "lobby " << i;
  for (auto& l : lobbies) l->tick();
  pump();
  EXPECT_EQ(games.size(), 1u);
}

TEST_F(LobbyCluster, AnotherCoordinatorPairsWhoWaitedBeforeIt) {
  coordinator = 0;
  FakeClient a, b, c;
  lobbies[1]->join(a, Viewer{});
  lobbies[2]->join(b, Viewer{});
  lobbies[1]->join(c, Viewer{});
  pool_join(1, a);
  pump();
  EXPECT_TRUE(games.empty());
  // The coordinator is gone; lobby 2 holds the lease now (lobby 0 is not told, and stops).
  coordinator = 2;
  pool_join(2, b);
  pump();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(a.of("start").size(), 1u);
  EXPECT_EQ(b.of("start").size(), 1u);

  // A player who left the pool is not paired.
  pool_join(1, c);
  send(1, c, json::object{{"type", "pool_leave"}});
  pump();
  FakeClient d;
  lobbies[0]->join(d, Viewer{});
  pool_join(0, d);
  pump();
  EXPECT_EQ(games.size(), 1u);
  EXPECT_TRUE(c.of("start").empty());
  EXPECT_EQ(waiting(2), 1);
}

TEST_F(LobbyCluster, TheOnlineCountsAreSummed) {
  FakeClient a, b, c;
  lobbies[0]->join(a, account(1, "Aigerim"));
  lobbies[1]->join(b, account(2, "Bolat"));
  lobbies[1]->join(c, Viewer{});
  users[0] = {1};
  users[1] = {2};
  for (auto& l : lobbies) l->tick();
  pump();
  now += kLobbyBroadcastMs;
  for (auto& l : lobbies) l->tick();
  ASSERT_FALSE(a.of("online").empty());
  EXPECT_EQ(a.of("online").back().at("players").as_int64(), 3);
  EXPECT_EQ(c.of("online").back().at("players").as_int64(), 3);
  EXPECT_TRUE(lobbies[2]->online_elsewhere(1));
  EXPECT_TRUE(lobbies[0]->online_elsewhere(2));
  EXPECT_FALSE(lobbies[0]->online_elsewhere(1));  // its own are not elsewhere
  EXPECT_FALSE(lobbies[2]->online_elsewhere(3));
}

}  // namespace
}  // namespace toguz::site
