#include "site/lobby/lobby.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "rules/position.h"

namespace toguz::site {

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

// "<action>.<field>: <detail>".
Refusal bad_field(const std::string& action, const std::string& field, const std::string& detail) {
  return Refusal("bad_field", {{"action", action}, {"field", field}, {"detail", detail}});
}

// A string field of at most 64 bytes; "" when absent. Throws the refusal (handle() sends it).
std::string string_field(const json::object& o, const char* name, const std::string& action) {
  const json::value* v = given(o, name);
  if (!v) return "";
  if (!v->is_string() || v->as_string().size() > 64)
    throw Refusal("field_type", {{"field", action + "." + name}}, "string");
  return std::string(v->as_string());
}

// The refusal of a game the hooks could not start.
Refusal not_started() {
  return Refusal("server_error", {{"detail", "the game could not be started"}});
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

// The speed category of a seek's or challenge's clock (none without one).
void set_speed(auto& t) {
  if (t.initial_ms >= 0 || t.days_per_move > 0)
    t.speed =
        accounts::speed_of({std::max<int64_t>(0, t.initial_ms), t.increment_ms, t.days_per_move});
}

json::object viewer_wire(const Viewer& v) {
  return json::object{{"user_id", v.user_id}, {"username", v.username}, {"bot", v.bot}};
}

Viewer viewer_of_wire(const json::value& v) {
  const json::object& o = v.as_object();
  Viewer out;
  out.user_id = o.at("user_id").to_number<int64_t>();
  out.username = std::string(o.at("username").as_string());
  out.bot = o.at("bot").as_bool();
  return out;
}

json::value rating_wire(const std::optional<LobbyRating>& r) {
  if (!r) return nullptr;
  return json::object{{"rating", r->rating}, {"provisional", r->provisional}};
}

std::optional<LobbyRating> rating_of_wire(const json::value& v) {
  const json::object* r = v.if_object();
  if (!r) return std::nullopt;
  return LobbyRating{r->at("rating").to_number<double>(), r->at("provisional").as_bool()};
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

void Lobby::join(LobbyClient& c, const Viewer& viewer, const std::string& address) {
  if (conns_.count(&c)) return;
  const std::string player = player_of(viewer, next_anonymous_++);
  conns_[&c] = {viewer, player, address};
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
  Refused why;
  try {
    why = dispatch(c, type, msg);
  } catch (const Refusal& r) {
    why = r;
  }
  if (why) c.send(why->message());
}

Refused Lobby::dispatch(LobbyClient& c, const std::string& type, const json::object& msg) {
  if (type == "ping") {
    c.send(R"({"type":"pong"})");
    return std::nullopt;
  }
  if (type == "seek") return on_seek(c, msg);
  if (type == "cancel") return on_cancel(c, msg);
  if (type == "accept") return on_accept(c, msg);
  if (type == "pool_join") return on_pool_join(c, msg);
  if (type == "pool_leave") return on_pool_leave(c);
  if (type == "challenge") return on_challenge(c, msg);
  if (type == "challenge_accept" || type == "challenge_decline" || type == "challenge_cancel")
    return on_challenge_answer(c, msg, type);
  return Refusal("bad_message", {{"detail", type.substr(0, 40)}}, "unknown_type");
}

Refused Lobby::read_terms(const std::string& action, const json::object& msg, const Viewer& who,
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
    if (!rated->is_bool()) return Refusal("field_type", {{"field", action + ".rated"}}, "bool");
    t.rated = rated->as_bool();
  }
  const std::string color = string_field(msg, "color", action);
  if (!color.empty()) {
    if (color != "white" && color != "black" && color != "random")
      return bad_field(action, "color", "expected white, black or random");
    t.color = color;
  }
  set_speed(t);
  if (t.rated && !who.signed_in()) return Refusal("rated_needs_account", {{"action", action}});
  if (t.rated && !t.speed) return Refusal("rated_needs_clock", {{"action", action}});
  if (t.rated && marked(who)) return Refusal("account_marked", {{"action", action}});
  *out = std::move(t);
  return std::nullopt;
}

std::optional<LobbyRating> Lobby::rating_of(const Viewer& v,
                                            const std::optional<accounts::Speed>& speed) const {
  if (!v.signed_in() || !speed) return std::nullopt;
  return hooks_.rating(v, *speed);
}

bool Lobby::blocked(const Viewer& a, const Viewer& b) const {
  return hooks_.blocked && a.signed_in() && b.signed_in() && hooks_.blocked(a.user_id, b.user_id);
}

bool Lobby::marked(const Viewer& v) const {
  return hooks_.marked && v.signed_in() && hooks_.marked(v.user_id);
}

Refused Lobby::on_seek(LobbyClient& c, const json::object& msg) {
  const Conn& me = conns_.at(&c);
  const auto open = std::count_if(seeks_.begin(), seeks_.end(), [&](const Seek& s) {
    return s.player == me.player && s.origin.empty();
  });
  if (open >= kMaxSeeksPerPlayer)
    return Refusal("too_many_seeks", {{"n", std::to_string(kMaxSeeksPerPlayer)}});
  const auto from_address = std::count_if(seeks_.begin(), seeks_.end(), [&](const Seek& s) {
    return !me.address.empty() && s.address == me.address && s.origin.empty();
  });
  if (from_address >= kMaxSeeksPerAddress)
    return Refusal("too_many_seeks_address", {{"n", std::to_string(kMaxSeeksPerAddress)}});
  Seek s{new_id(), me.player, &c, {}, std::nullopt, std::nullopt, me.viewer, "", me.address};
  if (Refused why = read_terms("seek", msg, me.viewer, &s.terms)) return why;
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
  seek_added_everywhere(added);
  publish_seek(added);
  return std::nullopt;
}

void Lobby::seek_added_everywhere(const Seek& s) {
  for (const auto& [client, conn] : conns_)
    client->send(
        json::serialize(json::object{{"type", "seek_added"}, {"seek", seek_json(s, conn.player)}}));
}

Refused Lobby::on_cancel(LobbyClient& c, const json::object& msg) {
  const std::string id = string_field(msg, "id", "cancel");
  const std::string& me = conns_.at(&c).player;
  for (size_t i = 0; i < seeks_.size(); ++i)
    if (seeks_[i].id == id && seeks_[i].player == me && seeks_[i].origin.empty()) {
      // Accepted on another instance just now: its start is on the way.
      if (clustered() && !hooks_.claim(id)) return Refusal("no_seek", {{"action", "cancel"}});
      remove_seek(i);
      return std::nullopt;
    }
  return Refusal("no_seek", {{"action", "cancel"}});
}

Refused Lobby::on_accept(LobbyClient& c, const json::object& msg) {
  const std::string id = string_field(msg, "id", "accept");
  const Conn me = conns_.at(&c);
  const auto it =
      std::find_if(seeks_.begin(), seeks_.end(), [&](const Seek& s) { return s.id == id; });
  const Refusal gone("no_seek", {{"action", "accept"}});
  if (id.empty() || it == seeks_.end()) return gone;
  const Seek seek = *it;
  if (seek.player == me.player) return Refusal("own_seek");
  if (seek.terms.rated && !me.viewer.signed_in())
    return Refusal("rated_needs_account", {{"action", "accept"}});
  if (seek.terms.rated && marked(me.viewer))
    return Refusal("account_marked", {{"action", "accept"}});
  if (blocked(seek.viewer, me.viewer)) return Refusal("blocked", {{"action", "accept"}});
  // A provisional or unknown rating says little, so it fits any range (as in the pools).
  if (seek.range) {
    const auto r = rating_of(me.viewer, seek.terms.speed);
    if (r && !r->provisional && (r->rating < seek.range->first || r->rating > seek.range->second))
      return Refusal("out_of_range");
  }
  // Of the accepts on every instance (and the seeker's cancel) one wins the claim.
  if (clustered() && !hooks_.claim(id)) return gone;
  if (!seek.origin.empty()) return accept_remote(c, me, seek);
  if (!start_game(seek.player, seek.client, me.player, &c, seek.terms)) return not_started();
  return std::nullopt;
}

Refused Lobby::accept_remote(LobbyClient& c, const Conn& me, const Seek& seek) {
  bool seeker_white = false;
  const PairedSeats started = make_game(seek.viewer, me.viewer, seek.terms, &seeker_white);
  for (size_t i = 0; i < seeks_.size(); ++i)
    if (seeks_[i].id == seek.id) {
      remove_seek(i);
      break;
    }
  // The seeker's instance sends him his start (or drops the seek when no game was made).
  json::object taken{{"type", "seek_taken"},
                     {"from", hooks_.instance},
                     {"to", seek.origin},
                     {"id", seek.id},
                     {"game", started.id}};
  if (started.error.empty()) {
    taken["token"] = seeker_white ? started.white_token : started.black_token;
    taken["side"] = seeker_white ? "white" : "black";
  }
  hooks_.publish(json::serialize(taken));
  if (!started.error.empty()) return not_started();
  c.send(start_message(started, !seeker_white));
  remove_player_offers(me.player);
  return std::nullopt;
}

Refused Lobby::on_pool_join(LobbyClient& c, const json::object& msg) {
  const std::string id = string_field(msg, "pool", "pool_join");
  const auto pool =
      std::find_if(pools_.begin(), pools_.end(), [&](const Pool& p) { return p.id == id; });
  if (pool == pools_.end()) return Refusal("no_pool", {{"pool", id}});
  if (const json::value* range = given(msg, "range")) {
    const json::array* a = range->if_array();
    if (!a || a->size() != 2 || !whole((*a)[0]) || !whole((*a)[1]))
      return bad_field("pool_join", "range", "expected null or [min,max]");
  }
  const Conn& me = conns_.at(&c);
  // An account's pool games are rated.
  if (marked(me.viewer)) return Refusal("account_marked", {{"action", "pool_join"}});
  leave_pool(me.player);
  PlayerState& p = players_.at(me.player);
  p.pool = id;
  p.pool_client = &c;
  // An anonymous player waits among the casual ones with the rating that pairs with anyone.
  LobbyRating r{1500, true};
  if (me.viewer.signed_in()) r = hooks_.rating(me.viewer, pool->speed);
  const std::string key = pool_key(me.player);
  add_pool_entry(key, {id, "", me.player, me.viewer}, r.rating, r.provisional);
  if (clustered()) hooks_.publish(wire_pool_join(key, r.rating, r.provisional));
  pair_pools();
  return std::nullopt;
}

Refused Lobby::on_pool_leave(LobbyClient& c) {
  leave_pool(conns_.at(&c).player);
  return std::nullopt;
}

Refused Lobby::on_challenge(LobbyClient& c, const json::object& msg) {
  const Conn me = conns_.at(&c);
  if (!me.viewer.signed_in()) return Refusal("not_logged_in", {{"action", "challenge"}});
  const std::string to = string_field(msg, "to", "challenge");
  const auto mine = std::count_if(challenges_.begin(), challenges_.end(),
                                  [&](const Challenge& ch) { return ch.from == me.player; });
  if (mine >= kMaxSeeksPerPlayer)
    return Refusal("too_many_challenges", {{"n", std::to_string(kMaxSeeksPerPlayer)}});
  // A player in the lobby is found without the store.
  std::optional<Viewer> target;
  for (const auto& [key, p] : players_)
    if (p.viewer.signed_in() && lower(p.viewer.username) == lower(to)) target = p.viewer;
  if (!target && !to.empty() && hooks_.find_user) target = hooks_.find_user(to);
  if (!target) return Refusal("no_user", {{"name", to.substr(0, 40)}});
  if (target->user_id == me.viewer.user_id) return Refusal("challenge_self");
  if (blocked(me.viewer, *target)) return Refusal("blocked", {{"action", "challenge"}});
  Terms terms;
  if (Refused why = read_terms("challenge", msg, me.viewer, &terms)) return why;
  if (!challenges_sent_[me.player].take(hooks_.now_ms(), challenges_per_minute,
                                        challenges_per_minute))
    return Refusal("challenge_rate", {{"n", std::to_string(challenges_per_minute)}});
  Challenge ch{new_id(), me.player, player_of(*target, 0), &c, me.viewer, *target, {}, {}, ""};
  ch.terms = std::move(terms);
  ch.rating = rating_of(me.viewer, ch.terms.speed);
  challenges_.push_back(std::move(ch));
  const Challenge& added = challenges_.back();
  c.send(json::serialize(json::object{{"type", "challenge_created"}, {"id", added.id}}));
  send_to_player(added.to, json::serialize(json::object{{"type", "challenge"},
                                                        {"challenge", challenge_json(added)}}));
  // The challenged account may be on another instance (or on several).
  if (clustered()) hooks_.publish(wire_challenge(added));
  return std::nullopt;
}

Refused Lobby::on_challenge_answer(LobbyClient& c, const json::object& msg,
                                   const std::string& action) {
  const std::string id = string_field(msg, "id", action);
  const std::string& me = conns_.at(&c).player;
  const bool cancel = action == "challenge_cancel";
  for (size_t i = 0; i < challenges_.size(); ++i) {
    const Challenge ch = challenges_[i];
    if (ch.id != id || (cancel ? ch.from : ch.to) != me) continue;
    if (cancel && !ch.origin.empty()) continue;  // the challenger's instance cancels it
    // Of the answers on every instance (and the challenger's cancel) one wins the claim.
    if (clustered() && !hooks_.claim(id)) return Refusal("no_challenge", {{"action", action}});
    if (!ch.origin.empty() && action == "challenge_accept") return accept_remote(c, ch);
    if (cancel) {
      remove_challenge(i, "cancelled");
    } else if (action == "challenge_decline") {
      remove_challenge(i, "declined");
    } else {
      remove_challenge(i, "accepted");
      if (!start_game(ch.from, ch.client, me, &c, ch.terms)) return not_started();
    }
    return std::nullopt;
  }
  return Refusal("no_challenge", {{"action", action}});
}

// ---- games and offers ----

PairedSeats Lobby::make_game(const Viewer& a, const Viewer& b, const Terms& terms, bool* a_white) {
  *a_white = terms.color == "white"   ? true
             : terms.color == "black" ? false
                                      : (hooks_.random() & 1) == 0;
  PairedGame game;
  game.white = *a_white ? a : b;
  game.black = *a_white ? b : a;
  game.variant = terms.variant;
  game.initial_ms = terms.initial_ms;
  game.increment_ms = terms.increment_ms;
  game.days_per_move = terms.days_per_move;
  game.rated = terms.rated && game.white.signed_in() && game.black.signed_in();
  return hooks_.start_game(game);
}

std::string Lobby::start_message(const PairedSeats& game, bool white) {
  return json::serialize(json::object{{"type", "start"},
                                      {"game", game.id},
                                      {"token", white ? game.white_token : game.black_token},
                                      {"side", white ? "white" : "black"}});
}

bool Lobby::start_game(const std::string& a, LobbyClient* ca, const std::string& b, LobbyClient* cb,
                       const Terms& terms_in) {
  const Terms terms = terms_in;  // the caller's may be a seek that goes below
  const auto pa = players_.find(a), pb = players_.find(b);
  if (pa == players_.end() || pb == players_.end()) return false;
  bool a_white = false;
  const PairedSeats started = make_game(pa->second.viewer, pb->second.viewer, terms, &a_white);
  if (!started.error.empty()) return false;
  if (ca) ca->send(start_message(started, a_white));
  if (cb) cb->send(start_message(started, !a_white));
  remove_player_offers(a);
  remove_player_offers(b);
  return true;
}

void Lobby::remove_player_offers(const std::string& player) {
  // Only those made here: the same account's seeks on other instances are theirs.
  for (size_t i = seeks_.size(); i-- > 0;)
    if (seeks_[i].player == player && seeks_[i].origin.empty()) remove_seek(i);
  leave_pool(player);
  for (size_t i = challenges_.size(); i-- > 0;)
    if (challenges_[i].from == player && challenges_[i].origin.empty())
      remove_challenge(i, "cancelled");
}

void Lobby::remove_seek(size_t index) {
  const std::string id = seeks_[index].id;
  const bool here = seeks_[index].origin.empty();
  seeks_.erase(seeks_.begin() + std::ptrdiff_t(index));
  broadcast(json::serialize(json::object{{"type", "seek_removed"}, {"id", id}}));
  if (!here || !clustered()) return;
  // Claimed so that no late accept elsewhere takes it (claimed already when it was accepted).
  hooks_.claim(id);
  hooks_.publish(json::serialize(
      json::object{{"type", "seek_removed"}, {"from", hooks_.instance}, {"id", id}}));
}

// ---- across instances ----

void Lobby::announce() {
  if (clustered())
    hooks_.publish(json::serialize(json::object{{"type", "sync"}, {"from", hooks_.instance}}));
}

void Lobby::publish_seek(const Seek& s) {
  if (clustered()) hooks_.publish(wire_seek(s));
}

// A seek's or challenge's terms as published (and the speed computed again when read).
template <class T>
void put_terms(const T& t, json::object& o) {
  o["variant"] = t.variant;
  o["initial_ms"] = t.initial_ms;
  o["increment_ms"] = t.increment_ms;
  o["days_per_move"] = t.days_per_move;
  o["rated"] = t.rated;
  o["color"] = t.color;
}

template <class T>
void get_terms(const json::object& o, T& t) {
  t.variant = std::string(o.at("variant").as_string());
  t.initial_ms = o.at("initial_ms").to_number<int64_t>();
  t.increment_ms = o.at("increment_ms").to_number<int64_t>();
  t.days_per_move = int(o.at("days_per_move").to_number<int64_t>());
  t.rated = o.at("rated").as_bool();
  t.color = std::string(o.at("color").as_string());
  set_speed(t);
}

std::string Lobby::wire_seek(const Seek& s) const {
  // An anonymous player's key is this instance's: elsewhere it is qualified by its name.
  const std::string player = s.player[0] == 'c' ? s.player + "@" + hooks_.instance : s.player;
  json::value range = nullptr;
  if (s.range) range = json::array{s.range->first, s.range->second};
  json::object o{{"id", s.id},
                 {"player", player},
                 {"viewer", viewer_wire(s.viewer)},
                 {"rating", rating_wire(s.rating)},
                 {"range", std::move(range)}};
  put_terms(s.terms, o);
  return json::serialize(
      json::object{{"type", "seek_added"}, {"from", hooks_.instance}, {"seek", std::move(o)}});
}

std::optional<Lobby::Seek> Lobby::seek_of_wire(const json::object& o, const std::string& from) {
  Seek s{std::string(o.at("id").as_string()),
         std::string(o.at("player").as_string()),
         nullptr,
         {},
         std::nullopt,
         rating_of_wire(o.at("rating")),
         viewer_of_wire(o.at("viewer")),
         from,
         ""};
  if (s.id.empty() || s.player.empty()) return std::nullopt;
  if (const json::array* r = o.at("range").if_array(); r && r->size() == 2)
    s.range = std::make_pair(int((*r)[0].to_number<int64_t>()), int((*r)[1].to_number<int64_t>()));
  get_terms(o, s.terms);
  return s;
}

std::string Lobby::wire_challenge(const Challenge& ch) const {
  json::object o{{"id", ch.id},
                 {"from", ch.from},
                 {"to", ch.to},
                 {"from_viewer", viewer_wire(ch.from_viewer)},
                 {"to_viewer", viewer_wire(ch.to_viewer)},
                 {"rating", rating_wire(ch.rating)}};
  put_terms(ch.terms, o);
  return json::serialize(json::object{
      {"type", "challenge_added"}, {"from", hooks_.instance}, {"challenge", std::move(o)}});
}

Lobby::Challenge Lobby::challenge_of_wire(const json::object& o, const std::string& from) {
  Challenge ch{std::string(o.at("id").as_string()),
               std::string(o.at("from").as_string()),
               std::string(o.at("to").as_string()),
               nullptr,
               viewer_of_wire(o.at("from_viewer")),
               viewer_of_wire(o.at("to_viewer")),
               {},
               rating_of_wire(o.at("rating")),
               from};
  get_terms(o, ch.terms);
  return ch;
}

void Lobby::on_bus(const std::string& text) {
  if (!clustered()) return;
  try {
    const json::value v = json::parse(text);
    const json::object& o = v.as_object();
    const std::string from(o.at("from").as_string());
    if (from == hooks_.instance) return;
    const std::string type(o.at("type").as_string());
    if (type == "seek_added") {
      auto s = seek_of_wire(o.at("seek").as_object(), from);
      if (!s ||
          std::any_of(seeks_.begin(), seeks_.end(), [&](const Seek& x) { return x.id == s->id; }))
        return;
      seeks_.push_back(std::move(*s));
      seek_added_everywhere(seeks_.back());
    } else if (type == "seek_removed") {
      const std::string id(o.at("id").as_string());
      for (size_t i = 0; i < seeks_.size(); ++i)
        if (seeks_[i].id == id && seeks_[i].origin == from) return remove_seek(i);
    } else if (type == "seek_taken") {
      if (o.at("to").as_string() == hooks_.instance) on_seek_taken(o);
    } else if (type == "challenge_added") {
      Challenge ch = challenge_of_wire(o.at("challenge").as_object(), from);
      if (std::any_of(challenges_.begin(), challenges_.end(),
                      [&](const Challenge& x) { return x.id == ch.id; }))
        return;
      challenges_.push_back(std::move(ch));
      const Challenge& added = challenges_.back();
      send_to_player(added.to, json::serialize(json::object{{"type", "challenge"},
                                                            {"challenge", challenge_json(added)}}));
    } else if (type == "challenge_removed") {
      on_challenge_removed(std::string(o.at("id").as_string()), from,
                           std::string(o.at("reason").as_string()));
    } else if (type == "challenge_taken") {
      if (o.at("to").as_string() == hooks_.instance) on_challenge_taken(o);
    } else if (type == "pool_join") {
      add_pool_entry(std::string(o.at("key").as_string()),
                     {std::string(o.at("pool").as_string()), from,
                      std::string(o.at("player").as_string()), viewer_of_wire(o.at("viewer"))},
                     o.at("rating").to_number<double>(), o.at("provisional").as_bool());
      pair_pools();
    } else if (type == "pool_leave") {
      const auto it = pool_entries_.find(std::string(o.at("key").as_string()));
      if (it != pool_entries_.end() && it->second.origin == from) remove_pool_entry(it->first);
    } else if (type == "pool_paired") {
      on_pool_paired(o);
    } else if (type == "counts") {
      InstanceCounts c;
      c.players = o.at("players").to_number<int64_t>();
      c.games = o.at("games").to_number<int64_t>();
      for (const json::value& u : o.at("users").as_array()) c.users.insert(u.to_number<int64_t>());
      counts_[from] = std::move(c);
    } else if (type == "sync") {
      for (const Seek& s : seeks_)
        if (s.origin.empty()) publish_seek(s);
      for (const Challenge& ch : challenges_)
        if (ch.origin.empty()) hooks_.publish(wire_challenge(ch));
      for (const auto& [key, e] : pool_entries_)
        if (e.origin.empty()) {
          // Its rating as the pool holds it is not kept: read again.
          LobbyRating r{1500, true};
          const auto pool = std::find_if(pools_.begin(), pools_.end(),
                                         [&](const Pool& p) { return p.id == e.pool; });
          if (e.viewer.signed_in() && pool != pools_.end())
            r = hooks_.rating(e.viewer, pool->speed);
          hooks_.publish(wire_pool_join(key, r.rating, r.provisional));
        }
      sent_counts_ = wire_counts();
      hooks_.publish(sent_counts_);
    }
  } catch (const std::exception&) {
    // not a lobby message this instance can read: nothing changes
  }
}

void Lobby::drop_seeks_of_dead_instances() {
  std::set<std::string> origins, dead;
  for (const Seek& s : seeks_)
    if (!s.origin.empty()) origins.insert(s.origin);
  for (const auto& [key, e] : pool_entries_)
    if (!e.origin.empty()) origins.insert(e.origin);
  for (const auto& [instance, c] : counts_) origins.insert(instance);
  for (const std::string& o : origins)
    if (!hooks_.alive(o)) dead.insert(o);
  for (size_t i = seeks_.size(); i-- > 0;)
    if (dead.count(seeks_[i].origin)) remove_seek(i);
  // Its waiting players and its counts go with it.
  std::vector<std::string> gone;
  for (const auto& [key, e] : pool_entries_)
    if (dead.count(e.origin)) gone.push_back(key);
  for (const std::string& key : gone) remove_pool_entry(key);
  for (const std::string& o : dead) counts_.erase(o);
}

void Lobby::on_seek_taken(const json::object& o) {
  const std::string id(o.at("id").as_string());
  const auto it = std::find_if(seeks_.begin(), seeks_.end(),
                               [&](const Seek& s) { return s.id == id && s.origin.empty(); });
  if (it == seeks_.end()) return;  // the seeker left: the game goes on without his start
  const std::string player = it->player;
  LobbyClient* client = it->client;
  if (const json::value* token = o.if_contains("token"); token && client) {
    const std::string game(o.at("game").as_string());
    client->send(json::serialize(json::object{
        {"type", "start"}, {"game", game}, {"token", *token}, {"side", o.at("side")}}));
    return remove_player_offers(player);
  }
  remove_seek(size_t(it - seeks_.begin()));  // no game was made: the seek is spent
}

void Lobby::remove_challenge(size_t index, const char* reason) {
  const Challenge ch = challenges_[index];
  challenges_.erase(challenges_.begin() + std::ptrdiff_t(index));
  const std::string text =
      json::serialize(json::object{{"type", "challenge_gone"}, {"id", ch.id}, {"reason", reason}});
  send_to_player(ch.from, text);
  send_to_player(ch.to, text);
  if (!clustered()) return;
  // Every instance drops its copy (the one it was made on tells the challenger why).
  if (ch.origin.empty()) hooks_.claim(ch.id);
  hooks_.publish(json::serialize(json::object{{"type", "challenge_removed"},
                                              {"from", hooks_.instance},
                                              {"id", ch.id},
                                              {"reason", reason}}));
}

Refused Lobby::accept_remote(LobbyClient& c, const Challenge& ch) {
  bool challenger_white = false;
  const PairedSeats started = make_game(ch.from_viewer, ch.to_viewer, ch.terms, &challenger_white);
  for (size_t i = 0; i < challenges_.size(); ++i)
    if (challenges_[i].id == ch.id) {
      // Dropped here without a message to the others: challenge_taken tells the challenger's
      // instance, which removes it everywhere.
      const std::string text = json::serialize(
          json::object{{"type", "challenge_gone"}, {"id", ch.id}, {"reason", "accepted"}});
      challenges_.erase(challenges_.begin() + std::ptrdiff_t(i));
      send_to_player(ch.to, text);
      break;
    }
  json::object taken{{"type", "challenge_taken"},
                     {"from", hooks_.instance},
                     {"to", ch.origin},
                     {"id", ch.id},
                     {"game", started.id}};
  if (started.error.empty()) {
    taken["token"] = challenger_white ? started.white_token : started.black_token;
    taken["side"] = challenger_white ? "white" : "black";
  }
  hooks_.publish(json::serialize(taken));
  if (!started.error.empty()) return not_started();
  c.send(start_message(started, !challenger_white));
  remove_player_offers(ch.to);
  return std::nullopt;
}

void Lobby::on_challenge_taken(const json::object& o) {
  const std::string id(o.at("id").as_string());
  const auto it = std::find_if(challenges_.begin(), challenges_.end(), [&](const Challenge& ch) {
    return ch.id == id && ch.origin.empty();
  });
  if (it == challenges_.end()) return;
  const std::string player = it->from;
  LobbyClient* client = it->client;
  remove_challenge(size_t(it - challenges_.begin()), "accepted");
  if (const json::value* token = o.if_contains("token"); token && client) {
    client->send(json::serialize(json::object{
        {"type", "start"}, {"game", o.at("game")}, {"token", *token}, {"side", o.at("side")}}));
    remove_player_offers(player);
  }
}

void Lobby::on_challenge_removed(const std::string& id, const std::string& from,
                                 const std::string& reason) {
  for (size_t i = 0; i < challenges_.size(); ++i) {
    const Challenge ch = challenges_[i];
    if (ch.id != id) continue;
    // The challenger's instance hears of a decline elsewhere; the others of its removal.
    if (!ch.origin.empty() && ch.origin != from) continue;
    challenges_.erase(challenges_.begin() + std::ptrdiff_t(i));
    const std::string text =
        json::serialize(json::object{{"type", "challenge_gone"}, {"id", id}, {"reason", reason}});
    if (ch.origin.empty()) {
      // Made here, declined elsewhere: the challenger is told, the other instances drop it.
      send_to_player(ch.from, text);
      hooks_.publish(json::serialize(json::object{{"type", "challenge_removed"},
                                                  {"from", hooks_.instance},
                                                  {"id", id},
                                                  {"reason", reason}}));
    } else {
      send_to_player(ch.to, text);
    }
    return;
  }
}

std::string Lobby::pool_key(const std::string& player) const {
  // An anonymous player's key is this instance's: elsewhere it is qualified by its name.
  return clustered() && player[0] == 'c' ? player + "@" + hooks_.instance : player;
}

void Lobby::add_pool_entry(const std::string& key, PoolEntry entry, double rating,
                           bool provisional) {
  const auto pool =
      std::find_if(pools_.begin(), pools_.end(), [&](const Pool& p) { return p.id == entry.pool; });
  if (pool == pools_.end()) return;
  if (const auto old = pool_entries_.find(key); old != pool_entries_.end()) {
    // The same account joined on another instance since: the latest join is his place.
    if (old->second.origin.empty() && !entry.origin.empty())
      if (const auto p = players_.find(old->second.player); p != players_.end()) {
        p->second.pool.clear();
        p->second.pool_client = nullptr;
      }
    remove_pool_entry(key);
  }
  (entry.viewer.signed_in() ? pool->rated : pool->casual)
      .join(key, rating, provisional, hooks_.now_ms());
  pool_entries_[key] = std::move(entry);
}

void Lobby::remove_pool_entry(const std::string& key) {
  const auto it = pool_entries_.find(key);
  if (it == pool_entries_.end()) return;
  for (Pool& p : pools_)
    if (p.id == it->second.pool) {
      p.rated.leave(key);
      p.casual.leave(key);
    }
  pool_entries_.erase(it);
}

std::string Lobby::wire_pool_join(const std::string& key, double rating, bool provisional) const {
  const PoolEntry& e = pool_entries_.at(key);
  return json::serialize(json::object{{"type", "pool_join"},
                                      {"from", hooks_.instance},
                                      {"key", key},
                                      {"pool", e.pool},
                                      {"player", e.player},
                                      {"viewer", viewer_wire(e.viewer)},
                                      {"rating", rating},
                                      {"provisional", provisional}});
}

void Lobby::leave_pool(const std::string& player) {
  const auto it = players_.find(player);
  if (it == players_.end() || it->second.pool.empty()) return;
  it->second.pool.clear();
  it->second.pool_client = nullptr;
  const std::string key = pool_key(player);
  const auto e = pool_entries_.find(key);
  if (e == pool_entries_.end() || !e->second.origin.empty()) return;
  remove_pool_entry(key);
  if (clustered())
    hooks_.publish(json::serialize(
        json::object{{"type", "pool_leave"}, {"from", hooks_.instance}, {"key", key}}));
}

void Lobby::seat_paired(const std::string& player, const std::string& text, bool started) {
  const auto it = players_.find(player);
  if (it == players_.end()) return;  // he left just now: the game goes on without his start
  LobbyClient* c = it->second.pool_client;
  it->second.pool.clear();
  it->second.pool_client = nullptr;
  if (c) c->send(text);
  if (started) remove_player_offers(player);
}

void Lobby::pair_pools() {
  if (!may_pair()) return;
  const int64_t now = hooks_.now_ms();
  const std::string failed = not_started().message();
  // Two accounts of which one blocks the other are never paired.
  auto may_meet = [this](const std::string& a, const std::string& b) {
    const auto ia = pool_entries_.find(a), ib = pool_entries_.find(b);
    return ia == pool_entries_.end() || ib == pool_entries_.end() ||
           !blocked(ia->second.viewer, ib->second.viewer);
  };
  for (Pool& pool : pools_) {
    for (bool rated : {true, false}) {
      for (const auto& [a, b] : (rated ? pool.rated : pool.casual).pair(now, may_meet)) {
        const auto ia = pool_entries_.find(a), ib = pool_entries_.find(b);
        if (ia == pool_entries_.end() || ib == pool_entries_.end()) continue;
        const PoolEntry ea = ia->second, eb = ib->second;
        pool_entries_.erase(a);
        pool_entries_.erase(b);
        Terms t;
        t.initial_ms = pool.initial_ms;
        t.increment_ms = pool.increment_ms;
        t.rated = rated;
        t.speed = pool.speed;
        bool a_white = false;
        const PairedSeats started = make_game(ea.viewer, eb.viewer, t, &a_white);
        const bool ok = started.error.empty();
        // Each player's instance sends him his start: this one now, the others on the bus.
        json::array seats;
        for (const auto& [key, e, white] :
             {std::tuple{a, ea, a_white}, std::tuple{b, eb, !a_white}}) {
          const std::string text = ok ? start_message(started, white) : failed;
          if (e.origin.empty()) seat_paired(e.player, text, ok);
          seats.push_back(json::object{{"key", key},
                                       {"to", e.origin.empty() ? hooks_.instance : e.origin},
                                       {"player", e.player},
                                       {"text", text},
                                       {"started", ok}});
        }
        if (clustered())
          hooks_.publish(json::serialize(json::object{
              {"type", "pool_paired"}, {"from", hooks_.instance}, {"seats", std::move(seats)}}));
      }
    }
  }
}

void Lobby::on_pool_paired(const json::object& o) {
  for (const json::value& v : o.at("seats").as_array()) {
    const json::object& seat = v.as_object();
    remove_pool_entry(std::string(seat.at("key").as_string()));
    if (seat.at("to").as_string() == hooks_.instance)
      seat_paired(std::string(seat.at("player").as_string()),
                  std::string(seat.at("text").as_string()), seat.at("started").as_bool());
  }
}

std::pair<int64_t, int64_t> Lobby::own_counts() const {
  const auto [seated, games] = hooks_.playing ? hooks_.playing() : std::pair<int, int>{0, 0};
  return {int64_t(players_.size()) + seated, games};
}

std::string Lobby::wire_counts() const {
  const auto [players, games] = own_counts();
  json::array users;
  if (hooks_.users)
    for (int64_t id : hooks_.users()) users.push_back(id);
  return json::serialize(json::object{{"type", "counts"},
                                      {"from", hooks_.instance},
                                      {"players", players},
                                      {"games", games},
                                      {"users", std::move(users)}});
}

bool Lobby::online_elsewhere(int64_t user_id) const {
  return std::any_of(counts_.begin(), counts_.end(),
                     [&](const auto& c) { return c.second.users.count(user_id) > 0; });
}

void Lobby::tick() {
  pair_pools();
  const int64_t now = hooks_.now_ms();
  // A challenger's bucket is full again a minute after his last challenge: forgotten.
  std::erase_if(challenges_sent_,
                [&](const auto& e) { return now - e.second.refilled_ms >= 60000; });
  if (clustered() && hooks_.alive && now - alive_checked_ms_ >= 2 * kLobbyBroadcastMs) {
    alive_checked_ms_ = now;
    drop_seeks_of_dead_instances();
  }
  if (clustered()) {
    const std::string counts = wire_counts();
    if (counts != sent_counts_ && now - counts_sent_ms_ >= kLobbyBroadcastMs) {
      hooks_.publish(counts);
      sent_counts_ = counts;
      counts_sent_ms_ = now;
    }
  }
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
  const Viewer& v = s.viewer;
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
  auto [players, games] = own_counts();
  for (const auto& [instance, c] : counts_) {
    players += c.players;
    games += c.games;
  }
  return json::object{{"type", "online"}, {"players", players}, {"games", games}};
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

}  // namespace toguz::site
