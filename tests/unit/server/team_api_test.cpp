// The arbiter page's team events over real sockets (site/arbiter/team_api.h): the hand-worked
// round robin of docs/tournaments.md "Team events" (four teams on two boards) created, its
// teams entered, paired round by round, a short lineup giving a forfeit, a board with typed
// moves and one with a wrong move refused, the standings and tie-breaks worked by hand, kept
// across a restart, its TGK, site games and print pages; the refusals without the key and of bad
// input, and a team event read through the individual events' routes (and back) refused; the
// exchange file (TRF) exported with the key, imported as a new team event and exported again to
// the same text, pairing alike after; a damaged, oversized, keyless or over-the-limits file
// refused; a finished team event marked rated written into the rating officer's folder and
// rated by the federation's calculation, taken off when unmarked.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "rated_event_file.h"
#include "server_client.h"

namespace toguz::test {
namespace {

struct TeamArbiter {
  uint16_t port;
  std::string id, key;

  HttpResult post(const std::string& action, json::object body) const {
    body["key"] = key;
    return http_post(port, "/api/team-events/" + id + "/" + action, json::value(std::move(body)));
  }
  json::value event() const {
    HttpResult r = http_get(port, "/api/team-events/" + id);
    EXPECT_EQ(r.status, 200) << r.body;
    json::value v = r.json();
    return v.is_object() ? v.at("event") : json::value(nullptr);
  }
};

// A new team event: the typed form's, or (`path` /api/team-events/import) one read from a TRF.
TeamArbiter team_api_create(uint16_t port, json::object body,
                            const std::string& path = "/api/team-events") {
  HttpResult r = http_post(port, path, json::value(std::move(body)));
  EXPECT_EQ(r.status, 200) << r.body;
  json::value v = r.json();
  if (!v.is_object()) return {port, "", ""};
  return {port, jstr(v.at("id")), jstr(v.at("key"))};
}

const char* const kTeamApiNames[] = {"A", "B", "C", "D & <Co>"};

// Teams A..D of three players each ("A1".."A3"): two boards and a reserve.
void team_api_enter_teams(const TeamArbiter& a) {
  for (int t = 0; t < 4; ++t) {
    json::array players;
    for (int m = 1; m <= 3; ++m)
      players.push_back(json::object{{"name", std::string(1, char('A' + t)) + std::to_string(m)},
                                     {"rating", 2000 - 10 * t - m}});
    HttpResult r = a.post("teams", json::object{{"name", kTeamApiNames[t]}, {"players", players}});
    ASSERT_EQ(r.status, 200) << r.body;
  }
}

// The result giving the first-named team `home_half` half points on board `board` (0-based;
// the first-named team has White on boards 1, 3...).
std::string team_api_result(int board, int home_half) {
  if (home_half == 1) return "1/2-1/2";
  return (home_half == 2) == (board % 2 == 0) ? "1-0" : "0-1";
}

TEST(TeamApi, HandWorkedRoundRobinThroughTheApi) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  TeamArbiter a;
  {
    TestServer srv(db);
    a = team_api_create(
        srv.port,
        json::object{
            {"name", "Cup <A>"}, {"date", "2026.12.01"}, {"system", "round-robin"}, {"boards", 2}});
    ASSERT_FALSE(a.id.empty());
    EXPECT_EQ(a.key.size(), 43u);
    team_api_enter_teams(a);
    json::value ev = a.event();
    EXPECT_EQ(jstr(ev.at("next")), "pair");
    EXPECT_EQ(jint(ev.at("rounds")), 3);
    EXPECT_EQ(ev.at("teams").at(3).at("roster").as_array().size(), 3u);

    // Round 1: A-D, B-C. D comes with one player (its second): board 2 is A's by forfeit.
    ASSERT_EQ(a.post("pair", {}).status, 200);
    HttpResult lineup = a.post("lineup", json::object{{"team", 4}, {"players", json::array{2}}});
    ASSERT_EQ(lineup.status, 200) << lineup.body;
    const json::value m0 = lineup.json().at("event").at("played").at(0).at("matches").at(0);
    EXPECT_EQ(jint(m0.at("home")), 0);
    EXPECT_EQ(jint(m0.at("away")), 3);
    EXPECT_EQ(json::serialize(m0.at("away_lineup")), "[1]");
    EXPECT_EQ(jstr(m0.at("boards").at(1).at("result")), "-+");
    EXPECT_TRUE(m0.at("boards").at(1).at("forced").as_bool());
    // A wrong move is named and changes nothing; typed right, the game goes in.
    const std::string before = json::serialize(a.event());
    HttpResult wrong = a.post("result", json::object{{"match", 1},
                                                     {"board", 1},
                                                     {"result", "1-0"},
                                                     {"moves", "1. 65 87 2. 55 99(12) 3. 34(21)"}});
    EXPECT_EQ(wrong.status, 400);
    EXPECT_EQ(code_of(wrong), "typed_move");
    EXPECT_EQ(jstr(wrong.json().at("params").at("token")), "34(21)");
    EXPECT_EQ(json::serialize(a.event()), before);
    HttpResult typed = a.post(
        "result", json::object{{"match", 1},
                               {"board", 1},
                               {"result", "1-0"},
                               {"moves",
                                "1. 65 87 2. 55 99 3. 34 35 4. 34 89 5. 91 45 6. 48 92 7. 62 78 8. "
                                "91 58 9. 15"}});
    ASSERT_EQ(typed.status, 200) << typed.body;
    EXPECT_EQ(
        jint(typed.json().at("event").at("played").at(0).at("matches").at(0).at("boards").at(0).at(
            "moves")),
        17);
    // An empty board takes only its forfeit; the lineup is fixed once a board has a result.
    HttpResult empty =
        a.post("result", json::object{{"match", 1}, {"board", 2}, {"result", "1-0"}});
    EXPECT_EQ(code_of(empty), "team_board_empty");
    EXPECT_EQ(code_of(a.post("lineup", json::object{{"team", 4}, {"players", json::array{1, 2}}})),
              "team_lineup_results");

    // The hand-worked results, first-named team's half points per board: R1 B-C 1-1; R2 D-C
    // 1.5-0.5, A-B 0.5-1.5; R3 B-D 1-1, C-A 2-0.
    const std::vector<std::vector<std::vector<int>>> halves = {
        {{}, {2, 0}}, {{2, 1}, {1, 0}}, {{0, 2}, {2, 2}}};
    for (int r = 0; r < 3; ++r) {
      if (r > 0) {
        ASSERT_EQ(a.post("pair", {}).status, 200);
      }
      for (int m = 0; m < 2; ++m)
        for (int b = 0; b < int(halves[r][m].size()); ++b) {
          HttpResult e =
              a.post("result", json::object{{"match", m + 1},
                                            {"board", b + 1},
                                            {"result", team_api_result(b, halves[r][m][b])}});
          ASSERT_EQ(e.status, 200) << e.body;
        }
    }
    EXPECT_EQ(jstr(a.event().at("next")), "done");
    EXPECT_EQ(a.post("pair", {}).status, 409);
  }

