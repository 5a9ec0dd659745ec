#include "bot/brain.h"

#include <algorithm>
#include <boost/json.hpp>
#include <cmath>
#include <cstdlib>

#include "rules/notation.h"

namespace toguz::bot {

namespace json = boost::json;

namespace {

std::optional<json::object> parse_object(std::string_view text) {
  json::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec || !v.is_object()) return std::nullopt;
  return std::move(v.as_object());
}

std::string str_or(const json::object& o, std::string_view key, std::string fallback = "") {
  const json::value* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : fallback;
}

// An integer field (JSON numbers may come as doubles); nullopt when absent or not a number.
std::optional<int64_t> int_of(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (!v) return std::nullopt;
  if (v->is_int64()) return v->as_int64();
  if (v->is_uint64()) return int64_t(v->as_uint64());
  if (v->is_double()) return int64_t(std::llround(v->as_double()));
  return std::nullopt;
}

std::optional<ClockSpec> clock_of(const json::value* v) {
  if (!v || !v->is_object()) return std::nullopt;
  auto initial = int_of(v->as_object(), "initial_ms");
  auto increment = int_of(v->as_object(), "increment_ms");
  if (!initial) return std::nullopt;
  return ClockSpec{int(*initial), int(increment.value_or(0))};
}

std::string text_of(const json::object& o) {
  return json::serialize(o);
}

}  // namespace

bool parse_time_control(std::string_view text, ClockSpec* out) {
  const size_t plus = text.find('+');
  if (plus == std::string_view::npos) return false;
  const std::string minutes(text.substr(0, plus)), seconds(text.substr(plus + 1));
  if (minutes.empty() || seconds.empty()) return false;
  char* end = nullptr;
  const double m = std::strtod(minutes.c_str(), &end);
  if (*end != 0 || !std::isfinite(m) || m < 0 || m > 10000) return false;
  const double s = std::strtod(seconds.c_str(), &end);
  if (*end != 0 || !std::isfinite(s) || s < 0 || s > 3600) return false;
  if (m == 0 && s == 0) return false;
  out->initial_ms = int(std::lround(m * 60000));
  out->increment_ms = int(std::lround(s * 1000));
  return true;
}

std::optional<Challenge> parse_challenge(std::string_view json_text, std::string* why) {
  auto o = parse_object(json_text);
  if (!o) {
    *why = "challenge: not a JSON object";
    return std::nullopt;
  }
  Challenge c;
  c.id = str_or(*o, "id");
  if (c.id.empty()) {
    *why = "challenge: no id";
    return std::nullopt;
  }
  c.from = str_or(*o, "from");
  c.variant = str_or(*o, "variant", "standard");
  c.clock = clock_of(o->if_contains("clock"));
  if (auto d = int_of(*o, "days_per_move")) c.days_per_move = int(*d);
  c.speed = str_or(*o, "speed");
  const json::value* rated = o->if_contains("rated");
  c.rated = rated && rated->is_bool() && rated->as_bool();
  return c;
}

std::string decline_reason(const Challenge& c, const Filters& f, int busy) {
  if (busy >= f.max_games)
    return "busy: " + std::to_string(busy) + " of " + std::to_string(f.max_games) + " games";
  if (!f.variants.empty() &&
      std::find(f.variants.begin(), f.variants.end(), c.variant) == f.variants.end())
    return "variant " + c.variant + " is not accepted";
  if (f.rated == RatedFilter::Rated && !c.rated) return "casual games are not accepted";
  if (f.rated == RatedFilter::Casual && c.rated) return "rated games are not accepted";
  const std::string speed = c.clock           ? (c.speed.empty() ? "?" : c.speed)
                            : c.days_per_move ? "correspondence"
                                              : "none";
  if (!f.speeds.empty() && std::find(f.speeds.begin(), f.speeds.end(), speed) == f.speeds.end())
    return "speed " + speed + " is not accepted";
  if (!f.time_controls.empty() &&
      (!c.clock || std::find(f.time_controls.begin(), f.time_controls.end(), *c.clock) ==
                       f.time_controls.end()))
    return "this time control is not accepted";
  return "";
}

LobbyReaction LobbyBrain::on_message(std::string_view text) {
  LobbyReaction r;
  auto o = parse_object(text);
  if (!o) return r;
  const std::string type = str_or(*o, "type");
  if (type == "challenge") {
    const json::value* cv = o->if_contains("challenge");
    std::string why;
    auto c = cv && cv->is_object() ? parse_challenge(json::serialize(*cv), &why) : std::nullopt;
    if (!c) {
      r.log = why.empty() ? "challenge: no challenge object" : why;
      return r;
    }
    std::string no = closed_ ? "stopping" : decline_reason(*c, filters_, busy());
    if (no.empty()) {
      accepted_.insert(c->id);
      r.send.push_back(text_of({{"type", "challenge_accept"}, {"id", c->id}}));
      r.log = "accepting the challenge of " + c->from;
    } else {
      r.send.push_back(text_of({{"type", "challenge_decline"}, {"id", c->id}}));
      r.log = "declining the challenge of " + c->from + ": " + no;
    }
  } else if (type == "lobby") {
    // A (re)connect: a challenge accepted before the drop either started (its `start` went to
    // the old socket) or is waiting again and is sent anew; either way it holds no place.
    accepted_.clear();
  } else if (type == "challenge_gone") {
    // An accepted challenge whose game will not come (cancelled before our accept arrived).
    const std::string id = str_or(*o, "id");
    if (str_or(*o, "reason") != "accepted") accepted_.erase(id);
  } else if (type == "start") {
    LobbyReaction::Start s{str_or(*o, "game"), str_or(*o, "token"), str_or(*o, "side")};
    if (s.game.empty() || s.token.empty()) {
      r.log = "start: no game or token";
      return r;
    }
    // The start does not name its challenge: it takes the place of the oldest accepted one.
    if (!accepted_.empty()) accepted_.erase(accepted_.begin());
    games_.insert(s.game);
    r.log = "game " + s.game + " starts, the bot plays " + s.side;
    r.start = std::move(s);
  } else if (type == "error") {
    r.log = "lobby refused: " + str_or(*o, "message");
  }
  return r;
}

