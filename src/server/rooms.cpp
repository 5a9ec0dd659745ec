// Game rooms: the referee per game, the WebSocket messages, clocks, the engine's moves,
// persistence. Everything here runs on the IO thread (worker tasks post their results back).
#include <malloc.h>

#include <algorithm>
#include <bit>
#include <iostream>

#include "protocol/analysis_json.h"
#include "rules/notation.h"
#include "search/decisions.h"
#include "server/review.h"
#include "server/server_impl.h"
#include "server/texts.h"

namespace toguz::server {

namespace {

using std::chrono::milliseconds;

json::value side_or_null(int s) {
  return s < 0 ? json::value(nullptr) : json::value(side_name(s));
}

Result winner_result(const std::string& w) {
  return w == "white" ? Result::WhiteWins : w == "black" ? Result::BlackWins : Result::Draw;
}

// The recorded reason of a result that does not follow from the board.
bool recorded_reason(const std::string& reason, EndReason* out) {
  if (reason == "resign" || reason == "abandon")
    *out = EndReason::Resignation;
  else if (reason == "timeout")
    *out = EndReason::Time;
  else if (reason == "agreement")
    *out = EndReason::Agreement;
  else
    return false;
  return true;
}

std::string score_text(const Game& game) {
  const auto sc = game.score();
  return std::to_string(sc[0]) + "-" + std::to_string(sc[1]);
}

json::array holes_of(uint32_t mask) {
  json::array a;
  for (int h = 1; h <= 9; ++h)
    if (mask >> (h - 1) & 1u) a.push_back(h);
  return a;
}

}  // namespace

// The refusal with its code and parameters for the client's own words (texts.h).
std::string error_message(const std::string& why) {
  json::object o = error_code(why);
  o["type"] = "error";
  o["message"] = why;
  return json::serialize(o);
}

std::string busy_message(const WorkerPool& pool) {
  return "the engine is busy (" + std::to_string(pool.max_background()) +
         " analyses, hints and reviews already waiting); try again in a moment";
}

json::object score_json(const search::Score& s, Side to_move) {
  return protocol::score_json(s, to_move);
}

int64_t Room::clock_left(int s) const {
  if (!has_clock) return 0;
  if (clock_running && s == side_to_move() && row.status == "playing")
    return left[s] -
           std::chrono::duration_cast<milliseconds>(SteadyClock::now() - turn_start).count();
  return left[s];
}

std::string Server::Impl::random_id(int length) {
  static constexpr char kAlphabet[] = "abcdefghijkmnpqrstuvwxyz23456789";
  std::random_device rd;  // the OS's randomness: tokens must not be guessable
  std::string out;
  for (int i = 0; i < length; ++i) out += kAlphabet[rd() % 32];
  return out;
}

// ---- rooms ----

std::shared_ptr<Room> Server::Impl::room_from_row(GameRow row) {
  auto room = std::make_shared<Room>(ioc);
  Variant v = Variant::Standard;
  parse_variant(row.variant, &v);
  RuleOptions opts;
  opts.variant = v;
  opts.tuz = row.tuz;
  opts.play_out = row.play_out;
  room->game = Game(parse_position(row.start_position, opts));
  for (int hole : row.holes) {
    std::string why;
    if (!room->game.play(hole, &why))
      throw std::runtime_error("game " + row.id + ": stored move " + std::to_string(hole) + ": " +
                               why);
  }
  EndReason er;
  if (row.status == "over" && recorded_reason(row.reason, &er) && !room->game.over())
    room->game.set_recorded_result(winner_result(row.winner), er);
  room->has_clock = row.clock_initial_ms >= 0;
  room->left[0] = row.white_ms;
  room->left[1] = row.black_ms;
  room->increment = std::max<int64_t>(0, row.clock_increment_ms);
  room->clock_running = false;  // paused over the restart until the player to move is back
  room->gone_since[0] = room->gone_since[1] = SteadyClock::now();
  room->row = std::move(row);
  room->row.holes.clear();
  return room;
}

void Server::Impl::load_unfinished() {
  for (const std::string& id : store->unfinished_ids()) {
    try {
      auto row = store->load_game(id);
      if (row) rooms[id] = room_from_row(std::move(*row));
    } catch (const std::exception& e) {
      std::cerr << "toguz serve: cannot resume game " << id << ": " << e.what() << "\n";
    }
  }
}

std::shared_ptr<Room> Server::Impl::find_room(const std::string& id) {
  if (id.empty() || id.size() > 32 || !std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
      }))
    return nullptr;
  if (auto it = rooms.find(id); it != rooms.end()) return it->second;
  try {
    auto row = store->load_game(id);
    if (!row) return nullptr;
    auto room = room_from_row(std::move(*row));
    rooms[id] = room;
    return room;
  } catch (const std::exception& e) {
    std::cerr << "toguz serve: cannot load game " << id << ": " << e.what() << "\n";
    return nullptr;
  }
}

