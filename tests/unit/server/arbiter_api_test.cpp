// The arbiter page's API over real sockets (site/arbiter/arbiter_api.h): a five-player Swiss
// through three rounds with a typed game, a typed game with an error named, the refusals, the event
// kept across a restart, and its TGK file read back by the project's TGK parser; the exchange
// file (TRF) exported with the key, imported as a new event and exported again to the same text,
// a damaged one refused with its line; a finished rated event's TGK file in
// --ratings-events-dir, rated by the federation's calculation to the changes worked out by hand.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "rated_event_file.h"
#include "rules/record.h"
#include "server_client.h"
#include "tournament/tgk.h"
#include "tournament/trf.h"

namespace toguz::test {
namespace {

// The master game's opening as typed from a scoresheet (White resigned nothing: 1-0 stands as
// recorded).
constexpr const char* kTypedGame =
    "1. 65 87 2. 55 99 3. 34 35 4. 34 89 5. 91 45 6. 48 92 7. 62 78 8. 91 58 9. 15";

struct Arbiter {
  uint16_t port;
  std::string id, key;

  HttpResult post(const std::string& action, json::object body) const {
    body["key"] = key;
    return http_post(port, "/api/events/" + id + "/" + action, json::value(std::move(body)));
  }
  json::value event() const {
    HttpResult r = http_get(port, "/api/events/" + id);
    EXPECT_EQ(r.status, 200) << r.body;
    json::value v = r.json();
    return v.is_object() ? v.at("event") : json::value(nullptr);
  }
};

Arbiter create(uint16_t port, json::object body) {
  HttpResult r = http_post(port, "/api/events", json::value(std::move(body)));
  EXPECT_EQ(r.status, 200) << r.body;
  json::value v = r.json();
  if (!v.is_object()) return {port, "", ""};
  return {port, jstr(v.at("id")), jstr(v.at("key"))};
}

const char* kPlayers[][3] = {{"Eleusiz, Nurlan", "2200", "GM"},
                             {"Aktayev, Serik", "2100", ""},
                             {"Кажгалиев Темірлан", "2050", "MS"},
                             {"Сапарбеков Сәбит", "1990", ""},
                             {"Smith & <Sons>", "0", ""}};

void enter_players(const Arbiter& a) {
  for (const auto& p : kPlayers) {
    HttpResult r = a.post(
        "players", json::object{{"name", p[0]}, {"rating", std::stoi(p[1])}, {"title", p[2]}});
    ASSERT_EQ(r.status, 200) << r.body;
  }
}

TEST(ArbiterApi, SwissOfFivePlayersThroughThreeRoundsAndItsTgk) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  Arbiter a;
  // The results entered, board by board, to compare with the TGK file.
  std::vector<std::vector<std::string>> results;
  {
    TestServer srv(db);
    a = create(srv.port, json::object{{"name", "Кубок <РК>"},
                                      {"site", "Astana, KZ"},
                                      {"date", "2026.12.01"},
                                      {"system", "swiss"},
                                      {"rounds", 3}});
    ASSERT_FALSE(a.id.empty());
    EXPECT_EQ(a.key.size(), 43u);
    enter_players(a);
    json::value ev = a.event();
    EXPECT_EQ(ev.at("players").as_array().size(), 5u);
    EXPECT_EQ(jstr(ev.at("next")), "pair");
    EXPECT_EQ(jint(ev.at("rounds")), 3);

    const std::vector<std::string> pattern = {"1-0", "1/2-1/2", "0-1", "1-0"};
    for (int round = 1; round <= 3; ++round) {
      HttpResult p = a.post("pair", {});
      ASSERT_EQ(p.status, 200) << p.body;
      const json::value answer = p.json();
      const json::value& r = answer.at("event").at("played").as_array().back();
      const json::array& boards = r.at("boards").as_array();
      // Five players: two boards and a bye, every player once.
      ASSERT_EQ(boards.size(), 2u);
      ASSERT_EQ(r.at("byes").as_array().size(), 1u);
      std::set<int64_t> seen{jint(r.at("byes").at(0))};
      for (const json::value& b : boards) {
        seen.insert(jint(b.at("white")));
        seen.insert(jint(b.at("black")));
      }
      EXPECT_EQ(seen.size(), 5u) << "round " << round;
      EXPECT_EQ(jstr(answer.at("event").at("next")), "results");
      // Not paired again before every result is in, and the event stays as it was.
      HttpResult early = a.post("pair", {});
      EXPECT_EQ(early.status, 409);
      EXPECT_EQ(jstr(early.json().at("error")),
                "round " + std::to_string(round) + " still has boards without a result");
      EXPECT_EQ(a.event().at("played").as_array().size(), size_t(round));
      results.emplace_back();
      for (int b = 1; b <= 2; ++b) {
        const std::string res = pattern[(round + b) % pattern.size()];
        json::object body{{"board", b}, {"result", res}};
        if (round == 1 && b == 1) {
          body["result"] = "1-0";
          body["moves"] = kTypedGame;
        }
        HttpResult e = a.post("result", body);
        ASSERT_EQ(e.status, 200) << e.body;
        results.back().push_back(jstr(body["result"]));
      }
    }
    ev = a.event();
    EXPECT_EQ(jstr(ev.at("next")), "done");
    EXPECT_EQ(jint(ev.at("played").at(0).at("boards").at(0).at("moves")), 17);
    HttpResult more = a.post("pair", {});
    EXPECT_EQ(more.status, 409) << more.body;
  }

