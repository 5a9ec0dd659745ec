#include "site/arbiter/arbiter_api.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "rules/notation.h"
#include "site/arbiter/event_common.h"
#include "site/games/room.h"
#include "site/games/room_registry.h"
#include "site/json_in.h"
#include "site/json_out.h"
#include "site/text_input.h"
#include "tournament/event_json.h"
#include "tournament/report.h"
#include "tournament/standings.h"
#include "tournament/tgk.h"
#include "tournament/trf.h"

namespace toguz::site {

namespace {

// (server::Player is a game's seat: the event's players are written tournament::Player.)
using tournament::Board;
using tournament::BoardResult;
using tournament::ByeKind;
using tournament::ByeRefusal;
using tournament::Event;
using tournament::Round;
using tournament::Standing;
using tournament::System;
using tournament::TieBreak;
using Response = http::response<http::string_body>;

// Limits of one event: enough for a national open, small enough that every request stays
// quick (a Swiss round of 120 players pairs in about 16 ms).
constexpr int kMaxPlayers = 256;

// What the arbiter can do next: enter players, enter the round's results, pair, or nothing.
const char* next_step(const Event& ev) {
  if (ev.played.empty()) return ev.players.size() < 2 ? "players" : "pair";
  if (!ev.round_complete(int(ev.played.size()) - 1)) return "results";
  return int(ev.played.size()) < ev.total_rounds() ? "pair" : "done";
}

// The event as the page shows it: the state, the standings, the next step.
json::object event_view(const std::string& id, const Event& ev) {
  json::array players;
  for (const tournament::Player& p : ev.players)
    players.push_back(json::object{
        {"name", p.name}, {"rating", p.rating}, {"title", p.title}, {"withdrawn", p.withdrawn}});
  json::array rounds;
  for (const Round& r : ev.played) {
    json::array boards;
    for (const Board& b : r.boards)
      boards.push_back(json::object{{"white", b.white},
                                    {"black", b.black},
                                    {"result", std::string(board_result_text(b.result))},
                                    {"moves", b.moves.size()}});
    rounds.push_back(
        json::object{{"boards", std::move(boards)},
                     {"byes", json::array(r.byes.begin(), r.byes.end())},
                     {"half_byes", json::array(r.half_byes.begin(), r.half_byes.end())},
                     {"zero_byes", json::array(r.zero_byes.begin(), r.zero_byes.end())}});
  }
  json::array tie_breaks;
  for (TieBreak t : tie_breaks_of(ev)) tie_breaks.push_back(json::string(tie_break_short(t)));
  json::array table;
  for (const Standing& s : standings(ev)) {
    // The tie-breaks as the print pages write them, so every page rounds alike.
    table.push_back(
        json::object{{"player", s.player},
                     {"rank", s.rank},
                     {"points", tournament::score_text(s.half_points)},
                     {"tie_breaks", json::array(s.tie_breaks.begin(), s.tie_breaks.end())},
                     {"tie_break_texts", tie_break_texts(s.tie_breaks)}});
  }
  json::array requests, forbidden;
  for (const tournament::ByeRequest& q : ev.bye_requests)
    requests.push_back(json::object{{"player", q.player},
                                    {"round", q.round},
                                    {"kind", std::string(tournament::bye_kind_name(q.kind))}});
  for (auto [a, b] : ev.forbidden) forbidden.push_back(json::array{a, b});
  json::object out = event_view_head(id, ev.name, ev.site, ev.date, ev.system, ev.total_rounds());
  const json::object rest{
      {"tie_breaks", std::move(tie_breaks)},
      {"players", std::move(players)},
      {"played", std::move(rounds)},
      {"standings", std::move(table)},
      {"bye_requests", std::move(requests)},
      {"forbidden", std::move(forbidden)},
      {"max_half_byes", ev.max_half_byes},
      {"half_bye_last_round", ev.half_bye_last_round},
      {"accelerated_rounds", ev.accelerated_rounds},
      {"forfeit_withdraws", ev.forfeit_withdraws},
      {"rated", ev.rated},
      {"next", next_step(ev)},
  };
  out.insert(rest.begin(), rest.end());
  return out;
}

std::vector<TieBreak> tie_breaks_of_body(const json::value* t) {
  std::vector<TieBreak> out;
  if (!t->is_array()) throw Refusal("event_tie_breaks", {}, "array");
  for (const json::value& v : t->as_array()) {
    TieBreak tb;
    if (!v.is_string() || !parse_tie_break(std::string(v.as_string()), &tb))
      throw Refusal("event_tie_breaks", {}, "names");
    out.push_back(tb);
  }
  return out;
}

// The settings in the body, each kept as it was when absent: tie-breaks (in order), Baku
// acceleration, the half-point byes' limit, whether the last round allows one, whether a
// forfeit withdraws, whether the event goes to the federation's rating list (which needs the
// games' date: a year at least).
void apply_settings(Event& ev, const json::object& body) {
  if (const json::value* t = field(body, "tie_breaks")) ev.tie_breaks = tie_breaks_of_body(t);
  const int acc =
      int(get_int(body, "accelerated_rounds", ev.accelerated_rounds, 0, kMaxSwissRounds));
  if (acc > 0 && ev.system != System::Swiss) throw Refusal("event_swiss_only");
  ev.accelerated_rounds = acc;
  ev.max_half_byes = int(get_int(body, "max_half_byes", ev.max_half_byes, 0, kMaxSwissRounds));
  ev.half_bye_last_round = get_bool(body, "half_bye_last_round", ev.half_bye_last_round);
  ev.forfeit_withdraws = get_bool(body, "forfeit_withdraws", ev.forfeit_withdraws);
  ev.rated = get_bool(body, "rated", ev.rated);
  check_rated_date(ev.rated, ev.date);
}

Event new_event(const json::object& body) {
  Event ev;
  set_head(event_head(body), ev);
  apply_settings(ev, body);
  return ev;
}

// The name, rating and title of the body, checked; `self` is the player being edited (-1 for
// a new one), whom the same name does not refuse.
tournament::Player player_of(const Event& ev, const json::object& body, int self) {
  const tournament::Player p = player_fields(body);
  for (size_t i = 0; i < ev.players.size(); ++i)
    if (int(i) != self && ev.players[i].name == p.name)
      throw Refusal("event_player_entered", {{"name", p.name}});
  return p;
}

// A new player; in a Swiss also after round 1 (a late entry, paired from the next round with
// the points he has, none), in a round robin only before it (the Berger table is fixed).
void add_player(Event& ev, const json::object& body) {
  if (!ev.played.empty() && ev.system != System::Swiss) throw Refusal("event_players_closed");
  if (int(ev.players.size()) >= kMaxPlayers)
    throw Refusal("event_full", {{"n", std::to_string(kMaxPlayers)}});
  ev.players.push_back(player_of(ev, body, -1));
}

// The body's "player" (1-based, as the page numbers them) as an index.
int player_index(const Event& ev, const json::object& body) {
  const int n = int(ev.players.size());
  const int64_t p = get_int(body, "player", 0, INT64_MIN, INT64_MAX);
  if (p < 1 || p > n) throw Refusal("event_player", {{"n", std::to_string(n)}});
  return int(p - 1);
}

// A player's name, rating and title corrected (a typo); his games and place stay.
void edit_player(Event& ev, const json::object& body) {
  const int i = player_index(ev, body);
  tournament::Player p = player_of(ev, body, i);
  p.withdrawn = ev.players[i].withdrawn;
  ev.players[i] = std::move(p);
}

// A player withdrawn ("withdrawn": true) or back (false): the rounds paired after leave him
// out; his games so far stand.
void withdraw_player(Event& ev, const json::object& body) {
  const int i = player_index(ev, body);
  const json::value* w = body.if_contains("withdrawn");
  if (w && !w->is_bool()) throw Refusal("field_type", {{"field", "withdrawn"}}, "bool");
  ev.players[i].withdrawn = !w || w->as_bool();
}

// The last round taken back to be paired again (a player entered late, one withdrawn, a
// pairing mistake), while none of its boards has a result (a forfeit the pairing itself made
// against a withdrawn player aside).
void unpair_round(Event& ev) {
  if (ev.played.empty()) throw Refusal("event_no_round");
  for (const Board& b : ev.played.back().boards) {
    const bool automatic = tournament::is_forfeit(b.result) &&
                           (ev.players[b.white].withdrawn || ev.players[b.black].withdrawn);
    if (b.result != BoardResult::Pending && !automatic)
      throw Refusal("event_round_has_results", {{"n", std::to_string(ev.played.size())}});
  }
  tournament::take_back_round(ev);
}

// A requested bye ("kind": "half" or "zero") for a round not yet paired, or ("cancel": true)
// one taken back.
void bye_request(Event& ev, const json::object& body) {
  const int p = player_index(ev, body);
  const int round = int(get_int(body, "round", 0, 1, kMaxSwissRounds));
  if (get_bool(body, "cancel", false)) {
    if (!tournament::cancel_bye(ev, p, round)) throw Refusal("event_bye_none");
    return;
  }
  ByeKind kind;
  if (!tournament::parse_bye_kind(get_string(body, "kind", "half", 10), &kind))
    throw Refusal("field_type", {{"field", "kind"}}, "half|zero");
  const tournament::ByeRequest q{p, round, kind};
  switch (check_bye(ev, q)) {
    case ByeRefusal::None:
      break;
    case ByeRefusal::NotSwiss:
      throw Refusal("event_swiss_only");
    case ByeRefusal::NoPlayer:
      throw Refusal("event_player", {{"n", std::to_string(ev.players.size())}});
    case ByeRefusal::Withdrawn:
      throw Refusal("event_bye_withdrawn");
    case ByeRefusal::RoundNotOpen:
      throw Refusal("event_bye_round", {{"from", std::to_string(ev.played.size() + 1)},
                                        {"to", std::to_string(ev.total_rounds())}});
    case ByeRefusal::AlreadyAsked:
      throw Refusal("event_bye_twice");
    case ByeRefusal::LastRound:
      throw Refusal("event_bye_last_round");
    case ByeRefusal::OverLimit:
      throw Refusal("event_bye_limit", {{"n", std::to_string(ev.max_half_byes)}});
  }
  tournament::request_bye(ev, q);
}

// Two players ("player", "other", 1-based) who must not meet, or ("remove": true) may again.
void forbid(Event& ev, const json::object& body) {
  if (ev.system != System::Swiss) throw Refusal("event_swiss_only");
  const int a = player_index(ev, body);
  json::object other = body;
  other["player"] = body.contains("other") ? body.at("other") : json::value(0);
  const int b = player_index(ev, other);
  if (a == b) throw Refusal("event_forbid_same");
  if (get_bool(body, "remove", false))
    tournament::unforbid_pair(ev, a, b);
  else
    tournament::forbid_pair(ev, a, b);
}

void enter_result(Event& ev, const json::object& body) {
  if (ev.played.empty()) throw Refusal("event_no_round");
  const int r =
      int(get_int(body, "round", int64_t(ev.played.size()), 1, int64_t(ev.played.size())));
  Round& round = ev.played[r - 1];
  const int b = int(get_int(body, "board", 0, 1, int64_t(round.boards.size())));
  if (b == 0) throw Refusal("event_board");
  BoardResult res;
  if (!parse_board_result(get_string(body, "result", "", 20), &res)) throw Refusal("event_result");
  Board& board = round.boards[b - 1];
  // No moves typed: the moves entered live stay, and the result is checked against them.
  board.moves = checked_moves(get_string(body, "moves", "", 20000), board, res);
  board.result = res;
  if (tournament::is_forfeit(res))
    tournament::record_forfeit(ev, r - 1, b - 1, res, get_bool(body, "keep", false));
}

// What a board keeper's token may do: its board's entries, and ask which board it opens.
bool is_keeper_action(const std::string& action) {
  return action == "move" || action == "undo" || action == "clock" || action == "finish" ||
         action == "keeper_board";
}

// An exchange file read into an event the site can hold: the reader's refusal (line and
// field) as event_trf, then the site's limits (players, rounds, names and texts cleaned as
// typed ones are). A date in another form than the records' is left out.
Event event_of_trf(const std::string& text) {
  Event ev;
  read_trf_or_refuse([&] { ev = tournament::event_from_trf(text); });
  if (int(ev.players.size()) > kMaxPlayers)
    throw Refusal("event_full", {{"n", std::to_string(kMaxPlayers)}});
  clean_imported_head(ev.name, ev.site, ev.date, ev.system, ev.rounds);
  for (size_t i = 0; i < ev.players.size(); ++i) {
    tournament::Player& p = ev.players[i];
    clean_imported_player(p);
    for (size_t j = 0; j < i; ++j)
      if (ev.players[j].name == p.name) throw Refusal("event_player_entered", {{"name", p.name}});
  }
  return ev;
}

}  // namespace

ArbiterApi::ArbiterApi(store::Store& store, std::string broadcast_dir, bool broadcast_urls,
                       std::string ratings_events_dir)
    : store_(store),
      broadcasts_(std::move(broadcast_dir), broadcast_urls),
      ratings_events_dir_(std::move(ratings_events_dir)) {
  if (!ratings_events_dir_.empty()) std::filesystem::create_directories(ratings_events_dir_);
}

Response ArbiterApi::create(const http::request<http::string_body>& req, bool import) {
  const json::object body = json_body(req);
  Event ev;
  if (import) {
    ev = event_of_trf(trf_of_body(body));
  } else {
    ev = new_event(body);
  }
  const NewEvent made = create_event_row(store_, event_to_json(ev));
  const store::EventRow& row = made.row;
  return json_response(
      http::status::ok,
      json::object{{"id", row.id}, {"key", made.key}, {"event", event_view(row.id, ev)}});
}

Response ArbiterApi::change(const http::request<http::string_body>& req, store::EventRow& row,
                            Event ev, const std::string& action) {
  const Event before = ev;
  const json::object body = json_body(req);
  const std::string token = get_string(body, "token", "", 200);
  std::optional<BoardRef> keeper;
  if (!token.empty()) {
    // A keeper's link opens its board of the round it was handed out for, and nothing else.
    keeper = broadcasts_.board_of(row.id, token);
    if (!keeper || keeper->round != int(ev.played.size()) || !is_keeper_action(action))
      throw Refusal("keeper_token");
  } else {
    check_arbiter_key(body, row);
  }
  // The exchange file holds the players' federation ids: the arbiter's only, and read only.
  if (action == "trf")
    return text_response("text/plain; charset=utf-8", tournament::event_to_trf(ev),
                         "event-" + row.id + ".trf");
  json::object out;
  if (action == "players") {
    add_player(ev, body);
  } else if (action == "player") {
    edit_player(ev, body);
  } else if (action == "withdraw") {
    withdraw_player(ev, body);
  } else if (action == "unpair") {
    unpair_round(ev);
  } else if (action == "bye") {
    bye_request(ev, body);
  } else if (action == "forbid") {
    forbid(ev, body);
  } else if (action == "settings") {
    apply_settings(ev, body);
    if (field(body, "eval_delay"))
      broadcasts_.set_eval_delay(row.id,
                                 int(get_int(body, "eval_delay", 0, 0, Broadcasts::kMaxEvalDelay)));
  } else if (action == "pair") {
    pair_or_refuse([&ev] { add_next_round(ev); });
  } else if (action == "result") {
    enter_result(ev, body);
  } else {
    live_change(body, row.id, ev, action, keeper, out);
  }
  // Every check passed: only now the event changes.
  save(row, before, ev);
  out["event"] = event_view(row.id, ev);
  out["live"] = broadcasts_.live_view(row.id, ev);
  return json_response(http::status::ok, out);
}

void ArbiterApi::live_change(const json::object& body, const std::string& id, Event& ev,
                             const std::string& action, std::optional<BoardRef> keeper,
                             json::object& out) {
  if (action == "keeper_board") {
    if (!keeper) throw Refusal("keeper_token");
    out["board"] = keeper->board;
    return;
  }
  if (action == "follow") {
    broadcasts_.follow(id, get_string(body, "path", "", 1000));
    broadcasts_.poll(id, ev, now_ms());
    return;
  }
  if (ev.played.empty()) throw Refusal("event_no_round");
  BoardRef at{int(ev.played.size()),
              int(get_int(body, "board", 0, 1, int64_t(ev.played.back().boards.size())))};
  if (keeper) at = *keeper;
  if (at.board == 0) throw Refusal("event_board");
  if (action == "keeper")
    out["token"] = broadcasts_.hand_out(id, at);
  else if (action == "revoke")
    broadcasts_.revoke(id, at);
  else
    broadcasts_.enter(id, ev, at, action, body);
}

void ArbiterApi::poll(store::EventRow& row, Event& ev) {
  const Event before = ev;
  if (broadcasts_.poll(row.id, ev, now_ms())) save(row, before, ev);
}

void ArbiterApi::save(store::EventRow& row, const Event& before, const Event& ev) {
  json::object state = json::parse(event_to_json(ev)).as_object();
  state["broadcast"] = broadcasts_.saved(row.id, int(ev.played.size()));
  row.state = json::serialize(state) + "\n";
  row.updated_ms = now_ms();
  store_.save_event(row);
  store_games(row.id, before, ev);
  write_rated_tgk(ratings_events_dir_, row.id, ev.rated && std::string(next_step(ev)) == "done",
                  [&ev] { return event_tgk(ev); });
}

std::string board_game_id(const std::string& id, int round, int board) {
  return id + "r" + std::to_string(round) + "b" + std::to_string(board);
}

void ArbiterApi::store_games(const std::string& id, const Event& before, const Event& ev) {
  for (size_t r = 0; r < ev.played.size(); ++r)
    for (size_t i = 0; i < ev.played[r].boards.size(); ++i) {
      const Board& b = ev.played[r].boards[i];
      const bool was = r < before.played.size() && i < before.played[r].boards.size();
      if (b.result == BoardResult::Pending || tournament::is_forfeit(b.result) ||
          (was && before.played[r].boards[i].result == b.result &&
           before.played[r].boards[i].moves == b.moves))
        continue;
      const int round = int(r) + 1, board = int(i) + 1;
      save_board_game(store_, board_game_id(id, round, board), b, ev.players[b.white].name,
                      ev.players[b.black].name,
                      {{"Event", ev.name},
                       {"Site", ev.site},
                       {"Date", ev.date},
                       {"Round", std::to_string(round) + "." + std::to_string(board)},
                       {"Broadcast", id}});
    }
}

void ArbiterApi::add_routes(net::Router& router) {
  auto event = [this](const char* action) {
    return [this, action](const net::Call& c) {
      c.respond(handle(c.req, c.params.empty() ? "" : c.param(0), action, c.query));
    };
  };
  auto add = [&router](net::Method m, const std::string& pattern, net::Router::Handler h) {
    router.add(m, pattern, refusals_answered(std::move(h)));
  };
  using net::Method;
  add(Method::Post, "/api/events", event(""));
  add(Method::Post, "/api/events/import", event("import"));
  add(Method::Get, "/api/events/:id", event(""));
  for (const char* action : {"tgk", "pairings", "standings"})
    add(Method::Get, std::string("/api/events/:id/") + action, event(action));
  add(Method::Get, "/api/events/:id/live", event("live"));
  for (const char* action : {"trf", "players", "player", "withdraw", "pair", "unpair", "result",
                             "bye", "forbid", "settings", "keeper", "revoke", "follow", "move",
                             "undo", "clock", "finish", "keeper_board"})
    add(Method::Post, std::string("/api/events/:id/") + action, event(action));
}

Response ArbiterApi::handle(const http::request<http::string_body>& req, const std::string& id,
                            const std::string& action, const std::string& query) {
  const bool get = req.method() == http::verb::get || req.method() == http::verb::head;
  if (id.empty()) return create(req, action == "import");
  std::optional<store::EventRow> row = load_event_row(store_, id);
  // A team event is the team API's (team_api.h): its state is no individual event's.
  if (is_team_state(row->state)) throw Refusal("event_is_team", {{"id", id}});
  Event ev = tournament::event_from_json(row->state);
  broadcasts_.restore(id, row->state);
  if (get) {
    if (action.empty() || action == "live") {
      poll(*row, ev);
      json::object out{{"event", event_view(id, ev)}};
      if (action == "live") out["live"] = broadcasts_.live_view(id, ev);
      return json_response(http::status::ok, out);
    }
    if (action == "tgk")
      return text_response("text/plain; charset=utf-8", event_tgk(ev), "event-" + id + ".tgk");
    const tournament::ReportWords& words = words_of_query(query);
    if (action == "pairings")
      return text_response("text/html; charset=utf-8",
                           pairings_page(ev, round_of_query(int(ev.played.size()), query), words));
    return text_response("text/html; charset=utf-8", standings_page(ev, words));
  }
  return change(req, *row, std::move(ev), action);
}

}  // namespace toguz::site
