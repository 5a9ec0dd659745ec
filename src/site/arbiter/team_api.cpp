#include "site/arbiter/team_api.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <vector>

#include "site/arbiter/event_common.h"
#include "site/json_in.h"
#include "site/json_out.h"
#include "site/text_input.h"
#include "tournament/report.h"
#include "tournament/team_json.h"
#include "tournament/team_standings.h"
#include "tournament/team_trf.h"

namespace toguz::site {

namespace {

using tournament::BoardResult;
using tournament::System;
using tournament::Team;
using tournament::TeamEvent;
using tournament::TeamMatch;
using tournament::TeamRound;
using tournament::TeamTieBreak;
using Response = http::response<http::string_body>;

// Limits of one team event: a national club championship, and quick requests.
constexpr int kMaxTeams = 64;
constexpr int kMaxBoards = 10;
constexpr int kMaxReserves = 4;  // a roster has at most boards + 4 players

// What the arbiter can do next: enter teams, pair, enter the round's results, or nothing.
const char* next_step(const TeamEvent& ev) {
  if (ev.played.empty()) return ev.teams.size() < 2 ? "teams" : "pair";
  if (!ev.round_complete(int(ev.played.size()) - 1)) return "results";
  return ev.finished() ? "done" : "pair";
}

json::array int_array(const std::vector<int>& v) {
  return json::array(v.begin(), v.end());
}

// A match as the page shows it: the teams, the lineups, each board's result (White first),
// moves and whether an empty board forced it, the board points of each team.
json::object match_view(const TeamMatch& m) {
  json::array boards;
  for (int b = 0; b < int(m.results.size()); ++b)
    boards.push_back(
        json::object{{"result", std::string(board_result_text(m.results[b]))},
                     {"moves", m.moves[b].size()},
                     {"home_white", tournament::home_has_white(b)},
                     {"forced", tournament::forced_result(m, b) != BoardResult::Pending}});
  return json::object{{"home", m.home},
                      {"away", m.away},
                      {"home_lineup", int_array(m.home_lineup)},
                      {"away_lineup", int_array(m.away_lineup)},
                      {"boards", std::move(boards)},
                      {"home_points", tournament::score_text(match_half_points(m, true))},
                      {"away_points", tournament::score_text(match_half_points(m, false))},
                      {"complete", match_complete(m)}};
}

json::array standings_view(const TeamEvent& ev) {
  json::array table;
  for (const tournament::TeamStanding& s : team_standings(ev)) {
    table.push_back(
        json::object{{"team", s.team},
                     {"rank", s.rank},
                     {"match_points", s.score.match_points},
                     {"board_points", tournament::score_text(s.score.board_half_points)},
                     {"tie_breaks", json::array(s.tie_breaks.begin(), s.tie_breaks.end())},
                     {"tie_break_texts", tie_break_texts(s.tie_breaks)}});
  }
  return table;
}

json::array prizes_view(const TeamEvent& ev) {
  json::array out;
  for (const auto& rows : board_prizes(ev)) {
    json::array board;
    for (const tournament::BoardPrizeRow& r : rows)
      board.push_back(json::object{{"team", r.team},
                                   {"player", r.player},
                                   {"points", tournament::score_text(r.half_points)},
                                   {"scored", r.scored},
                                   {"games", r.games}});
    out.push_back(std::move(board));
  }
  return out;
}

// The event as the page shows it: the state, the standings, the board prizes, the next step.
json::object team_view(const std::string& id, const TeamEvent& ev) {
  json::array teams;
  for (size_t t = 0; t < ev.teams.size(); ++t) {
    json::array roster;
    for (const tournament::Player& p : ev.teams[t].roster)
      roster.push_back(json::object{{"name", p.name}, {"rating", p.rating}, {"title", p.title}});
    teams.push_back(json::object{{"name", ev.teams[t].name},
                                 {"rating", team_rating(ev, int(t))},
                                 {"withdrawn", ev.teams[t].withdrawn},
                                 {"roster", std::move(roster)}});
  }
  json::array rounds;
  for (const TeamRound& r : ev.played) {
    json::array matches;
    for (const TeamMatch& m : r.matches) matches.push_back(match_view(m));
    rounds.push_back(json::object{{"matches", std::move(matches)}, {"byes", int_array(r.byes)}});
  }
  json::array tie_breaks;
  for (TeamTieBreak t : team_tie_breaks_of(ev))
    tie_breaks.push_back(json::string(team_tie_break_short(t)));
  json::object out = event_view_head(id, ev.name, ev.site, ev.date, ev.system, ev.total_rounds());
  const json::object rest{
      {"boards", ev.boards},
      {"scoring", std::string(team_scoring_name(ev.scoring))},
      {"tie_breaks", std::move(tie_breaks)},
      {"teams", std::move(teams)},
      {"played", std::move(rounds)},
      {"standings", standings_view(ev)},
      {"board_prizes", prizes_view(ev)},
      {"rated", ev.rated},
      {"next", next_step(ev)},
  };
  out.insert(rest.begin(), rest.end());
  return out;
}

// The settings in the body, each kept as it was when absent: the tie-breaks (in order, any
// time), the scoring (before round 1: it decides the pairings) and whether the board games go
// to the federation's rating list (which needs the games' date: a year at least).
void apply_settings(TeamEvent& ev, const json::object& body) {
  if (const json::value* t = field(body, "tie_breaks")) {
    if (!t->is_array()) throw Refusal("team_tie_breaks", {}, "array");
    std::vector<TeamTieBreak> list;
    for (const json::value& v : t->as_array()) {
      TeamTieBreak tb;
      if (!v.is_string() || !parse_team_tie_break(std::string(v.as_string()), &tb))
        throw Refusal("team_tie_breaks", {}, "names");
      list.push_back(tb);
    }
    ev.tie_breaks = std::move(list);
  }
  if (field(body, "scoring")) {
    tournament::TeamScoring s;
    if (!parse_team_scoring(get_string(body, "scoring", "", 40), &s)) throw Refusal("team_scoring");
    if (s != ev.scoring && !ev.played.empty()) throw Refusal("team_scoring_closed");
    ev.scoring = s;
  }
  ev.rated = get_bool(body, "rated", ev.rated);
  check_rated_date(ev.rated, ev.date);
}

TeamEvent new_team_event(const json::object& body) {
  TeamEvent ev;
  set_head(event_head(body), ev);
  ev.boards = int(get_int(body, "boards", 4, 1, kMaxBoards));
  apply_settings(ev, body);
  return ev;
}

// A roster player of `team` from `o` (name, rating, title), checked; `self` is the roster
// index being corrected (-1 for a new one), whom the same name does not refuse. Names are
// unique in the whole event: its games go to the rating list by name.
tournament::Player roster_player(const TeamEvent& ev, const json::object& o, int team, int self) {
  const tournament::Player p = player_fields(o);
  for (size_t t = 0; t < ev.teams.size(); ++t)
    for (size_t i = 0; i < ev.teams[t].roster.size(); ++i)
      if (ev.teams[t].roster[i].name == p.name && !(int(t) == team && int(i) == self))
        throw Refusal("team_player_entered", {{"name", p.name}, {"team", ev.teams[t].name}});
  return p;
}

void check_roster_room(const TeamEvent& ev, size_t size) {
  if (int(size) > ev.boards + kMaxReserves)
    throw Refusal("team_roster_full", {{"n", std::to_string(ev.boards + kMaxReserves)}});
}

// A new team ("name") with its roster in board order ("players": objects with name, rating,
// title), before round 1.
void add_team(TeamEvent& ev, const json::object& body) {
  if (!ev.played.empty()) throw Refusal("team_closed");
  if (int(ev.teams.size()) >= kMaxTeams)
    throw Refusal("team_full", {{"n", std::to_string(kMaxTeams)}});
  Team team;
  team.name = clean_name(get_string(body, "name", "", 1000), "");
  if (team.name.empty()) throw Refusal("team_name");
  for (const Team& t : ev.teams)
    if (t.name == team.name) throw Refusal("team_entered", {{"name", team.name}});
  ev.teams.push_back(team);
  const json::value* players = field(body, "players");
  if (!players) return;
  if (!players->is_array()) throw Refusal("field_type", {{"field", "players"}}, "array");
  check_roster_room(ev, players->as_array().size());
  for (const json::value& v : players->as_array()) {
    if (!v.is_object()) throw Refusal("field_type", {{"field", "players"}}, "objects");
    ev.teams.back().roster.push_back(
        roster_player(ev, v.as_object(), int(ev.teams.size()) - 1, -1));
  }
}

// The body's "team" (1-based, as the page numbers them) as an index.
int team_index(const TeamEvent& ev, const json::object& body) {
  const int n = int(ev.teams.size());
  const int64_t t = get_int(body, "team", 0, INT64_MIN, INT64_MAX);
  if (t < 1 || t > n) throw Refusal("team_number", {{"n", std::to_string(n)}});
  return int(t) - 1;
}

// A roster player corrected ("player", 1-based: name, rating, title; the games stay), or with
// no "player" a new one at the end of the roster, before round 1.
void edit_roster(TeamEvent& ev, const json::object& body) {
  const int t = team_index(ev, body);
  std::vector<tournament::Player>& roster = ev.teams[t].roster;
  if (!field(body, "player")) {
    if (!ev.played.empty()) throw Refusal("team_closed");
    check_roster_room(ev, roster.size() + 1);
    roster.push_back(roster_player(ev, body, t, -1));
    return;
  }
  const int64_t p = get_int(body, "player", 0, INT64_MIN, INT64_MAX);
  if (p < 1 || p > int64_t(roster.size()))
    throw Refusal("event_player", {{"n", std::to_string(roster.size())}});
  roster[p - 1] = roster_player(ev, body, t, int(p) - 1);
}

// The last round taken back while it has no result (an empty board's forfeit aside).
void unpair_round(TeamEvent& ev) {
  if (ev.played.empty()) throw Refusal("event_no_round");
  for (const TeamMatch& m : ev.played.back().matches)
    for (int b = 0; b < int(m.results.size()); ++b)
      if (m.results[b] != tournament::forced_result(m, b))
        throw Refusal("event_round_has_results", {{"n", std::to_string(ev.played.size())}});
  ev.played.pop_back();
}

// The body's "round" (1-based, default the latest) as an index.
int round_index(const TeamEvent& ev, const json::object& body) {
  if (ev.played.empty()) throw Refusal("event_no_round");
  const int64_t n = int64_t(ev.played.size());
  return int(get_int(body, "round", n, 1, n)) - 1;
}

// A team's lineup ("players": roster numbers, board 1 first, in roster order) or "absent":
// true (the team did not come) for a round; refused as set_lineup would, with a code.
void enter_lineup(TeamEvent& ev, const json::object& body) {
  const int r = round_index(ev, body), t = team_index(ev, body);
  const bool absent = get_bool(body, "absent", false);
  const json::value* players = field(body, "players");
  if (players && !players->is_array()) throw Refusal("field_type", {{"field", "players"}}, "array");
  const size_t n = players ? players->as_array().size() : 0;
  if (absent == (n > 0)) throw Refusal("team_lineup_absent");
  const auto& matches = ev.played[r].matches;
  auto m = std::find_if(matches.begin(), matches.end(),
                        [t](const TeamMatch& x) { return x.home == t || x.away == t; });
  if (m == matches.end())
    throw Refusal("team_no_match", {{"team", ev.teams[t].name}, {"round", std::to_string(r + 1)}});
  for (int b = 0; b < int(m->results.size()); ++b)
    if (tournament::forced_result(*m, b) == BoardResult::Pending &&
        m->results[b] != BoardResult::Pending)
      throw Refusal("team_lineup_results", {{"board", std::to_string(b + 1)}});
  if (int(n) > ev.boards) throw Refusal("team_lineup_long", {{"n", std::to_string(ev.boards)}});
  std::vector<int> lineup;
  const int size = int(ev.teams[t].roster.size());
  for (size_t i = 0; i < n; ++i) {
    const json::value& v = players->as_array()[i];
    if (!v.is_int64() || v.as_int64() < 1 || v.as_int64() > size)
      throw Refusal("team_lineup_player", {{"n", std::to_string(size)}});
    lineup.push_back(int(v.as_int64()) - 1);
    if (i > 0 && lineup[i] <= lineup[i - 1]) throw Refusal("team_lineup_order");
  }
  set_lineup(ev, r, t, lineup);
}

// A board's result ("match", "board", 1-based; "round" default the latest) with the moves
// typed from the scoresheet, checked by the referee.
void enter_board_result(TeamEvent& ev, const json::object& body) {
  const int r = round_index(ev, body);
  TeamRound& round = ev.played[r];
  const int n = int(round.matches.size());
  const int mi = int(get_int(body, "match", 0, 1, n));
  if (mi == 0) throw Refusal("team_match", {{"n", std::to_string(n)}});
  TeamMatch& m = round.matches[mi - 1];
  const int b = int(get_int(body, "board", 0, 1, int64_t(m.results.size())));
  if (b == 0) throw Refusal("event_board");
  BoardResult res;
  if (!parse_board_result(get_string(body, "result", "", 20), &res)) throw Refusal("event_result");
  const BoardResult forced = tournament::forced_result(m, b - 1);
  if (forced != BoardResult::Pending && res != forced)
    throw Refusal("team_board_empty", {{"board", std::to_string(b)},
                                       {"result", std::string(board_result_text(forced))}});
  tournament::Board board;
  board.result = m.results[b - 1];
  board.moves = m.moves[b - 1];
  std::vector<int> moves = checked_moves(get_string(body, "moves", "", 20000), board, res);
  set_board_result(ev, r, mi - 1, b - 1, res, std::move(moves));
}

// The teams of an event read from an exchange file, held to the team page's limits: teams,
// boards, rosters; team and player names cleaned as typed ones are and unique, a player's in
// the whole event.
void check_imported_teams(TeamEvent& ev) {
  if (int(ev.teams.size()) > kMaxTeams)
    throw Refusal("team_full", {{"n", std::to_string(kMaxTeams)}});
  if (ev.boards > kMaxBoards)
    throw Refusal("field_range",
                  {{"field", "boards"}, {"lo", "1"}, {"hi", std::to_string(kMaxBoards)}});
  std::set<std::string> teams;
  std::map<std::string, std::string> team_of;  // a player's cleaned name: his team's
  for (Team& team : ev.teams) {
    team.name = clean_name(team.name, "");
    if (team.name.empty()) throw Refusal("team_name");
    if (!teams.insert(team.name).second) throw Refusal("team_entered", {{"name", team.name}});
    check_roster_room(ev, team.roster.size());
    for (tournament::Player& p : team.roster) {
      clean_imported_player(p);
      const auto [at, fresh] = team_of.emplace(p.name, team.name);
      if (!fresh) throw Refusal("team_player_entered", {{"name", p.name}, {"team", at->second}});
    }
  }
}

// An exchange file read into a team event the site can hold: the reader's refusal (line and
// field) as event_trf, then the team page's limits (check_imported_teams).
TeamEvent team_event_of_trf(const std::string& text) {
  TeamEvent ev;
  read_trf_or_refuse([&] { ev = tournament::team_event_from_trf(text); });
  clean_imported_head(ev.name, ev.site, ev.date, ev.system, ev.rounds);
  check_imported_teams(ev);
  return ev;
}

}  // namespace

TeamApi::TeamApi(store::Store& store, std::string ratings_events_dir)
    : store_(store), ratings_events_dir_(std::move(ratings_events_dir)) {
  if (!ratings_events_dir_.empty()) std::filesystem::create_directories(ratings_events_dir_);
}

Response TeamApi::create(const Request& req, bool import) {
  const json::object body = json_body(req);
  const TeamEvent ev = import ? team_event_of_trf(trf_of_body(body)) : new_team_event(body);
  const NewEvent made = create_event_row(store_, team_event_to_json(ev));
  return json_response(
      http::status::ok,
      json::object{{"id", made.row.id}, {"key", made.key}, {"event", team_view(made.row.id, ev)}});
}

Response TeamApi::change(const Request& req, store::EventRow& row, TeamEvent ev,
                         const std::string& action) {
  const json::object body = json_body(req);
  check_arbiter_key(body, row);
  // The exchange file holds the players' federation ids: the arbiter's only, and read only.
  if (action == "trf")
    return text_response("text/plain; charset=utf-8", tournament::team_event_to_trf(ev),
                         "team-event-" + row.id + ".trf");
  const TeamEvent before = ev;
  if (action == "teams") {
    add_team(ev, body);
  } else if (action == "player") {
    edit_roster(ev, body);
  } else if (action == "withdraw") {
    ev.teams[team_index(ev, body)].withdrawn = get_bool(body, "withdrawn", true);
  } else if (action == "pair") {
    pair_or_refuse([&ev] { add_next_team_round(ev); });
  } else if (action == "unpair") {
    unpair_round(ev);
  } else if (action == "lineup") {
    enter_lineup(ev, body);
  } else if (action == "result") {
    enter_board_result(ev, body);
  } else {
    apply_settings(ev, body);
  }
  // Every check passed: only now the event changes.
  row.state = team_event_to_json(ev);
  row.updated_ms = now_ms();
  store_.save_event(row);
  store_games(row.id, before, ev);
  write_rated_tgk(ratings_events_dir_, row.id, ev.rated && ev.finished(),
                  [&ev] { return team_event_tgk(ev); });
  return json_response(http::status::ok, json::object{{"event", team_view(row.id, ev)}});
}

std::string team_board_game_id(const std::string& id, int round, int match, int board) {
  return id + "r" + std::to_string(round) + "m" + std::to_string(match) + "b" +
         std::to_string(board);
}

void TeamApi::store_games(const std::string& id, const TeamEvent& before, const TeamEvent& ev) {
  for (size_t r = 0; r < ev.played.size(); ++r)
    for (size_t mi = 0; mi < ev.played[r].matches.size(); ++mi) {
      const TeamMatch& m = ev.played[r].matches[mi];
      const TeamMatch* was = r < before.played.size() && mi < before.played[r].matches.size()
                                 ? &before.played[r].matches[mi]
                                 : nullptr;
      for (int b = 0; b < int(m.results.size()); ++b) {
        const auto [h, a] = tournament::board_players(m, b);
        if (h < 0 || a < 0 || m.results[b] == BoardResult::Pending ||
            tournament::is_forfeit(m.results[b]) ||
            (was && was->results[b] == m.results[b] && was->moves[b] == m.moves[b]))
          continue;
        const bool hw = tournament::home_has_white(b);
        const std::string& home = ev.teams[m.home].roster[h].name;
        const std::string& away = ev.teams[m.away].roster[a].name;
        tournament::Board board;
        board.result = m.results[b];
        board.moves = m.moves[b];
        const std::string round = std::to_string(r + 1), match = std::to_string(mi + 1);
        save_board_game(store_, team_board_game_id(id, int(r) + 1, int(mi) + 1, b + 1), board,
                        hw ? home : away, hw ? away : home,
                        {{"Event", ev.name},
                         {"Site", ev.site},
                         {"Date", ev.date},
                         {"Round", round},
                         {"Board", match + "." + std::to_string(b + 1)},
                         {"WhiteTeam", ev.teams[hw ? m.home : m.away].name},
                         {"BlackTeam", ev.teams[hw ? m.away : m.home].name}});
      }
    }
}

Response TeamApi::handle(const Request& req, const std::string& id, const std::string& action,
                         const std::string& query) {
  if (id.empty()) return create(req, action == "import");
  store::EventRow row = load_event_row(store_, id);
  if (!is_team_state(row.state)) throw Refusal("event_not_team", {{"id", id}});
  TeamEvent ev = tournament::team_event_from_json(row.state);
  if (req.method() != http::verb::get && req.method() != http::verb::head)
    return change(req, row, std::move(ev), action);
  if (action.empty())
    return json_response(http::status::ok, json::object{{"event", team_view(id, ev)}});
  if (action == "tgk")
    return text_response("text/plain; charset=utf-8", team_event_tgk(ev),
                         "team-event-" + id + ".tgk");
  const tournament::ReportWords& words = words_of_query(query);
  if (action == "pairings")
    return text_response(
        "text/html; charset=utf-8",
        team_pairings_page(ev, round_of_query(int(ev.played.size()), query), words));
  return text_response("text/html; charset=utf-8", team_standings_page(ev, words));
}

void TeamApi::add_routes(net::Router& router) {
  auto event = [this](const char* action) {
    return refusals_answered([this, action](const net::Call& c) {
      c.respond(handle(c.req, c.params.empty() ? "" : c.param(0), action, c.query));
    });
  };
  using net::Method;
  router.add(Method::Post, "/api/team-events", event(""));
  router.add(Method::Post, "/api/team-events/import", event("import"));
  router.add(Method::Get, "/api/team-events/:id", event(""));
  for (const char* action : {"tgk", "pairings", "standings"})
    router.add(Method::Get, std::string("/api/team-events/:id/") + action, event(action));
  for (const char* action :
       {"trf", "teams", "player", "withdraw", "pair", "unpair", "lineup", "result", "settings"})
    router.add(Method::Post, std::string("/api/team-events/:id/") + action, event(action));
}

}  // namespace toguz::site
