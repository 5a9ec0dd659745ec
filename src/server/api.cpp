// The HTTP API (docs/web-protocol.md "HTTP"): create, join, import, list, analyze. Bodies are
// checked field by field; an error names the field.
#include <algorithm>
#include <ctime>
#include <sstream>

#include "protocol/analysis_json.h"
#include "rules/notation.h"
#include "rules/record.h"
#include "server/server_impl.h"
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

std::string clean_name(std::string_view in, const std::string& fallback) {
  // Decode UTF-8, keeping only well-formed characters that are not controls or bidi controls.
  std::vector<uint32_t> cps;
  for (size_t i = 0; i < in.size();) {
    const unsigned char c = static_cast<unsigned char>(in[i]);
    const int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > in.size()) {
      ++i;
      continue;
    }
    uint32_t cp = len == 1 ? c : c & (0x7f >> len);
    bool ok = true;
    for (int k = 1; k < len; ++k) {
      const unsigned char d = static_cast<unsigned char>(in[i + k]);
      if ((d >> 6) != 2) ok = false;
      cp = cp << 6 | (d & 0x3f);
    }
    static constexpr uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (!ok || cp < kMin[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      ++i;
      continue;
    }
    i += len;
    const bool control = cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
    const bool bidi = cp == 0x061c || cp == 0x200e || cp == 0x200f ||
                      (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
    if (!control && !bidi) cps.push_back(cp);
  }
  auto space = [](uint32_t cp) { return cp == ' ' || cp == 0xa0 || cp == 0x3000; };
  size_t b = 0, e = cps.size();
  while (b < e && space(cps[b])) ++b;
  e = std::min(e, b + kMaxNameChars);
  while (e > b && space(cps[e - 1])) --e;
  std::string out;
  for (size_t k = b; k < e; ++k) {
    const uint32_t cp = cps[k];
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xc0 | cp >> 6);
      out += char(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += char(0xe0 | cp >> 12);
      out += char(0x80 | (cp >> 6 & 0x3f));
      out += char(0x80 | (cp & 0x3f));
    } else {
      out += char(0xf0 | cp >> 18);
      out += char(0x80 | (cp >> 12 & 0x3f));
      out += char(0x80 | (cp >> 6 & 0x3f));
      out += char(0x80 | (cp & 0x3f));
    }
  }
  return out.empty() ? fallback : out;
}

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