void LobbyBrain::game_ended(const std::string& game) {
  games_.erase(game);
}

GameReaction GameBrain::on_message(std::string_view text) {
  GameReaction r;
  auto o = parse_object(text);
  if (!o) return r;
  const std::string type = str_or(*o, "type");
  if (type == "error") {
    r.log = "game refused: " + str_or(*o, "message");
    // Refused for the rate: the same answer again (the client waits first). Refused otherwise
    // (stale): the next state is thought about again.
    if (str_or(*o, "code") == "rate_limit" && !last_answer_.empty()) {
      r.resend = last_answer_;
      r.log += "; sending the move again";
    } else {
      thought_ply_ = -1;
    }
    return r;
  }
  if (type != "state") return r;
  const json::value* gv = o->if_contains("game");
  if (!gv || !gv->is_object()) return r;
  const json::object& g = gv->as_object();
  const std::string status = str_or(g, "status");
  if (status == "over" || status == "aborted") {
    r.over = true;
    const json::value* res = g.if_contains("result");
    std::string how = status;
    if (res && res->is_object())
      how = str_or(res->as_object(), "winner", "none") + " (" + str_or(res->as_object(), "reason") +
            ")";
    r.log = "game " + str_or(g, "id") + " over: " + how;
    return r;
  }
  const auto ply = int_of(g, "ply");
  if (ply && *ply != thought_ply_) last_answer_.clear();  // the game went on: it was taken
  const json::value* legal = g.if_contains("legal");
  const std::string you = str_or(g, "you");
  if (status != "playing" || !legal || !legal->is_array() || legal->as_array().empty() ||
      (you != "white" && you != "black"))
    return r;
  if (!ply || *ply == thought_ply_) return r;
  // The game from its start and its moves, checked against the server's position.
  Game game;
  try {
    RuleOptions opts;
    Variant v;
    if (parse_variant(str_or(g, "variant", "standard"), &v)) opts.variant = v;
    if (const json::value* t = g.if_contains("tuz"); t && t->is_bool()) opts.tuz = t->as_bool();
    if (const json::value* p = g.if_contains("play_out"); p && p->is_bool())
      opts.play_out = p->as_bool();
    game = Game(parse_position(str_or(g, "start_position"), opts));
    const json::value* moves = g.if_contains("moves");
    if (!moves || !moves->is_array()) throw ParseError("no moves list");
    for (const json::value& m : moves->as_array()) {
      const auto hole = m.is_object() ? int_of(m.as_object(), "hole") : std::nullopt;
      std::string why;
      if (!hole || !game.play(int(*hole), &why)) throw ParseError("move list: " + why);
    }
    if (game.ply_count() != *ply || format_position(game.position()) != str_or(g, "position"))
      throw ParseError("the moves do not lead to the state's position");
  } catch (const std::exception& e) {
    r.log = std::string("state not understood: ") + e.what();
    return r;
  }
  Think t;
  t.ply = int(*ply);
  const int me = you == "white" ? 0 : 1;
  if (const json::value* cv = g.if_contains("clock"); cv && cv->is_object()) {
    const json::object& c = cv->as_object();
    const auto w = int_of(c, "white_ms"), b = int_of(c, "black_ms");
    const auto inc = int_of(c, "increment_ms").value_or(0);
    t.request.clock_ms[0] = int(std::max<int64_t>(w.value_or(0), 0));
    t.request.clock_ms[1] = int(std::max<int64_t>(b.value_or(0), 0));
    t.request.clock_ms[me] = std::max(t.request.clock_ms[me] - timing_.overhead_ms, 10);
    t.request.inc_ms[0] = t.request.inc_ms[1] = int(inc);
    t.request.limits.tc_ms = int(int_of(c, "initial_ms").value_or(t.request.clock_ms[me]));
    t.request.limits.inc_ms = int(inc);
    // The engine keeps its own time; past the clock the game is lost anyway.
    t.request.deadline_ms = t.request.clock_ms[me] + timing_.overhead_ms + 2000;
  } else {
    t.request.limits.movetime_ms = timing_.movetime_ms;
    t.request.deadline_ms = timing_.movetime_ms * 2 + 5000;
  }
  t.request.seed = uint64_t(*ply) + 1;
  t.game = std::move(game);
  thought_ply_ = t.ply;
  r.think = std::move(t);
  return r;
}

std::string GameBrain::answer(const Think& think, const match::MoveReply& reply, std::string* log) {
  std::string why;
  if (reply.status == match::ReplyStatus::Crashed)
    why = "the engine crashed: " + reply.error;
  else if (reply.status == match::ReplyStatus::Hung)
    why = "the engine hung: " + reply.error;
  else if (reply.move < 1 || reply.move > think.game.rules().n ||
           !(think.game.legal_mask() & (1u << (reply.move - 1))))
    why = "the engine answered the illegal move '" + reply.move_text + "'";
  if (!why.empty()) {
    *log = why + "; resigning";
    last_answer_ = text_of({{"type", "resign"}});
  } else {
    log->clear();
    last_answer_ = text_of({{"type", "move"}, {"hole", reply.move}, {"ply", think.ply}});
  }
  return last_answer_;
}

}  // namespace toguz::bot