  // After a restart the event is still there, and its pages read it.
  TestServer srv(db);
  a.port = srv.port;
  const json::value ev = a.event();
  ASSERT_TRUE(ev.is_object());
  EXPECT_EQ(jstr(ev.at("name")), "Кубок <РК>");
  EXPECT_EQ(ev.at("played").as_array().size(), 3u);
  // Standings: everyone once, best first; 3 rounds of two games and a bye are 9 points.
  const json::array& st = ev.at("standings").as_array();
  ASSERT_EQ(st.size(), 5u);
  double total = 0;
  for (size_t i = 0; i < st.size(); ++i) {
    total += std::stod(jstr(st[i].at("points")));
    if (i > 0) {
      EXPECT_GE(std::stod(jstr(st[i - 1].at("points"))), std::stod(jstr(st[i].at("points"))));
    }
    EXPECT_EQ(st[i].at("tie_breaks").as_array().size(), ev.at("tie_breaks").as_array().size());
  }
  EXPECT_EQ(total, 9.0);

  HttpResult page = http_get(srv.port, "/api/events/" + a.id + "/standings");
  ASSERT_EQ(page.status, 200);
  EXPECT_NE(page.content_type.find("text/html"), std::string::npos);
  EXPECT_NE(page.body.find("Smith &amp; &lt;Sons&gt;"), std::string::npos);
  EXPECT_EQ(page.body.find("<Sons>"), std::string::npos);
  EXPECT_NE(page.body.find("Кубок &lt;РК&gt;"), std::string::npos);
  EXPECT_NE(page.body.find("Crosstable"), std::string::npos);
  HttpResult pairings = http_get(srv.port, "/api/events/" + a.id + "/pairings?round=2");
  ASSERT_EQ(pairings.status, 200);
  EXPECT_NE(pairings.body.find("Round 2 of 3"), std::string::npos);
  EXPECT_EQ(http_get(srv.port, "/api/events/" + a.id + "/pairings?round=4").status, 400);