int Server::Impl::side_for_token(const Room& room, const std::string& token) const {
  if (token.empty()) return kSpectator;
  const GameRow& r = room.row;
  if (r.white_token == token && r.black_token == token) return kBoth;
  if (r.white_seated && r.white_token == token) return 0;
  if (r.black_seated && r.black_token == token) return 1;
  return kSpectator;
}

void Server::Impl::persist(Room& room) {
  GameRow& r = room.row;
  r.moves = room.game.ply_count();
  r.white_ms = room.left[0];
  r.black_ms = room.left[1];
  r.updated_ms = now_ms();
  if (r.status == "playing" || r.status == "waiting") r.score = score_text(room.game);
  try {
    store->save_game(r);
  } catch (const std::exception& e) {
    std::cerr << "toguz serve: " << e.what() << "\n";
  }
}

void Server::Impl::persist_move(Room& room, int hole) {
  GameRow& r = room.row;
  r.moves = room.game.ply_count();
  r.white_ms = room.left[0];
  r.black_ms = room.left[1];
  r.updated_ms = now_ms();
  if (r.status == "playing") r.score = score_text(room.game);
  try {
    store->add_move(r, r.moves, hole);
  } catch (const std::exception& e) {
    std::cerr << "toguz serve: " << e.what() << "\n";
  }
}

// ---- state ----

namespace {

bool may_move(const Room& room, int viewer) {
  if (room.row.status != "playing" || room.thinking || room.game.over() || viewer == kSpectator)
    return false;
  const int stm = room.side_to_move();
  if (room.row.mode == "engine" && stm == room.row.engine_side) return false;
  return viewer == kBoth || viewer == stm;
}

bool seat_present(const Room& room, int s) {
  return room.row.engine_side == s || room.connected[s] > 0;
}

// An online game between people still going: no engine help (analysis, review, hints) for
// anyone, players or spectators, until it is over.
bool live_between_people(const Room& room) {
  return room.row.mode == "online" &&
         (room.row.status == "playing" || room.row.status == "waiting");
}

}  // namespace

json::object Server::Impl::state_json(Room& room, int viewer) {
  const Game& game = room.game;
  const Position& pos = game.position();
  const Rules rules = game.rules();
  const GameRow& r = room.row;
  const auto now = SteadyClock::now();
  json::object o;
  o["id"] = r.id;
  o["mode"] = r.mode;
  o["variant"] = variant_name(rules.variant());
  o["tuz"] = rules.tuz;
  o["play_out"] = rules.play_out;
  o["n"] = rules.n;
  o["start_position"] = format_position(game.start());
  o["position"] = format_position(pos);
  json::object board;
  for (int s = 0; s < 2; ++s) {
    json::array row;
    for (int h = 1; h <= rules.n; ++h) row.push_back(pos.stones(Side(s), h));
    board[side_name(s)] = std::move(row);
  }
  board["kazna"] =
      json::object{{"white", pos.kazna(Side::White)}, {"black", pos.kazna(Side::Black)}};
  board["tuz"] = json::object{{"white", pos.tuz(Side::White)}, {"black", pos.tuz(Side::Black)}};
  o["board"] = std::move(board);
  json::array& moves = room.moves_json;  // only the new plies are formatted
  if (int(moves.size()) > game.ply_count()) moves.clear();
  for (int i = int(moves.size()); i < game.ply_count(); ++i) {
    const MoveInfo& m = game.moves()[i];
    const int mover = index(game.position_at(i).side_to_move());
    json::object mv;
    mv["hole"] = int(m.hole);
    mv["side"] = side_name(mover);
    mv["notation"] = format_move(m);
    mv["captured"] = int(m.captured);
    mv["tuz"] = m.tuz_made;
    mv["from"] = json::object{{"side", side_name(mover)}, {"hole", int(m.hole)}};
    mv["to"] = json::object{{"side", side_name(index(m.last_row))}, {"hole", int(m.last_hole)}};
    mv["position"] = format_position(game.position_at(i + 1));
    moves.push_back(std::move(mv));
  }
  o["moves"] = moves;
  o["ply"] = game.ply_count();
  o["to_move"] = side_name(room.side_to_move());
  o["legal"] = may_move(room, viewer) ? holes_of(game.legal_mask()) : json::array();
  o["status"] = r.status;
  if (r.status == "over" || r.status == "aborted") {
    o["result"] =
        json::object{{"winner", r.winner.empty() ? json::value(nullptr) : json::value(r.winner)},
                     {"reason", r.reason},
                     {"score", r.score.empty() ? score_text(game) : r.score}};
  } else {
    o["result"] = nullptr;
  }
  json::object players;
  for (int s = 0; s < 2; ++s) {
    const bool engine = r.engine_side == s;
    const bool connected = seat_present(room, s);
    json::object p;
    p["name"] = s == 0 ? r.white_name : r.black_name;
    p["default_name"] = default_name_code(r, s);
    p["engine"] = engine;
    p["level"] = engine ? json::value(r.level) : json::value(nullptr);
    p["connected"] = connected;
    p["away_ms"] =
        connected ? json::value(nullptr)
                  : json::value(
                        std::chrono::duration_cast<milliseconds>(now - room.gone_since[s]).count());
    players[side_name(s)] = std::move(p);
  }
  o["players"] = std::move(players);
  if (room.has_clock) {
    o["clock"] = json::object{{"white_ms", std::max<int64_t>(0, room.clock_left(0))},
                              {"black_ms", std::max<int64_t>(0, room.clock_left(1))},
                              {"increment_ms", room.increment},
                              {"initial_ms", r.clock_initial_ms},
                              {"running", room.clock_running && r.status == "playing"
                                              ? json::value(side_name(room.side_to_move()))
                                              : json::value(nullptr)}};
  } else {
    o["clock"] = nullptr;
  }
  o["draw_offer"] = side_or_null(room.draw_offer);
  o["rematch_offer"] = side_or_null(room.rematch_offer);
  o["you"] = viewer == kSpectator ? "spectator" : viewer == kBoth ? "both" : side_name(viewer);
  o["thinking"] = room.thinking;
  o["spectators"] = room.spectators;
  // Additions to the protocol: the abandon delay, whether `you` may claim the win now, the
  // rematch game once there is one.
  o["abandon_ms"] = int64_t(config.abandon_seconds) * 1000;
  bool can_claim = false;
  if (r.mode == "online" && r.status == "playing" && (viewer == 0 || viewer == 1)) {
    const int opp = 1 - viewer;
    can_claim = !seat_present(room, opp) &&
                now - room.gone_since[opp] >= std::chrono::seconds(config.abandon_seconds);
  }
  o["can_claim"] = can_claim;
  o["can_offer_draw"] = (viewer == 0 || viewer == 1) && r.status == "playing" &&
                        room.draw_offer != viewer && room.may_offer_draw(viewer);
  o["rematch_id"] = room.rematch_id.empty() ? json::value(nullptr) : json::value(room.rematch_id);
  return o;
}