  // After a restart: B, C, D, A with BP, DE, TSB as worked by hand.
  TestServer srv(db);
  a.port = srv.port;
  const json::value ev = a.event();
  ASSERT_TRUE(ev.is_object());
  EXPECT_EQ(json::serialize(ev.at("tie_breaks")), R"(["BP","DE","TSB"])");
  const json::array& st = ev.at("standings").as_array();
  ASSERT_EQ(st.size(), 4u);
  const int want_team[] = {1, 2, 3, 0}, want_mp[] = {4, 3, 3, 2};
  const char* want_bp[] = {"3.5", "3.5", "2.5", "2.5"};
  const std::vector<std::vector<double>> want_tb = {
      {3.5, 0, 9}, {3.5, 0, 9.5}, {2.5, 0, 8.5}, {2.5, 0, 8}};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(jint(st[i].at("team")), want_team[i]) << "place " << i + 1;
    EXPECT_EQ(jint(st[i].at("rank")), i + 1);
    EXPECT_EQ(jint(st[i].at("match_points")), want_mp[i]);
    EXPECT_EQ(jstr(st[i].at("board_points")), want_bp[i]);
    std::vector<double> tb;
    for (const json::value& v : st[i].at("tie_breaks").as_array())
      tb.push_back(v.to_number<double>());
    EXPECT_EQ(tb, want_tb[i]) << "place " << i + 1;
  }
  EXPECT_EQ(ev.at("board_prizes").as_array().size(), 2u);
  // The TGK: every board with two players (11: one board of round 1 was empty).
  HttpResult tgk = http_get(srv.port, "/api/team-events/" + a.id + "/tgk");
  ASSERT_EQ(tgk.status, 200);
  size_t games = 0;
  for (size_t at = tgk.body.find("[WhiteTeam "); at != std::string::npos;
       at = tgk.body.find("[WhiteTeam ", at + 1))
    ++games;
  EXPECT_EQ(games, 11u);
  // Every board with both players is a site game: A1's three, the typed one with its moves.
  const json::value games_a1 = http_get(srv.port, "/api/games?player=A1").json();
  EXPECT_EQ(jint(games_a1.at("total")), 3) << json::serialize(games_a1);
  const HttpResult pgn = http_get(srv.port, "/api/games/" + a.id + "r1m1b1/pgn");
  EXPECT_NE(pgn.body.find("[WhiteTeam \"A\"]"), std::string::npos) << pgn.body;
  EXPECT_NE(pgn.body.find("[Board \"1.1\"]"), std::string::npos) << pgn.body;
  EXPECT_NE(pgn.body.find("1. 65(10) 87"), std::string::npos) << pgn.body;
  EXPECT_EQ(http_get(srv.port, "/api/games/" + a.id + "r1m1b2/pgn").status, 404);  // a forfeit
  // The print pages in Russian, every name escaped.
  HttpResult page = http_get(srv.port, "/api/team-events/" + a.id + "/standings?lang=ru");
  ASSERT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("Команда"), std::string::npos);
  EXPECT_NE(page.body.find("D &amp; &lt;Co&gt;"), std::string::npos);
  EXPECT_EQ(page.body.find("<Co>"), std::string::npos);
  HttpResult pairings = http_get(srv.port, "/api/team-events/" + a.id + "/pairings?round=2");
  ASSERT_EQ(pairings.status, 200);
  EXPECT_NE(pairings.body.find("Round 2 of 3"), std::string::npos);
  EXPECT_EQ(http_get(srv.port, "/api/team-events/" + a.id + "/pairings?round=4").status, 400);
}