  // The TGK file: six games with the federation's tags, read back by the TGK parser.
  HttpResult tgk = http_get(srv.port, "/api/events/" + a.id + "/tgk");
  ASSERT_EQ(tgk.status, 200);
  EXPECT_NE(std::string(tgk.headers[http::field::content_disposition]).find(".tgk"),
            std::string::npos);
  const std::vector<Record> records = read_records(tgk.body);
  ASSERT_EQ(records.size(), 6u);
  for (size_t g = 0; g < records.size(); ++g) {
    const Record& rec = records[g];
    EXPECT_EQ(rec.tag("Event"), "Кубок <РК>");
    EXPECT_EQ(rec.tag("Site"), "Astana, KZ");
    EXPECT_EQ(rec.tag("Date"), "2026.12.01");
    EXPECT_EQ(rec.tag("Round"), std::to_string(g / 2 + 1));
    EXPECT_TRUE(rec.tag("White").has_value() && rec.tag("Black").has_value());
    EXPECT_EQ(rec.tag("Result"), results[g / 2][g % 2]);
  }
  EXPECT_EQ(records[0].plies.size(), 17u);
  const tournament::Event back = tournament::event_from_tgk(tgk.body, tournament::System::Swiss);
  EXPECT_EQ(back.name, "Кубок <РК>");
  EXPECT_EQ(back.players.size(), 5u);
  ASSERT_EQ(back.played.size(), 3u);
  for (size_t r = 0; r < 3; ++r) {
    ASSERT_EQ(back.played[r].boards.size(), 2u);
    EXPECT_EQ(back.played[r].byes.size(), 1u);
    for (size_t b = 0; b < 2; ++b)
      EXPECT_EQ(tournament::board_result_text(back.played[r].boards[b].result),
                results[r][b] == "1/2-1/2" ? "1/2-1/2" : results[r][b]);
  }
  EXPECT_EQ(back.played[0].boards[0].moves.size(), 17u);
}

TEST(ArbiterApi, TypedGameWithAnErrorIsNamedAndChangesNothing) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  Arbiter a = create(srv.port, json::object{{"system", "round-robin"}});
  enter_players(a);
  ASSERT_EQ(a.post("pair", {}).status, 200);
  const std::string before = json::serialize(a.event());
  HttpResult e = a.post(
      "result",
      json::object{{"board", 1}, {"result", "0-1"}, {"moves", "1. 65 87 2. 55 99(12) 3. 34(21)"}});
  EXPECT_EQ(e.status, 400);
  EXPECT_EQ(jstr(e.json().at("error")),
            "moves: move 3 (White), '34(21)': the mover's kazna is 22 after the move, not 21 "
            "(expected 34 (22))");
  EXPECT_EQ(jstr(e.json().at("code")), "typed_move");
  EXPECT_EQ(jstr(e.json().at("params").at("token")), "34(21)");
  // A result the moves contradict, a forfeit with moves: named too.
  HttpResult forfeit =
      a.post("result", json::object{{"board", 1}, {"result", "+-"}, {"moves", "1. 65"}});
  EXPECT_EQ(forfeit.status, 400);
  EXPECT_EQ(jstr(forfeit.json().at("error")), "moves: a forfeit has no moves");
  EXPECT_EQ(json::serialize(a.event()), before);
  // The same moves typed right go in.
  HttpResult ok = a.post(
      "result",
      json::object{{"board", 1}, {"result", "0-1"}, {"moves", "1. 65 87 2. 55 99(12) 3. 34(22)"}});
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(jint(ok.json().at("event").at("played").at(0).at("boards").at(0).at("moves")), 5);
}

