#include "site/ratings/ratings_site.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "net/log.h"
#include "net/url.h"
#include "site/json_in.h"
#include "site/json_out.h"
#include "site/refusal.h"

namespace toguz::site {

namespace fs = std::filesystem;

namespace {

using Response = http::response<http::string_body>;

// Lists larger than this are refused when read: a national federation has a few thousand.
constexpr uintmax_t kMaxFileBytes = uintmax_t(256) << 20;

[[noreturn]] void bad(const std::string& what) {
  throw std::runtime_error(what);
}

const json::array& array_at(const json::object& o, const char* key, const std::string& where) {
  const json::value* v = o.if_contains(key);
  if (!v || !v->is_array()) bad(where + ": \"" + key + "\": expected an array");
  return v->as_array();
}

const json::object& object_of(const json::value& v, const std::string& where) {
  if (!v.is_object()) bad(where + ": expected an object");
  return v.as_object();
}

// An index of an array of `size` at `o[key]`.
void check_index(const json::object& o, const char* key, size_t size, const std::string& where) {
  const json::value* v = o.if_contains(key);
  if (!v || !v->is_int64() || v->as_int64() < 0 || uint64_t(v->as_int64()) >= size)
    bad(where + ": \"" + key + "\": expected an index below " + std::to_string(size));
}

// A whole number or null at `o[key]` (`optional`), or a whole number.
void check_int(const json::object& o, const char* key, bool optional, const std::string& where) {
  const json::value* v = o.if_contains(key);
  if (v && (v->is_int64() || (optional && v->is_null()))) return;
  bad(where + ": \"" + key + "\": expected a whole number" + (optional ? " or null" : ""));
}

void check_string(const json::object& o, const char* key, const std::string& where) {
  const json::value* v = o.if_contains(key);
  if (!v || !v->is_string()) bad(where + ": \"" + key + "\": expected a string");
}

void check_player(const json::object& p, size_t players, const std::string& where) {
  for (const char* k : {"name", "region", "id", "title"}) check_string(p, k, where);
  check_int(p, "before", true, where);
  check_int(p, "after", true, where);
  check_int(p, "games", false, where);
  const json::array& history = array_at(p, "history", where);
  for (size_t i = 0; i < history.size(); ++i) {
    const std::string at = where + ", history " + std::to_string(i);
    const json::object& h = object_of(history[i], at);
    check_index(h, "opponent", players, at);
    for (const char* k : {"event", "period", "use"}) check_string(h, k, at);
  }
}

std::optional<int> opt_int(const json::value& v) {
  return v.is_int64() ? std::optional<int>(int(v.as_int64())) : std::nullopt;
}

std::string str(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : "";
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) bad("cannot read");
  std::ostringstream s;
  s << in.rdbuf();
  if (!in && !in.eof()) bad("cannot read");
  return s.str();
}

// A list's id as the address writes it: a folder or file name of letters, digits, '.', '-'
// and '_', not starting with '.'.
bool valid_id(const std::string& id) {
  if (id.empty() || id.size() > 64 || id[0] == '.') return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-' || c == '_';
  });
}

federation::Language language_of(const std::string& query) {
  federation::Language lang = federation::Language::En;
  const auto l = net::query_value(net::query_pairs(query), "lang");
  if (l) federation::parse_language(*l, &lang);
  return lang;
}

Response text_response(const std::string& type, std::string body, const std::string& file = "") {
  Response res{http::status::ok, 11};
  res.set(http::field::content_type, type);
  if (!file.empty())
    res.set(http::field::content_disposition, "attachment; filename=\"" + file + "\"");
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

// The index `n` (a path segment) of an array of `size`; a Refusal when it is not one.
size_t index_of(const std::string& n, size_t size) {
  size_t i = 0;
  if (n.empty() || n.size() > 9 ||
      !std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      (i = std::stoul(n)) >= size)
    throw Refusal("no_rating_entry", {{"n", n}});
  return i;
}

}  // namespace

json::object read_season_json(const std::string& text) {
  json::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec) bad("not JSON: " + ec.message());
  if (!v.is_object()) bad("expected a JSON object");
  json::object& doc = v.as_object();
  const json::array& players = array_at(doc, "players", "the season");
  for (size_t i = 0; i < players.size(); ++i)
    check_player(object_of(players[i], "player " + std::to_string(i)), players.size(),
                 "player " + std::to_string(i));
  const json::array& list = array_at(doc, "list", "the season (written by toguz ratings compute)");
  for (size_t i = 0; i < list.size(); ++i)
    if (!list[i].is_int64() || list[i].as_int64() < 0 ||
        uint64_t(list[i].as_int64()) >= players.size())
      bad("list " + std::to_string(i) + ": expected a player's index");
  const json::array& events = array_at(doc, "events", "the season");
  for (size_t i = 0; i < events.size(); ++i) {
    const std::string at = "event " + std::to_string(i);
    const json::object& e = object_of(events[i], at);
    check_string(e, "name", at);
    for (const json::value& l : array_at(e, "lines", at))
      check_index(object_of(l, at), "player", players.size(), at + ", a line");
  }
  if (!doc.contains("heading")) doc["heading"] = "";
  check_string(doc, "heading", "the season");
  return std::move(doc);
}