TEST(TeamApi, RefusalsWithoutTheKeyAndOfBadInput) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  struct Bad {
    std::string body, code;
  };
  for (const Bad& b : {Bad{R"({"system":"knockout"})", "event_system"},
                       Bad{R"({"system":"swiss"})", "event_rounds"},
                       Bad{R"({"system":"swiss","rounds":3,"boards":11})", "field_range"},
                       Bad{R"({"system":"round-robin","scoring":"goals"})", "team_scoring"},
                       Bad{R"({"system":"round-robin","tie_breaks":["coin"]})", "team_tie_breaks"},
                       Bad{R"({"system":"round-robin","date":"1 Dec"})", "event_date"}}) {
    HttpResult r = http_post(port, "/api/team-events", b.body);
    EXPECT_EQ(r.status, 400) << b.body;
    EXPECT_EQ(code_of(r), b.code) << r.body;
  }
  TeamArbiter a =
      team_api_create(port, json::object{{"system", "swiss"}, {"rounds", 3}, {"boards", 2}});
  // Nothing changes without the key.
  TeamArbiter thief = a;
  thief.key = "x";
  HttpResult r = thief.post("teams", json::object{{"name", "Intruders"}});
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(code_of(r), "wrong_key");
  EXPECT_EQ(a.event().at("teams").as_array().size(), 0u);
  // Teams and rosters: a name twice, a player twice, a roster over boards + 4, no name.
  ASSERT_EQ(a.post("teams", json::object{{"name", "Ala"},
                                         {"players", json::array{json::object{{"name", "Aidos"}}}}})
                .status,
            200);
  EXPECT_EQ(code_of(a.post("pair", {})), "event_pairing");
  EXPECT_EQ(code_of(a.post("teams", json::object{{"name", " Ala "}})), "team_entered");
  EXPECT_EQ(code_of(a.post("teams", json::object{{"name", ""}})), "team_name");
  json::array seven;
  for (int i = 0; i < 7; ++i) seven.push_back(json::object{{"name", "P" + std::to_string(i)}});
  EXPECT_EQ(code_of(a.post("teams", json::object{{"name", "Big"}, {"players", seven}})),
            "team_roster_full");
  EXPECT_EQ(code_of(a.post(
                "teams", json::object{{"name", "Bars"},
                                      {"players", json::array{json::object{{"name", "Aidos"}}}}})),
            "team_player_entered");
  EXPECT_EQ(code_of(a.post("teams", json::object{{"name", "Bars"}, {"players", json::array{7}}})),
            "field_type");
  EXPECT_EQ(code_of(a.post("teams", json::object{{"name", "Bars"}, {"players", "Aidos"}})),
            "field_type");
  EXPECT_EQ(a.event().at("teams").as_array().size(), 1u);
  ASSERT_EQ(a.post("teams", json::object{{"name", "Bars"}}).status, 200);
  ASSERT_EQ(a.post("player", json::object{{"team", 2}, {"name", "Bolat"}, {"rating", 1900}}).status,
            200);
  EXPECT_EQ(code_of(a.post("player", json::object{{"team", 3}, {"name", "X"}})), "team_number");
  EXPECT_EQ(code_of(a.post("player", json::object{{"team", 2}, {"player", 2}, {"name", "X"}})),
            "event_player");
  EXPECT_EQ(code_of(a.post("lineup", json::object{{"team", 1}, {"absent", true}})),
            "event_no_round");
  ASSERT_EQ(a.post("pair", {}).status, 200);
  // After round 1: no new team, no other scoring; a correction still goes in.
  EXPECT_EQ(code_of(a.post("teams", json::object{{"name", "Late"}})), "team_closed");
  EXPECT_EQ(code_of(a.post("settings", json::object{{"scoring", "board-points"}})),
            "team_scoring_closed");
  EXPECT_EQ(a.post("player", json::object{{"team", 2}, {"player", 1}, {"name", "Bolat B."}}).status,
            200);
  // Lineups: both players and absent, too long, out of the roster, out of order.
  EXPECT_EQ(
      code_of(a.post("lineup",
                     json::object{{"team", 1}, {"absent", true}, {"players", json::array{1}}})),
      "team_lineup_absent");
  EXPECT_EQ(code_of(a.post("lineup", json::object{{"team", 1}, {"players", json::array{1, 2, 3}}})),
            "team_lineup_long");
  EXPECT_EQ(code_of(a.post("lineup", json::object{{"team", 1}, {"players", json::array{2}}})),
            "team_lineup_player");
  EXPECT_EQ(code_of(a.post("result", json::object{{"match", 2}, {"board", 1}, {"result", "1-0"}})),
            "field_range");
  EXPECT_EQ(code_of(a.post("result", json::object{{"match", 1}, {"board", 1}, {"result", "2-0"}})),
            "event_result");
  // The round taken back while it has no result, then paired again.
  ASSERT_EQ(a.post("unpair", {}).status, 200);
  EXPECT_EQ(a.event().at("played").as_array().size(), 0u);
  ASSERT_EQ(a.post("pair", {}).status, 200);
  ASSERT_EQ(a.post("lineup", json::object{{"team", 1}, {"absent", true}}).status, 200);
  ASSERT_EQ(a.post("withdraw", json::object{{"team", 2}}).status, 200);
  EXPECT_TRUE(a.event().at("teams").at(1).at("withdrawn").as_bool());

  // A team event is not an individual one, and back.
  HttpResult as_event = http_get(port, "/api/events/" + a.id);
  EXPECT_EQ(as_event.status, 409);
  EXPECT_EQ(code_of(as_event), "event_is_team");
  EXPECT_EQ(code_of(http_post(port, "/api/events/" + a.id + "/pair",
                              json::value(json::object{{"key", a.key}}))),
            "event_is_team");
  HttpResult single = http_post(port, "/api/events", std::string(R"({"system":"round-robin"})"));
  ASSERT_EQ(single.status, 200);
  HttpResult as_team = http_get(port, "/api/team-events/" + jstr(single.json().at("id")));
  EXPECT_EQ(as_team.status, 409);
  EXPECT_EQ(code_of(as_team), "event_not_team");
  EXPECT_EQ(code_of(http_get(port, "/api/team-events/nosuchevent")), "no_event");
}