TEST(ArbiterApi, BadRequestsAreRefusedAndNameTheField) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  // The code the arbiter page translates a refusal by ("" for none).
  auto code = [](const HttpResult& r) {
    const json::value v = r.json();
    const json::value* c = v.is_object() ? v.as_object().if_contains("code") : nullptr;
    return c && c->is_string() ? jstr(*c) : std::string();
  };
  struct Bad {
    std::string body, field, code;  // code "": not checked (a field's generic refusal)
  };
  for (const Bad& b :
       {Bad{R"({"system":"knockout"})", "system", "event_system"},
        Bad{R"({"system":"swiss"})", "rounds", "event_rounds"},
        Bad{R"({"system":"swiss","rounds":51})", "rounds", ""},
        Bad{R"({"system":"round-robin","rounds":3})", "rounds", "event_rounds_berger"},
        Bad{R"({"system":"swiss","rounds":3,"date":"1 Dec"})", "date", "event_date"},
        Bad{R"({"system":"swiss","rounds":3,"name":7})", "name", ""},
        Bad{R"({"system":"swiss","rounds":3,"tie_breaks":["coin"]})", "tie_breaks",
            "event_tie_breaks"},
        Bad{R"({"system":"swiss","rounds":3,"tie_breaks":"wins"})", "tie_breaks",
            "event_tie_breaks"},
        Bad{R"([1,2])", "body", ""}}) {
    HttpResult r = http_post(port, "/api/events", b.body);
    EXPECT_EQ(r.status, 400) << b.body;
    EXPECT_EQ(jstr(r.json().at("error")).rfind(b.field + ":", 0), 0u) << r.body;
    if (!b.code.empty()) {
      EXPECT_EQ(code(r), b.code) << r.body;
    }
  }
  Arbiter a = create(port, json::object{{"system", "swiss"}, {"rounds", 2}});
  // Nothing changes without the key.
  Arbiter thief = a;
  thief.key = "x";
  HttpResult r = thief.post("players", json::object{{"name", "Intruder"}});
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(jstr(r.json().at("code")), "wrong_key");
  thief.key = "";
  EXPECT_EQ(thief.post("players", json::object{{"name", "Intruder"}}).status, 403);
  EXPECT_EQ(a.event().at("players").as_array().size(), 0u);
  // One player cannot be paired; a name twice, an empty name, a bad rating.
  EXPECT_EQ(a.post("players", json::object{{"name", "Aigerim"}}).status, 200);
  EXPECT_EQ(a.post("pair", {}).status, 409);
  HttpResult twice = a.post("players", json::object{{"name", " Aigerim "}});
  EXPECT_EQ(twice.status, 409);
  EXPECT_EQ(code(twice), "event_player_entered");
  HttpResult empty = a.post("players", json::object{{"name", "  "}});
  EXPECT_EQ(empty.status, 400);
  EXPECT_EQ(code(empty), "event_player_name");
  EXPECT_EQ(a.post("players", json::object{{"name", "Bolat"}, {"rating", -5}}).status, 400);
  HttpResult early = a.post("result", json::object{{"board", 1}, {"result", "1-0"}});
  EXPECT_EQ(early.status, 409);
  EXPECT_EQ(code(early), "event_no_round");
  EXPECT_EQ(a.post("players", json::object{{"name", "Bolat"}, {"rating", 1800}}).status, 200);
  ASSERT_EQ(a.post("pair", {}).status, 200);
  // A Swiss takes late players (paired from the next round); a round robin does not.
  EXPECT_EQ(a.post("players", json::object{{"name", "Late"}}).status, 200);
  Arbiter rr = create(port, json::object{{"system", "round-robin"}});
  for (const char* name : {"A", "B"})
    ASSERT_EQ(rr.post("players", json::object{{"name", name}}).status, 200);
  ASSERT_EQ(rr.post("pair", {}).status, 200);
  HttpResult late = rr.post("players", json::object{{"name", "Late"}});
  EXPECT_EQ(late.status, 409);
  EXPECT_EQ(code(late), "event_players_closed");
  // No such player to correct or withdraw; a round with a result is not paired again.
  HttpResult nobody = a.post("player", json::object{{"player", 9}, {"name", "X"}});
  EXPECT_EQ(nobody.status, 400);
  EXPECT_EQ(code(nobody), "event_player");
  EXPECT_EQ(code(a.post("withdraw", json::object{{"player", 0}})), "event_player");
  EXPECT_EQ(code(a.post("player", json::object{{"player", 1}, {"name", "Bolat"}})),
            "event_player_entered");
  EXPECT_EQ(a.post("result", json::object{{"board", 2}, {"result", "1-0"}}).status, 400);
  HttpResult bad_result = a.post("result", json::object{{"board", 1}, {"result", "2-0"}});
  EXPECT_EQ(bad_result.status, 400);
  EXPECT_EQ(code(bad_result), "event_result");
  EXPECT_EQ(a.post("result", json::object{{"board", 1}, {"round", 2}, {"result", "1-0"}}).status,
            400);
  EXPECT_EQ(jstr(a.event().at("played").at(0).at("boards").at(0).at("result")), "*");
  // Unknown events and endpoints, wrong methods.
  HttpResult none = http_get(port, "/api/events/nosuchevent");
  EXPECT_EQ(none.status, 404);
  EXPECT_EQ(jstr(none.json().at("code")), "no_event");
  HttpResult nothing = http_get(port, "/api/events/" + a.id + "/nothing");
  EXPECT_EQ(nothing.status, 404);
  EXPECT_EQ(code(nothing), "no_endpoint");
  EXPECT_EQ(http_get(port, "/api/events/" + std::string(200, 'a')).status, 404);
  HttpResult get_create = http_get(port, "/api/events");
  EXPECT_EQ(get_create.status, 405);
  EXPECT_EQ(std::string(get_create.headers[http::field::allow]), "POST");
  EXPECT_EQ(code(get_create), "method_not_allowed");
  EXPECT_EQ(http_post(port, "/api/events/" + a.id + "/tgk", std::string("{}")).status, 405);
  // The Origin of another site is refused before anything is read.
  HttpResult cross = http_call(port, http::verb::post, "/api/events/" + a.id + "/pair",
                               json::serialize(json::object{{"key", a.key}}),
                               {{http::field::origin, "http://evil.example"}});
  EXPECT_EQ(cross.status, 403);
  EXPECT_EQ(jstr(a.event().at("next")), "results");
}

