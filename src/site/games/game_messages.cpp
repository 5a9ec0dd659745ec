// The WebSocket messages after the hello (docs/web-protocol.md "Client messages"): the checks
// every message passes (rate, size, JSON, type), then one handler per type from one table. A
// handler checks its own fields and answers a refusal with {"type":"error"} and changes
// nothing; the room does the rest (room.h).
#include <algorithm>
#include <bit>
#include <cstdint>

#include "site/games/games_site.h"
#include "site/json_out.h"
#include "site/message_check.h"
#include "site/texts.h"

namespace toguz::site {

namespace {

// One message being handled: who sent it, to which room, and its fields.
struct Request {
  const GamesServices& server;
  ReviewClaims& reviews;
  ChatRates& chat_rates;
  ClientSession& session;
  Room& room;
  const json::object& msg;

  void fail(const Refusal& why) const { session.send(why.message()); }
  // Sends a room's refusal, when there is one.
  void fail_if(const Refused& why) const {
    if (why) fail(*why);
  }
  // The side a player acts for: his seat, or the side to move when he holds both.
  Side me() const {
    const auto side = side_of(session.seat());
    return side ? *side : room.to_move();
  }
  // An integer field in [lo, hi]; refuses the message naming the field when it is missing
  // (and required: a field that field_missing has a form for) or wrong.
  bool int_field(const char* name, int lo, int hi, int* out, bool required = true) const {
    const json::value* f = msg.if_contains(name);
    if (!f) {
      if (required) fail(Refusal("field_missing", {{"field", name}}, name));
      return !required;
    }
    if (!f->is_int64() && !f->is_uint64()) {
      fail(Refusal("field_type", {{"field", name}}, "integer"));
      return false;
    }
    const int64_t x =
        f->is_int64() ? f->as_int64() : int64_t(std::min<uint64_t>(f->as_uint64(), INT64_MAX));
    if (x < lo || x > hi) {
      fail(Refusal("field_range",
                   {{"field", name}, {"lo", std::to_string(lo)}, {"hi", std::to_string(hi)}}));
      return false;
    }
    *out = int(x);
    return true;
  }
};

void on_ping(const Request& r) {
  r.session.send(R"({"type":"pong"})");
}

// A client that found a gap in its deltas asks for the whole state.
void on_sync(const Request& r) {
  r.room.send_whole_state(r.session);
}

// A stream of analysis messages for this connection: one each time the search finishes a set
// of `multipv` lines, and the last with "done":true. A new analyze replaces the running one.
void on_analyze(const Request& r) {
  int multipv = 3;
  if (!r.int_field("multipv", 1, 5, &multipv, false)) return;
  ClientSession& s = r.session;
  if (s.analysis) s.analysis->cancel();
  auto job = std::make_shared<engine_work::Job>();
  s.analysis = job;
  engine_work::EngineWork& work = r.server.engine;
  const Game& game = r.room.game;
  const int ply = game.ply_count();
  const int expected = std::max(1, std::min(multipv, std::popcount(game.legal_mask())));
  const Position pos = game.position();
  auto send = [weak = std::weak_ptr<ClientSession>(s.client_ptr()), job](std::string text) {
    auto s = weak.lock();
    if (s && s->analysis == job) s->send(std::move(text));
  };
  engine_work::EngineWork::Search search;
  search.game = game;
  search.options.multipv = multipv;
  search.limits.movetime_ms = 1000;
  auto set = std::make_shared<std::vector<search::Info>>();  // the lines of this iteration
  search.on_info = [&work, job, set, expected, pos, ply, send](const search::Info& info) {
    if (info.multipv == 1) set->clear();
    set->push_back(info);
    if (int(set->size()) != expected || job->cancelled()) return;
    work.post(job,
              [send, text = analysis_message(pos, ply, info.depth, *set, false)] { send(text); });
  };
  auto done = [pos, ply, send](search::SearchResult res) {
    send(analysis_message(pos, ply, res.lines.empty() ? 0 : res.lines[0].depth, res.lines, true));
  };
  if (!work.search(std::move(search), engine_work::Priority::Background, job, done)) {
    s.analysis.reset();
    r.fail(busy_refusal(work.pool(), "analyze"));
  }
}

void on_analyze_stop(const Request& r) {
  if (r.session.analysis) r.session.analysis->cancel();
  r.session.analysis.reset();
}

// A review that needs the engine is one at a time per client (its address and its account).
void on_review(const Request& r) {
  std::shared_ptr<void> ticket;
  if (r.room.review_needs_engine()) {
    const ClientSession& s = r.session;
    std::string connection = "s";
    connection += std::to_string(reinterpret_cast<uintptr_t>(&s));
    Refused why;
    ticket = r.reviews.claim(s.address, s.user_id, connection, &why);
    if (!ticket) return r.fail(*why);
  }
  r.fail_if(r.room.start_review(r.session.client_ptr(), std::move(ticket)));
}

void on_move(const Request& r) {
  Room& room = r.room;
  int hole = 0, ply = 0;
  if (!r.int_field("hole", 1, room.game.rules().n, &hole)) return;
  if (!r.int_field("ply", 0, 1 << 20, &ply)) return;
  if (room.status == Status::Waiting) return r.fail(Refusal("waiting"));
  if (room.status != Status::Playing) return r.fail(Refusal("game_over", {{"action", "move"}}));
  if (!room.may_move(r.session.seat()))
    return r.fail(Refusal("not_your_turn", {{"action", "move"}}));
  if (ply != room.game.ply_count())
    return r.fail(Refusal(
        "stale", {{"ply", std::to_string(ply)}, {"now", std::to_string(room.game.ply_count())}}));
  Refused why;
  // The state goes out once the move is stored; a refusal of the store to the mover alone.
  auto done = [&room, weak = std::weak_ptr<ClientSession>(r.session.client_ptr())](
                  Room::Played p, const Refused& why) {
    if (p == Room::Played::Made) return room.changed();
    if (auto s = weak.lock(); s && why) s->send(why->message());
  };
  if (room.play(hole, &why, std::move(done)) == Room::Played::Refused) r.fail(*why);
}

// An online game's takeback is a proposal to the opponent; elsewhere it is done at once.
void on_takeback(const Request& r) {
  r.fail_if(r.room.mode == Mode::Online ? r.room.propose_takeback(r.me()) : r.room.takeback());
}

void on_accept_takeback(const Request& r) {
  r.fail_if(r.room.answer_takeback(r.me(), true));
}

void on_decline_takeback(const Request& r) {
  r.fail_if(r.room.answer_takeback(r.me(), false));
}

// The best move for the side to move, once at a time per connection.
void on_hint(const Request& r) {
  Room& room = r.room;
  ClientSession& s = r.session;
  if (room.mode == Mode::Online)  // even once over
    return r.fail(Refusal("not_in_online", {{"action", "hint"}}));
  if (!room.may_move(s.seat())) return r.fail(Refusal("not_your_turn", {{"action", "hint"}}));
  if (s.hint_pending) return r.fail(Refusal("hint_pending"));
  engine_work::EngineWork& work = r.server.engine;
  engine_work::EngineWork::Search search;
  search.game = room.game;
  search.limits.movetime_ms = 500;
  const int ply = room.game.ply_count();
  const Side to_move = room.to_move();
  auto done = [weak = std::weak_ptr<ClientSession>(s.client_ptr()), ply,
               to_move](search::SearchResult res) {
    auto s = weak.lock();
    if (!s) return;
    s->hint_pending = false;
    if (res.best_move != 0 && !res.lines.empty()) s->send(hint_message(res, ply, to_move));
  };
  if (!work.search(std::move(search), engine_work::Priority::Background,
                   std::make_shared<engine_work::Job>(), done))
    return r.fail(busy_refusal(work.pool(), "hint"));
  s.hint_pending = true;
}

void on_resign(const Request& r) {
  r.fail_if(r.room.resign(r.me()));
}

void on_offer_draw(const Request& r) {
  r.fail_if(r.room.offer_draw(r.me()));
}

void on_accept_draw(const Request& r) {
  r.fail_if(r.room.answer_draw(r.me(), true));
}

void on_decline_draw(const Request& r) {
  r.fail_if(r.room.answer_draw(r.me(), false));
}

void on_abort(const Request& r) {
  r.fail_if(r.room.abort_game(side_of(r.session.seat())));
}

// After the game: the rematch once it exists (its id and this seat's token in it); in an
// online game the first request is an offer the opponent accepts by asking too.
void on_rematch(const Request& r) {
  Room& room = r.room;
  if (room.mode == Mode::Analysis)
    return r.fail(Refusal("not_in_analysis", {{"action", "rematch"}}));
  if (!finished(room.status)) return r.fail(Refusal("not_over"));
  // A tournament pairs its own games: its game has no rematch.
  if (!room.tournament_id().empty()) return r.fail(Refusal("rematch_tournament"));
  if (!room.rematch_id.empty()) {
    auto next = r.server.rooms.find(room.rematch_id);
    if (!next) return r.fail(Refusal("rematch_gone"));
    return r.session.send(Room::rematch_message(*next, r.session.seat()));
  }
  if (room.offer_rematch(r.session.seat())) return;
  r.server.rooms.start_rematch(room);
}

void on_claim_win(const Request& r) {
  r.fail_if(r.room.claim_win(r.me()));
}

// A chat message (docs/web-protocol.md "Chat"): counted against the account's limit, then
// the room's rules. It never changes the game.
void on_chat(const Request& r) {
  const json::value* text = r.msg.if_contains("text");
  if (!text || !text->is_string())
    return r.fail(Refusal("field_type", {{"field", "text"}}, "string"));
  const int64_t user = r.session.user_id;
  if (user != 0 && !r.chat_rates.take(user, now_ms()))
    return r.fail(Refusal("chat_rate", {{"n", std::to_string(int(ChatRates::kChatBurst))}}));
  r.fail_if(r.room.say(r.session, text->as_string()));
}

// The connection switches the chat of a rated game on or off (a setting of the page); on, it
// gets the chat so far.
void on_chat_on(const Request& r) {
  const json::value* on = r.msg.if_contains("on");
  if (!on || !on->is_bool()) return r.fail(Refusal("field_type", {{"field", "on"}}, "bool"));
  r.session.chat_rated = on->as_bool();
  if (r.session.chat_rated && r.room.rated) r.room.send_chat_log(r.session);
}

struct Handler {
  const char* name;
  MessageType type;
  bool players_only;  // spectators are refused
  bool engine_help;   // refused in a live online game, for everyone
  void (*handle)(const Request&);
};

// Every message type a client may send after its hello.
constexpr Handler kHandlers[] = {
    {"ping", MessageType::Ping, false, false, on_ping},
    {"analyze", MessageType::Analyze, false, true, on_analyze},
    {"analyze_stop", MessageType::AnalyzeStop, false, false, on_analyze_stop},
    {"review", MessageType::Review, false, true, on_review},
    {"move", MessageType::Move, true, false, on_move},
    {"takeback", MessageType::Takeback, true, false, on_takeback},
    {"hint", MessageType::Hint, true, true, on_hint},
    {"resign", MessageType::Resign, true, false, on_resign},
    {"offer_draw", MessageType::OfferDraw, true, false, on_offer_draw},
    {"accept_draw", MessageType::AcceptDraw, true, false, on_accept_draw},
    {"decline_draw", MessageType::DeclineDraw, true, false, on_decline_draw},
    {"abort", MessageType::Abort, true, false, on_abort},
    {"rematch", MessageType::Rematch, true, false, on_rematch},
    {"claim_win", MessageType::ClaimWin, true, false, on_claim_win},
    {"sync", MessageType::Sync, false, false, on_sync},
    {"accept_takeback", MessageType::AcceptTakeback, true, false, on_accept_takeback},
    {"decline_takeback", MessageType::DeclineTakeback, true, false, on_decline_takeback},
    {"chat", MessageType::Chat, true, false, on_chat},
    {"chat_on", MessageType::ChatOn, false, false, on_chat_on},
};

// The message's object, or the refusal in *why (rate, size, JSON, type).
const Handler* checked(const GamesServices& server, ClientSession& s, std::string_view text,
                       json::value* v, Refused* why) {
  const json::object* o =
      check_message(text, server.config.max_messages_per_second, s.rate, v, why);
  if (!o) return nullptr;
  const std::string_view type = o->at("type").as_string();
  for (const Handler& h : kHandlers)
    if (type == h.name) return &h;
  *why = Refusal("bad_message", {{"detail", std::string(type.substr(0, 40))}}, "unknown_type");
  return nullptr;
}

// Runs a checked message's handler (its seat and the game's rules first).
void handle(const GamesServices& server, ReviewClaims& reviews, ChatRates& chat_rates,
            const Handler& h, ClientSession& s, const json::value& v) {
  std::shared_ptr<Room> room = s.room;  // kept alive while the handler runs
  const Request r{server, reviews, chat_rates, s, *room, v.as_object()};
  if (h.engine_help && room->live_between_people())
    return r.fail(Refusal("no_engine_help", {{"action", h.name}}));
  if (h.players_only && s.seat() == Seat::Spectator)
    return r.fail(Refusal("spectator", {{"action", h.name}}));
  // The game leaves this server (it drains): its next driver takes the request.
  if (h.players_only && room->handing_over()) return r.fail(Refusal("game_moving"));
  // The game's end waits for the store: nothing changes it until it is stored.
  if (h.players_only && room->end_pending())
    return r.fail(
        fault_refusal(room->store_fault().value_or(store::StoreFault::Unavailable), h.name));
  h.handle(r);
}

}  // namespace

void GamesSite::on_message(ClientSession& s, std::string_view text) {
  json::value v;
  Refused why;
  const Handler* h = checked(s_, s, text, &v, &why);
  if (!h) {
    s.send(why->message());
    return;
  }
  std::shared_ptr<Room> room = s.room;
  // While a move of the room is being stored, its messages wait for it, in order: each sees
  // the room as the store has it.
  if (room->writing()) {
    room->defer([this, h, at = room.get(), weak = std::weak_ptr<ClientSession>(s.client_ptr()),
                 v = std::move(v)] {
      auto session = weak.lock();
      if (session && session->room.get() == at) handle(s_, *reviews_, chat_rates_, *h, *session, v);
    });
    return;
  }
  handle(s_, *reviews_, chat_rates_, *h, s, v);
}

bool ChatRates::take(int64_t user, int64_t now_ms) {
  // The accounts whose buckets are full again are forgotten now and then.
  if (buckets_.size() > 4096)
    std::erase_if(buckets_, [&](const auto& b) {
      return now_ms - b.second.refilled_ms > int64_t(kChatBurst * 60000 / kChatPerMinute);
    });
  return buckets_[user].take(now_ms, kChatBurst, kChatPerMinute);
}

std::shared_ptr<void> ReviewClaims::claim(const std::string& address, int64_t user_id,
                                          const std::string& fallback, Refused* why) {
  std::vector<std::string> keys;
  if (!address.empty()) keys.push_back("a" + address);
  if (user_id != 0) keys.push_back(std::string("u").append(std::to_string(user_id)));
  if (keys.empty()) keys.push_back(fallback);
  for (const std::string& k : keys)
    if (keys_.count(k)) {
      *why = Refusal("review_pending");
      return nullptr;
    }
  for (const std::string& k : keys) keys_.insert(k);
  ++running_;
  // The ticket frees the keys when the room drops it (the review ended or stopped).
  // (Its pointer is this object, never deleted through it.)
  return std::shared_ptr<void>(static_cast<void*>(this), [self = shared_from_this(), keys](void*) {
    for (const std::string& k : keys) self->keys_.erase(k);
    --self->running_;
  });
}

}  // namespace toguz::site