std::string Server::Impl::state_message(Room& room, int viewer) {
  return json::serialize(json::object{{"type", "state"}, {"game", state_json(room, viewer)}});
}

void Server::Impl::broadcast(Room& room) {
  std::string cache[4];  // per viewer kind: spectator, white, black, both
  for (WsSession* s : std::vector<WsSession*>(room.sessions)) {
    std::string& m = cache[s->side + 1];
    if (m.empty()) m = state_message(room, s->side);
    s->send_state(m);
  }
}

// A spectator joining or leaving changes only the count: everyone gets one small presence
// message per interval, however many came and went.
void Server::Impl::schedule_presence(const std::shared_ptr<Room>& room_ptr) {
  Room& room = *room_ptr;
  if (room.presence_pending) return;
  room.presence_pending = true;
  room.presence_timer.expires_after(std::chrono::milliseconds(500));
  room.presence_timer.async_wait([this, room_ptr](beast::error_code ec) {
    Room& room = *room_ptr;
    room.presence_pending = false;
    if (ec || stopped_io) return;
    const std::string text =
        json::serialize(json::object{{"type", "presence"}, {"spectators", room.spectators}});
    for (WsSession* s : std::vector<WsSession*>(room.sessions)) s->send(text);
  });
}

// ---- connections ----

void Server::Impl::attach(WsSession& s) {
  Room& room = *s.room;
  room.sessions.push_back(&s);
  if (s.side == kSpectator) {
    ++room.spectators;
    s.send_state(state_message(room, kSpectator));
    schedule_presence(s.room);
    return;
  }
  for (int side = 0; side < 2; ++side) {
    if (s.side == side || s.side == kBoth) {
      if (room.connected[side]++ == 0) room.abandon_timer[side].cancel();
    }
  }
  resume_clock(room);
  broadcast(room);
}

void Server::Impl::detach(WsSession& s) {
  auto room_ptr = s.room;
  Room& room = *room_ptr;
  room.sessions.erase(std::remove(room.sessions.begin(), room.sessions.end(), &s),
                      room.sessions.end());
  if (s.analysis) s.analysis->cancel();
  if (stopped_io) return;
  if (room.sessions.empty()) room.idle_since = SteadyClock::now();
  schedule_trim();
  if (s.side == kSpectator) {
    --room.spectators;
    schedule_presence(room_ptr);
    return;
  }
  for (int side = 0; side < 2; ++side) {
    if (s.side != side && s.side != kBoth) continue;
    if (--room.connected[side] > 0) continue;
    room.gone_since[side] = SteadyClock::now();
    if (room.row.mode == "online" && room.row.status == "playing") {
      // When the seat has been empty long enough, tell the opponent he may claim the win.
      room.abandon_timer[side].expires_after(std::chrono::seconds(config.abandon_seconds));
      room.abandon_timer[side].async_wait([this, room_ptr](beast::error_code ec) {
        if (!ec) broadcast(*room_ptr);
      });
    }
  }
  broadcast(room);
}