// The arbiter's corrections: a name and rating corrected (the games stay), a late player and
// the round paired again while it has no result, a withdrawn player left out of the next round
// (and a round robin's boards against him made forfeits), the print pages in Russian.
TEST(ArbiterApi, PlayersCorrectedWithdrawnLateAndARoundPairedAgain) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  Arbiter a = create(srv.port, json::object{{"system", "swiss"}, {"rounds", 3}, {"name", "Кубок"}});
  for (const char* name : {"Асан", "Бакыт", "Дана", "Ержан"})
    ASSERT_EQ(a.post("players", json::object{{"name", name}}).status, 200);
  HttpResult fixed =
      a.post("player", json::object{{"player", 2}, {"name", "Бакытбек"}, {"rating", 2100}});
  ASSERT_EQ(fixed.status, 200) << fixed.body;
  EXPECT_EQ(jstr(a.event().at("players").at(1).at("name")), "Бакытбек");
  EXPECT_EQ(a.event().at("players").at(1).at("rating").as_int64(), 2100);
  ASSERT_EQ(a.post("pair", {}).status, 200);
  // a late player: round 1 paired again takes him (five players: a bye)
  ASSERT_EQ(a.post("players", json::object{{"name", "Жанар"}}).status, 200);
  HttpResult again = a.post("unpair", {});
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(a.event().at("played").as_array().size(), 0u);
  ASSERT_EQ(a.post("pair", {}).status, 200);
  const json::value r1 = a.event().at("played").at(0);
  EXPECT_EQ(r1.at("boards").as_array().size(), 2u);
  EXPECT_EQ(r1.at("byes").as_array().size(), 1u);
  // a result in: no new pairing of that round
  ASSERT_EQ(a.post("result", json::object{{"board", 1}, {"result", "1-0"}}).status, 200);
  HttpResult late = a.post("unpair", {});
  EXPECT_EQ(late.status, 409);
  EXPECT_EQ(jstr(late.json().at("code")), "event_round_has_results");
  ASSERT_EQ(a.post("result", json::object{{"board", 2}, {"result", "0-1"}}).status, 200);
  // a withdrawal: four left, two boards and no bye in round 2; his game of round 1 stands
  const int64_t out = r1.at("boards").at(0).at("white").as_int64();
  ASSERT_EQ(a.post("withdraw", json::object{{"player", out + 1}, {"withdrawn", true}}).status, 200);
  EXPECT_TRUE(a.event().at("players").at(out).at("withdrawn").as_bool());
  ASSERT_EQ(a.post("pair", {}).status, 200);
  const json::value r2 = a.event().at("played").at(1);
  EXPECT_EQ(r2.at("boards").as_array().size(), 2u);
  EXPECT_EQ(r2.at("byes").as_array().size(), 0u);
  for (const json::value& b : r2.at("boards").as_array()) {
    EXPECT_NE(b.at("white").as_int64(), out);
    EXPECT_NE(b.at("black").as_int64(), out);
  }
  EXPECT_EQ(jstr(a.event().at("played").at(0).at("boards").at(0).at("result")), "1-0");
  // the print pages in Russian
  const std::string page = http_get(srv.port, "/api/events/" + a.id + "/standings?lang=ru").body;
  EXPECT_NE(page.find("<html lang=\"ru\">"), std::string::npos);
  EXPECT_NE(page.find("Турнирная таблица"), std::string::npos) << page;
  EXPECT_NE(page.find("(выбыл)"), std::string::npos);
  EXPECT_EQ(page.find("Crosstable"), std::string::npos);
  const std::string pairings =
      http_get(srv.port, "/api/events/" + a.id + "/pairings?round=1&lang=kk").body;
  EXPECT_NE(pairings.find("3 турдың 1-туры"), std::string::npos) << pairings;
  EXPECT_NE(http_get(srv.port, "/api/events/" + a.id + "/standings").body.find("Crosstable"),
            std::string::npos);
  // a round robin: a withdrawn player's boards are forfeit wins for his opponents
  Arbiter rr = create(srv.port, json::object{{"system", "round-robin"}});
  for (const char* name : {"A", "B", "C", "D"})
    ASSERT_EQ(rr.post("players", json::object{{"name", name}}).status, 200);
  ASSERT_EQ(rr.post("withdraw", json::object{{"player", 4}}).status, 200);
  ASSERT_EQ(rr.post("pair", {}).status, 200);
  int forfeits = 0;
  const json::value rr_event = rr.event();  // held: the loop reads into it
  for (const json::value& b : rr_event.at("played").at(0).at("boards").as_array()) {
    const bool white_out = b.at("white").as_int64() == 3, black_out = b.at("black").as_int64() == 3;
    if (white_out || black_out) {
      EXPECT_EQ(jstr(b.at("result")), white_out ? "-+" : "+-");
      ++forfeits;
    }
  }
  EXPECT_EQ(forfeits, 1);
  EXPECT_EQ(rr.post("unpair", {}).status, 200);  // only the pairing's own forfeit in it
}

