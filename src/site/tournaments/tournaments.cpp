#include "site/tournaments/tournaments.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "net/log.h"
#include "tournament/event_json.h"
#include "tournament/round_robin.h"
#include "tournament/standings.h"

namespace toguz::site {

namespace json = boost::json;
using tournament::BoardResult;

namespace {

std::string result_text(BoardResult r) {
  return std::string(tournament::board_result_text(r));
}

BoardResult result_of(const json::value& v, const std::string& where) {
  BoardResult r;
  if (!v.is_string() || !tournament::parse_board_result(std::string(v.as_string()), &r))
    throw std::runtime_error(where + ": expected a result");
  return r;
}

int64_t int_of(const json::object& o, const char* key, const std::string& where) {
  const json::value* v = o.if_contains(key);
  if (!v || !v->is_int64()) throw std::runtime_error(where + "." + key + ": expected an integer");
  return v->as_int64();
}

std::string text_of(const json::object& o, const char* key, const std::string& where) {
  const json::value* v = o.if_contains(key);
  if (!v || !v->is_string()) throw std::runtime_error(where + "." + key + ": expected a string");
  return std::string(v->as_string());
}

bool flag_of(const json::object& o, const char* key, const std::string& where) {
  const json::value* v = o.if_contains(key);
  if (!v || !v->is_bool()) throw std::runtime_error(where + "." + key + ": expected true or false");
  return v->as_bool();
}

const json::array& array_of(const json::object& o, const char* key, const std::string& where) {
  const json::value* v = o.if_contains(key);
  if (!v || !v->is_array()) throw std::runtime_error(where + "." + key + ": expected an array");
  return v->as_array();
}

}  // namespace

Tournaments::Tournaments(TournamentHooks hooks) : hooks_(std::move(hooks)) {}

const char* Tournaments::state_name(State s) {
  switch (s) {
    case State::Upcoming:
      return "upcoming";
    case State::Running:
      return "running";
    case State::Finished:
      return "finished";
    case State::Cancelled:
      return "cancelled";
  }
  return "upcoming";
}

Tournaments::T* Tournaments::find(const std::string& id) {
  auto it = all_.find(id);
  return it == all_.end() ? nullptr : it->second.get();
}
const Tournaments::T* Tournaments::find(const std::string& id) const {
  auto it = all_.find(id);
  return it == all_.end() ? nullptr : it->second.get();
}

int Tournaments::entrant_of(const T& t, int64_t user_id) const {
  for (size_t i = 0; i < t.entrants.size(); ++i)
    if (t.entrants[i].user_id == user_id) return int(i);
  return -1;
}

bool Tournaments::connected(int64_t user_id) const {
  if (hooks_.online && hooks_.online(user_id)) return true;
  auto it = seen_ms_.find(user_id);
  return it != seen_ms_.end() && hooks_.now_ms() - it->second <= kTournamentPresenceMs;
}

void Tournaments::seen(const Viewer& viewer) {
  if (viewer.signed_in()) seen_ms_[viewer.user_id] = hooks_.now_ms();
}

std::string_view system_name(TournamentSystem s) {
  switch (s) {
    case TournamentSystem::Arena:
      return "arena";
    case TournamentSystem::Swiss:
      return "swiss";
    case TournamentSystem::RoundRobin:
      return "round-robin";
    case TournamentSystem::DoubleRoundRobin:
      break;
  }
  return "double-round-robin";
}

std::optional<TournamentSystem> parse_tournament_system(std::string_view s) {
  for (TournamentSystem t : {TournamentSystem::Arena, TournamentSystem::Swiss,
                             TournamentSystem::RoundRobin, TournamentSystem::DoubleRoundRobin})
    if (s == system_name(t)) return t;
  return std::nullopt;
}

Refused Tournaments::check(const TournamentSpec& s) const {
  const int64_t now = hooks_.now_ms();
  if (s.name.empty() || s.name.size() > 120) return Refusal("tournament_name");
  if (s.initial_ms < 15000 || s.initial_ms > 10800000) return Refusal("tournament_clock");
  if (s.increment_ms < 0 || s.increment_ms > 180000) return Refusal("tournament_increment");
  if (s.starts_ms < now - 60000 || s.starts_ms > now + 30LL * 86400000)
    return Refusal("tournament_start");
  if (s.system == TournamentSystem::Swiss && (s.rounds < 1 || s.rounds > kTournamentMaxRounds))
    return Refusal("tournament_rounds", {{"n", std::to_string(kTournamentMaxRounds)}});
  if (s.system != TournamentSystem::Swiss && s.rounds != 0)
    return Refusal("tournament_rounds_swiss");
  if (s.system == TournamentSystem::Arena && (s.duration_ms < 60000 || s.duration_ms > kArenaMaxMs))
    return Refusal("tournament_duration");
  if (s.system != TournamentSystem::Arena && s.duration_ms != 0)
    return Refusal("tournament_duration_arena");
  const int most =
      s.system == TournamentSystem::RoundRobin || s.system == TournamentSystem::DoubleRoundRobin
          ? kRoundRobinMaxPlayers
          : kTournamentMaxPlayers;
  if (s.max_players < 2 || s.max_players > most)
    return Refusal("tournament_players", {{"n", std::to_string(most)}});
  if (s.entry_code.size() > 40) return Refusal("tournament_code_long");
  if (s.first_move_seconds != 0 &&
      (s.first_move_seconds < kFirstMoveMinSeconds || s.first_move_seconds > kFirstMoveMaxSeconds))
    return Refusal("tournament_first_move", {{"min", std::to_string(kFirstMoveMinSeconds)},
                                             {"max", std::to_string(kFirstMoveMaxSeconds)}});
  return std::nullopt;
}

std::string Tournaments::create(const TournamentSpec& spec, const Viewer& creator) {
  auto t = std::make_unique<T>();
  do t->id = hooks_.new_id();
  while (all_.count(t->id));
  t->spec = spec;
  t->creator = creator.user_id;
  t->creator_name = creator.username;
  t->created_ms = hooks_.now_ms();
  T& ref = *t;
  const store::TournamentRow row{ref.id,         "upcoming",     json::serialize(state_json(ref)),
                                 spec.starts_ms, ref.created_ms, ref.created_ms};
  hooks_.save(row);  // a failed write throws: nothing was made
  all_[ref.id] = std::move(t);
  return ref.id;
}

Refused Tournaments::join(const std::string& id, const Viewer& viewer, const std::string& code) {
  if (!viewer.signed_in()) return Refusal("tournament_join_login");
  T* t = find(id);
  if (!t) return Refusal("no_tournament", {{"id", id}});
  if (t->state == State::Finished || t->state == State::Cancelled)
    return Refusal("tournament_over");
  if (const int i = entrant_of(*t, viewer.user_id); i >= 0) {
    if (t->arena && t->arena->entries()[i].paused) {
      arena_do(*t, json::array{"resume", i});
      save(*t);
      return std::nullopt;
    }
    return Refusal(t->entrants[i].withdrawn ? "tournament_withdrew" : "tournament_joined");
  }
  if (t->state == State::Running && !t->is_arena()) return Refusal("tournament_closed");
  if (!t->spec.entry_code.empty() && code != t->spec.entry_code) return Refusal("wrong_entry_code");
  if (int(t->entrants.size()) >= t->spec.max_players) return Refusal("tournament_full");
  Entrant e{viewer.user_id, viewer.username, seed_of(t->spec, viewer), false};
  t->entrants.push_back(e);
  if (t->arena) arena_do(*t, json::array{"join", e.name, e.rating});
  save(*t);
  return std::nullopt;
}

Refused Tournaments::withdraw(const std::string& id, const Viewer& viewer) {
  T* t = find(id);
  if (!t) return Refusal("no_tournament", {{"id", id}});
  if (!viewer.signed_in()) return Refusal("not_logged_in");
  const int i = entrant_of(*t, viewer.user_id);
  if (i < 0) return Refusal("tournament_not_joined");
  if (t->state == State::Finished || t->state == State::Cancelled)
    return Refusal("tournament_over");
  if (t->state == State::Upcoming) {
    t->entrants.erase(t->entrants.begin() + i);
  } else if (t->arena) {
    if (!t->arena->entries()[i].paused) arena_do(*t, json::array{"pause", i});
  } else {
    t->entrants[i].withdrawn = true;
  }
  save(*t);
  return std::nullopt;
}

Refused Tournaments::start_now(const std::string& id, const Viewer& viewer) {
  T* t = find(id);
  if (Refused why = creator_before_start(t, id, viewer)) return why;
  t->spec.starts_ms = hooks_.now_ms();
  advance(*t);
  save(*t);
  return std::nullopt;
}

int Tournaments::seed_of(const TournamentSpec& spec, const Viewer& viewer) const {
  const auto speed = accounts::speed_of({spec.initial_ms, spec.increment_ms, 0});
  if (!speed || !hooks_.rating) return 0;
  return int(std::lround(hooks_.rating(viewer, *speed).rating));
}

Refused Tournaments::creator_before_start(const T* t, const std::string& id,
                                          const Viewer& viewer) const {
  if (!t) return Refusal("no_tournament", {{"id", id}});
  if (!viewer.signed_in()) return Refusal("not_logged_in");
  if (viewer.user_id != t->creator) return Refusal("tournament_not_creator");
  if (t->state == State::Finished || t->state == State::Cancelled)
    return Refusal("tournament_over");
  if (t->state != State::Upcoming) return Refusal("tournament_started");
  return std::nullopt;
}

Refused Tournaments::edit(const std::string& id, const Viewer& viewer, const TournamentSpec& spec) {
  T* t = find(id);
  if (Refused why = creator_before_start(t, id, viewer)) return why;
  TournamentSpec s = spec;
  s.system = t->spec.system;
  s.entry_code = t->spec.entry_code;
  s.max_players = t->spec.max_players;
  s.rated = t->spec.rated;
  if (Refused why = check(s)) return why;
  t->spec = s;
  for (Entrant& e : t->entrants) {
    Viewer v;
    v.user_id = e.user_id;
    v.username = e.name;
    e.rating = seed_of(s, v);
  }
  save(*t);
  return std::nullopt;
}

Refused Tournaments::cancel(const std::string& id, const Viewer& viewer) {
  T* t = find(id);
  if (Refused why = creator_before_start(t, id, viewer)) return why;
  t->state = State::Cancelled;
  t->finished_ms = hooks_.now_ms();
  save(*t);
  return std::nullopt;
}

std::optional<TournamentSpec> Tournaments::spec(const std::string& id) const {
  const T* t = find(id);
  return t ? std::optional<TournamentSpec>(t->spec) : std::nullopt;
}

int Tournaments::open_created_by(int64_t user_id) const {
  int n = 0;
  for (const auto& [id, t] : all_)
    n += t->creator == user_id && (t->state == State::Upcoming || t->state == State::Running);
  return n;
}

int Tournaments::created_since(int64_t user_id, int64_t since_ms) const {
  int n = 0;
  for (const auto& [id, t] : all_) n += t->creator == user_id && t->created_ms >= since_ms;
  return n;
}

bool Tournaments::needs_code(const std::string& id) const {
  const T* t = find(id);
  return t && !t->spec.entry_code.empty();
}

bool Tournaments::code_matches(const std::string& id, const std::string& code) const {
  const T* t = find(id);
  return t && t->spec.entry_code == code;
}

std::vector<int> Tournaments::arena_do(T& t, json::array step, bool record) {
  std::vector<int> made;
  const std::string what(step.at(0).as_string());
  if (what == "join") {
    tournament::Player p;
    p.name = std::string(step.at(1).as_string());
    p.rating = int(step.at(2).as_int64());
    t.arena->join(p);
  } else if (what == "pause") {
    t.arena->pause(int(step.at(1).as_int64()));
  } else if (what == "resume") {
    t.arena->resume(int(step.at(1).as_int64()));
  } else if (what == "pair") {
    const int64_t now = step.at(1).as_int64();
    made = t.arena->pair(now);
    // A pairing that made no game and saw no one new waiting changed nothing: not logged.
    const auto& es = t.arena->entries();
    record = record && (!made.empty() || std::any_of(es.begin(), es.end(), [&](const auto& e) {
               return e.waiting_since == now;
             }));
  } else if (what == "finish") {
    t.arena->finish(int(step.at(1).as_int64()), result_of(step.at(2), "arena_log finish"));
  } else if (what == "no_show") {
    t.arena->no_show(int(step.at(1).as_int64()), result_of(step.at(2), "arena_log no_show"));
  } else if (what == "call_off") {
    const int game = int(step.at(1).as_int64());
    t.arena->call_off(game);
    t.games.at(size_t(game)).called_off = true;
  } else {
    throw std::runtime_error("arena_log: unknown step " + what);
  }
  if (record) t.arena_log.push_back(std::move(step));
  return made;
}

std::string Tournaments::start_game(T& t, int w, int b) {
  PairedGame g;
  for (int s = 0; s < 2; ++s) {
    const Entrant& e = t.entrants[s == 0 ? w : b];
    Viewer& v = s == 0 ? g.white : g.black;
    v.user_id = e.user_id;
    v.username = e.name;
  }
  g.initial_ms = t.spec.initial_ms;
  g.increment_ms = t.spec.increment_ms;
  g.rated = t.spec.rated;
  g.tournament_id = t.id;
  g.tournament_name = t.spec.name;
  g.first_move_seconds = t.spec.first_move_seconds;
  const PairedSeats seats = hooks_.start_game(g);
  if (!seats.error.empty()) {
    log(net::LogLevel::Error, "", "tournament " + t.id + ": no game started: " + seats.error);
    return "";
  }
  by_game_[seats.id] = {t.id, t.games.size()};
  return seats.id;
}

void Tournaments::start(T& t) {
  auto told = [&] {
    if (hooks_.started)
      for (const Entrant& e : t.entrants) hooks_.started(e.user_id, t.id, t.spec.name);
  };
  if (t.is_arena()) {
    t.arena = std::make_unique<tournament::Arena>(t.spec.starts_ms, t.spec.duration_ms,
                                                  t.arena_rematch_wait_ms);
    for (const Entrant& e : t.entrants) arena_do(t, json::array{"join", e.name, e.rating});
    t.state = State::Running;
    return told();
  }
  if (t.entrants.size() < 2) {
    t.state = State::Cancelled;
    t.finished_ms = hooks_.now_ms();
    return;
  }
  t.event = tournament::Event{};
  t.event.name = t.spec.name;
  tournament::parse_system(system_name(t.spec.system), &t.event.system);
  t.event.rounds = t.spec.rounds;
  for (const Entrant& e : t.entrants) {
    tournament::Player p;
    p.name = e.name;
    p.rating = e.rating;
    t.event.players.push_back(p);
  }
  t.state = State::Running;
  told();
}

void Tournaments::pair_round(T& t) {
  tournament::Round round = tournament::pair_next_round(t.event);
  const int r = int(t.event.played.size());
  for (size_t b = 0; b < round.boards.size(); ++b) {
    tournament::Board& board = round.boards[b];
    const Entrant& w = t.entrants[board.white];
    const Entrant& k = t.entrants[board.black];
    const bool w_here = !w.withdrawn && connected(w.user_id);
    const bool k_here = !k.withdrawn && connected(k.user_id);
    TGame g{"", r, int(b), board.white, board.black};
    if (w_here && k_here) {
      g.id = start_game(t, board.white, board.black);
      // A game that could not be started is scored as drawn, not held against either player.
      if (g.id.empty()) g.result = BoardResult::Draw;
    } else if (w_here || k_here) {
      g.result = w_here ? BoardResult::WhiteForfeitWin : BoardResult::BlackForfeitWin;
    } else {
      g.result = BoardResult::Draw;  // neither came: no one gains on the other
    }
    board.result = g.result;
    t.games.push_back(g);
  }
  t.event.played.push_back(std::move(round));
}

void Tournaments::pair_arena(T& t) {
  const int64_t now = hooks_.now_ms();
  if (!t.arena->running(now)) return;
  const auto& entries = t.arena->entries();
  for (size_t i = 0; i < entries.size(); ++i)
    if (!entries[i].playing && !entries[i].paused && !connected(t.entrants[i].user_id))
      arena_do(t, json::array{"pause", int(i)});
  // Paired with even one waiting player: the arena notes since when he waits.
  int waiting = 0;
  for (const auto& e : t.arena->entries()) waiting += !e.playing && !e.paused;
  if (waiting < 1) return;
  for (int gi : arena_do(t, json::array{"pair", now})) {
    const tournament::Arena::Game& ag = t.arena->games()[gi];
    TGame g{"", 0, gi, ag.white, ag.black};
    g.id = start_game(t, ag.white, ag.black);
    t.games.push_back(g);
    if (g.id.empty()) finish_game(t, t.games.size() - 1, BoardResult::Draw);
  }
}

void Tournaments::finish_game(T& t, size_t index, BoardResult result) {
  TGame& g = t.games.at(index);
  if (!g.open()) return;
  if (result == BoardResult::Pending) {
    // No result: an arena does not count the game; a round's board needs one, held against
    // neither player.
    if (t.arena) {
      arena_do(t, json::array{"call_off", int(index)});
      return;
    }
    result = BoardResult::Draw;
  }
  g.result = result;
  if (t.arena && tournament::is_forfeit(result))  // never a win by an abort
    arena_do(t, json::array{"no_show", int(index), result_text(result)});
  else if (t.arena)
    arena_do(t, json::array{"finish", int(index), result_text(result)});
  else
    t.event.played.at(g.round).boards.at(g.board).result = result;
}

void Tournaments::call_off_unstarted(T& t) {
  if (!hooks_.call_off) return;
  for (size_t i = 0; i < t.games.size(); ++i)
    if (t.games[i].open() && !t.games[i].id.empty() && hooks_.call_off(t.games[i].id))
      finish_game(t, i, BoardResult::Pending);
}

void Tournaments::advance(T& t) {
  if (t.state == State::Upcoming && hooks_.now_ms() >= t.spec.starts_ms) start(t);
  if (t.state != State::Running) return;
  const auto pending = [&] {
    return std::any_of(t.games.begin(), t.games.end(), [](const TGame& g) { return g.open(); });
  };
  if (t.arena) {
    if (hooks_.now_ms() >= t.spec.starts_ms + t.spec.duration_ms) {
      call_off_unstarted(t);
      if (!pending()) {
        t.state = State::Finished;
        t.finished_ms = hooks_.now_ms();
      }
      return;
    }
    pair_arena(t);
    return;
  }
  // Round events: a round whose boards were all forfeits is complete at once, so loop.
  while (t.state == State::Running) {
    const int played = int(t.event.played.size());
    if (played > 0 && !t.event.round_complete(played - 1)) return;
    if (played >= t.event.total_rounds()) {
      t.state = State::Finished;
      t.finished_ms = hooks_.now_ms();
      return;
    }
    try {
      pair_round(t);
    } catch (const std::runtime_error& e) {
      // A Swiss with more rounds than its players allow: it ends with the rounds it had.
      log(net::LogLevel::Warn, "", "tournament " + t.id + ": ends, no next round: " + e.what());
      t.state = State::Finished;
      t.finished_ms = hooks_.now_ms();
    }
  }
}

void Tournaments::game_ended(const std::string& game_id, BoardResult result, bool no_start) {
  auto it = by_game_.find(game_id);
  if (it == by_game_.end()) return;
  T* t = find(it->second.first);
  const size_t index = it->second.second;
  if (!t || !t->games.at(index).open()) return;
  finish_game(*t, index, result);
  if (t->arena && no_start && tournament::is_forfeit(result)) {
    // The absent player is not paired again until he says he is back.
    const TGame& g = t->games[index];
    const int absent = result == BoardResult::WhiteForfeitWin ? g.black : g.white;
    if (!t->arena->entries()[absent].paused) arena_do(*t, json::array{"pause", absent});
  }
  advance(*t);
  save(*t);
}

void Tournaments::tick() {
  // Now and then: games that ended where no end reached us (a game expired in the store).
  const bool reconcile = hooks_.game_result && ++ticks_ % kReconcileTicks == 0;
  for (auto& [id, t] : all_) {
    if (t->state != State::Upcoming && t->state != State::Running) continue;
    if (reconcile)
      for (size_t i = 0; i < t->games.size(); ++i)
        if (t->games[i].open() && !t->games[i].id.empty())
          if (const auto r = hooks_.game_result(t->games[i].id)) finish_game(*t, i, *r);
    const State before = t->state;
    const size_t games = t->games.size(), steps = t->arena_log.size();
    advance(*t);
    if (reconcile || t->state != before || t->games.size() != games || t->arena_log.size() != steps)
      save(*t);
  }
}

void Tournaments::save(T& t) {
  t.updated_ms = hooks_.now_ms();
  try {
    hooks_.save(store::TournamentRow{t.id, state_name(t.state), json::serialize(state_json(t)),
                                     t.spec.starts_ms, t.created_ms, t.updated_ms});
  } catch (const std::exception& e) {
    // Memory is ahead of the store until the next change writes the whole state again.
    log(net::LogLevel::Error, "", "tournament " + t.id + ": not stored: " + e.what());
  }
}

// ---- the stored state ----

json::object Tournaments::state_json(const T& t) const {
  json::array entrants;
  for (const Entrant& e : t.entrants)
    entrants.push_back(json::object{
        {"user", e.user_id}, {"name", e.name}, {"rating", e.rating}, {"withdrawn", e.withdrawn}});
  json::array games;
  for (const TGame& g : t.games)
    games.push_back(json::object{{"id", g.id},
                                 {"round", g.round},
                                 {"board", g.board},
                                 {"white", g.white},
                                 {"black", g.black},
                                 {"result", result_text(g.result)}});
  json::object o{{"name", t.spec.name},
                 {"system", system_name(t.spec.system)},
                 {"initial_ms", t.spec.initial_ms},
                 {"increment_ms", t.spec.increment_ms},
                 {"rated", t.spec.rated},
                 {"starts_ms", t.spec.starts_ms},
                 {"rounds", t.spec.rounds},
                 {"duration_ms", t.spec.duration_ms},
                 {"entry_code", t.spec.entry_code},
                 {"max_players", t.spec.max_players},
                 {"first_move_seconds", t.spec.first_move_seconds},
                 {"creator", t.creator},
                 {"creator_name", t.creator_name},
                 {"status", state_name(t.state)},
                 {"created_ms", t.created_ms},
                 {"finished_ms", t.finished_ms},
                 {"entrants", std::move(entrants)},
                 {"games", std::move(games)},
                 {"arena_log", t.arena_log}};
  if (t.is_arena()) o["arena_rematch_wait_ms"] = t.arena_rematch_wait_ms;
  if (!t.is_arena() && !t.event.players.empty())
    o["event"] = json::parse(tournament::event_to_json(t.event));
  return o;
}

std::optional<Tournaments::State> Tournaments::parse_state(std::string_view s) {
  for (State st : {State::Upcoming, State::Running, State::Finished, State::Cancelled})
    if (s == state_name(st)) return st;
  return std::nullopt;
}

TournamentSpec Tournaments::spec_of(const json::object& o, const std::string& where) {
  TournamentSpec s;
  s.name = text_of(o, "name", where);
  const auto system = parse_tournament_system(text_of(o, "system", where));
  if (!system)
    throw std::runtime_error(where + ".system: " + Refusal("tournament_system").english());
  s.system = *system;
  s.initial_ms = int_of(o, "initial_ms", where);
  s.increment_ms = int_of(o, "increment_ms", where);
  s.rated = flag_of(o, "rated", where);
  s.starts_ms = int_of(o, "starts_ms", where);
  s.rounds = int(int_of(o, "rounds", where));
  s.duration_ms = int_of(o, "duration_ms", where);
  s.entry_code = text_of(o, "entry_code", where);
  s.max_players = int(int_of(o, "max_players", where));
  if (o.contains("first_move_seconds"))  // a state stored before it: the default
    s.first_move_seconds = int(int_of(o, "first_move_seconds", where));
  return s;
}

void Tournaments::read_players_and_games(T& t, const json::object& o, const std::string& where) {
  for (const json::value& e : array_of(o, "entrants", where)) {
    if (!e.is_object()) throw std::runtime_error(where + ".entrants: expected objects");
    const json::object& eo = e.as_object();
    t.entrants.push_back(Entrant{int_of(eo, "user", where), text_of(eo, "name", where),
                                 int(int_of(eo, "rating", where)),
                                 flag_of(eo, "withdrawn", where)});
  }
  const int n = int(t.entrants.size());
  for (const json::value& g : array_of(o, "games", where)) {
    if (!g.is_object()) throw std::runtime_error(where + ".games: expected objects");
    const json::object& go = g.as_object();
    TGame tg{text_of(go, "id", where),        int(int_of(go, "round", where)),
             int(int_of(go, "board", where)), int(int_of(go, "white", where)),
             int(int_of(go, "black", where)), result_of(go.at("result"), where + ".games")};
    if (tg.white < 0 || tg.white >= n || tg.black < 0 || tg.black >= n)
      throw std::runtime_error(where + ".games: a player out of range");
    t.games.push_back(tg);
  }
}

void Tournaments::read_event_or_arena(T& t, const json::object& o, const std::string& where) {
  if (const json::value* ev = o.if_contains("event")) {
    try {
      t.event = tournament::event_from_json(json::serialize(*ev));
    } catch (const std::exception& e) {
      throw std::runtime_error(where + ".event: " + e.what());
    }
    for (const TGame& g : t.games)
      if (g.round >= int(t.event.played.size()) ||
          g.board >= int(t.event.played[g.round].boards.size()))
        throw std::runtime_error(where + ".games: a board the event does not have");
  }
  if (!t.is_arena()) return;
  if (o.contains("arena_rematch_wait_ms"))
    t.arena_rematch_wait_ms = int_of(o, "arena_rematch_wait_ms", where);
  else if (t.state != State::Upcoming)
    t.arena_rematch_wait_ms = 0;  // logged under the first rule, before the wait
  if (t.state == State::Upcoming) return;
  t.arena = std::make_unique<tournament::Arena>(t.spec.starts_ms, t.spec.duration_ms,
                                                t.arena_rematch_wait_ms);
  try {
    for (const json::value& step : array_of(o, "arena_log", where)) {
      if (!step.is_array()) throw std::runtime_error("expected arrays");
      t.arena_log.push_back(step);
      arena_do(t, step.as_array(), false);
    }
  } catch (const std::exception& e) {
    throw std::runtime_error(where + ".arena_log: " + e.what());
  }
  if (t.arena->games().size() != t.games.size())
    throw std::runtime_error(where + ".arena_log: its games differ from the games");
}

void Tournaments::restore(const store::TournamentRow& row) {
  const std::string where = "tournament " + row.id;
  json::error_code ec;
  json::value v = json::parse(row.state, ec);
  if (ec || !v.is_object()) throw std::runtime_error(where + ": state: expected a JSON object");
  const json::object& o = v.as_object();
  auto t = std::make_unique<T>();
  t->id = row.id;
  t->spec = spec_of(o, where);
  t->creator = int_of(o, "creator", where);
  t->creator_name = text_of(o, "creator_name", where);
  t->created_ms = int_of(o, "created_ms", where);
  t->finished_ms = int_of(o, "finished_ms", where);
  t->updated_ms = row.updated_ms;
  const auto state = parse_state(text_of(o, "status", where));
  if (!state)
    throw std::runtime_error(where + ".status: expected upcoming, running, finished or cancelled");
  t->state = *state;
  read_players_and_games(*t, o, where);
  read_event_or_arena(*t, o, where);
  T& ref = *t;
  all_[row.id] = std::move(t);
  for (size_t i = 0; i < ref.games.size(); ++i)
    if (!ref.games[i].id.empty()) by_game_[ref.games[i].id] = {ref.id, i};
  // Games that ended while the server was not listening for them.
  bool changed = false;
  for (size_t i = 0; i < ref.games.size(); ++i) {
    if (!ref.games[i].open() || ref.games[i].id.empty() || !hooks_.game_result) continue;
    if (const auto r = hooks_.game_result(ref.games[i].id)) {
      finish_game(ref, i, *r);
      changed = true;
    }
  }
  if (changed) {
    advance(ref);
    save(ref);
  }
}

// ---- what the pages show ----

json::object Tournaments::summary_json(const T& t) const {
  int total = t.spec.rounds;
  if (!t.is_arena() && t.spec.system != TournamentSystem::Swiss) {
    const int n = int(t.event.players.empty() ? t.entrants.size() : t.event.players.size());
    total = n < 2 ? 0
                  : tournament::berger_rounds(n) *
                        (t.spec.system == TournamentSystem::DoubleRoundRobin ? 2 : 1);
  }
  json::object o{{"id", t.id},
                 {"name", t.spec.name},
                 {"system", system_name(t.spec.system)},
                 {"initial_ms", t.spec.initial_ms},
                 {"increment_ms", t.spec.increment_ms},
                 {"rated", t.spec.rated},
                 {"starts_ms", t.spec.starts_ms},
                 {"status", state_name(t.state)},
                 {"players", int64_t(t.entrants.size())},
                 {"max_players", t.spec.max_players},
                 {"entry", t.spec.entry_code.empty() ? "open" : "code"},
                 {"first_move_seconds", t.spec.first_move_seconds},
                 {"creator", t.creator_name}};
  if (t.is_arena()) {
    o["duration_ms"] = t.spec.duration_ms;
    o["ends_ms"] = t.spec.starts_ms + t.spec.duration_ms;
  } else {
    o["rounds"] = total;
    o["round"] = int64_t(t.event.played.size());
  }
  return o;
}

json::array Tournaments::standings_json(const T& t) const {
  json::array out;
  if (t.arena) {
    const auto& entries = t.arena->entries();
    int rank = 0, prev_points = -1;
    const std::vector<int> order = t.arena->ranking();
    for (size_t i = 0; i < order.size(); ++i) {
      const auto& e = entries[order[i]];
      if (e.points != prev_points) rank = int(i) + 1;
      prev_points = e.points;
      out.push_back(json::object{{"rank", rank},
                                 {"player", order[i]},
                                 {"name", e.player.name},
                                 {"rating", e.player.rating},
                                 {"points", std::to_string(e.points)},
                                 {"games", e.games},
                                 {"wins", e.wins},
                                 {"streak", e.streak},
                                 {"paused", e.paused},
                                 {"playing", e.playing}});
    }
    return out;
  }
  if (!t.event.played.empty()) {
    for (const tournament::Standing& s : tournament::standings(t.event))
      out.push_back(
          json::object{{"rank", s.rank},
                       {"player", s.player},
                       {"name", t.entrants[s.player].name},
                       {"rating", t.entrants[s.player].rating},
                       {"points", tournament::score_text(s.half_points)},
                       {"withdrawn", t.entrants[s.player].withdrawn},
                       {"tie_breaks", json::array(s.tie_breaks.begin(), s.tie_breaks.end())}});
    return out;
  }
  // Not started: the players by rating, nobody ahead yet.
  std::vector<int> order(t.entrants.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return t.entrants[a].rating > t.entrants[b].rating; });
  for (int p : order)
    out.push_back(json::object{{"rank", 1},
                               {"player", p},
                               {"name", t.entrants[p].name},
                               {"rating", t.entrants[p].rating},
                               {"points", "0"}});
  return out;
}

