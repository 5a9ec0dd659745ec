#include "server/lobby.h"

#include <algorithm>
#include <cmath>

#include "rules/position.h"
#include "server/json_out.h"

namespace toguz::server {

namespace json = boost::json;

namespace {

// A whole number of a JSON value, or nullopt.
std::optional<int64_t> whole(const json::value& v) {
  if (v.is_int64()) return v.as_int64();
  if (v.is_uint64()) return int64_t(std::min<uint64_t>(v.as_uint64(), INT64_MAX));
  return std::nullopt;
}

// A field given and not null.
const json::value* given(const json::object& o, const char* name) {
  const json::value* v = o.if_contains(name);
  return v && !v->is_null() ? v : nullptr;
}

std::string bad_field(const std::string& action, const std::string& field,
                      const std::string& detail) {
  return action + "." + field + ": " + detail;
}

// A refusal thrown by a field reader; handle() sends it.
struct Refused {
  std::string why;
};

// A string field of at most 64 bytes; "" when absent.
std::string string_field(const json::object& o, const char* name, const std::string& action) {
  const json::value* v = given(o, name);
  if (!v) return "";
  if (!v->is_string() || v->as_string().size() > 64)
    throw Refused{bad_field(action, name, "expected a string")};
  return std::string(v->as_string());
}

std::string lower(std::string s) {
  for (char& ch : s)
    if (ch >= 'A' && ch <= 'Z') ch = char(ch - 'A' + 'a');
  return s;
}

json::value rating_value(const std::optional<LobbyRating>& r) {
  if (!r) return nullptr;
  return std::lround(r->rating);
}

std::string player_of(const Viewer& v, uint64_t anonymous) {
  std::string key(1, v.signed_in() ? 'u' : 'c');
  key += v.signed_in() ? std::to_string(v.user_id) : std::to_string(anonymous);
  return key;
}

}  // namespace

const std::vector<std::string>& Lobby::pool_ids() {
  static const std::vector<std::string> ids = {"1+0",  "2+1",  "3+0",   "3+2",  "5+0",  "5+3",
                                               "10+0", "10+5", "15+10", "30+0", "30+20"};
  return ids;
}

Lobby::Lobby(LobbyHooks hooks) : hooks_(std::move(hooks)) {
  for (const std::string& id : pool_ids()) {
    const size_t plus = id.find('+');
    const int64_t initial = std::stoll(id.substr(0, plus)) * 60000;
    const int64_t increment = std::stoll(id.substr(plus + 1)) * 1000;
    const auto speed = accounts::speed_of({initial, increment, 0});
    pools_.push_back(
        {id, initial, increment, *speed, accounts::PairingPool(), accounts::PairingPool()});
  }
}

// ---- connections ----

void Lobby::join(LobbyClient& c, const Viewer& viewer) {
  if (conns_.count(&c)) return;
  const std::string player = player_of(viewer, next_anonymous_++);
  conns_[&c] = {viewer, player};
  PlayerState& p = players_[player];
  p.viewer = viewer;
  p.clients.push_back(&c);
  json::array seeks;
  for (const Seek& s : seeks_) seeks.push_back(seek_json(s, player));
  json::object online = online_json();
  online.erase("type");
  c.send(json::serialize(json::object{
      {"type", "lobby"},
      {"you", viewer.signed_in() ? json::value(viewer.username) : json::value(nullptr)},
      {"seeks", std::move(seeks)},
      {"pools", pools_json()},
      {"online", std::move(online)}}));
  for (const Challenge& ch : challenges_)
    if (ch.to == player)
      c.send(
          json::serialize(json::object{{"type", "challenge"}, {"challenge", challenge_json(ch)}}));
}

void Lobby::leave(LobbyClient& c) {
  const auto it = conns_.find(&c);
  if (it == conns_.end()) return;
  const std::string player = it->second.player;
  conns_.erase(it);
  PlayerState& p = players_[player];
  std::erase(p.clients, &c);
  if (p.clients.empty()) {
    remove_player_offers(player);
    players_.erase(player);
    return;
  }
  // Another socket of the player stays: what this one made is now that one's.
  LobbyClient* other = p.clients.front();
  if (p.pool_client == &c) p.pool_client = other;
  for (Seek& s : seeks_)
    if (s.client == &c) s.client = other;
  for (Challenge& ch : challenges_)
    if (ch.client == &c) ch.client = other;
}

// ---- messages ----

void Lobby::handle(LobbyClient& c, const json::object& msg) {
  if (!conns_.count(&c)) return;
  const std::string type(msg.at("type").as_string());
  std::string why;
  try {
    why = dispatch(c, type, msg);
  } catch (const Refused& r) {
    why = r.why;
  }
  if (!why.empty()) c.send(error_message(why));
}

std::string Lobby::dispatch(LobbyClient& c, const std::string& type, const json::object& msg) {
  if (type == "ping") {
    c.send(R"({"type":"pong"})");
    return "";
  }
  if (type == "seek") return on_seek(c, msg);
  if (type == "cancel") return on_cancel(c, msg);
  if (type == "accept") return on_accept(c, msg);
  if (type == "pool_join") return on_pool_join(c, msg);
  if (type == "pool_leave") return on_pool_leave(c);
  if (type == "challenge") return on_challenge(c, msg);
  if (type == "challenge_accept" || type == "challenge_decline" || type == "challenge_cancel")
    return on_challenge_answer(c, msg, type);
  return "type: unknown message type '" + type.substr(0, 40) + "'";
}

std::string Lobby::read_terms(const std::string& action, const json::object& msg, const Viewer& who,
                              Terms* out) const {
  Terms t;
  const std::string variant = string_field(msg, "variant", action);
  if (!variant.empty()) {
    Variant v;
    if (!parse_variant(variant, &v))
      return bad_field(action, "variant", "expected standard, kozdatu or bestemshi");
    t.variant = variant;
  }
  if (const json::value* clock = given(msg, "clock")) {
    const json::object* co = clock->if_object();
    const json::value* initial = co ? given(*co, "initial_ms") : nullptr;
    const json::value* increment = co ? given(*co, "increment_ms") : nullptr;
    const auto i = initial ? whole(*initial) : std::nullopt;
    const auto inc = increment ? whole(*increment) : std::optional<int64_t>(0);
    if (!i || *i < 100 || *i > 24LL * 3600 * 1000 || !inc || *inc < 0 || *inc > 3600 * 1000)
      return bad_field(
          action, "clock",
          "expected null or {\"initial_ms\":100..86400000,\"increment_ms\":0..3600000}");
    t.initial_ms = *i;
    t.increment_ms = *inc;
  }
  if (const json::value* days = given(msg, "days_per_move")) {
    const auto d = whole(*days);
    if (!d || *d < 1 || *d > 14)
      return bad_field(action, "days_per_move", "expected null or 1..14");
    if (t.initial_ms >= 0) return bad_field(action, "days_per_move", "not with a clock");
    t.days_per_move = int(*d);
  }
  if (const json::value* rated = given(msg, "rated")) {
    if (!rated->is_bool()) return bad_field(action, "rated", "expected true or false");
    t.rated = rated->as_bool();
  }
  const std::string color = string_field(msg, "color", action);
  if (!color.empty()) {
    if (color != "white" && color != "black" && color != "random")
      return bad_field(action, "color", "expected white, black or random");
    t.color = color;
  }
  if (t.initial_ms >= 0 || t.days_per_move > 0)
    t.speed =
        accounts::speed_of({std::max<int64_t>(0, t.initial_ms), t.increment_ms, t.days_per_move});
  if (t.rated && !who.signed_in()) return action + ": rated games need an account";
  if (t.rated && !t.speed) return action + ": rated games need a clock";
  *out = std::move(t);
  return "";
}

std::optional<LobbyRating> Lobby::rating_of(const Viewer& v,
                                            const std::optional<accounts::Speed>& speed) const {
  if (!v.signed_in() || !speed) return std::nullopt;
  return hooks_.rating(v, *speed);
}

std::string Lobby::on_seek(LobbyClient& c, const json::object& msg) {
  const Conn& me = conns_.at(&c);
  const auto open = std::count_if(seeks_.begin(), seeks_.end(),
                                  [&](const Seek& s) { return s.player == me.player; });
  if (open >= kMaxSeeksPerPlayer)
    return "seek: " + std::to_string(kMaxSeeksPerPlayer) + " seeks open already, the most allowed";
  Seek s{new_id(), me.player, &c, {}, std::nullopt, std::nullopt};
  if (std::string why = read_terms("seek", msg, me.viewer, &s.terms); !why.empty()) return why;
  if (const json::value* range = given(msg, "range")) {
    const json::array* a = range->if_array();
    const auto lo = a && a->size() == 2 ? whole((*a)[0]) : std::nullopt;
    const auto hi = a && a->size() == 2 ? whole((*a)[1]) : std::nullopt;
    if (!lo || !hi || *lo < 0 || *hi > 4000 || *lo > *hi)
      return bad_field("seek", "range", "expected null or [min,max] within 0..4000");
    s.range = std::make_pair(int(*lo), int(*hi));
  }
  s.rating = rating_of(me.viewer, s.terms.speed);
  seeks_.push_back(std::move(s));
  const Seek& added = seeks_.back();
  c.send(json::serialize(json::object{{"type", "seek_created"}, {"id", added.id}}));
  for (const auto& [client, conn] : conns_)
    client->send(json::serialize(
        json::object{{"type", "seek_added"}, {"seek", seek_json(added, conn.player)}}));
  return "";
}

std::string Lobby::on_cancel(LobbyClient& c, const json::object& msg) {
  const std::string id = string_field(msg, "id", "cancel");
  const std::string& me = conns_.at(&c).player;
  for (size_t i = 0; i < seeks_.size(); ++i)
    if (seeks_[i].id == id && seeks_[i].player == me) {
      remove_seek(i);
      return "";
    }
  return "cancel: no such seek (accepted or gone)";
}

std::string Lobby::on_accept(LobbyClient& c, const json::object& msg) {
  const std::string id = string_field(msg, "id", "accept");
  const Conn me = conns_.at(&c);
  const auto it =
      std::find_if(seeks_.begin(), seeks_.end(), [&](const Seek& s) { return s.id == id; });
  if (id.empty() || it == seeks_.end()) return "accept: no such seek (accepted or gone)";
  const Seek seek = *it;
  if (seek.player == me.player) return "accept: your own seek";
  if (seek.terms.rated && !me.viewer.signed_in()) return "accept: rated games need an account";
  // A provisional or unknown rating says little, so it fits any range (as in the pools).
  if (seek.range) {
    const auto r = rating_of(me.viewer, seek.terms.speed);
    if (r && !r->provisional && (r->rating < seek.range->first || r->rating > seek.range->second))
      return "accept: your rating is outside the seek's range";
  }
  if (!start_game(seek.player, seek.client, me.player, &c, seek.terms))
    return "server error: the game could not be started";
  return "";
}

std::string Lobby::on_pool_join(LobbyClient& c, const json::object& msg) {
  const std::string id = string_field(msg, "pool", "pool_join");
  const auto pool =
      std::find_if(pools_.begin(), pools_.end(), [&](const Pool& p) { return p.id == id; });
  if (pool == pools_.end()) return "pool_join: no pool '" + id + "'";
  if (const json::value* range = given(msg, "range")) {
    const json::array* a = range->if_array();
    if (!a || a->size() != 2 || !whole((*a)[0]) || !whole((*a)[1]))
      return bad_field("pool_join", "range", "expected null or [min,max]");
  }
  const Conn& me = conns_.at(&c);
  leave_pool(me.player);
  PlayerState& p = players_.at(me.player);
  p.pool = id;
  p.pool_client = &c;
  const int64_t now = hooks_.now_ms();
  if (me.viewer.signed_in()) {
    const LobbyRating r = hooks_.rating(me.viewer, pool->speed);
    pool->rated.join(me.player, r.rating, r.provisional, now);
  } else {
    pool->casual.join(me.player, 1500, true, now);
  }
  pair_pools();
  return "";
}

std::string Lobby::on_pool_leave(LobbyClient& c) {
  leave_pool(conns_.at(&c).player);
  return "";
}

std::string Lobby::on_challenge(LobbyClient& c, const json::object& msg) {
  const Conn me = conns_.at(&c);
  if (!me.viewer.signed_in()) return "challenge: log in first";
  const std::string to = string_field(msg, "to", "challenge");
  const auto mine = std::count_if(challenges_.begin(), challenges_.end(),
                                  [&](const Challenge& ch) { return ch.from == me.player; });
  if (mine >= kMaxSeeksPerPlayer)
    return "challenge: " + std::to_string(kMaxSeeksPerPlayer) +
           " challenges open already, the most allowed";
  // A player in the lobby is found without the store.
  std::optional<Viewer> target;
  for (const auto& [key, p] : players_)
    if (p.viewer.signed_in() && lower(p.viewer.username) == lower(to)) target = p.viewer;
  if (!target && !to.empty() && hooks_.find_user) target = hooks_.find_user(to);
  if (!target) return "challenge: no such player: " + to.substr(0, 40);
  if (target->user_id == me.viewer.user_id) return "challenge: you cannot challenge yourself";
  Challenge ch{new_id(), me.player, player_of(*target, 0), &c, me.viewer, *target, {}, {}};
  if (std::string w = read_terms("challenge", msg, me.viewer, &ch.terms); !w.empty()) return w;
  ch.rating = rating_of(me.viewer, ch.terms.speed);
  challenges_.push_back(std::move(ch));
  const Challenge& added = challenges_.back();
  c.send(json::serialize(json::object{{"type", "challenge_created"}, {"id", added.id}}));
  send_to_player(added.to, json::serialize(json::object{{"type", "challenge"},
                                                        {"challenge", challenge_json(added)}}));
  return "";
}

std::string Lobby::on_challenge_answer(LobbyClient& c, const json::object& msg,
                                       const std::string& action) {
  const std::string id = string_field(msg, "id", action);
  const std::string& me = conns_.at(&c).player;
  const bool cancel = action == "challenge_cancel";
  for (size_t i = 0; i < challenges_.size(); ++i) {
    const Challenge ch = challenges_[i];
    if (ch.id != id || (cancel ? ch.from : ch.to) != me) continue;
    if (cancel) {
      remove_challenge(i, "cancelled");
    } else if (action == "challenge_decline") {
      remove_challenge(i, "declined");
    } else {
      remove_challenge(i, "accepted");
      if (!start_game(ch.from, ch.client, me, &c, ch.terms))
        return "server error: the game could not be started";
    }
    return "";
  }
  return action + ": no such challenge";
}

// ---- games and offers ----

bool Lobby::start_game(const std::string& a, LobbyClient* ca, const std::string& b, LobbyClient* cb,
                       const Terms& terms_in) {
  const Terms terms = terms_in;  // the caller's may be a seek that goes below
  const auto pa = players_.find(a), pb = players_.find(b);
  if (pa == players_.end() || pb == players_.end()) return false;
  const bool a_white = terms.color == "white"   ? true
                       : terms.color == "black" ? false
                                                : (hooks_.random() & 1) == 0;
  PairedGame game;
  game.white = a_white ? pa->second.viewer : pb->second.viewer;
  game.black = a_white ? pb->second.viewer : pa->second.viewer;
  game.variant = terms.variant;
  game.initial_ms = terms.initial_ms;
  game.increment_ms = terms.increment_ms;
  game.days_per_move = terms.days_per_move;
  game.rated = terms.rated && game.white.signed_in() && game.black.signed_in();
  const PairedSeats started = hooks_.start_game(game);
  if (!started.error.empty()) return false;
  auto start = [&](LobbyClient* c, bool white) {
    if (!c) return;
    c->send(
        json::serialize(json::object{{"type", "start"},
                                     {"game", started.id},
                                     {"token", white ? started.white_token : started.black_token},
                                     {"side", white ? "white" : "black"}}));
  };
  start(ca, a_white);
  start(cb, !a_white);
  remove_player_offers(a);
  remove_player_offers(b);
  return true;
}

void Lobby::remove_player_offers(const std::string& player) {
  for (size_t i = seeks_.size(); i-- > 0;)
    if (seeks_[i].player == player) remove_seek(i);
  leave_pool(player);
  for (size_t i = challenges_.size(); i-- > 0;)
    if (challenges_[i].from == player) remove_challenge(i, "cancelled");
}

void Lobby::remove_seek(size_t index) {
  const std::string id = seeks_[index].id;
  seeks_.erase(seeks_.begin() + std::ptrdiff_t(index));
  broadcast(json::serialize(json::object{{"type", "seek_removed"}, {"id", id}}));
}

void Lobby::remove_challenge(size_t index, const char* reason) {
  const Challenge ch = challenges_[index];
  challenges_.erase(challenges_.begin() + std::ptrdiff_t(index));
  const std::string text =
      json::serialize(json::object{{"type", "challenge_gone"}, {"id", ch.id}, {"reason", reason}});
  send_to_player(ch.from, text);
  send_to_player(ch.to, text);
}

void Lobby::leave_pool(const std::string& player) {
  const auto it = players_.find(player);
  if (it == players_.end() || it->second.pool.empty()) return;
  for (Pool& p : pools_)
    if (p.id == it->second.pool) {
      p.rated.leave(player);
      p.casual.leave(player);
    }
  it->second.pool.clear();
  it->second.pool_client = nullptr;
}

void Lobby::pair_pools() {
  const int64_t now = hooks_.now_ms();
  for (Pool& pool : pools_) {
    for (bool rated : {true, false}) {
      for (const auto& [a, b] : (rated ? pool.rated : pool.casual).pair(now)) {
        LobbyClient* ca = players_.at(a).pool_client;
        LobbyClient* cb = players_.at(b).pool_client;
        players_.at(a).pool.clear();
        players_.at(b).pool.clear();
        Terms t;
        t.initial_ms = pool.initial_ms;
        t.increment_ms = pool.increment_ms;
        t.rated = rated;
        t.speed = pool.speed;
        if (!start_game(a, ca, b, cb, t)) {
          const std::string text = error_message("server error: the game could not be started");
          for (LobbyClient* c : {ca, cb})
            if (c) c->send(text);
        }
      }
    }
  }
}

void Lobby::tick() {
  pair_pools();
  const int64_t now = hooks_.now_ms();
  const std::string online = json::serialize(online_json());
  if (online != sent_online_ && now - online_sent_ms_ >= kLobbyBroadcastMs) {
    broadcast(online);
    sent_online_ = online;
    online_sent_ms_ = now;
  }
  const std::string pools =
      json::serialize(json::object{{"type", "pools"}, {"pools", pools_json()}});
  if (pools != sent_pools_ && now - pools_sent_ms_ >= kLobbyBroadcastMs) {
    broadcast(pools);
    sent_pools_ = pools;
    pools_sent_ms_ = now;
  }
}

// ---- JSON ----

json::object Lobby::offer_json(const std::string& id, const std::optional<LobbyRating>& rating,
                               const Terms& t) {
  json::value clock = nullptr;
  if (t.initial_ms >= 0)
    clock = json::object{{"initial_ms", t.initial_ms}, {"increment_ms", t.increment_ms}};
  return json::object{
      {"id", id},
      {"rating", rating_value(rating)},
      {"provisional", rating ? rating->provisional : false},
      {"variant", t.variant},
      {"clock", std::move(clock)},
      {"days_per_move", t.days_per_move > 0 ? json::value(t.days_per_move) : json::value(nullptr)},
      {"speed",
       t.speed ? json::value(std::string(accounts::name(*t.speed))) : json::value(nullptr)},
      {"rated", t.rated},
      {"color", t.color}};
}

json::object Lobby::seek_json(const Seek& s, const std::string& viewer_player) const {
  const Viewer& v = players_.at(s.player).viewer;
  json::object o = offer_json(s.id, s.rating, s.terms);
  o["username"] = v.signed_in() ? json::value(v.username) : json::value(nullptr);
  o["range"] =
      s.range ? json::value(json::array{s.range->first, s.range->second}) : json::value(nullptr);
  o["mine"] = s.player == viewer_player;
  return o;
}

json::object Lobby::challenge_json(const Challenge& ch) const {
  json::object o = offer_json(ch.id, ch.rating, ch.terms);
  o["from"] = ch.from_viewer.username;
  return o;
}

json::array Lobby::pools_json() const {
  json::array out;
  for (const Pool& p : pools_)
    out.push_back(json::object{{"id", p.id},
                               {"initial_ms", p.initial_ms},
                               {"increment_ms", p.increment_ms},
                               {"speed", std::string(accounts::name(p.speed))},
                               {"waiting", p.rated.waiting() + p.casual.waiting()}});
  return out;
}

json::object Lobby::online_json() const {
  const auto [seated, games] = hooks_.playing ? hooks_.playing() : std::pair<int, int>{0, 0};
  return json::object{
      {"type", "online"}, {"players", int64_t(players_.size()) + seated}, {"games", games}};
}

void Lobby::send_to_player(const std::string& player, const std::string& text) {
  const auto it = players_.find(player);
  if (it == players_.end()) return;
  for (LobbyClient* c : it->second.clients) c->send(text);
}

void Lobby::broadcast(const std::string& text) {
  for (const auto& [client, conn] : conns_) client->send(text);
}

std::string Lobby::new_id() {
  static constexpr char kDigits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  uint64_t r = hooks_.random();
  std::string id;
  for (int i = 0; i < 10; ++i) {
    id += kDigits[r % 36];
    r /= 36;
  }
  return id;
}

}  // namespace toguz::server