// ---- clocks ----

void Server::Impl::resume_clock(Room& room) {
  if (!room.has_clock || room.clock_running || room.row.status != "playing" ||
      room.game.ply_count() == 0)
    return;
  if (!seat_present(room, room.side_to_move())) return;
  room.clock_running = true;
  room.turn_start = SteadyClock::now();
  if (auto it = rooms.find(room.row.id); it != rooms.end()) arm_flag_timer(it->second);
}

void Server::Impl::arm_flag_timer(const std::shared_ptr<Room>& room) {
  if (!room->has_clock || !room->clock_running || room->row.status != "playing") {
    room->flag_timer.cancel();
    return;
  }
  const int64_t left = std::max<int64_t>(0, room->clock_left(room->side_to_move()));
  room->flag_timer.expires_after(milliseconds(left + 1));
  room->flag_timer.async_wait([this, room](beast::error_code ec) {
    if (!ec) on_flag_timer(room);
  });
}

void Server::Impl::on_flag_timer(const std::shared_ptr<Room>& room) {
  if (room->row.status != "playing" || !room->clock_running) return;
  const int stm = room->side_to_move();
  if (room->clock_left(stm) > 0) {
    arm_flag_timer(room);
    return;
  }
  finish(*room, side_name(1 - stm), "timeout");
  persist(*room);
  broadcast(*room);
}

// ---- expiry and memory ----

void Server::Impl::schedule_trim() {
  if (trim_armed) return;
  trim_armed = true;
  trim_timer.expires_after(std::chrono::seconds(2));
  trim_timer.async_wait([this](beast::error_code ec) {
    trim_armed = false;
    // glibc keeps freed memory in its arenas; after many connections went, hand it back.
    if (!ec && !stopped_io) malloc_trim(0);
  });
}

void Server::Impl::arm_sweep() {
  const int shortest = std::min(
      {config.expire_waiting_seconds, config.expire_analysis_seconds, config.idle_room_seconds});
  const auto every =
      std::chrono::milliseconds(std::clamp<int64_t>(int64_t(shortest) * 500, 200, 60000));
  sweep_timer.expires_after(every);
  sweep_timer.async_wait([this](beast::error_code ec) {
    if (ec || stopped_io) return;
    sweep();
    arm_sweep();
  });
}

void Server::Impl::sweep() {
  const int64_t now = now_ms();
  const auto steady = SteadyClock::now();
  bool dropped = false;
  for (auto it = rooms.begin(); it != rooms.end();) {
    Room& room = *it->second;
    const GameRow& r = room.row;
    const bool idle = room.sessions.empty() && !room.thinking && !room.reviewing;
    // The same rule as Store::expire_stale, which then ends the games not in memory.
    const int64_t age_ms = now - r.updated_ms;
    const bool unstarted =
        r.status == "waiting" ||
        (r.status == "playing" && room.game.ply_count() == 0 && r.mode != "analysis");
    const bool stale_board = r.mode == "analysis" && r.status == "playing";
    if (!room.thinking &&
        ((unstarted && age_ms >= int64_t(config.expire_waiting_seconds) * 1000) ||
         (stale_board && age_ms >= int64_t(config.expire_analysis_seconds) * 1000))) {
      finish(room, "", "expired");
      persist(room);
      broadcast(room);
    }
    const bool live = r.status == "playing" && (r.mode == "online" || r.mode == "engine");
    if (idle && !live &&
        steady - room.idle_since >= std::chrono::seconds(config.idle_room_seconds)) {
      room.flag_timer.cancel();
      room.presence_timer.cancel();
      room.abandon_timer[0].cancel();
      room.abandon_timer[1].cancel();
      it = rooms.erase(it);
      dropped = true;
    } else {
      ++it;
    }
  }
  try {
    store->expire_stale(now - int64_t(config.expire_waiting_seconds) * 1000,
                        now - int64_t(config.expire_analysis_seconds) * 1000);
  } catch (const std::exception& e) {
    std::cerr << "toguz serve: " << e.what() << "\n";
  }
  for (auto it = addresses.begin(); it != addresses.end();) {
    const AddressState& a = it->second;
    if (a.connections == 0 && a.analyses == 0 && steady - a.refilled >= std::chrono::minutes(5))
      it = addresses.erase(it);
    else
      ++it;
  }
  if (dropped) schedule_trim();
}

// ---- moves and endings ----

void Server::Impl::stop_engine(Room& room) {
  if (room.engine_job) room.engine_job->cancel();
  room.engine_job.reset();
  ++room.engine_gen;
  room.thinking = false;
}