// The team event's exchange file, downloaded with the key.
std::string team_trf_export(const TeamArbiter& a) {
  HttpResult r = a.post("trf", {});
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_NE(std::string(r.headers[http::field::content_disposition]).find("team-event-"),
            std::string::npos);
  return r.body;
}

// The refusal's code of importing `trf`, and its text.
std::pair<std::string, std::string> team_trf_refusal(uint16_t port, const std::string& trf) {
  HttpResult r =
      http_post(port, "/api/team-events/import", json::value(json::object{{"trf", trf}}));
  EXPECT_NE(r.status, 200) << trf;
  const json::value v = r.json();
  if (!v.is_object() || !v.as_object().contains("code")) return {"", r.body};
  return {jstr(v.at("code")), jstr(v.at("error"))};
}

// `trf` with the first line starting with `code` changed by `edit`.
std::string team_trf_edited(std::string trf, const std::string& code,
                            const std::function<void(std::string&)>& edit) {
  const size_t at = trf.starts_with(code) ? 0 : trf.find("\n" + code) + 1;
  const size_t end = trf.find('\n', at);
  std::string line = trf.substr(at, end - at);
  edit(line);
  return trf.replace(at, end - at, line);
}

TEST(TeamApi, TrfExportedImportedAndExportedAgainIsTheSameFile) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const TeamArbiter a = team_api_create(srv.port, json::object{{"name", "Liga <K>"},
                                                               {"site", "Taraz"},
                                                               {"date", "2026.12.01"},
                                                               {"system", "swiss"},
                                                               {"rounds", 3},
                                                               {"boards", 2},
                                                               {"scoring", "board-points"}});
  team_api_enter_teams(a);
  ASSERT_EQ(a.post("withdraw", json::object{{"team", 3}}).status, 200);
  // Round 1 of three teams (one bye): the away team of match 1 without its first player.
  ASSERT_EQ(a.post("pair", {}).status, 200);
  const json::value m0 = a.event().at("played").at(0).at("matches").at(0);
  const int away = int(jint(m0.at("away")));
  ASSERT_EQ(
      a.post("lineup", json::object{{"team", away + 1}, {"players", json::array{2, 3}}}).status,
      200);
  for (int b = 1; b <= 2; ++b)
    ASSERT_EQ(a.post("result", json::object{{"match", 1}, {"board", b}, {"result", "1-0"}}).status,
              200);

  const std::string trf = team_trf_export(a);
  EXPECT_NE(trf.find("012 Liga <K>"), std::string::npos) << trf;
  EXPECT_NE(trf.find("\n013 "), std::string::npos) << trf;
  const TeamArbiter b =
      team_api_create(srv.port, json::object{{"trf", trf}}, "/api/team-events/import");
  ASSERT_FALSE(b.id.empty());
  EXPECT_NE(b.id, a.id);
  EXPECT_EQ(team_trf_export(b), trf);
  const json::value eb = b.event();
  EXPECT_EQ(json::serialize(eb.at("standings")), json::serialize(a.event().at("standings")));
  EXPECT_EQ(jstr(eb.at("scoring")), "board-points");
  EXPECT_TRUE(eb.at("teams").at(2).at("withdrawn").as_bool());

  // Round 2 paired alike on both.
  ASSERT_EQ(a.post("pair", {}).status, 200);
  HttpResult pb = b.post("pair", {});
  ASSERT_EQ(pb.status, 200) << pb.body;
  EXPECT_EQ(json::serialize(pb.json().at("event").at("played")),
            json::serialize(a.event().at("played")));
  EXPECT_EQ(team_trf_export(b), team_trf_export(a));
}