// A correspondence game (days per move): created by link, it waits across a restart, a claim is
// refused while the opponent has time, and once his time is up (the deadline moved into the
// past in the stored row while the server is down) the claim wins on time.
TEST(Correspondence, WaitsAcrossRestartsAndIsWonOnTimeWhenClaimed) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  std::string id, white_token, black_token;
  {
    TestServer srv(db);
    EXPECT_EQ(http_post(srv.port, "/api/games",
                        json::value(json::object{{"mode", "online"}, {"days_per_move", 4}}))
                  .status,
              400);
    EXPECT_EQ(http_post(srv.port, "/api/games",
                        json::value(json::object{{"mode", "engine"}, {"days_per_move", 3}}))
                  .status,
              400);
    HttpResult c = http_post(
        srv.port, "/api/games",
        json::value(json::object{{"mode", "online"}, {"color", "white"}, {"days_per_move", 3}}));
    ASSERT_EQ(c.status, 200) << c.body;
    id = jstr(c.json().at("id"));
    white_token = jstr(c.json().at("token"));
    HttpResult j = http_post(srv.port, "/api/games/" + id + "/join",
                             json::value(json::object{{"invite", c.json().at("invite")}}));
    ASSERT_EQ(j.status, 200) << j.body;
    black_token = jstr(j.json().at("token"));
    WsClient w(srv.port, id, white_token);
    auto g = w.read_state([](const json::object&) { return true; });
    ASSERT_TRUE(g);
    const int hole = int(g->at("legal").as_array().at(0).as_int64());
    w.send(json::object{{"type", "move"}, {"hole", hole}, {"ply", 0}});
    auto after = w.read_state([](const json::object& s) { return jint(s.at("ply")) == 1; });
    ASSERT_TRUE(after);
    const json::value& corr = after->at("correspondence");
    EXPECT_EQ(jint(corr.at("days_per_move")), 3);
    const int64_t left =
        jint(corr.at("deadline_ms")) - std::chrono::duration_cast<std::chrono::milliseconds>(
                                           std::chrono::system_clock::now().time_since_epoch())
                                           .count();
    EXPECT_GT(left, 3 * 86400000LL - 600000);
    EXPECT_LE(left, 3 * 86400000LL);
    // Black is away, which is normal here: no claim until his time is up.
    EXPECT_FALSE(after->at("can_claim").as_bool());
    w.send(json::object{{"type", "claim_win"}});
    auto refused = w.read_type("error");
    ASSERT_TRUE(refused);
    EXPECT_EQ(jstr(refused->at("message")), "claim_win: the opponent's time is not up");
  }
  // Black's time runs out while the server is down.
  sqlite_run(db, "UPDATE games SET move_deadline_ms = 1000 WHERE id = '" + id + "'");
  TestServer srv(db);
  {
    // Black to move cannot claim against himself.
    WsClient b(srv.port, id, black_token);
    auto g = b.read_state([](const json::object&) { return true; });
    ASSERT_TRUE(g);
    EXPECT_EQ(jint(g->at("ply")), 1);
    EXPECT_FALSE(g->at("can_claim").as_bool());
    b.send(json::object{{"type", "claim_win"}});
    auto refused = b.read_type("error");
    ASSERT_TRUE(refused);
    EXPECT_EQ(jstr(refused->at("message")), "claim_win: it is your move");
  }
  WsClient w(srv.port, id, white_token);
  auto g = w.read_state([](const json::object& s) { return s.at("can_claim").as_bool(); });
  ASSERT_TRUE(g);
  w.send(json::object{{"type", "claim_win"}});
  // At ply 1 a claim on time calls the game off, by the side out of time (docs/accounts.md
  // "Fair play": fewer than two moves each).
  auto over = w.read_state([](const json::object& s) { return jstr(s.at("status")) == "aborted"; });
  ASSERT_TRUE(over);
  EXPECT_TRUE(over->at("result").at("winner").is_null());
  EXPECT_EQ(jstr(over->at("result").at("aborted_by")), "black");
}