void Server::Impl::finish(Room& room, const std::string& winner, const std::string& reason) {
  for (int s = 0; s < 2; ++s) room.left[s] = std::max<int64_t>(0, room.clock_left(s));
  room.clock_running = false;
  room.flag_timer.cancel();
  room.abandon_timer[0].cancel();
  room.abandon_timer[1].cancel();
  EndReason er;
  if (recorded_reason(reason, &er) && !room.game.over())
    room.game.set_recorded_result(winner_result(winner), er);
  room.row.status = reason == "aborted" || reason == "expired" ? "aborted" : "over";
  room.row.winner = winner;
  room.row.reason = reason;
  room.row.score = score_text(room.game);
  room.draw_offer = -1;
  room.rematch_offer = -1;
  stop_engine(room);
}

void Server::Impl::finish_from_board(Room& room) {
  const Result res = room.game.result();
  const std::string winner = res == Result::WhiteWins   ? "white"
                             : res == Result::BlackWins ? "black"
                                                        : "draw";
  const EndReason er = room.game.end_reason();
  const std::string reason = er == EndReason::Resignation ? "resign"
                             : er == EndReason::Time      ? "timeout"
                             : er == EndReason::Agreement ? "agreement"
                                                          : std::string(end_reason_name(er));
  finish(room, winner, reason);
}

bool Server::Impl::apply_move(const std::shared_ptr<Room>& room_ptr, int hole, std::string* why) {
  Room& room = *room_ptr;
  const int s = room.side_to_move();
  const int64_t left = room.clock_left(s);
  if (room.has_clock && room.clock_running && left <= 0) {
    on_flag_timer(room_ptr);
    *why = "time is up";
    return false;
  }
  if (hole < 1 || hole > room.game.rules().n) {
    *why = "hole: expected 1.." + std::to_string(room.game.rules().n);
    return false;
  }
  if (!room.game.play(hole, why)) return false;
  if (room.has_clock) {
    room.left[s] = left + room.increment;
    room.clock_running = true;
    room.turn_start = SteadyClock::now();
  }
  if (room.draw_offer == 1 - s) room.draw_declined_ply[1 - s] = room.game.ply_count();
  if (room.draw_offer != s) room.draw_offer = -1;  // a move declines the opponent's offer
  if (room.game.over()) finish_from_board(room);
  persist_move(room, hole);
  arm_flag_timer(room_ptr);
  return true;
}

void Server::Impl::maybe_start_engine(const std::shared_ptr<Room>& room_ptr) {
  Room& room = *room_ptr;
  if (room.row.mode != "engine" || room.row.status != "playing" || room.thinking ||
      room.game.over())
    return;
  if (room.side_to_move() != room.row.engine_side) return;
  resume_clock(room);
  room.thinking = true;
  const uint64_t gen = ++room.engine_gen;
  auto job = std::make_shared<Job>();
  room.engine_job = job;
  search::Limits limits;
  if (room.has_clock) {
    for (int s = 0; s < 2; ++s) {
      limits.time_ms[s] = int(std::clamp<int64_t>(room.clock_left(s), 1, 1 << 30));
      limits.inc_ms[s] = int(room.increment);
    }
  } else {
    limits.movetime_ms = config.engine_movetime_ms;
  }
  search::Options options;
  options.skill = std::clamp(room.row.level, 1, 20);
  options.seed = rng();
  auto task = [this, room_ptr, gen, job, game = room.game, limits,
               options](search::Engine& engine) {
    if (!job->attach(&engine)) return;
    engine.set_options(options);
    engine.set_position(game);
    const search::SearchResult r = engine.search(limits, [&](const search::Info&) {
      if (job->cancelled() || pool->stopping()) engine.stop();
    });
    job->detach();
    if (job->cancelled()) return;
    net::post(ioc, [this, room_ptr, gen, r] { on_engine_result(room_ptr, gen, r); });
  };
  pool->submit(std::move(task), Priority::Engine, job);
}

void Server::Impl::on_engine_result(const std::shared_ptr<Room>& room_ptr, uint64_t gen,
                                    const search::SearchResult& r) {
  Room& room = *room_ptr;
  if (gen != room.engine_gen) return;
  room.thinking = false;
  room.engine_job.reset();
  if (room.row.status != "playing" || r.best_move == 0) {
    broadcast(room);
    return;
  }
  // The engine resigns a proven loss, and answers a draw offer with its move: it accepts
  // when the search proved it cannot win (search/decisions.h).
  const int human = 1 - room.row.engine_side;
  if (search::should_resign(r)) {
    finish(room, side_name(human), "resign");
    persist(room);
    broadcast(room);
    return;
  }
  if (room.draw_offer == human) {
    if (search::accepts_draw(r)) {
      finish(room, "draw", "agreement");
      persist(room);
      broadcast(room);
      return;
    }
    room.draw_offer = -1;  // declined: the engine plays on
    room.draw_declined_ply[human] = room.game.ply_count();
  }
  std::string why;
  if (!apply_move(room_ptr, r.best_move, &why))
    std::cerr << "toguz serve: engine move refused: " << why << "\n";
  broadcast(room);
  maybe_start_engine(room_ptr);
}