std::optional<json::object> Tournaments::view(const std::string& id, const Viewer& viewer) const {
  const T* t = find(id);
  if (!t) return std::nullopt;
  json::object o = summary_json(*t);
  o["now_ms"] = hooks_.now_ms();
  json::array players;
  for (const Entrant& e : t->entrants)
    players.push_back(
        json::object{{"name", e.name}, {"rating", e.rating}, {"withdrawn", e.withdrawn}});
  o["entrants"] = std::move(players);
  o["standings"] = standings_json(*t);
  if (!t->is_arena()) {
    json::array tie_breaks;
    if (!t->event.players.empty())
      for (tournament::TieBreak tb : tournament::tie_breaks_of(t->event))
        tie_breaks.push_back(json::string(tournament::tie_break_short(tb)));
    o["tie_breaks"] = std::move(tie_breaks);
  }
  json::array games;
  json::value my_game = nullptr;
  const int me = viewer.signed_in() ? entrant_of(*t, viewer.user_id) : -1;
  for (const TGame& g : t->games) {
    games.push_back(json::object{{"id", g.id.empty() ? json::value(nullptr) : json::value(g.id)},
                                 {"called_off", g.called_off},
                                 {"round", g.round + 1},
                                 {"board", g.board + 1},
                                 {"white", g.white},
                                 {"black", g.black},
                                 {"white_name", t->entrants[g.white].name},
                                 {"black_name", t->entrants[g.black].name},
                                 {"result", result_text(g.result)}});
    if (me >= 0 && g.open() && !g.id.empty() && (g.white == me || g.black == me))
      my_game = json::value(g.id);
  }
  o["games"] = std::move(games);
  if (me >= 0) {
    o["me"] = json::object{{"player", me},
                           {"paused", t->arena && t->arena->entries()[me].paused},
                           {"withdrawn", t->entrants[me].withdrawn},
                           {"game", my_game}};
  } else {
    o["me"] = nullptr;
  }
  return o;
}

