#include "tournament/event_json.h"

#include <boost/json.hpp>
#include <stdexcept>

#include "tournament/json_fields.h"
#include "tournament/tgk.h"

namespace toguz::tournament {

namespace json = boost::json;
using namespace json_fields;

namespace {

constexpr std::string_view kFormat = "toguz-tournament 1";

// The arbiter's settings, requested byes and forbidden pairs: each optional (absent in files
// written before them), checked against the players.
void read_settings(Event& ev, const json::object& o) {
  const int n = int(ev.players.size());
  if (const json::value* v = o.if_contains("max_half_byes"))
    ev.max_half_byes = int_of(*v, "max_half_byes", 0, 1000);
  if (const json::value* v = o.if_contains("half_bye_last_round"))
    ev.half_bye_last_round = bool_of(*v, "half_bye_last_round");
  if (const json::value* v = o.if_contains("accelerated_rounds"))
    ev.accelerated_rounds = int_of(*v, "accelerated_rounds", 0, 1000);
  if (const json::value* v = o.if_contains("forfeit_withdraws"))
    ev.forfeit_withdraws = bool_of(*v, "forfeit_withdraws");
  if (const json::value* v = o.if_contains("rated")) ev.rated = bool_of(*v, "rated");
  if (const json::value* v = o.if_contains("bye_requests")) {
    const json::array& list = array_of(*v, "bye_requests");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string f = "bye_requests[" + std::to_string(i) + "]";
      const json::object& q = object_of(list[i], f);
      ByeRequest r;
      r.player = int_of(member(q, f, "player"), f + ".player", 0, n - 1);
      r.round = int_of(member(q, f, "round"), f + ".round", int(ev.played.size()) + 1, 1000);
      if (!parse_bye_kind(string_of(member(q, f, "kind"), f + ".kind"), &r.kind))
        bad(f + ".kind", "expected half or zero");
      ev.bye_requests.push_back(r);
    }
  }
  if (const json::value* v = o.if_contains("forbidden")) {
    const json::array& list = array_of(*v, "forbidden");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string f = "forbidden[" + std::to_string(i) + "]";
      const json::array& pair = array_of(list[i], f);
      if (pair.size() != 2) bad(f, "expected two players");
      const int a = int_of(pair[0], f + "[0]", 0, n - 1), b = int_of(pair[1], f + "[1]", 0, n - 1);
      if (a == b) bad(f, "expected two different players");
      if (!is_forbidden(ev, a, b)) ev.forbidden.push_back({std::min(a, b), std::max(a, b)});
    }
  }
}

}  // namespace

std::string event_to_json(const Event& event) {
  json::array players;
  for (const Player& p : event.players) players.push_back(player_json(p));
  json::array rounds;
  for (const Round& r : event.played) {
    json::array boards;
    for (const Board& b : r.boards) {
      json::object o{{"white", b.white},
                     {"black", b.black},
                     {"result", std::string(board_result_text(b.result))}};
      if (!b.moves.empty()) o["moves"] = json::array(b.moves.begin(), b.moves.end());
      boards.push_back(std::move(o));
    }
    json::object ro{{"boards", std::move(boards)},
                    {"byes", json::array(r.byes.begin(), r.byes.end())}};
    if (!r.half_byes.empty()) ro["half_byes"] = json::array(r.half_byes.begin(), r.half_byes.end());
    if (!r.zero_byes.empty()) ro["zero_byes"] = json::array(r.zero_byes.begin(), r.zero_byes.end());
    rounds.push_back(std::move(ro));
  }
  json::array tbs;
  for (TieBreak t : event.tie_breaks) tbs.push_back(json::string(tie_break_name(t)));
  json::object o{{"format", kFormat},
                 {"event", event.name},
                 {"site", event.site},
                 {"date", event.date},
                 {"system", std::string(system_name(event.system))},
                 {"rounds", event.rounds},
                 {"tiebreaks", std::move(tbs)},
                 {"players", std::move(players)},
                 {"played", std::move(rounds)}};
  // The arbiter's settings where they differ from the defaults, requests and pairs if any.
  json::array requests, forbidden;
  for (const ByeRequest& q : event.bye_requests)
    requests.push_back(json::object{
        {"player", q.player}, {"round", q.round}, {"kind", std::string(bye_kind_name(q.kind))}});
  for (auto [a, b] : event.forbidden) forbidden.push_back(json::array{a, b});
  if (!requests.empty()) o["bye_requests"] = std::move(requests);
  if (!forbidden.empty()) o["forbidden"] = std::move(forbidden);
  const Event defaults;
  if (event.max_half_byes != defaults.max_half_byes) o["max_half_byes"] = event.max_half_byes;
  if (event.half_bye_last_round) o["half_bye_last_round"] = true;
  if (event.accelerated_rounds) o["accelerated_rounds"] = event.accelerated_rounds;
  if (!event.forfeit_withdraws) o["forfeit_withdraws"] = false;
  if (event.rated) o["rated"] = true;
  return json::serialize(o) + "\n";
}