void Server::Impl::start_rematch(const std::shared_ptr<Room>& old_ptr) {
  Room& old = *old_ptr;
  GameRow row = old.row;
  row.id = random_id(10);
  std::swap(row.white_name, row.black_name);
  if (row.mode == "local" || row.mode == "analysis") {
    row.white_token = row.black_token = random_id(32);
  } else {
    row.white_token = random_id(32);
    row.black_token = random_id(32);
  }
  if (row.engine_side >= 0) row.engine_side = 1 - row.engine_side;
  row.white_seated = row.black_seated = true;
  row.invite.clear();
  row.status = "playing";
  row.winner.clear();
  row.reason.clear();
  row.review.clear();
  row.white_ms = row.black_ms = std::max<int64_t>(0, row.clock_initial_ms);
  row.created_ms = row.updated_ms = now_ms();
  auto room = std::make_shared<Room>(ioc);
  room->game = Game(old.game.start());
  room->has_clock = old.has_clock;
  room->left[0] = room->left[1] = row.white_ms;
  room->increment = old.increment;
  room->gone_since[0] = room->gone_since[1] = SteadyClock::now();
  room->row = row;
  rooms[row.id] = room;
  persist(*room);
  old.rematch_id = row.id;
  old.rematch_offer = -1;
  for (WsSession* s : std::vector<WsSession*>(old.sessions)) {
    json::object m{{"type", "rematch"}, {"id", row.id}};
    if (s->side == kBoth) {
      m["token"] = row.white_token;
      m["side"] = "both";
    } else if (s->side == 0 || s->side == 1) {
      const int now_side = 1 - s->side;
      m["token"] = now_side == 0 ? row.white_token : row.black_token;
      m["side"] = side_name(now_side);
    } else {
      m["token"] = nullptr;
      m["side"] = "spectator";
    }
    s->send(json::serialize(m));
  }
  broadcast(old);
  maybe_start_engine(room);
}

// ---- messages ----