// A new event read from a TRF text (POST /api/events/import).
Arbiter exchange_import(uint16_t port, const std::string& trf) {
  HttpResult r = http_post(port, "/api/events/import", json::value(json::object{{"trf", trf}}));
  EXPECT_EQ(r.status, 200) << r.body;
  const json::value v = r.json();
  if (!v.is_object()) return {port, "", ""};
  return {port, jstr(v.at("id")), jstr(v.at("key"))};
}

// The event's exchange file, downloaded with the key.
std::string exchange_trf(const Arbiter& e) {
  HttpResult r = e.post("trf", {});
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_NE(std::string(r.headers[http::field::content_disposition]).find(".trf"),
            std::string::npos);
  return r.body;
}

// Enters every board of the last round: the player entered first wins (a forfeit on `forfeit`,
// 1-based, the absent player kept, else a game).
void exchange_results(const Arbiter& e, const json::value& event, int forfeit = 0) {
  const json::array& boards = event.at("played").as_array().back().at("boards").as_array();
  for (size_t b = 0; b < boards.size(); ++b) {
    const bool white_wins = jint(boards[b].at("white")) < jint(boards[b].at("black"));
    std::string res = white_wins ? "1-0" : "0-1";
    if (int(b) + 1 == forfeit) res = white_wins ? "+-" : "-+";
    HttpResult r =
        e.post("result", json::object{{"board", int(b) + 1}, {"result", res}, {"keep", true}});
    ASSERT_EQ(r.status, 200) << r.body;
  }
}

TEST(ArbiterApi, TrfExportedImportedAndExportedAgainIsTheSameFile) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const Arbiter a = create(srv.port, json::object{{"name", "Kubok <RK>"},
                                                  {"site", "Taraz"},
                                                  {"date", "2026.12.01"},
                                                  {"system", "swiss"},
                                                  {"rounds", 4},
                                                  {"tie_breaks", json::array{"sb", "bh"}},
                                                  {"max_half_byes", 1}});
  for (const char* name : {"Aliev", "Bekov", "Cemal", "Dosov", "Erlan", "Farid"})
    ASSERT_EQ(a.post("players", json::object{{"name", name}, {"rating", 1500}}).status, 200);
  ASSERT_EQ(a.post("forbid", json::object{{"player", 1}, {"other", 2}}).status, 200);
  ASSERT_EQ(a.post("bye", json::object{{"player", 3}, {"round", 3}, {"kind", "half"}}).status, 200);
  HttpResult p = a.post("pair", {});
  ASSERT_EQ(p.status, 200) << p.body;
  exchange_results(a, p.json().at("event"), 1);
  p = a.post("pair", {});
  ASSERT_EQ(p.status, 200) << p.body;
  exchange_results(a, p.json().at("event"));

  const std::string trf = exchange_trf(a);
  EXPECT_NE(trf.find("012 Kubok <RK>"), std::string::npos) << trf;
  const Arbiter b = exchange_import(srv.port, trf);
  ASSERT_FALSE(b.id.empty());
  EXPECT_NE(b.id, a.id);
  EXPECT_EQ(exchange_trf(b), trf);

  // Pairing goes on from there, alike on both (the file lists each player's rounds: the
  // boards' order aside, the same pairings).
  ASSERT_EQ(a.post("pair", {}).status, 200);
  HttpResult pb = b.post("pair", {});
  ASSERT_EQ(pb.status, 200) << pb.body;
  const json::value eb = pb.json().at("event");
  EXPECT_EQ(eb.at("played").as_array().size(), 3u);
  EXPECT_EQ(eb.at("played").at(2).at("half_byes").as_array().size(), 1u);
  EXPECT_EQ(eb.at("forbidden").as_array().size(), 1u);
  EXPECT_EQ(eb.at("max_half_byes").as_int64(), 1);
  EXPECT_EQ(exchange_trf(b), exchange_trf(a));
}