std::string url_decode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() &&
               std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
               std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += char(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::shared_ptr<Room> Server::Impl::new_room(const std::string& mode, const Game& game) {
  auto room = std::make_shared<Room>(ioc);
  room->game = game;
  GameRow& r = room->row;
  do r.id = random_id(10);
  while (rooms.count(r.id));
  r.mode = mode;
  const Rules rules = game.rules();
  r.variant = std::string(variant_name(rules.variant()));
  r.tuz = rules.tuz;
  r.play_out = rules.play_out;
  r.start_position = format_position(game.start());
  r.status = "playing";
  r.created_ms = r.updated_ms = now_ms();
  room->gone_since[0] = room->gone_since[1] = SteadyClock::now();
  rooms[r.id] = room;
  return room;
}

http::response<http::string_body> Server::Impl::api_create(const json::object& body) {
  try {
    const std::string mode = get_string(body, "mode", "", 20);
    if (mode != "engine" && mode != "local" && mode != "online")
      throw BadRequest{"mode: expected engine, local or online"};
    const Position start = start_of(body);
    std::string color = get_string(body, "color", "white", 10);
    if (color != "white" && color != "black" && color != "random")
      throw BadRequest{"color: expected white, black or random"};
    if (color == "random") color = (rng() & 1) ? "black" : "white";
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
    auto room = new_room(mode, Game(start));
    GameRow& r = room->row;
    const int me = color == "white" ? 0 : 1;
    r.clock_initial_ms = initial;
    r.clock_increment_ms = increment;
    r.white_ms = r.black_ms = std::max<int64_t>(0, initial);
    room->has_clock = initial >= 0;
    room->left[0] = room->left[1] = r.white_ms;
    room->increment = increment;
    std::string token = random_id(32);
    json::object out{{"id", r.id}, {"token", token}, {"invite", nullptr}};
    if (mode == "local") {
      r.white_token = r.black_token = token;
      r.white_seated = r.black_seated = true;
      r.white_name =
          clean_name(get_string(body, "white", "", 1000), name.empty() ? kNameWhite : name);
      r.black_name = clean_name(get_string(body, "black", "", 1000), kNameBlack);
      out["side"] = "both";
    } else {
      (me == 0 ? r.white_token : r.black_token) = token;
      (me == 0 ? r.white_seated : r.black_seated) = true;
      (me == 0 ? r.white_name : r.black_name) = name.empty() ? kNamePlayer : name;
      out["side"] = side_name(me);
      if (mode == "engine") {
        r.engine_side = 1 - me;
        r.level = level;
        (me == 0 ? r.black_name : r.white_name) = engine_name(level);
        (me == 0 ? r.black_seated : r.white_seated) = true;
      } else {
        r.invite = random_id(12);
        r.status = "waiting";
        out["invite"] = r.invite;
      }
    }
    // A position that is already over makes a finished game, as import does.
    if (room->game.over()) finish_from_board(*room);
    persist(*room);
    maybe_start_engine(room);
    return json_response(http::status::ok, out);
  } catch (const BadRequest& e) {
    return error_response(e.status, e.message);
  }
}

http::response<http::string_body> Server::Impl::api_join(const std::string& id,
                                                         const json::object& body) {
  try {
    auto room = find_room(id);
    if (!room) throw BadRequest{"no such game: " + id, http::status::not_found};
    GameRow& r = room->row;
    if (r.mode != "online") throw BadRequest{"only online games can be joined"};
    const std::string invite = get_string(body, "invite", "", 100);
    if (invite.empty() || invite != r.invite)
      throw BadRequest{"invite: wrong invite code", http::status::forbidden};
    if (r.white_seated && r.black_seated)
      throw BadRequest{"the seat is taken", http::status::conflict};
    if (r.status != "waiting") throw BadRequest{"the game is " + r.status, http::status::conflict};
    const int side = r.white_seated ? 1 : 0;
    const std::string token = random_id(32);
    (side == 0 ? r.white_token : r.black_token) = token;
    (side == 0 ? r.white_seated : r.black_seated) = true;
    (side == 0 ? r.white_name : r.black_name) =
        clean_name(get_string(body, "name", "", 1000), kNameGuest);
    r.status = "playing";
    persist(*room);
    broadcast(*room);
    return json_response(http::status::ok,
                         json::object{{"id", r.id}, {"token", token}, {"side", side_name(side)}});
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
    auto room = new_room("analysis", game);
    GameRow& r = room->row;
    const std::string token = random_id(32);
    r.white_token = r.black_token = token;
    r.white_seated = r.black_seated = true;
    r.white_name = white;
    r.black_name = black;
    r.tags = std::move(tags);
    if (game.over()) finish_from_board(*room);
    // The moves go to the store with the game.
    persist(*room);
    for (int i = 0; i < game.ply_count(); ++i) {
      try {
        store->add_move(r, i + 1, game.moves()[i].hole);
      } catch (const std::exception&) {
      }
    }
    return json_response(http::status::ok,
                         json::object{{"id", r.id}, {"token", token}, {"side", "both"}});
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

void Server::Impl::api_analyze(const json::object& body, const std::string& peer, Respond respond) {
  Game game;
  int multipv = 3, time_ms = 1000;
  try {
    game = Game(start_of(body));
    if (const json::value* mv = field(body, "moves")) {
      if (!mv->is_array()) throw BadRequest{"moves: expected an array of holes"};
      const json::array& a = mv->as_array();
      if (a.size() > 1000) throw BadRequest{"moves: more than 1000"};
      for (size_t i = 0; i < a.size(); ++i) {
        const std::string name = "moves[" + std::to_string(i) + "]";
        if (!a[i].is_int64()) throw BadRequest{name + ": expected a hole number"};
        std::string why;
        const int64_t h = a[i].as_int64();
        if (h < 1 || h > game.rules().n)
          throw BadRequest{name + ": expected 1.." + std::to_string(game.rules().n)};
        if (!game.play(int(h), &why)) throw BadRequest{name + ": " + why};
      }
    }
    multipv = int(get_int(body, "multipv", 3, 1, 9));
    time_ms = int(get_int(body, "time_ms", 1000, 10, 10000));
  } catch (const BadRequest& e) {
    respond(error_response(e.status, e.message));
    return;
  }
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
  if (a.analyses > 0) {
    respond(error_response(http::status::too_many_requests,
                           "analyze: one analysis at a time per address"));
    return;
  }
  if (a.tokens < 1) {
    respond(error_response(http::status::too_many_requests,
                           "analyze: more than " + std::to_string(config.analyze_per_minute) +
                               " analyses a minute from this address"));
    return;
  }
  auto task = [this, game, multipv, time_ms, respond, peer](search::Engine& engine) {
    search::Options options;
    options.multipv = multipv;
    engine.set_options(options);
    engine.set_position(game);
    search::Limits limits;
    limits.movetime_ms = time_ms;
    search::Info top;
    const search::SearchResult r = engine.search(limits, [&](const search::Info& info) {
      if (pool->stopping()) engine.stop();
      if (info.multipv == 1) top = info;
    });
    if (!r.lines.empty() && top.depth == 0) top = r.lines[0];
    std::string text = protocol::analysis_json(r, top, game.position());
    net::post(ioc, [this, respond, peer, text = std::move(text)] {
      if (auto it = addresses.find(peer); it != addresses.end()) --it->second.analyses;
      http::response<http::string_body> res{http::status::ok, 11};
      res.set(http::field::content_type, "application/json; charset=utf-8");
      res.body() = text;
      respond(std::move(res));
    });
  };
  if (!pool->submit(std::move(task))) {
    respond(error_response(http::status::service_unavailable, "analyze: " + busy_message(*pool)));
    return;
  }
  a.tokens -= 1;
  ++a.analyses;
}

}  // namespace toguz::server
