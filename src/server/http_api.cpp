// The HTTP API (docs/web-protocol.md "HTTP"): create, join, import, list, analyze. Bodies are
// checked field by field; an error names the field.
#include <algorithm>
#include <ctime>
#include <sstream>

#include "protocol/analysis_json.h"
#include "rules/notation.h"
#include "rules/record.h"
#include "server/json_out.h"
#include "server/server_impl.h"
#include "server/text_input.h"
#include "server/texts.h"

namespace toguz::server {

namespace {

// A request error: becomes a 400 (or the given status) with {"error": message}.
struct BadRequest {
  std::string message;
  http::status status = http::status::bad_request;
};

const json::value* field(const json::object& o, const char* name) {
  const json::value* v = o.if_contains(name);
  return v && !v->is_null() ? v : nullptr;
}

std::string get_string(const json::object& o, const char* name, const std::string& fallback,
                       size_t max_len) {
  const json::value* v = field(o, name);
  if (!v) return fallback;
  if (!v->is_string()) throw BadRequest{std::string(name) + ": expected a string"};
  std::string s(v->as_string());
  if (s.size() > max_len)
    throw BadRequest{std::string(name) + ": longer than " + std::to_string(max_len) + " bytes"};
  return s;
}

int64_t get_int(const json::object& o, const char* name, int64_t fallback, int64_t lo, int64_t hi) {
  const json::value* v = field(o, name);
  if (!v) return fallback;
  if (!v->is_int64() && !v->is_uint64())
    throw BadRequest{std::string(name) + ": expected an integer"};
  const int64_t x =
      v->is_int64() ? v->as_int64() : int64_t(std::min<uint64_t>(v->as_uint64(), INT64_MAX));
  if (x < lo || x > hi)
    throw BadRequest{std::string(name) + ": expected " + std::to_string(lo) + ".." +
                     std::to_string(hi)};
  return x;
}

bool get_bool(const json::object& o, const char* name, bool fallback) {
  const json::value* v = field(o, name);
  if (!v) return fallback;
  if (!v->is_bool()) throw BadRequest{std::string(name) + ": expected true or false"};
  return v->as_bool();
}

}  // namespace

namespace {

// The rules (variant, tuz, play_out) and the start position of a request.
Position start_of(const json::object& body) {
  const std::string variant = get_string(body, "variant", "", 20);
  RuleOptions opts;
  if (!variant.empty()) {
    Variant v;
    if (!parse_variant(variant, &v))
      throw BadRequest{"variant: expected standard, kozdatu or bestemshi"};
    opts.variant = v;
  }
  if (field(body, "tuz")) opts.tuz = get_bool(body, "tuz", true);
  opts.play_out = get_bool(body, "play_out", false);
  const std::string position = get_string(body, "position", "", 400);
  try {
    return position.empty() ? Position::start(opts.resolve()) : parse_position(position, opts);
  } catch (const ParseError& e) {
    throw BadRequest{std::string("position: ") + e.what()};
  }
}

std::string iso_time(int64_t ms) {
  std::time_t t = std::time_t(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

http::response<http::string_body> Server::Impl::api_create(const json::object& body) {
  try {
    const std::string mode_word = get_string(body, "mode", "", 20);
    const auto mode = parse_mode(mode_word);
    if (!mode || *mode == Mode::Analysis)
      throw BadRequest{"mode: expected engine, local or online"};
    const Position start = start_of(body);
    const std::string color = get_string(body, "color", "white", 10);
    if (color != "white" && color != "black" && color != "random")
      throw BadRequest{"color: expected white, black or random"};
    const Side me = color == "random"  ? ((rng() & 1) ? Side::Black : Side::White)
                    : color == "white" ? Side::White
                                       : Side::Black;
    const int level = int(get_int(body, "level", 5, 1, 20));
    const std::string name = clean_name(get_string(body, "name", "", 1000), "");
    int64_t initial = -1, increment = 0;
    if (const json::value* c = field(body, "clock")) {
      if (!c->is_object())
        throw BadRequest{"clock: expected null or {\"initial_ms\":..,\"increment_ms\":..}"};
      initial = get_int(c->as_object(), "initial_ms", -1, 100, 24LL * 3600 * 1000);
      if (initial < 0) throw BadRequest{"clock.initial_ms: missing"};
      increment = get_int(c->as_object(), "increment_ms", 0, 0, 3600 * 1000);
    }
    // Every field is checked: only now the game exists.
    auto room = rooms->create(*mode, Game(start));
    room->clock_initial_ms = initial;
    room->increment_ms = increment;
    room->set_clocks(std::max<int64_t>(0, initial));
    const std::string token = RoomRegistry::random_id(32);
    json::object out{{"id", room->id}, {"token", token}, {"invite", nullptr}};
    Player& mine = room->players[index(me)];
    Player& other = room->players[index(opposite(me))];
    if (*mode == Mode::Local) {
      room->players[0] = {
          clean_name(get_string(body, "white", "", 1000), name.empty() ? kNameWhite : name), token,
          true};
      room->players[1] = {clean_name(get_string(body, "black", "", 1000), kNameBlack), token, true};
      out["side"] = seat_name(Seat::Both);
    } else {
      mine = {name.empty() ? kNamePlayer : name, token, true};
      out["side"] = side_word(me);
      if (*mode == Mode::Engine) {
        room->engine_side = opposite(me);
        room->level = level;
        other.name = engine_name(level);
        other.seated = true;
      } else {
        room->invite = RoomRegistry::random_id(12);
        room->status = Status::Waiting;
        out["invite"] = room->invite;
      }
    }
    // A position that is already over makes a finished game, as import does.
    if (room->game.over())
      room->end_from_board();
    else
      room->save();
    room->start_engine();
    return json_response(http::status::ok, out);
  } catch (const BadRequest& e) {
    return error_response(e.status, e.message);
  }
}

http::response<http::string_body> Server::Impl::api_join(const std::string& id,
                                                         const json::object& body) {
  try {
    auto room = rooms->find(id);
    if (!room) throw BadRequest{"no such game: " + id, http::status::not_found};
    if (room->mode != Mode::Online) throw BadRequest{"only online games can be joined"};
    const std::string invite = get_string(body, "invite", "", 100);
    if (invite.empty() || invite != room->invite)
      throw BadRequest{"invite: wrong invite code", http::status::forbidden};
    if (room->players[0].seated && room->players[1].seated)
      throw BadRequest{"the seat is taken", http::status::conflict};
    if (room->status != Status::Waiting)
      throw BadRequest{"the game is " + std::string(status_name(room->status)),
                       http::status::conflict};
    const Side side = room->players[0].seated ? Side::Black : Side::White;
    const std::string token = RoomRegistry::random_id(32);
    room->join(side, clean_name(get_string(body, "name", "", 1000), kNameGuest), token);
    return json_response(
        http::status::ok,
        json::object{{"id", room->id}, {"token", token}, {"side", side_word(side)}});
  } catch (const BadRequest& e) {
    return error_response(e.status, e.message);
  }
}

http::response<http::string_body> Server::Impl::api_import(const json::object& body) {
  try {
    Game game;
    std::string white = kNameWhite, black = kNameBlack;
    std::vector<std::pair<std::string, std::string>> tags;
    if (field(body, "record")) {
      const std::string text = get_string(body, "record", "", kMaxBody);
      std::vector<Record> records;
      try {
        records = read_records(text);
      } catch (const ParseError& e) {
        throw BadRequest{std::string("record: ") + e.what()};
      }
      if (records.empty()) throw BadRequest{"record: no game found"};
      RuleOptions overrides;
      Replayed rep = replay_record(records.front(), overrides);
      if (rep.error) throw BadRequest{"record: " + describe(*rep.error)};
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
      throw BadRequest{"expected \"record\" or \"position\""};
    }
    auto room = rooms->create(Mode::Analysis, game);
    const std::string token = RoomRegistry::random_id(32);
    room->players[0] = {white, token, true};
    room->players[1] = {black, token, true};
    room->tags = std::move(tags);
    if (game.over()) room->end_from_board();
    // The moves go to the store with the game.
    room->save_with_moves();
    return json_response(
        http::status::ok,
        json::object{{"id", room->id}, {"token", token}, {"side", seat_name(Seat::Both)}});
  } catch (const BadRequest& e) {
    return error_response(e.status, e.message);
  }
}

http::response<http::string_body> Server::Impl::api_list(const std::string& query) {
  ListQuery q;
  std::istringstream in(query);
  std::string kv;
  try {
    while (std::getline(in, kv, '&')) {
      const auto eq = kv.find('=');
      const std::string key = kv.substr(0, eq);
      const std::string value = eq == std::string::npos ? "" : url_decode(kv.substr(eq + 1));
      auto number = [&](int lo, int hi) {
        if (value.empty() || value.size() > 9 ||
            !std::all_of(value.begin(), value.end(), ::isdigit))
          throw BadRequest{key + ": expected an integer " + std::to_string(lo) + ".." +
                           std::to_string(hi)};
        const int x = std::stoi(value);
        if (x < lo || x > hi)
          throw BadRequest{key + ": expected " + std::to_string(lo) + ".." + std::to_string(hi)};
        return x;
      };
      if (key == "player") {
        if (value.size() > 100) throw BadRequest{"player: longer than 100 bytes"};
        q.player = value;
      } else if (key == "result") {
        if (!value.empty() && value != "white" && value != "black" && value != "draw")
          throw BadRequest{"result: expected white, black or draw"};
        q.result = value;
      } else if (key == "limit") {
        q.limit = number(1, 200);
      } else if (key == "offset") {
        q.offset = number(0, 1000000000);
      }
    }
  } catch (const BadRequest& e) {
    return error_response(e.status, e.message);
  }
  int64_t total = 0;
  json::array games;
  for (const GameRow& g : store->list_games(q, &total)) {
    games.push_back(
        json::object{{"id", g.id},
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
                     {"updated", iso_time(g.updated_ms)}});
  }
  return json_response(http::status::ok,
                       json::object{{"games", std::move(games)}, {"total", total}});
}

std::string Server::Impl::analyze_refusal(const std::string& peer) {
  // Per address: one analysis at a time, and a rate (a bucket of 4 refilled at the set rate).
  AddressState& a = addresses[peer];
  const auto now = SteadyClock::now();
  const double burst = 4, per_second = std::max(1, config.analyze_per_minute) / 60.0;
  if (a.tokens < 0)
    a.tokens = burst;
  else
    a.tokens = std::min(
        burst, a.tokens + std::chrono::duration<double>(now - a.refilled).count() * per_second);
  a.refilled = now;
  if (a.analyses > 0) return "analyze: one analysis at a time per address";
  if (a.tokens < 1)
    return "analyze: more than " + std::to_string(config.analyze_per_minute) +
           " analyses a minute from this address";
  return "";
}

void Server::Impl::api_analyze(const json::object& body, const std::string& peer, Respond respond) {
  EngineWork::Search s;
  try {
    s.game = Game(start_of(body));
    if (const json::value* mv = field(body, "moves")) {
      if (!mv->is_array()) throw BadRequest{"moves: expected an array of holes"};
      const json::array& a = mv->as_array();
      if (a.size() > 1000) throw BadRequest{"moves: more than 1000"};
      for (size_t i = 0; i < a.size(); ++i) {
        const std::string name = "moves[" + std::to_string(i) + "]";
        if (!a[i].is_int64()) throw BadRequest{name + ": expected a hole number"};
        std::string why;
        const int64_t h = a[i].as_int64();
        if (h < 1 || h > s.game.rules().n)
          throw BadRequest{name + ": expected 1.." + std::to_string(s.game.rules().n)};
        if (!s.game.play(int(h), &why)) throw BadRequest{name + ": " + why};
      }
    }
    s.options.multipv = int(get_int(body, "multipv", 3, 1, 9));
    s.limits.movetime_ms = int(get_int(body, "time_ms", 1000, 10, 10000));
  } catch (const BadRequest& e) {
    respond(error_response(e.status, e.message));
    return;
  }
  if (const std::string why = analyze_refusal(peer); !why.empty()) {
    respond(error_response(http::status::too_many_requests, why));
    return;
  }
  // The first line of the deepest iteration, for the summary (as `toguz analyze --json`).
  auto top = std::make_shared<search::Info>();
  s.on_info = [top](const search::Info& info) {
    if (info.multipv == 1) *top = info;
  };
  auto done = [this, respond, peer, top, pos = s.game.position()](search::SearchResult r) {
    if (auto it = addresses.find(peer); it != addresses.end()) --it->second.analyses;
    if (!r.lines.empty() && top->depth == 0) *top = r.lines[0];
    http::response<http::string_body> res{http::status::ok, 11};
    res.set(http::field::content_type, "application/json; charset=utf-8");
    res.body() = protocol::analysis_json(r, *top, pos);
    respond(std::move(res));
  };
  if (!engine->search(std::move(s), Priority::Background, std::make_shared<Job>(), done)) {
    respond(error_response(http::status::service_unavailable,
                           "analyze: " + busy_message(engine->pool())));
    return;
  }
  AddressState& a = addresses[peer];
  a.tokens -= 1;
  ++a.analyses;
}

}  // namespace toguz::server