json::array Tournaments::list() const {
  std::vector<const T*> open, done;
  for (const auto& [id, t] : all_)
    (t->state == State::Upcoming || t->state == State::Running ? open : done).push_back(t.get());
  std::sort(open.begin(), open.end(), [](const T* a, const T* b) {
    return a->spec.starts_ms != b->spec.starts_ms ? a->spec.starts_ms < b->spec.starts_ms
                                                  : a->id < b->id;
  });
  std::sort(done.begin(), done.end(),
            [](const T* a, const T* b) { return a->finished_ms > b->finished_ms; });
  json::array out;
  for (const T* t : open) out.push_back(summary_json(*t));
  for (size_t i = 0; i < done.size() && i < 50; ++i) out.push_back(summary_json(*done[i]));
  return out;
}

std::vector<Tournaments::GameRef> Tournaments::games(const std::string& id) const {
  std::vector<GameRef> out;
  const T* t = find(id);
  if (!t) return out;
  for (const TGame& g : t->games)
    out.push_back(GameRef{g.id, g.round + 1, g.board + 1, t->entrants[g.white].name,
                          t->entrants[g.black].name, g.result});
  return out;
}

bool Tournaments::arena(const std::string& id) const {
  const T* t = find(id);
  return t && t->is_arena();
}

std::string Tournaments::name_of(const std::string& id) const {
  const T* t = find(id);
  return t ? t->spec.name : "";
}

}  // namespace toguz::site