TEST(TeamApi, TrfDamagedOversizedKeylessOrOverTheLimitsIsRefused) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  const TeamArbiter a =
      team_api_create(port, json::object{{"system", "round-robin"}, {"boards", 2}});
  team_api_enter_teams(a);
  const std::string trf = team_trf_export(a);
  const size_t team_line =
      size_t(std::count(trf.begin(), trf.begin() + trf.find("\n013"), '\n')) + 2;

  // Damaged: a team line names a player the file does not have; refused with its line.
  auto [code, text] = team_trf_refusal(
      port, team_trf_edited(trf, "013", [](std::string& l) { l.replace(36, 4, "  99"); }));
  EXPECT_EQ(code, "event_trf");
  EXPECT_NE(text.find("line " + std::to_string(team_line) + ", team player"), std::string::npos)
      << text;
  EXPECT_EQ(team_trf_refusal(port, "012 Solo\n").first, "event_trf");  // no team lines
  HttpResult big = http_post(port, "/api/team-events/import",
                             json::value(json::object{{"trf", std::string(60001, ' ')}}));
  EXPECT_EQ(big.status, 413);
  EXPECT_EQ(code_of(big), "event_trf_size");
  EXPECT_EQ(code_of(http_post(port, "/api/team-events/import", std::string("{}"))), "field_type");

  // The team page's limits: boards, team names (cleaned, then unique), player names.
  EXPECT_EQ(
      team_trf_refusal(port, team_trf_edited(trf, "XXB", [](std::string& l) { l = "XXB 11"; }))
          .first,
      "field_range");
  auto team_named = [&](const std::string& name) {
    return team_trf_edited(trf, "013", [&](std::string& l) { l.replace(4, 32, name); });
  };
  EXPECT_EQ(team_trf_refusal(port, team_named(std::string(32, ' '))).first, "event_trf");
  EXPECT_EQ(team_trf_refusal(port, team_named("\x01\x02" + std::string(30, ' '))).first,
            "team_name");
  EXPECT_EQ(team_trf_refusal(port, team_named(" B" + std::string(30, ' '))).first, "team_entered");
  const std::string twin = team_trf_edited(trf, "001    2", [](std::string& l) {
    l.replace(14, 33, std::string("A1\x01") + std::string(30, ' '));
  });
  auto [twin_code, twin_text] = team_trf_refusal(port, twin);
  EXPECT_EQ(twin_code, "team_player_entered") << twin_text;
  EXPECT_EQ(code_of(http_get(port, "/api/team-events/nosuchevent")), "no_event");

  // Only the key holder gets the file (it holds the players' ids), and only by POST.
  HttpResult r = http_post(port, "/api/team-events/" + a.id + "/trf", json::value(json::object{}));
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(code_of(r), "wrong_key");
  r = http_post(port, "/api/team-events/" + a.id + "/trf",
                json::value(json::object{{"key", "not-the-key"}}));
  EXPECT_EQ(code_of(r), "wrong_key");
  EXPECT_NE(http_get(port, "/api/team-events/" + a.id + "/trf").status, 200);
}

