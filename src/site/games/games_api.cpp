// The HTTP API (docs/web-protocol.md "HTTP"): create, join, import, list, analyze. Bodies are
// checked field by field; an error names the field.
#include <algorithm>
#include <ctime>
#include <sstream>
#include <unordered_map>

#include "accounts/speed.h"
#include "accounts/username.h"
#include "net/log.h"
#include "net/url.h"
#include "protocol/analysis_json.h"
#include "rules/notation.h"
#include "rules/record.h"
#include "site/games/games_site.h"
#include "site/json_in.h"
#include "site/json_out.h"
#include "site/refusal.h"
#include "site/text_input.h"
#include "site/texts.h"

namespace toguz::site {

namespace {

// The rules (variant, tuz, play_out) and the start position of a request.
Position start_of(const json::object& body) {
  const std::string variant = get_string(body, "variant", "", 20);
  RuleOptions opts;
  if (!variant.empty()) {
    Variant v;
    if (!parse_variant(variant, &v)) throw Refusal("bad_variant");
    opts.variant = v;
  }
  if (field(body, "tuz")) opts.tuz = get_bool(body, "tuz", true);
  opts.play_out = get_bool(body, "play_out", false);
  const std::string position = get_string(body, "position", "", 400);
  try {
    return position.empty() ? Position::start(opts.resolve()) : parse_position(position, opts);
  } catch (const ParseError& e) {
    throw Refusal("position", {{"detail", e.what()}});
  }
}

// `<side>_average_loss_cp` and `<side>_mistakes` (mistakes and blunders) of a stored review
// (review.cpp's JSON), null for a game without one.
void add_review_figures(json::object& item, const std::string& review) {
  json::error_code ec;
  const json::value v = review.empty() ? json::value(nullptr) : json::parse(review, ec);
  const json::value* players =
      !ec && v.is_object() ? v.as_object().if_contains("players") : nullptr;
  for (const char* side : {"white", "black"}) {
    const json::value* p =
        players && players->is_object() ? players->as_object().if_contains(side) : nullptr;
    const json::object* o = p && p->is_object() ? &p->as_object() : nullptr;
    auto number = [&](const char* name) -> const json::value* {
      const json::value* x = o ? o->if_contains(name) : nullptr;
      return x && x->is_number() ? x : nullptr;
    };
    const json::value* loss = number("average_loss_cp");
    const json::value *mistakes = number("mistakes"), *blunders = number("blunders");
    item[std::string(side) + "_average_loss_cp"] = loss ? *loss : json::value(nullptr);
    item[std::string(side) + "_mistakes"] =
        mistakes && blunders
            ? json::value(mistakes->to_number<int64_t>() + blunders->to_number<int64_t>())
            : json::value(nullptr);
  }
}

}  // namespace

void GamesSite::check_guest_name(const char* field, const std::string& name, const Viewer& viewer) {
  if (name.empty()) return;
  if (ends_in_rating(name)) throw Refusal("name_rating", {{"field", field}});
  const std::string key = lookalike_username_key(name);
  if (key.empty() || key.size() > accounts::kUsernameMax) return;
  if (viewer.signed_in() && accounts::username_key(viewer.username) == key) return;
  if (s_.store.find_user(key)) throw Refusal("name_account", {{"field", field}});
}

// A new game's request (POST /api/games), every field checked.
struct CreateRequest {
  Mode mode = Mode::Local;
  Position start;
  std::string color;
  int level = 5;
  std::string name;
  int64_t initial = -1, increment = 0;  // the clock; initial -1: none
  bool rated = false;
  int days = 0;  // days per move: a correspondence game
  // The names typed for the seats no account takes: the player's own, or a local game's two.
  std::string typed[2];
};

namespace {

// The clock of a request: {"initial_ms":..,"increment_ms":..} or null (none).
void read_clock(const json::object& body, CreateRequest& r) {
  const json::value* c = field(body, "clock");
  if (!c) return;
  if (!c->is_object())
    throw Refusal("bad_clock", {{"shape", R"({"initial_ms":..,"increment_ms":..})"}});
  r.initial = get_int(c->as_object(), "initial_ms", -1, 100, 24LL * 3600 * 1000);
  if (r.initial < 0)
    throw Refusal("bad_field",
                  {{"action", "clock"}, {"field", "initial_ms"}, {"detail", "missing"}});
  r.increment = get_int(c->as_object(), "increment_ms", 0, 0, 3600 * 1000);
}

}  // namespace

CreateRequest GamesSite::create_request(const json::object& body, const Viewer& viewer) {
  CreateRequest r;
  const auto mode = parse_mode(get_string(body, "mode", "", 20));
  if (!mode || *mode == Mode::Analysis) throw Refusal("bad_mode");
  r.mode = *mode;
  r.start = start_of(body);
  r.color = get_string(body, "color", "white", 10);
  if (r.color != "white" && r.color != "black" && r.color != "random") throw Refusal("bad_color");
  r.level = int(get_int(body, "level", 5, 1, 20));
  r.name = clean_name(get_string(body, "name", "", 1000), "");
  read_clock(body, r);
  // Correspondence: days per move, an online game without a clock.
  r.days = int(get_int(body, "days_per_move", 0, 0, 14));
  if (r.days != 0 && r.days != 1 && r.days != 2 && r.days != 3 && r.days != 5 && r.days != 7 &&
      r.days != 14)
    throw Refusal("bad_days_per_move");
  if (r.days != 0 && (r.mode != Mode::Online || r.initial >= 0))
    throw Refusal("days_per_move_mode");
  // Rated: online, between accounts, with a clock or days per move (docs/ratings.md).
  r.rated = get_bool(body, "rated", false);
  if (r.rated && !viewer.signed_in()) throw Refusal("rated_needs_account");
  if (r.rated && r.mode != Mode::Online) throw Refusal("rated_needs_online");
  if (r.rated && r.initial < 0 && r.days == 0) throw Refusal("rated_needs_clock");
  if (r.rated && s_.store.standing(viewer.user_id).marked)
    throw Refusal("account_marked", {{"action", "rated"}});
  r.typed[0] = clean_name(get_string(body, "white", "", 1000), "");
  r.typed[1] = clean_name(get_string(body, "black", "", 1000), "");
  return r;
}

void GamesSite::check_creator(const CreateRequest& r, const Viewer& viewer,
                              const std::string& peer) {
  if (r.mode == Mode::Local) {
    check_guest_name("white", r.typed[0].empty() ? r.name : r.typed[0], viewer);
    check_guest_name("black", r.typed[1], viewer);
  } else if (!viewer.signed_in()) {
    check_guest_name("name", r.name, viewer);
  }
  if (r.mode == Mode::Online) {
    // Each waiting game stays in memory and in the open list until it expires.
    AddressState& a = s_.addresses[peer];
    a.used = SteadyClock::now();
    const int n = s_.config.online_games_per_address;
    if (!a.games.take(now_ms(), n, double(n) / kGameWindowMinutes))
      throw Refusal("games_rate",
                    {{"n", std::to_string(n)}, {"minutes", std::to_string(kGameWindowMinutes)}});
  }
}

json::object GamesSite::seat_creator(Room& room, const CreateRequest& r, const Viewer& viewer) {
  const Side me = r.color == "random"  ? ((s_.rng() & 1) ? Side::Black : Side::White)
                  : r.color == "white" ? Side::White
                                       : Side::Black;
  const std::string token = RoomRegistry::random_id(32);
  json::object out{{"id", room.id}, {"token", token}, {"invite", nullptr}};
  if (r.mode == Mode::Local) {
    room.players[0] = {r.typed[0].empty() ? (r.name.empty() ? kNameWhite : r.name) : r.typed[0],
                       token, true};
    room.players[1] = {r.typed[1].empty() ? kNameBlack : r.typed[1], token, true};
    out["side"] = seat_name(Seat::Both);
    return out;
  }
  Player& mine = room.players[index(me)];
  Player& other = room.players[index(opposite(me))];
  mine = {r.name.empty() ? kNamePlayer : r.name, token, true};
  if (viewer.signed_in()) bind_account(mine, room, viewer);
  out["side"] = side_word(me);
  if (r.mode == Mode::Engine) {
    room.engine_side = opposite(me);
    room.level = r.level;
    other.name = engine_name(r.level);
    other.seated = true;
  } else {
    room.invite = RoomRegistry::random_id(12);
    room.status = Status::Waiting;
    out["invite"] = room.invite;
  }
  return out;
}

void GamesSite::api_create(const json::object& body, const Viewer& viewer, const std::string& peer,
                           Respond respond) {
  const CreateRequest r = create_request(body, viewer);
  check_creator(r, viewer, peer);
  // Every field is checked: only now the game exists.
  auto room = s_.rooms.create(r.mode, Game(r.start));
  room->clock_initial_ms = r.initial;
  room->increment_ms = r.increment;
  room->rated = r.rated;
  if (r.initial >= 0 || r.days > 0)
    if (auto speed = accounts::speed_of({std::max<int64_t>(0, r.initial), r.increment, r.days}))
      room->speed = std::string(accounts::name(*speed));
  room->set_clocks(std::max<int64_t>(0, r.initial));
  room->days_per_move = r.days;
  json::object out = seat_creator(*room, r, viewer);
  // A position that is already over makes a finished game, as import does. Answered as
  // created only once stored.
  store_created(room, false, json_response(http::status::ok, out), std::move(respond));
}

http::response<http::string_body> GamesSite::api_join(const std::string& id,
                                                      const json::object& body,
                                                      const Viewer& viewer) {
  auto room = s_.rooms.find(id);
  if (!room) throw Refusal("no_game", {{"id", id}});
  if (room->mode != Mode::Online) throw Refusal("not_joinable");
  const std::string invite = get_string(body, "invite", "", 100);
  if (invite.empty() || invite != room->invite) throw Refusal("wrong_invite");
  if (room->players[0].seated && room->players[1].seated) throw Refusal("seat_taken");
  if (room->status != Status::Waiting)
    throw Refusal("join_closed", {{"status", std::string(status_name(room->status))}});
  const Side side = room->players[0].seated ? Side::Black : Side::White;
  const int64_t other = room->players[index(opposite(side))].user_id;
  if (room->rated && !viewer.signed_in()) throw Refusal("rated_needs_account");
  if (room->rated && viewer.user_id == other) throw Refusal("own_game");
  if (viewer.signed_in() && other > 0 && s_.moderation.blocks_between(viewer.user_id, other))
    throw Refusal("blocked", {{"action", "join"}});
  if (room->rated && s_.store.standing(viewer.user_id).marked)
    throw Refusal("account_marked", {{"action", "join"}});
  // Over the pair cap the game is played casual, and its state says why.
  if (room->rated && other > 0) {
    room->unrated_reason = s_.moderation.rated_refusal(viewer.user_id, other);
    if (!room->unrated_reason.empty()) room->rated = false;
  }
  const std::string token = RoomRegistry::random_id(32);
  const std::string name = clean_name(get_string(body, "name", "", 1000), "");
  // The same account on both sides of a casual game: the second seat is the token's alone.
  const bool bind = viewer.signed_in() && viewer.user_id != other;
  if (!bind) check_guest_name("name", name, viewer);
  Player player{name.empty() ? kNameGuest : name, token, true};
  if (bind) bind_account(player, *room, viewer);
  room->join(side, std::move(player));
  return json_response(http::status::ok,
                       json::object{{"id", room->id}, {"token", token}, {"side", side_word(side)}});
}

void GamesSite::store_created(const std::shared_ptr<Room>& room, bool with_moves,
                              http::response<http::string_body> ok, Respond respond) {
  room->store_new(with_moves, [this, room, ok = std::move(ok),
                               respond = std::move(respond)](std::exception_ptr e) mutable {
    if (!e) {
      room->start_engine();
      return respond(std::move(ok));
    }
    s_.rooms.drop(room->id);
    try {
      std::rethrow_exception(e);
    } catch (const store::StoreUnavailable& x) {
      log(net::LogLevel::Error, room->id, std::string("cannot store the new game: ") + x.what());
      respond(fault_refusal(x.fault).response());
    } catch (const std::exception& x) {
      log(net::LogLevel::Error, room->id, std::string("cannot store the new game: ") + x.what());
      respond(Refusal("server_error", {{"detail", x.what()}}).response());
    }
  });
}

void GamesSite::api_import(const json::object& body, Respond respond) {
  Game game;
  std::string white = kNameWhite, black = kNameBlack;
  std::vector<std::pair<std::string, std::string>> tags;
  if (field(body, "record")) {
    const std::string text = get_string(body, "record", "", kMaxBody);
    std::vector<Record> records;
    try {
      records = read_records(text);
    } catch (const ParseError& e) {
      throw Refusal("record", {{"detail", e.what()}});
    }
    if (records.empty()) throw Refusal("no_record", {}, "empty");
    RuleOptions overrides;
    Replayed rep = replay_record(records.front(), overrides);
    if (rep.error) throw Refusal("record", {{"detail", describe(*rep.error)}});
    // The game as recorded, its result included (a resignation, a loss on time or an
    // agreement ends it as the board would), and its other tags for the export.
    game = rep.game;
    if (auto w = records.front().tag("White")) white = clean_name(*w, white);
    if (auto b = records.front().tag("Black")) black = clean_name(*b, black);
    for (const auto& [name, value] : records.front().tags)
      if (!generated_tag(name) && tags.size() < 32)
        tags.emplace_back(name.substr(0, 40), value.substr(0, 400));
  } else if (field(body, "position")) {
    game = Game(start_of(body));
  } else {
    throw Refusal("no_record", {}, "missing");
  }
  auto room = s_.rooms.create(Mode::Analysis, game);
  const std::string token = RoomRegistry::random_id(32);
  room->players[0] = {white, token, true};
  room->players[1] = {black, token, true};
  room->tags = std::move(tags);
  // The moves go to the store with the game.
  store_created(room, true,
                json_response(http::status::ok, json::object{{"id", room->id},
                                                             {"token", token},
                                                             {"side", seat_name(Seat::Both)}}),
                std::move(respond));
}

namespace {

// The filters of GET /api/games from its query string; the Refusal names the field.
ListQuery list_query(const std::string& query, Store& store) {
  ListQuery q;
  std::istringstream in(query);
  std::string kv;
  while (std::getline(in, kv, '&')) {
    const auto eq = kv.find('=');
    const std::string key = kv.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : net::url_decode(kv.substr(eq + 1));
    auto number = [&](int lo, int hi) {
      if (value.empty() || value.size() > 9 || !std::all_of(value.begin(), value.end(), ::isdigit))
        throw Refusal("query_integer",
                      {{"field", key}, {"lo", std::to_string(lo)}, {"hi", std::to_string(hi)}});
      const int x = std::stoi(value);
      if (x < lo || x > hi)
        throw Refusal("field_range",
                      {{"field", key}, {"lo", std::to_string(lo)}, {"hi", std::to_string(hi)}});
      return x;
    };
    if (key == "player") {
      if (value.size() > 100) throw Refusal("field_long", {{"field", "player"}, {"n", "100"}});
      q.player = value;
    } else if (key == "account") {
      const auto user =
          value.size() <= 100 ? store.find_user(accounts::username_key(value)) : std::nullopt;
      if (!user) throw Refusal("no_user", {}, "account");
      q.account = user->id;
    } else if (key == "result") {
      if (!value.empty() && value != "white" && value != "black" && value != "draw")
        throw Refusal("bad_result_filter");
      q.result = value;
    } else if (key == "limit") {
      q.limit = number(1, 200);
    } else if (key == "offset") {
      q.offset = number(0, 1000000000);
    }
  }
  return q;
}

}  // namespace

http::response<http::string_body> GamesSite::api_list(const std::string& query) {
  const ListQuery q = list_query(query, s_.store);
  int64_t total = 0;
  json::array games;
  std::unordered_map<int64_t, json::value> accounts;  // the usernames of the page's accounts
  auto account = [&](int64_t user_id) -> json::value {
    if (user_id <= 0) return nullptr;
    auto [it, fresh] = accounts.try_emplace(user_id, nullptr);
    if (fresh)
      if (auto u = s_.store.user_by_id(user_id)) it->second = json::string(u->username);
    return it->second;
  };
  for (const GameRow& g : s_.store.list_games(q, &total)) {
    json::object item{{"id", g.id},
                      {"mode", g.mode},
                      {"variant", g.variant},
                      {"white", g.white_name},
                      {"black", g.black_name},
                      {"white_default", default_name_code(g, 0)},
                      {"black_default", default_name_code(g, 1)},
                      {"level", g.engine_side >= 0 ? json::value(g.level) : json::value(nullptr)},
                      {"status", g.status},
                      {"result", g.winner.empty() ? json::value(nullptr) : json::value(g.winner)},
                      {"reason", g.reason.empty() ? json::value(nullptr) : json::value(g.reason)},
                      {"score", g.score},
                      {"moves", g.moves},
                      {"created", iso_time(g.created_ms)},
                      {"updated", iso_time(g.updated_ms)}};
    // Accounts and ratings, and the review's figures per side (null without a review).
    const bool over = parse_status(g.status) == Status::Over;
    item["rated"] = g.rated;
    item["speed"] = g.speed.empty() ? json::value(nullptr) : json::value(g.speed);
    item["white_account"] = account(g.white_user);
    item["black_account"] = account(g.black_user);
    item["white_rating"] = g.rated ? json::value(g.white_rating) : json::value(nullptr);
    item["black_rating"] = g.rated ? json::value(g.black_rating) : json::value(nullptr);
    item["white_diff"] = g.rated && over ? json::value(g.white_diff) : json::value(nullptr);
    item["black_diff"] = g.rated && over ? json::value(g.black_diff) : json::value(nullptr);
    add_review_figures(item, g.review);
    games.push_back(std::move(item));
  }
  return json_response(http::status::ok,
                       json::object{{"games", std::move(games)}, {"total", total}});
}

Refused GamesSite::analyze_refusal(const std::string& peer) {
  // Per address: one analysis at a time, and a rate (a bucket of 4 refilled at the set rate).
  AddressState& a = s_.addresses[peer];
  const auto now = SteadyClock::now();
  const double burst = 4, per_second = std::max(1, s_.config.analyze_per_minute) / 60.0;
  if (a.tokens < 0)
    a.tokens = burst;
  else
    a.tokens = std::min(
        burst, a.tokens + std::chrono::duration<double>(now - a.refilled).count() * per_second);
  a.refilled = now;
  if (a.analyses > 0) return Refusal("analyze_pending");
  if (a.tokens < 1)
    return Refusal("analyze_rate", {{"n", std::to_string(s_.config.analyze_per_minute)}});
  return std::nullopt;
}

void GamesSite::api_analyze(const json::object& body, const std::string& peer, Respond respond) {
  engine_work::EngineWork::Search s;
  s.game = Game(start_of(body));
  if (const json::value* mv = field(body, "moves")) {
    if (!mv->is_array()) throw Refusal("moves_array");
    const json::array& a = mv->as_array();
    if (a.size() > 1000) throw Refusal("moves_too_many", {{"n", "1000"}});
    for (size_t i = 0; i < a.size(); ++i) {
      const std::string at = std::to_string(i);
      if (!a[i].is_int64()) throw Refusal("moves_hole", {{"i", at}});
      std::string why;
      const int64_t h = a[i].as_int64();
      if (h < 1 || h > s.game.rules().n)
        throw Refusal("field_range", {{"field", "moves[" + at + "]"},
                                      {"lo", "1"},
                                      {"hi", std::to_string(s.game.rules().n)}});
      if (!s.game.play(int(h), &why)) throw Refusal("moves_illegal", {{"i", at}, {"detail", why}});
    }
  }
  s.options.multipv = int(get_int(body, "multipv", 3, 1, 9));
  s.limits.movetime_ms = int(get_int(body, "time_ms", 1000, 10, 10000));
  if (Refused why = analyze_refusal(peer)) {
    respond(why->response());
    return;
  }
  // The first line of the deepest iteration, for the summary (as `toguz analyze --json`).
  auto top = std::make_shared<search::Info>();
  s.on_info = [top](const search::Info& info) {
    if (info.multipv == 1) *top = info;
  };
  auto done = [this, respond, peer, top, pos = s.game.position()](search::SearchResult r) {
    if (auto it = s_.addresses.find(peer); it != s_.addresses.end()) --it->second.analyses;
    if (!r.lines.empty() && top->depth == 0) *top = r.lines[0];
    http::response<http::string_body> res{http::status::ok, 11};
    res.set(http::field::content_type, "application/json; charset=utf-8");
    res.body() = protocol::analysis_json(r, *top, pos);
    respond(std::move(res));
  };
  if (!s_.engine.search(std::move(s), engine_work::Priority::Background,
                        std::make_shared<engine_work::Job>(), done)) {
    respond(busy_refusal(s_.engine.pool(), "analyze").response());
    return;
  }
  AddressState& a = s_.addresses[peer];
  a.tokens -= 1;
  ++a.analyses;
}

}  // namespace toguz::site