TEST(ArbiterApi, TrfDamagedOversizedOrWithoutTheKeyIsRefused) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const Arbiter a = create(srv.port, json::object{{"system", "round-robin"}});
  for (const char* name : {"Aliev", "Bekov", "Cemal"})
    ASSERT_EQ(a.post("players", json::object{{"name", name}, {"rating", 1600}}).status, 200);
  std::string trf = exchange_trf(a);

  // The first player's rating (columns 49-52) made unreadable: refused with its line.
  std::istringstream in(trf);
  std::string damaged, line;
  int n = 0, bad_line = 0;
  while (std::getline(in, line)) {
    ++n;
    if (!bad_line && line.starts_with("001")) {
      bad_line = n;
      line.replace(48, 4, "16x0");
    }
    damaged += line + "\n";
  }
  ASSERT_GT(bad_line, 0);
  HttpResult r =
      http_post(srv.port, "/api/events/import", json::value(json::object{{"trf", damaged}}));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(jstr(r.json().at("code")), "event_trf");
  EXPECT_NE(jstr(r.json().at("error")).find("line " + std::to_string(bad_line) + ", rating"),
            std::string::npos)
      << r.body;
  r = http_post(srv.port, "/api/events/import",
                json::value(json::object{{"trf", std::string(60001, ' ')}}));
  EXPECT_EQ(r.status, 413);
  EXPECT_EQ(jstr(r.json().at("code")), "event_trf_size");

  // Only the key holder gets the file (it holds the players' ids).
  r = http_post(srv.port, "/api/events/" + a.id + "/trf", json::value(json::object{}));
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(jstr(r.json().at("code")), "wrong_key");
  r = http_post(srv.port, "/api/events/" + a.id + "/trf",
                json::value(json::object{{"key", "not-the-key"}}));
  EXPECT_EQ(r.status, 403);
  EXPECT_NE(http_get(srv.port, "/api/events/" + a.id + "/trf").status, 200);
}

// A round robin of four begun elsewhere (round 1 played, the players' federation ids),
// imported, finished on the site and marked rated: its TGK file is in the folder, and the
// federation's calculation gives the changes of the docs' formula (K 20: ±15 and ±5).
TEST(ArbiterApi, FinishedRatedEventFeedsTheRatingList) {
  TempDir dir;
  server::Config cfg;
  cfg.ratings_events_dir = (dir.path / "rated").string();
  TestServer srv((dir.path / "t.db").string(), cfg);
  tournament::Event ev;
  ev.name = "Oblast cup";
  ev.date = "2026.12.05";
  ev.system = tournament::System::RoundRobin;
  const int ratings[] = {2000, 1900, 1800, 1700};
  for (int i = 0; i < 4; ++i)
    ev.players.push_back(
        {"Player " + std::string(1, char('A' + i)), ratings[i], "", "KG-" + std::to_string(i + 1)});
  tournament::add_next_round(ev);
  for (tournament::Board& b : ev.played[0].boards)
    b.result =
        b.white < b.black ? tournament::BoardResult::WhiteWins : tournament::BoardResult::BlackWins;
  const Arbiter e = exchange_import(srv.port, tournament::event_to_trf(ev));
  ASSERT_EQ(e.post("settings", json::object{{"rated", true}}).status, 200);
  const std::filesystem::path file = dir.path / "rated" / (e.id + ".tgk");
  for (int round = 2; round <= 3; ++round) {
    EXPECT_FALSE(std::filesystem::exists(file)) << "not before the event is finished";
    HttpResult p = e.post("pair", {});
    ASSERT_EQ(p.status, 200) << p.body;
    exchange_results(e, p.json().at("event"));
  }
  ASSERT_TRUE(std::filesystem::exists(file));
  const RatedEventFile rated =
      rate_event_file(file,
                      "name,after,games,id\nPlayer A,2000,50,KG-1\nPlayer B,1900,50,KG-2\n"
                      "Player C,1800,50,KG-3\nPlayer D,1700,50,KG-4\n");
  EXPECT_EQ(rated.games, 6u);
  EXPECT_EQ(rated.skipped, 0u);
  EXPECT_EQ(rated.games_rated, 6);
  EXPECT_EQ(rated.change,
            (std::map<std::string, int>{{"KG-1", 15}, {"KG-2", 5}, {"KG-3", -5}, {"KG-4", -15}}));

  // Taken off the list: the file goes. A rated event needs its date.
  ASSERT_EQ(e.post("settings", json::object{{"rated", false}}).status, 200);
  EXPECT_FALSE(std::filesystem::exists(file));
  const Arbiter undated = create(srv.port, json::object{{"system", "round-robin"}});
  HttpResult r = undated.post("settings", json::object{{"rated", true}});
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(jstr(r.json().at("code")), "event_rated_date");
}

}  // namespace
}  // namespace toguz::test