void Server::Impl::on_message(WsSession& s, std::string_view text) {
  auto fail = [&s](const std::string& why) { s.send(error_message(why)); };
  const auto now = SteadyClock::now();
  if (now - s.window_start >= std::chrono::seconds(1)) {
    s.window_start = now;
    s.window_count = 0;
  }
  if (++s.window_count > config.max_messages_per_second) {
    fail("rate limit: more than " + std::to_string(config.max_messages_per_second) +
         " messages per second");
    return;
  }
  if (text.size() > kMaxMessage) {
    fail("message over 4 KiB");
    return;
  }
  json::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec) {
    fail("invalid JSON: " + ec.message());
    return;
  }
  if (!v.is_object()) {
    fail("expected a JSON object");
    return;
  }
  const json::object& msg = v.as_object();
  const json::value* tv = msg.if_contains("type");
  if (!tv || !tv->is_string()) {
    fail("type: expected a string");
    return;
  }
  const std::string type(tv->as_string());
  // An integer field in [lo, hi]; sets *why naming the field when missing or wrong.
  auto int_field = [&msg](const char* name, int lo, int hi, int* out, std::string* why,
                          bool required = true) {
    const json::value* f = msg.if_contains(name);
    if (!f) {
      if (required) *why = std::string(name) + ": missing";
      return !required;
    }
    if (!f->is_int64() && !f->is_uint64()) {
      *why = std::string(name) + ": expected an integer";
      return false;
    }
    const int64_t x =
        f->is_int64() ? f->as_int64() : int64_t(std::min<uint64_t>(f->as_uint64(), INT64_MAX));
    if (x < lo || x > hi) {
      *why = std::string(name) + ": expected " + std::to_string(lo) + ".." + std::to_string(hi);
      return false;
    }
    *out = int(x);
    return true;
  };

  std::shared_ptr<Room> room_ptr = s.room;
  Room& room = *room_ptr;
  const std::string& mode = room.row.mode;
  const bool player = s.side != kSpectator;
  std::string why;

  if (type == "ping") {
    s.send(R"({"type":"pong"})");
    return;
  }
  if ((type == "analyze" || type == "review" || type == "hint") && live_between_people(room))
    return fail(type + ": no engine help in an online game until it is over");
  if (type == "analyze") {
    int multipv = 3;
    if (!int_field("multipv", 1, 5, &multipv, &why, false)) return fail(why);
    if (s.analysis) s.analysis->cancel();
    auto job = std::make_shared<Job>();
    s.analysis = job;
    std::weak_ptr<WsSession> weak = s.shared_from_this();
    const int ply = room.game.ply_count();
    const int expected = std::max(1, std::min(multipv, std::popcount(room.game.legal_mask())));
    auto task = [this, weak, job, ply, expected, multipv,
                 game = room.game](search::Engine& engine) {
      if (!job->attach(&engine)) return;
      const Position pos = game.position();
      auto message = [&](int depth, const std::vector<search::Info>& lines, bool done) {
        json::array out;
        for (const search::Info& l : lines) out.push_back(protocol::line_json(l, pos));
        std::string text = json::serialize(json::object{{"type", "analysis"},
                                                        {"ply", ply},
                                                        {"depth", depth},
                                                        {"lines", std::move(out)},
                                                        {"done", done}});
        net::post(ioc, [weak, job, text = std::move(text)] {
          auto s = weak.lock();
          if (s && s->analysis == job) s->send(text);
        });
      };
      search::Options options;
      options.multipv = multipv;
      engine.set_options(options);
      engine.set_position(game);
      search::Limits limits;
      limits.movetime_ms = 1000;
      std::vector<search::Info> set;
      const search::SearchResult r = engine.search(limits, [&](const search::Info& info) {
        if (job->cancelled() || pool->stopping()) engine.stop();
        if (info.multipv == 1) set.clear();
        set.push_back(info);
        if (int(set.size()) == expected && !job->cancelled()) message(info.depth, set, false);
      });
      job->detach();
      if (job->cancelled()) return;
      message(r.lines.empty() ? 0 : r.lines[0].depth, r.lines, true);
    };
    if (!pool->submit(std::move(task), Priority::Background, job)) {
      s.analysis.reset();
      return fail("analyze: " + busy_message(*pool));
    }
    return;
  }
  if (type == "analyze_stop") {
    if (s.analysis) s.analysis->cancel();
    s.analysis.reset();
    return;
  }
  if (type == "review") {
    start_review(room_ptr, s);
    return;
  }
  static const char* kPlayerTypes[] = {"move",       "takeback",    "hint",         "resign",
                                       "offer_draw", "accept_draw", "decline_draw", "abort",
                                       "rematch",    "claim_win"};
  if (std::find_if(std::begin(kPlayerTypes), std::end(kPlayerTypes),
                   [&](const char* t) { return type == t; }) == std::end(kPlayerTypes))
    return fail("type: unknown message type '" + type.substr(0, 40) + "'");
  if (!player) return fail(type + ": spectators may only send ping, analyze and review");
  const bool playing = room.row.status == "playing";
  const int stm = room.side_to_move();
  // The side a player acts for: his seat, or the side to move when he holds both.
  const int me = s.side == kBoth ? stm : s.side;

  if (type == "move") {
    int hole = 0, ply = 0;
    if (!int_field("hole", 1, room.game.rules().n, &hole, &why)) return fail(why);
    if (!int_field("ply", 0, 1 << 20, &ply, &why)) return fail(why);
    if (room.row.status == "waiting") return fail("move: waiting for the opponent to join");
    if (!playing) return fail("move: the game is over");
    if (!may_move(room, s.side)) return fail("move: not your turn");
    if (ply != room.game.ply_count())
      return fail("move: stale (ply " + std::to_string(ply) + ", the game is at ply " +
                  std::to_string(room.game.ply_count()) + ")");
    if (!apply_move(room_ptr, hole, &why)) return fail("move: " + why);
    broadcast(room);
    maybe_start_engine(room_ptr);
    return;
  }
  if (type == "takeback") {
    if (mode == "online") return fail("takeback: not in online games");
    const std::string& reason = room.row.reason;
    const bool board_end = room.row.status == "over" &&
                           (reason == "decided" || reason == "no-move" || reason == "repetition");
    if (!playing && !board_end) return fail("takeback: the game is over");
    int plies = 1;
    if (mode == "engine") {
      const int human = 1 - room.row.engine_side;
      const int n = room.game.ply_count();
      auto mover = [&](int ply) { return index(room.game.position_at(ply - 1).side_to_move()); };
      if (n == 0 || (mover(n) != human && (n < 2 || mover(n - 1) != human)))
        return fail("takeback: no move of yours to take back");
      plies = mover(n) == human ? 1 : 2;
      stop_engine(room);
    } else if (room.game.ply_count() == 0) {
      return fail("takeback: no move to take back");
    }
    for (int i = 0; i < plies; ++i) room.game.undo();
    room.moves_json.clear();
    room.row.status = "playing";
    room.row.winner.clear();
    room.row.reason.clear();
    room.draw_offer = room.rematch_offer = -1;
    room.turn_start = SteadyClock::now();
    if (room.game.ply_count() == 0) room.clock_running = false;
    room.row.moves = room.game.ply_count();
    room.row.score = score_text(room.game);
    try {
      store->truncate_moves(room.row, room.game.ply_count());
    } catch (const std::exception& e) {
      std::cerr << "toguz serve: " << e.what() << "\n";
    }
    arm_flag_timer(room_ptr);
    broadcast(room);
    maybe_start_engine(room_ptr);
    return;
  }
  if (type == "hint") {
    if (mode == "online") return fail("hint: not in online games");  // not even once it is over
    if (!may_move(room, s.side)) return fail("hint: not your turn");
    if (s.hint_pending) return fail("hint: the last hint is still being searched");
    std::weak_ptr<WsSession> weak = s.shared_from_this();
    auto task = [this, weak, game = room.game](search::Engine& engine) {
      engine.set_options(search::Options{});
      engine.set_position(game);
      search::Limits limits;
      limits.movetime_ms = 500;
      const search::SearchResult r = engine.search(limits, [&](const search::Info&) {
        if (pool->stopping()) engine.stop();
      });
      if (r.best_move == 0 || r.lines.empty()) {
        net::post(ioc, [weak] {
          if (auto s = weak.lock()) s->hint_pending = false;
        });
        return;
      }
      json::array pv;
      for (int h : r.lines[0].pv) pv.push_back(h);
      std::string text = json::serialize(
          json::object{{"type", "hint"},
                       {"hole", r.best_move},
                       {"ply", game.ply_count()},
                       {"pv", std::move(pv)},
                       {"score", score_json(r.lines[0].score, game.position().side_to_move())}});
      net::post(ioc, [weak, text = std::move(text)] {
        if (auto s = weak.lock()) {
          s->hint_pending = false;
          s->send(text);
        }
      });
    };
    if (!pool->submit(std::move(task))) return fail("hint: " + busy_message(*pool));
    s.hint_pending = true;
    return;
  }
  if (type == "resign") {
    if (mode == "analysis") return fail("resign: not in analysis");
    if (!playing) return fail("resign: the game is not being played");
    finish(room, side_name(1 - me), "resign");
    persist(room);
    broadcast(room);
    return;
  }
  if (type == "offer_draw" || type == "accept_draw" || type == "decline_draw") {
    if (mode != "online" && mode != "engine")
      return fail(type + ": only in online and engine games");
    if (!playing) return fail(type + ": the game is not being played");
    if (type == "offer_draw") {
      if (room.draw_offer == 1 - me) {
        finish(room, "draw", "agreement");
        persist(room);
      } else if (room.draw_offer == me) {
        return fail("offer_draw: already offered");
      } else if (!room.may_offer_draw(me)) {
        const int plies = room.draw_declined_ply[me] + kDrawOfferGap - room.game.ply_count();
        return fail("offer_draw: declined; again after " + std::to_string((plies + 1) / 2) +
                    " more moves");
      } else {
        room.draw_offer = me;  // the engine answers with its next move
      }
    } else {
      if (room.draw_offer != 1 - me) return fail(type + ": no draw offer from the opponent");
      if (type == "accept_draw") {
        finish(room, "draw", "agreement");
        persist(room);
      } else {
        room.draw_offer = -1;
        room.draw_declined_ply[1 - me] = room.game.ply_count();
      }
    }
    broadcast(room);
    return;
  }
  if (type == "abort") {
    if (mode == "analysis") return fail("abort: not in analysis");
    if (room.row.status != "waiting" && !(playing && room.game.ply_count() < 2))
      return fail("abort: only before each side has moved");
    finish(room, "", "aborted");
    persist(room);
    broadcast(room);
    return;
  }
  if (type == "rematch") {
    if (mode == "analysis") return fail("rematch: not in analysis");
    if (room.row.status != "over" && room.row.status != "aborted")
      return fail("rematch: the game is not over");
    if (!room.rematch_id.empty()) {
      auto next = find_room(room.rematch_id);
      if (!next) return fail("rematch: the rematch game is gone");
      json::object m{{"type", "rematch"}, {"id", room.rematch_id}};
      const int now_side = s.side == kBoth ? kBoth : 1 - s.side;
      m["token"] = now_side == 1 ? next->row.black_token : next->row.white_token;
      m["side"] = now_side == kBoth ? "both" : side_name(now_side);
      s.send(json::serialize(m));
      return;
    }
    if (mode == "online" && room.rematch_offer != 1 - s.side) {
      room.rematch_offer = s.side;
      broadcast(room);
      return;
    }
    start_rematch(room_ptr);
    return;
  }
  if (type == "claim_win") {
    if (mode != "online") return fail("claim_win: only in online games");
    if (!playing) return fail("claim_win: the game is not being played");
    const int opp = 1 - s.side;
    if (seat_present(room, opp)) return fail("claim_win: the opponent is connected");
    if (SteadyClock::now() - room.gone_since[opp] < std::chrono::seconds(config.abandon_seconds))
      return fail("claim_win: the opponent has been gone less than " +
                  std::to_string(config.abandon_seconds) + " s");
    finish(room, side_name(s.side), "abandon");
    persist(room);
    broadcast(room);
    return;
  }
}

}  // namespace toguz::server
