#include "tournament/team_json.h"

#include <set>
#include <stdexcept>

#include "tournament/json_fields.h"

namespace toguz::tournament {

namespace json = boost::json;
using namespace json_fields;

namespace {

constexpr std::string_view kTeamFormat = "toguz-team-tournament 1";

json::object match_json(const TeamMatch& m) {
  json::array boards;
  for (size_t b = 0; b < m.results.size(); ++b) {
    json::object o{{"result", std::string(board_result_text(m.results[b]))}};
    if (!m.moves[b].empty()) o["moves"] = json::array(m.moves[b].begin(), m.moves[b].end());
    boards.push_back(std::move(o));
  }
  return {{"home", m.home},
          {"away", m.away},
          {"home_lineup", json::array(m.home_lineup.begin(), m.home_lineup.end())},
          {"away_lineup", json::array(m.away_lineup.begin(), m.away_lineup.end())},
          {"boards", std::move(boards)}};
}

std::vector<int> lineup_from_json(const json::value& v, const std::string& field, int roster,
                                  int boards) {
  const json::array& list = array_of(v, field);
  if (int(list.size()) > boards) bad(field, "more players than boards");
  std::vector<int> out;
  for (size_t i = 0; i < list.size(); ++i) {
    out.push_back(int_of(list[i], field + "[" + std::to_string(i) + "]", 0, roster - 1));
    if (i > 0 && out[i] <= out[i - 1]) bad(field, "expected roster indexes in roster order");
  }
  return out;
}

// One match; `seen` marks the teams already in the round.
TeamMatch match_from_json(const TeamEvent& ev, const json::value& v, const std::string& mf,
                          std::vector<char>& seen) {
  const json::object& o = object_of(v, mf);
  const int n = int(ev.teams.size());
  TeamMatch m;
  for (auto [key, team, lineup] :
       {std::tuple{"home", &m.home, &m.home_lineup}, std::tuple{"away", &m.away, &m.away_lineup}}) {
    const std::string f = mf + "." + key;
    *team = int_of(member(o, mf, key), f, 0, n - 1);
    if (seen[*team]) bad(f, "team " + std::to_string(*team) + " is already in this round");
    seen[*team] = 1;
    const std::string lk = std::string(key) + "_lineup";
    *lineup = lineup_from_json(member(o, mf, lk.c_str()), mf + "." + lk,
                               int(ev.teams[*team].roster.size()), ev.boards);
  }
  const json::array& boards = array_of(member(o, mf, "boards"), mf + ".boards");
  if (int(boards.size()) != ev.boards) bad(mf + ".boards", "expected " + std::to_string(ev.boards));
  for (size_t b = 0; b < boards.size(); ++b) {
    const std::string bf = mf + ".boards[" + std::to_string(b) + "]";
    const json::object& bo = object_of(boards[b], bf);
    BoardResult r;
    if (!parse_board_result(string_of(member(bo, bf, "result"), bf + ".result"), &r))
      bad(bf + ".result", "expected 1-0, 0-1, 1/2-1/2, +-, -+, -- or *");
    m.results.push_back(r);
    const BoardResult forced = forced_result(m, int(b));
    if (forced != BoardResult::Pending && r != forced)
      bad(bf + ".result", "an empty board is " + std::string(board_result_text(forced)));
    const json::value* mv = bo.if_contains("moves");
    m.moves.push_back(mv ? moves_from_json(*mv, bf, r) : std::vector<int>{});
  }
  return m;
}

void read_teams(TeamEvent& ev, const json::object& o) {
  const json::array& teams = array_of(member(o, "", "teams"), "teams");
  std::set<std::string> names;
  for (size_t t = 0; t < teams.size(); ++t) {
    const std::string tf = "teams[" + std::to_string(t) + "]";
    const json::object& to = object_of(teams[t], tf);
    Team team;
    team.name = text_of(member(to, tf, "name"), tf + ".name");
    if (team.name.empty()) bad(tf + ".name", "expected a name");
    if (const json::value* w = to.if_contains("withdrawn"))
      team.withdrawn = bool_of(*w, tf + ".withdrawn");
    const json::array& roster = array_of(member(to, tf, "roster"), tf + ".roster");
    for (size_t i = 0; i < roster.size(); ++i) {
      const std::string pf = tf + ".roster[" + std::to_string(i) + "]";
      team.roster.push_back(player_from_json(roster[i], pf));
      if (!names.insert(team.roster.back().name).second)
        bad(pf + ".name", "'" + team.roster.back().name + "' is in the event already");
    }
    ev.teams.push_back(std::move(team));
  }
}

void read_settings(TeamEvent& ev, const json::object& o) {
  ev.name = text_of(member(o, "", "event"), "event");
  ev.site = text_of(member(o, "", "site"), "site");
  ev.date = text_of(member(o, "", "date"), "date");
  if (!parse_system(string_of(member(o, "", "system"), "system"), &ev.system))
    bad("system", "expected round-robin, double-round-robin or swiss");
  ev.rounds = int_of(member(o, "", "rounds"), "rounds", 0, 1000);
  ev.boards = int_of(member(o, "", "boards"), "boards", 1, 100);
  if (!parse_team_scoring(string_of(member(o, "", "scoring"), "scoring"), &ev.scoring))
    bad("scoring", "expected match-points or board-points");
  const json::array& tbs = array_of(member(o, "", "tiebreaks"), "tiebreaks");
  for (size_t i = 0; i < tbs.size(); ++i) {
    const std::string f = "tiebreaks[" + std::to_string(i) + "]";
    TeamTieBreak t;
    if (!parse_team_tie_break(string_of(tbs[i], f), &t))
      bad(f, "expected match-points, board-points, sonneborn-berger, direct-encounter or buchholz");
    ev.tie_breaks.push_back(t);
  }
  if (const json::value* v = o.if_contains("rated")) ev.rated = bool_of(*v, "rated");
}

}  // namespace

std::string team_event_to_json(const TeamEvent& ev) {
  json::array teams;
  for (const Team& t : ev.teams) {
    json::array roster;
    for (const Player& p : t.roster) roster.push_back(player_json(p));
    json::object o{{"name", t.name}, {"roster", std::move(roster)}};
    if (t.withdrawn) o["withdrawn"] = true;
    teams.push_back(std::move(o));
  }
  json::array rounds;
  for (const TeamRound& r : ev.played) {
    json::array matches;
    for (const TeamMatch& m : r.matches) matches.push_back(match_json(m));
    rounds.push_back(json::object{{"matches", std::move(matches)},
                                  {"byes", json::array(r.byes.begin(), r.byes.end())}});
  }
  json::array tbs;
  for (TeamTieBreak t : ev.tie_breaks) tbs.push_back(json::string(team_tie_break_name(t)));
  json::object o{{"format", kTeamFormat},
                 {"event", ev.name},
                 {"site", ev.site},
                 {"date", ev.date},
                 {"system", std::string(system_name(ev.system))},
                 {"rounds", ev.rounds},
                 {"boards", ev.boards},
                 {"scoring", std::string(team_scoring_name(ev.scoring))},
                 {"tiebreaks", std::move(tbs)},
                 {"teams", std::move(teams)},
                 {"played", std::move(rounds)}};
  if (ev.rated) o["rated"] = true;
  return json::serialize(o) + "\n";
}

TeamEvent team_event_from_json(std::string_view text) {
  const json::value root = parse_state(text, kTeamFormat);
  const json::object& o = root.get_object();
  TeamEvent ev;
  read_settings(ev, o);
  read_teams(ev, o);
  const int n = int(ev.teams.size());
  const json::array& played = array_of(member(o, "", "played"), "played");
  for (size_t r = 0; r < played.size(); ++r) {
    const std::string rf = "played[" + std::to_string(r) + "]";
    const json::object& ro = object_of(played[r], rf);
    TeamRound round;
    std::vector<char> seen(n, 0);
    const json::array& matches = array_of(member(ro, rf, "matches"), rf + ".matches");
    for (size_t m = 0; m < matches.size(); ++m)
      round.matches.push_back(
          match_from_json(ev, matches[m], rf + ".matches[" + std::to_string(m) + "]", seen));
    const json::array& byes = array_of(member(ro, rf, "byes"), rf + ".byes");
    for (size_t i = 0; i < byes.size(); ++i) {
      const std::string f = rf + ".byes[" + std::to_string(i) + "]";
      const int t = int_of(byes[i], f, 0, n - 1);
      if (seen[t]) bad(f, "team " + std::to_string(t) + " is already in this round");
      seen[t] = 1;
      round.byes.push_back(t);
    }
    ev.played.push_back(std::move(round));
  }
  return ev;
}

}  // namespace toguz::tournament