RatingsSite::RatingsSite(RatingsServices services) : s_(std::move(services)) {
  scan(true);
}

void RatingsSite::load(const std::string& id, const fs::path& path, List* out) {
  try {
    if (fs::file_size(path) > kMaxFileBytes) bad("over 256 MiB");
    List l;
    l.id = id;
    l.path = path.string();
    l.mtime = fs::last_write_time(path);
    l.size = fs::file_size(path);
    l.doc = read_season_json(read_file(path));
    const json::array& players = l.doc.at("players").as_array();
    l.rank.assign(players.size(), 0);
    for (const json::value& i : l.doc.at("list").as_array()) {
      const json::object& p = players[size_t(i.as_int64())].as_object();
      federation::ListEntry e;
      e.number = int(l.entries.size()) + 1;
      e.name = str(p, "name");
      e.region = str(p, "region");
      e.title = str(p, "title");
      e.id = str(p, "id");
      e.before = opt_int(p.at("before"));
      e.after = opt_int(p.at("after"));
      e.change = e.before && e.after ? *e.after - *e.before : 0;
      e.games = int(p.at("games").as_int64());
      l.rank[size_t(i.as_int64())] = e.number;
      l.entries.push_back(std::move(e));
    }
    *out = std::move(l);
  } catch (const std::exception& e) {
    throw std::runtime_error("--ratings-dir: " + path.string() + ": " + e.what());
  }
}

void RatingsSite::scan(bool at_start) {
  looked_ = std::chrono::steady_clock::now();
  if (s_.dir.empty()) return;
  std::error_code ec;
  fs::directory_iterator it(s_.dir, ec);
  if (ec) {
    if (at_start) throw std::runtime_error("--ratings-dir: " + s_.dir + ": " + ec.message());
    net::log(net::LogLevel::Warn, "", "--ratings-dir: " + s_.dir + ": " + ec.message());
    return;
  }
  std::map<std::string, List> seen;
  for (const fs::directory_entry& e : it) {
    const bool folder = e.is_directory(ec);
    const fs::path path = folder ? e.path() / "season.json" : e.path();
    const std::string id = folder ? e.path().filename().string() : e.path().stem().string();
    if ((!folder && e.path().extension() != ".json") || !fs::is_regular_file(path, ec) ||
        !valid_id(id))
      continue;
    auto old = lists_.find(id);
    if (old != lists_.end() && old->second.path == path.string() &&
        old->second.mtime == fs::last_write_time(path, ec) &&
        old->second.size == fs::file_size(path, ec)) {
      seen[id] = std::move(old->second);
      continue;
    }
    try {
      load(id, path, &seen[id]);
      if (!at_start)
        net::log(net::LogLevel::Info, "", "rating list " + id + " read: " + path.string());
    } catch (const std::runtime_error& err) {
      if (at_start) throw;
      net::log(net::LogLevel::Warn, "", std::string(err.what()) + " (the list kept as it was)");
      if (old != lists_.end())
        seen[id] = std::move(old->second);
      else
        seen.erase(id);
    }
  }
  lists_ = std::move(seen);
}

void RatingsSite::refresh() {
  if (std::chrono::steady_clock::now() - looked_ >= std::chrono::seconds(1)) scan(false);
}

const RatingsSite::List& RatingsSite::find(const std::string& id) const {
  auto it = lists_.find(id);
  if (it == lists_.end()) throw Refusal("no_rating_list", {{"id", id}});
  return it->second;
}

json::object RatingsSite::list_view(const List& l, federation::Language lang) const {
  json::array rows, columns, events;
  const json::array& players = l.doc.at("players").as_array();
  for (const json::value& i : l.doc.at("list").as_array()) {
    const size_t p = size_t(i.as_int64());
    const federation::ListEntry& e = l.entries[size_t(l.rank[p] - 1)];
    const bool moved = e.before && e.after;
    rows.push_back(json::object{{"number", e.number},
                                {"player", p},
                                {"name", e.name},
                                {"region", e.region},
                                {"id", e.id},
                                {"title", e.title},
                                {"before", players[p].at("before")},
                                {"change", moved ? json::value(e.change) : json::value(nullptr)},
                                {"after", players[p].at("after")},
                                {"games", e.games ? *e.games : 0}});
  }
  for (const std::string& c : federation::list_columns(lang)) columns.push_back(json::string(c));
  for (const json::value& v : l.doc.at("events").as_array()) {
    json::object e = v.as_object();
    e.erase("lines");
    events.push_back(std::move(e));
  }
  const json::value* periods = l.doc.if_contains("periods");
  return json::object{{"id", l.id},
                      {"heading", l.doc.at("heading")},
                      {"columns", std::move(columns)},
                      {"list", std::move(rows)},
                      {"events", std::move(events)},
                      {"periods", periods ? *periods : json::array()},
                      {"players", players.size()}};
}

