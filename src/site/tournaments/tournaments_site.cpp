#include "site/tournaments/tournaments_site.h"

#include <map>
#include <vector>

#include "net/log.h"
#include "rules/record.h"
#include "site/json_in.h"
#include "site/json_out.h"
#include "site/text_input.h"
#include "site/texts.h"
#include "tournament/tgk.h"

namespace toguz::site {

namespace {

using net::Response;
using tournament::BoardResult;

// A finished game's result as a tournament counts it (docs/accounts.md "Fair play"): a game
// over counts as played; an aborted game is lost by forfeit by the side that called it off
// (aborted it, resigned, left or lost on time too early, or did not make his first move in
// time), and is Pending (no result) when nobody did. nullopt while the game goes on.
std::optional<BoardResult> tournament_result(const Room& room) {
  if (room.status == Status::Over) {
    switch (room.winner) {
      case Result::WhiteWins:
        return BoardResult::WhiteWins;
      case Result::BlackWins:
        return BoardResult::BlackWins;
      case Result::Draw:
        return BoardResult::Draw;
      case Result::None:
        return BoardResult::Pending;
    }
  }
  if (room.status == Status::Aborted) {
    if (!room.aborted_by) return BoardResult::Pending;
    return *room.aborted_by == Side::White ? BoardResult::BlackForfeitWin
                                           : BoardResult::WhiteForfeitWin;
  }
  return std::nullopt;
}

Response text_file(const std::string& body, const std::string& filename) {
  Response res{http::status::ok, 11};
  res.set(http::field::content_type, "text/plain; charset=utf-8");
  res.set(http::field::cache_control, "no-store");
  res.set(http::field::content_disposition, "attachment; filename=\"" + filename + "\"");
  res.body() = body;
  res.prepare_payload();
  return res;
}

TournamentSpec spec_of(const json::object& body) {
  TournamentSpec s;
  s.name = clean_name(get_string(body, "name", "", 1000), "", 120);
  const auto system = parse_tournament_system(get_string(body, "system", "arena", 40));
  if (!system) throw Refusal("tournament_system");
  s.system = *system;
  s.initial_ms = get_int(body, "initial_ms", 180000, 0, INT64_MAX / 4);
  s.increment_ms = get_int(body, "increment_ms", 2000, 0, INT64_MAX / 4);
  s.rated = get_bool(body, "rated", false);
  s.starts_ms = get_int(body, "starts_at", now_ms(), 0, INT64_MAX / 4);
  s.rounds = int(get_int(body, "rounds", 0, 0, 1000));
  s.duration_ms = get_int(body, "duration_minutes", 0, 0, 100000) * 60000;
  s.entry_code = get_string(body, "entry_code", "", 40);
  s.max_players = int(get_int(body, "max_players", 100, 0, 100000));
  s.first_move_seconds = int(get_int(body, "first_move_seconds", 0, 0, 100000));
  return s;
}

// An edit's body over the tournament as it is: the fields it gives replace those.
TournamentSpec edited_spec(const json::object& body, TournamentSpec s) {
  if (body.contains("name")) s.name = clean_name(get_string(body, "name", "", 1000), "", 120);
  s.initial_ms = get_int(body, "initial_ms", s.initial_ms, 0, INT64_MAX / 4);
  s.increment_ms = get_int(body, "increment_ms", s.increment_ms, 0, INT64_MAX / 4);
  s.starts_ms = get_int(body, "starts_at", s.starts_ms, 0, INT64_MAX / 4);
  s.rounds = int(get_int(body, "rounds", s.rounds, 0, 1000));
  s.duration_ms = get_int(body, "duration_minutes", s.duration_ms / 60000, 0, 100000) * 60000;
  s.first_move_seconds = int(get_int(body, "first_move_seconds", s.first_move_seconds, 0, 100000));
  return s;
}

}  // namespace

TournamentsSite::TournamentsSite(TournamentsServices services) : s_(std::move(services)) {}

void TournamentsSite::start() {
  TournamentHooks hooks;
  hooks.now_ms = [] { return now_ms(); };
  hooks.online = s_.online;
  hooks.start_game = s_.start_game;
  hooks.rating = s_.rating;
  hooks.save = [this](const store::TournamentRow& row) { s_.store.save_tournament(row); };
  hooks.new_id = [] { return RoomRegistry::random_id(10); };
  hooks.call_off = [this](const std::string& id) { return call_off_unstarted(id); };
  hooks.started = s_.started;
  hooks.game_result = [this](const std::string& id) -> std::optional<BoardResult> {
    auto row = s_.store.load_game(id);
    const auto status = row ? parse_status(row->status) : std::nullopt;
    if (status != Status::Over && status != Status::Aborted) return std::nullopt;
    try {
      return tournament_result(*Room::from_row(s_.room_services, std::move(*row)));
    } catch (const std::exception& e) {
      log(net::LogLevel::Error, id, std::string("tournament game not readable: ") + e.what());
      return std::nullopt;
    }
  };
  tournaments_ = std::make_unique<Tournaments>(std::move(hooks));
  for (const store::TournamentRow& row : s_.store.list_tournaments(50)) {
    try {
      tournaments_->restore(row);
    } catch (const std::exception& e) {
      log(net::LogLevel::Error, "", e.what());
    }
  }
}

void TournamentsSite::tick() {
  if (!s_.cluster || s_.cluster->coordinator()) tournaments_->tick();
}

bool TournamentsSite::call_off_unstarted(const std::string& id) {
  if (auto room = s_.rooms.find(id)) {
    if (finished(room->status)) return false;  // its end is on its way
    if (room->game.ply_count() > 0) return false;
    room->end(Result::None, Ending::Expired);
    return true;
  }
  // Driven by another instance (or gone): unstarted by the store, its driver's first-move
  // timer ends it, and the tournament no longer waits for it.
  try {
    const auto row = s_.store.load_game(id);
    return !row || row->moves == 0;
  } catch (const std::exception& e) {
    log(net::LogLevel::Error, id, std::string("tournament game not readable: ") + e.what());
    return false;
  }
}

void TournamentsSite::game_ended(const Room& room) {
  if (!tournaments_ || room.mode != Mode::Online) return;
  const auto r = tournament_result(room);
  if (!r) return;
  if (s_.cluster && !s_.cluster->coordinator()) {
    // The coordinator takes it in (and, should this be lost, reads it from the store later).
    s_.cluster->publish(
        json::serialize(json::object{{"type", "tournament_game"},
                                     {"from", s_.cluster->instance()},
                                     {"game", room.id},
                                     {"result", std::string(tournament::board_result_text(*r))},
                                     {"no_start", room.reason == Ending::NoStart}}));
    return;
  }
  // Later, not inside the room's end: the next pairing creates rooms, and the end may come
  // from a loop over the rooms (the sweep).
  s_.post([this, id = room.id, result = *r, no_start = room.reason == Ending::NoStart] {
    tournaments_->game_ended(id, result, no_start);
  });
}

void TournamentsSite::on_channel(const std::string& text) {
  if (!s_.cluster || !s_.cluster->coordinator()) return;
  json::error_code ec;
  const json::value v = json::parse(text, ec);
  const json::object* o = v.if_object();
  if (ec || !o || !o->contains("type") || o->at("type") != "tournament_game") return;
  const json::string* game = o->contains("game") ? o->at("game").if_string() : nullptr;
  const json::string* result = o->contains("result") ? o->at("result").if_string() : nullptr;
  BoardResult r;
  if (!game || !result || !tournament::parse_board_result(*result, &r)) return;
  const json::value* no_start = o->if_contains("no_start");
  tournaments_->game_ended(std::string(*game), r,
                           no_start && no_start->is_bool() && no_start->as_bool());
}

void TournamentsSite::add_routes(net::Router& router) {
  // In a cluster, on an instance that does not coordinate them, forwarded to the one that does.
  auto route = [this](const char* action) {
    return refusals_answered([this, action](const net::Call& c) {
      if (s_.cluster && s_.cluster->forward(c.req, c.peer, c.respond)) return;
      c.respond(answer(c.req, c.params.empty() ? "" : c.param(0), action, c.peer));
    });
  };
  using net::Method;
  router.add(Method::Get, "/api/tournaments", route(""));
  router.add(Method::Post, "/api/tournaments", route(""));
  router.add(Method::Get, "/api/tournaments/:id", route(""));
  for (const char* action : {"pgn", "tgk"})
    router.add(Method::Get, std::string("/api/tournaments/:id/") + action, route(action));
  for (const char* action : {"join", "withdraw", "start", "edit", "cancel"})
    router.add(Method::Post, std::string("/api/tournaments/:id/") + action, route(action));
}

void TournamentsSite::sweep() {
  const int64_t full_ms = int64_t(kEntryCodeAttempts) * kEntryCodeRefillMinutes * 60000;
  std::erase_if(entry_codes_by_account_,
                [&](const auto& e) { return now_ms() - e.second.refilled_ms >= full_ms; });
}

void TournamentsSite::check_creator(const Viewer& viewer) {
  int games = 0;
  for (const store::RatingRow& r : s_.store.ratings(viewer.user_id)) games += r.games;
  const int needed = s_.config.tournament_min_rated_games;
  if (games < needed)
    throw Refusal("tournament_needs_games",
                  {{"n", std::to_string(needed)}, {"games", std::to_string(games)}});
  const int per_day = s_.config.tournaments_per_day;
  if (tournaments_->created_since(viewer.user_id, now_ms() - 24LL * 3600 * 1000) >= per_day)
    throw Refusal("tournaments_per_day", {{"n", std::to_string(per_day)}});
}

void TournamentsSite::count_entry_code(const std::string& id, const std::string& code,
                                       const Viewer& viewer, const std::string& peer) {
  if (!viewer.signed_in() || !tournaments_->needs_code(id)) return;
  const int64_t now = now_ms();
  const double burst = kEntryCodeAttempts, rate = 1.0 / kEntryCodeRefillMinutes;
  // The address of a request forwarded by another instance is that instance's, not the client's.
  const bool by_address = peer.rfind("cluster:", 0) != 0;
  RateBucket& mine = entry_codes_by_account_[viewer.user_id];
  RateBucket* here = by_address ? &s_.entry_code_bucket(peer) : nullptr;
  const bool left =
      mine.take(now, burst, rate, false) && (!here || here->take(now, burst, rate, false));
  if (!left) {
    const int64_t wait =
        std::max(mine.minutes_to_wait(rate), here ? here->minutes_to_wait(rate) : int64_t(0));
    throw Refusal("entry_code_attempts", {{"n", std::to_string(wait)}});
  }
  if (tournaments_->code_matches(id, code)) return;
  mine.take(now, burst, rate);
  if (here) here->take(now, burst, rate);
}

Response TournamentsSite::answer(const net::Request& req, const std::string& id,
                                 const std::string& action, const std::string& peer) {
  const bool get = req.method() == http::verb::get || req.method() == http::verb::head;
  const Viewer viewer = s_.viewer_of(req);
  if (id.empty() && get)
    return json_response(http::status::ok, json::object{{"tournaments", tournaments_->list()}});
  if (id.empty()) return create(req, viewer);
  if (!tournaments_->has(id) && id.size() <= 32) {
    // A finished tournament no longer in memory: read it back.
    if (auto row = s_.store.load_tournament(id)) tournaments_->restore(*row);
  }
  if (!tournaments_->has(id)) throw Refusal("no_tournament", {{"id", id}});
  if (req.method() == http::verb::post) return act(req, id, action, viewer, peer);
  if (action.empty()) {
    tournaments_->seen(viewer);
    return json_response(http::status::ok,
                         json::object{{"tournament", *tournaments_->view(id, viewer)}});
  }
  return export_games(id, action == "pgn");
}

Response TournamentsSite::create(const net::Request& req, const Viewer& viewer) {
  if (!viewer.signed_in()) throw Refusal("tournament_create_login");
  // Every tournament is listed on the tournaments page: a fresh account cannot fill it.
  check_creator(viewer);
  if (tournaments_->open_created_by(viewer.user_id) >= kMaxOpenTournamentsPerAccount)
    throw Refusal("tournaments_open", {{"n", std::to_string(kMaxOpenTournamentsPerAccount)}});
  const TournamentSpec spec = spec_of(json_body(req));
  if (Refused why = tournaments_->check(spec)) throw *why;
  const std::string id = tournaments_->create(spec, viewer);
  return json_response(http::status::ok,
                       json::object{{"id", id}, {"tournament", *tournaments_->view(id, viewer)}});
}

Response TournamentsSite::act(const net::Request& req, const std::string& id,
                              const std::string& action, const Viewer& viewer,
                              const std::string& peer) {
  const json::object body = json_body(req);
  const std::string code = get_string(body, "code", "", 100);
  if (action == "join") count_entry_code(id, code, viewer, peer);
  Refused why;
  if (action == "join")
    why = tournaments_->join(id, viewer, code);
  else if (action == "withdraw")
    why = tournaments_->withdraw(id, viewer);
  else if (action == "edit")
    why = tournaments_->edit(id, viewer, edited_spec(body, *tournaments_->spec(id)));
  else if (action == "cancel")
    why = tournaments_->cancel(id, viewer);
  else
    why = tournaments_->start_now(id, viewer);
  if (why) throw *why;
  tournaments_->seen(viewer);
  tournaments_->tick();  // an arena pairs a player who joined at once
  return json_response(http::status::ok,
                       json::object{{"tournament", *tournaments_->view(id, viewer)}});
}

Response TournamentsSite::export_games(const std::string& id, bool pgn) {
  const std::string name = tournaments_->name_of(id);
  const auto refs = tournaments_->games(id);
  // Round events as TGK: the tournament library's event file, forfeits included.
  std::string text;
  tournament::Event ev;
  ev.name = name;
  ev.site = "toguz";
  std::map<std::string, int> player_of;
  const bool rounds = !tournaments_->arena(id);
  for (const Tournaments::GameRef& ref : refs) {
    std::optional<GameRow> row;
    if (!ref.id.empty()) row = s_.store.load_game(ref.id);
    if (pgn || !rounds) {
      if (!row) continue;  // a forfeit: no game to write
      std::shared_ptr<Room> room = s_.rooms.loaded(ref.id);
      if (!room) room = Room::from_row(s_.room_services, *row);
      auto tags = export_tags(room->row());
      for (auto& [tag, value] : tags)
        if (tag == "Event") value = name;
      tags.push_back({"Round", rounds ? std::to_string(ref.round) + "." + std::to_string(ref.board)
                                      : std::to_string(ref.board)});
      if (!text.empty()) text += "\n";
      text += write_record(room->game, tags, pgn ? RecordStyle::Pgn : RecordStyle::Tgk);
      continue;
    }
    for (const std::string& who : {ref.white, ref.black})
      if (!player_of.count(who)) {
        player_of[who] = int(ev.players.size());
        tournament::Player p;
        p.name = who;
        ev.players.push_back(p);
      }
    while (int(ev.played.size()) < ref.round) ev.played.emplace_back();
    tournament::Board b;
    b.white = player_of[ref.white];
    b.black = player_of[ref.black];
    b.result = ref.result;
    if (row && !tournament::is_forfeit(ref.result)) b.moves = row->holes;
    ev.played[ref.round - 1].boards.push_back(std::move(b));
  }
  if (!pgn && rounds) {
    try {
      text = tournament::event_tgk(ev);
    } catch (const std::exception& e) {
      throw Refusal("tournament_tgk", {{"detail", e.what()}});
    }
  }
  return text_file(text, "tournament-" + id + (pgn ? ".pgn" : ".tgk"));
}

}  // namespace toguz::site