Event event_from_json(std::string_view text) {
  const json::value root = parse_state(text, kFormat);
  const json::object& o = root.get_object();
  Event ev;
  ev.name = text_of(member(o, "", "event"), "event");
  ev.site = text_of(member(o, "", "site"), "site");
  ev.date = text_of(member(o, "", "date"), "date");
  if (!parse_system(string_of(member(o, "", "system"), "system"), &ev.system))
    bad("system", "expected round-robin, double-round-robin or swiss");
  ev.rounds = int_of(member(o, "", "rounds"), "rounds", 0, 1000);
  const json::array& tbs = array_of(member(o, "", "tiebreaks"), "tiebreaks");
  for (size_t i = 0; i < tbs.size(); ++i) {
    TieBreak t;
    const std::string field = "tiebreaks[" + std::to_string(i) + "]";
    if (!parse_tie_break(string_of(tbs[i], field), &t))
      bad(field,
          "expected buchholz, buchholz-cut1, median, sonneborn-berger, wins or direct-encounter");
    ev.tie_breaks.push_back(t);
  }
  const json::array& players = array_of(member(o, "", "players"), "players");
  for (size_t i = 0; i < players.size(); ++i) {
    const std::string field = "players[" + std::to_string(i) + "]";
    Player pl = player_from_json(players[i], field);
    ev.players.push_back(std::move(pl));
  }
  const int n = int(ev.players.size());
  const json::array& played = array_of(member(o, "", "played"), "played");
  for (size_t r = 0; r < played.size(); ++r) {
    const std::string rf = "played[" + std::to_string(r) + "]";
    const json::object& ro = object_of(played[r], rf);
    Round round;
    std::vector<char> seen(n, 0);
    auto player = [&](const json::value& v, const std::string& field) {
      const int p = int_of(v, field, 0, n - 1);
      if (seen[p]) bad(field, "player " + std::to_string(p) + " is already in this round");
      seen[p] = 1;
      return p;
    };
    const json::array& boards = array_of(member(ro, rf, "boards"), rf + ".boards");
    for (size_t b = 0; b < boards.size(); ++b) {
      const std::string bf = rf + ".boards[" + std::to_string(b) + "]";
      const json::object& bo = object_of(boards[b], bf);
      Board board;
      board.white = player(member(bo, bf, "white"), bf + ".white");
      board.black = player(member(bo, bf, "black"), bf + ".black");
      if (!parse_board_result(string_of(member(bo, bf, "result"), bf + ".result"), &board.result))
        bad(bf + ".result", "expected 1-0, 0-1, 1/2-1/2, +-, -+ or *");
      if (const json::value* mv = bo.if_contains("moves"))
        board.moves = moves_from_json(*mv, bf, board.result);
      round.boards.push_back(std::move(board));
    }
    const json::array& byes = array_of(member(ro, rf, "byes"), rf + ".byes");
    for (size_t i = 0; i < byes.size(); ++i)
      round.byes.push_back(player(byes[i], rf + ".byes[" + std::to_string(i) + "]"));
    for (const char* key : {"half_byes", "zero_byes"}) {
      const json::value* v = ro.if_contains(key);
      if (!v) continue;
      const std::string kf = rf + "." + key;
      const json::array& list = array_of(*v, kf);
      for (size_t i = 0; i < list.size(); ++i)
        (key[0] == 'h' ? round.half_byes : round.zero_byes)
            .push_back(player(list[i], kf + "[" + std::to_string(i) + "]"));
    }
    ev.played.push_back(std::move(round));
  }
  read_settings(ev, o);
  return ev;
}

}  // namespace toguz::tournament