json::object RatingsSite::player_view(const List& l, const std::string& n) const {
  const json::array& players = l.doc.at("players").as_array();
  const size_t index = index_of(n, players.size());
  json::object p = players[index].as_object();
  // Each game's event by its name and period, and its opponent's name, for the links.
  std::map<std::pair<std::string, std::string>, size_t> event_index;
  const json::array& events = l.doc.at("events").as_array();
  for (size_t i = 0; i < events.size(); ++i)
    event_index.emplace(
        std::pair(str(events[i].as_object(), "name"), str(events[i].as_object(), "period")), i);
  for (json::value& v : p["history"].as_array()) {
    json::object& h = v.as_object();
    const json::object& o = players[size_t(h.at("opponent").as_int64())].as_object();
    h["opponent_name"] = o.at("name");
    h["opponent_region"] = o.at("region");
    auto e = event_index.find({str(h, "event"), str(h, "period")});
    h["event_index"] = e == event_index.end() ? json::value(nullptr) : json::value(e->second);
  }
  p["index"] = index;
  p["number"] = l.rank[index];
  return json::object{{"id", l.id}, {"heading", l.doc.at("heading")}, {"player", std::move(p)}};
}

json::object RatingsSite::event_view(const List& l, const std::string& n) const {
  const json::array& players = l.doc.at("players").as_array();
  const json::array& events = l.doc.at("events").as_array();
  json::object e = events[index_of(n, events.size())].as_object();
  for (json::value& v : e["lines"].as_array()) {
    json::object& line = v.as_object();
    const json::object& p = players[size_t(line.at("player").as_int64())].as_object();
    line["name"] = p.at("name");
    line["region"] = p.at("region");
  }
  return json::object{{"id", l.id}, {"heading", l.doc.at("heading")}, {"event", std::move(e)}};
}

json::object RatingsSite::names_view(const List& l, const net::Request& req) const {
  if (!s_.officer || !s_.officer(req)) throw Refusal("not_moderator");
  const json::value* skipped = l.doc.if_contains("skipped");
  const json::value* ambiguous = l.doc.if_contains("ambiguous");
  return json::object{{"id", l.id},
                      {"skipped", skipped ? *skipped : json::array()},
                      {"ambiguous", ambiguous ? *ambiguous : json::array()}};
}

void RatingsSite::add_routes(net::Router& router) {
  using net::Call;
  using net::Method;
  auto add = [this, &router](const std::string& pattern, std::function<Response(const Call&)> f) {
    router.add(Method::Get, pattern, refusals_answered([this, f = std::move(f)](const Call& c) {
                 refresh();
                 c.respond(f(c));
               }));
  };
  add("/api/ratings", [this](const Call&) {
    json::array out;
    for (const auto& [id, l] : lists_)
      out.push_back(json::object{{"id", id},
                                 {"heading", l.doc.at("heading")},
                                 {"players", l.entries.size()},
                                 {"events", l.doc.at("events").as_array().size()}});
    return json_response(http::status::ok, json::object{{"lists", std::move(out)}});
  });
  add("/api/ratings/:list", [this](const Call& c) {
    const List& l = find(c.param(0));
    const federation::Language lang = language_of(c.query);
    std::string& body = l.bodies[std::string(federation::language_code(lang))];
    if (body.empty()) body = json::serialize(list_view(l, lang));
    return json_text_response(http::status::ok, body);
  });
  add("/api/ratings/:list/list.csv", [this](const Call& c) {
    const List& l = find(c.param(0));
    return text_response("text/csv; charset=utf-8", federation::list_csv(l.entries), l.id + ".csv");
  });
  add("/api/ratings/:list/print", [this](const Call& c) {
    const List& l = find(c.param(0));
    const std::string heading(l.doc.at("heading").as_string());
    return text_response("text/html; charset=utf-8",
                         federation::list_html(l.entries, language_of(c.query), heading));
  });
  add("/api/ratings/:list/names", [this](const Call& c) {
    return json_response(http::status::ok, names_view(find(c.param(0)), c.req));
  });
  add("/api/ratings/:list/players/:n", [this](const Call& c) {
    return json_response(http::status::ok, player_view(find(c.param(0)), c.param(1)));
  });
  add("/api/ratings/:list/events/:n", [this](const Call& c) {
    return json_response(http::status::ok, event_view(find(c.param(0)), c.param(1)));
  });
}

}  // namespace toguz::site