// Plays the latest round of the rated test event: the team entered first wins every board of its
// match, but B and C draw board 2.
void team_rated_play_round(const TeamArbiter& a, const json::value& ev) {
  const json::array& matches = ev.at("played").as_array().back().at("matches").as_array();
  for (size_t m = 0; m < matches.size(); ++m) {
    const int home = jint(matches[m].at("home")), away = jint(matches[m].at("away"));
    for (int b = 0; b < 2; ++b) {
      const int home_half = home + away == 3 && b == 1 ? 1 : home < away ? 2 : 0;
      HttpResult r = a.post("result", json::object{{"match", int(m) + 1},
                                                   {"board", b + 1},
                                                   {"result", team_api_result(b, home_half)}});
      ASSERT_EQ(r.status, 200) << r.body;
    }
  }
}

TEST(TeamApi, FinishedRatedTeamEventFeedsTheRatingList) {
  TempDir dir;
  server::Config cfg;
  cfg.ratings_events_dir = (dir.path / "rated").string();
  TestServer srv((dir.path / "t.db").string(), cfg);
  const TeamArbiter a = team_api_create(
      srv.port,
      json::object{
          {"name", "Club cup"}, {"date", "2026.12.05"}, {"system", "round-robin"}, {"boards", 2}});
  for (const char* t : {"A", "B", "C"}) {
    json::array players;
    for (const char* n : {"1", "2"}) players.push_back(json::object{{"name", std::string(t) + n}});
    ASSERT_EQ(a.post("teams", json::object{{"name", t}, {"players", players}}).status, 200);
  }
  HttpResult marked = a.post("settings", json::object{{"rated", true}});
  ASSERT_EQ(marked.status, 200) << marked.body;
  EXPECT_TRUE(marked.json().at("event").at("rated").as_bool());
  const std::filesystem::path file = dir.path / "rated" / (a.id + ".tgk");
  for (int round = 1; round <= 3; ++round) {
    EXPECT_FALSE(std::filesystem::exists(file)) << "not before the event is finished";
    HttpResult p = a.post("pair", {});
    ASSERT_EQ(p.status, 200) << p.body;
    team_rated_play_round(a, p.json().at("event"));
  }
  ASSERT_EQ(jstr(a.event().at("next")), "done");
  ASSERT_TRUE(std::filesystem::exists(file));
  // Everyone 2000 with K 20: a win +10, a draw 0, a loss -10. A1 and A2 won twice; B1 beat C1
  // and lost to A1; B2 lost to A2 and drew with C2, who lost to A2 as well.
  const RatedEventFile rated = rate_event_file(
      file,
      "name,after,games\nA1,2000,50\nA2,2000,50\nB1,2000,50\nB2,2000,50\nC1,2000,50\nC2,2000,50\n");
  EXPECT_EQ(rated.games, 6u);
  EXPECT_EQ(rated.skipped, 0u);
  EXPECT_EQ(rated.games_rated, 6);
  EXPECT_EQ(rated.change,
            (std::map<std::string, int>{
                {"A1", 20}, {"A2", 20}, {"B1", 0}, {"B2", -10}, {"C1", -20}, {"C2", -10}}));

  // A corrected result (round 3, match 1, board 1 drawn: every board 1 was won) rewrites it.
  const auto text_of = [&file] {
    std::ifstream in(file, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const std::string first = text_of();
  ASSERT_EQ(
      a.post("result", json::object{{"match", 1}, {"board", 1}, {"result", "1/2-1/2"}}).status,
      200);
  EXPECT_NE(text_of(), first);
  EXPECT_EQ(rate_event_file(file, "name,after\n").games, 6u);

  // Taken off the list: the file goes. A rated event needs its date, and the state keeps the mark.
  ASSERT_EQ(a.post("settings", json::object{{"rated", false}}).status, 200);
  EXPECT_FALSE(std::filesystem::exists(file));
  EXPECT_FALSE(a.event().at("rated").as_bool());
  const TeamArbiter undated =
      team_api_create(srv.port, json::object{{"system", "round-robin"}, {"boards", 2}});
  HttpResult r = undated.post("settings", json::object{{"rated", true}});
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(code_of(r), "event_rated_date");
  EXPECT_FALSE(undated.event().at("rated").as_bool());
}

}  // namespace
}  // namespace toguz::test
