// `toguz serve` on PostgreSQL: an online game played, the server restarted on the same
// database, the game recovered and played on, and the games search answered from there.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include "../unit/server_client.h"
#include "pg_cluster.h"

namespace toguz::test {
namespace {

TEST(PostgresServer, GameSurvivesARestart) {
  NEED_PG(pg);
  const std::string db = pg->create_database();
  std::string id, wt, bt;
  {
    TestServer srv(db);
    HttpResult c = http_post(srv.port, "/api/games",
                             json::value(json::object{{"mode", "online"}, {"name", "Айгерим"}}));
    ASSERT_EQ(c.status, 200) << c.body;
    id = jstr(c.json().at("id"));
    wt = jstr(c.json().at("token"));
    HttpResult j =
        http_post(srv.port, "/api/games/" + id + "/join",
                  json::value(json::object{{"invite", c.json().at("invite")}, {"name", "Bolat"}}));
    ASSERT_EQ(j.status, 200) << j.body;
    bt = jstr(j.json().at("token"));
    WsClient players[2] = {WsClient(srv.port, id, wt), WsClient(srv.port, id, bt)};
    const int holes[] = {7, 3, 5};
    for (int ply = 0; ply < 3; ++ply) {
      players[ply % 2].send(json::object{{"type", "move"}, {"hole", holes[ply]}, {"ply", ply}});
      ASSERT_TRUE(players[ply % 2].read_state(
          [&](const json::object& s) { return jint(s.at("ply")) == ply + 1; }));
    }
  }
  TestServer srv(db);
  HttpResult got = http_get(srv.port, "/api/games/" + id);
  ASSERT_EQ(got.status, 200) << got.body;
  const json::value g = got.json().at("game");
  EXPECT_EQ(jint(g.at("ply")), 3);
  EXPECT_EQ(jstr(g.at("status")), "playing");
  EXPECT_EQ(jint(g.at("moves").at(0).at("hole")), 7);
  EXPECT_EQ(jint(g.at("moves").at(2).at("hole")), 5);
  WsClient b(srv.port, id, bt);
  ASSERT_TRUE(
      b.read_state([](const json::object& g) { return !g.at("legal").as_array().empty(); }));
  b.send(json::object{{"type", "move"}, {"hole", 1}, {"ply", 3}});
  ASSERT_TRUE(b.read_state([](const json::object& g) { return jint(g.at("ply")) == 4; }));

  HttpResult list = http_get(srv.port, "/api/games?player=%D0%90%D0%99%D0%93%D0%95%D0%A0");
  ASSERT_EQ(list.status, 200) << list.body;
  ASSERT_EQ(list.json().at("games").as_array().size(), 1u) << list.body;  // АЙГЕР finds Айгерим
  EXPECT_EQ(jstr(list.json().at("games").at(0).at("id")), id);

  pqxx::connection c(db);
  pqxx::work tx(c);
  EXPECT_EQ(tx.exec_params("SELECT COUNT(*) FROM moves WHERE game_id = $1", id)[0][0].as<int>(), 4);
}

}  // namespace
}  // namespace toguz::test
