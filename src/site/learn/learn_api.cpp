#include "site/learn/learn_api.h"

#include <algorithm>
#include <boost/json.hpp>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "explorer/explorer.h"
#include "net/url.h"
#include "rules/game.h"
#include "rules/notation.h"
#include "site/refusal.h"
#include "site/text_input.h"

namespace toguz::site {

namespace {

namespace json = boost::json;

LearnReply reply(int status, const json::value& body) {
  return {status, json::serialize(body)};
}

// A refusal in the server's shape: the code the page translates, its params, the English.
LearnReply error(const Refusal& r) {
  return reply(int(r.status()),
               json::object{{"code", r.code()}, {"params", r.params()}, {"error", r.english()}});
}

const char* side_word(Side s) {
  return s == Side::White ? "white" : "black";
}

std::string hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// One move as the game state's `moves` entries (docs/web-protocol.md), from `before`.
json::object move_json(const Position& before, int hole) {
  Position after = before;
  const MoveInfo m = after.play(hole);
  const char* mover = side_word(before.side_to_move());
  return json::object{
      {"hole", hole},
      {"side", mover},
      {"notation", format_move(m)},
      {"captured", int(m.captured)},
      {"tuz", m.tuz_made},
      {"from", json::object{{"side", mover}, {"hole", hole}}},
      {"to", json::object{{"side", side_word(m.last_row)}, {"hole", int(m.last_hole)}}},
      {"position", format_position(after)},
  };
}

// A line of holes from `start` as moves; stops at the first hole that is not legal (the files
// are checked at load, so that does not happen with a loaded line).
json::array line_json(const Position& start, const std::vector<int>& line) {
  json::array out;
  Game g(start);
  for (int h : line) {
    if (g.over() || !(g.legal_mask() & (1u << (h - 1)))) break;
    out.push_back(move_json(g.position(), h));
    g.play(h);
  }
  return out;
}

json::array holes_of(uint32_t mask) {
  json::array out;
  for (int h = 1; mask; ++h, mask >>= 1)
    if (mask & 1) out.push_back(h);
  return out;
}

// A non-negative integer of at most 9 digits, else nullopt.
std::optional<int> small_number(const std::string& s) {
  if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), ::isdigit)) return std::nullopt;
  return std::stoi(s);
}

std::string proven_text(int result) {
  return result > 0 ? "win" : result < 0 ? "loss" : "draw";
}

// The holes of a line from `start` are legal moves until the game ends: else a message.
std::optional<std::string> check_line(const Position& start, const std::vector<int>& line) {
  Game g(start);
  for (size_t i = 0; i < line.size(); ++i) {
    std::string why;
    if (g.over()) return "the game is over before ply " + std::to_string(i + 1);
    if (!g.play(line[i], &why)) return "ply " + std::to_string(i + 1) + ": " + why;
  }
  return std::nullopt;
}

std::vector<int> int_array(const json::value& v, const std::string& where) {
  std::vector<int> out;
  if (!v.is_array()) throw LearnDataError(where + ": expected an array of holes");
  for (const json::value& x : v.as_array()) {
    if (!x.is_int64()) throw LearnDataError(where + ": expected an array of holes");
    out.push_back(int(x.as_int64()));
  }
  return out;
}

// The puzzle's rating now: stored, else its start.
accounts::Rating rating_of(const puzzles::Puzzle& p, PuzzleRatingSource* ratings) {
  if (ratings)
    if (auto r = ratings->puzzle(hex(p.key))) return *r;
  return puzzle_start_rating(p.difficulty);
}

// The next puzzle for a signed-in viewer is drawn among those within this many points of the
// viewer's rating (a solve there is neither sure nor hopeless: at 200 points apart the expected
// score is about 0.76), or, when none is that near, among the kNearest nearest.
constexpr double kNearWindow = 200;
constexpr size_t kNearest = 12;

}  // namespace

accounts::Rating puzzle_start_rating(int difficulty) {
  accounts::Rating r;
  r.rating = 1100.0 + 100.0 * std::clamp(difficulty, 1, 10);
  return r;
}

json::object rating_json(const accounts::Rating& r) {
  return json::object{{"rating", std::lround(r.rating)},
                      {"rd", std::round(r.rd * 10) / 10},
                      {"provisional", accounts::provisional(r)},
                      {"attempts", r.games}};
}

std::vector<LearnService::Study> read_studies(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LearnDataError(path + ": cannot be read");
  std::stringstream ss;
  ss << in.rdbuf();
  boost::system::error_code ec;
  json::value doc = json::parse(ss.str(), ec);
  if (ec) throw LearnDataError(path + ": not JSON: " + ec.message());
  if (!doc.is_object() || !doc.as_object().contains("studies") ||
      !doc.as_object().at("studies").is_array())
    throw LearnDataError(path + ": expected an object with an array \"studies\"");
  std::vector<LearnService::Study> out;
  for (const json::value& v : doc.as_object().at("studies").as_array()) {
    const std::string where = path + ": study " + std::to_string(out.size() + 1);
    if (!v.is_object()) throw LearnDataError(where + ": expected an object");
    const json::object& o = v.as_object();
    LearnService::Study s;
    try {
      s.number = int(o.at("study").as_int64());
      s.position = std::string(o.at("position").as_string());
      s.task = std::string(o.at("task").as_string());
    } catch (const std::exception&) {
      throw LearnDataError(where + ": expected \"study\" (a number), \"position\" and \"task\"");
    }
    if (s.task != "win" && s.task != "draw")
      throw LearnDataError(where + ": task: expected \"win\" or \"draw\"");
    const Position start = [&] {
      try {
        return parse_position(s.position);
      } catch (const std::exception& e) {
        throw LearnDataError(where + ": position: " + e.what());
      }
    }();
    const json::value* proven = o.if_contains("proven");
    const json::value* engine = o.if_contains("engine");
    if (proven && proven->is_object()) {
      const json::object& p = proven->as_object();
      const json::value* r = p.if_contains("result");
      if (!r || !r->is_string() ||
          (r->as_string() != "win" && r->as_string() != "draw" && r->as_string() != "loss"))
        throw LearnDataError(where + ": proven.result: expected win, draw or loss");
      s.proven = std::string(r->as_string());
      if (const json::value* m = p.if_contains("margin"); m && m->is_int64())
        s.margin = int(m->as_int64());
      if (const json::value* n = p.if_contains("nodes"); n && n->is_int64())
        s.nodes = uint64_t(n->as_int64());
      s.line =
          int_array(p.contains("line") ? p.at("line") : json::value(), where + ": proven.line");
    } else if (engine && engine->is_object()) {
      const json::object& e = engine->as_object();
      s.line =
          int_array(e.contains("line") ? e.at("line") : json::value(), where + ": engine.line");
      if (const json::value* cp = e.if_contains("cp"); cp && cp->is_int64())
        s.engine_cp = int(cp->as_int64());
      if (const json::value* d = e.if_contains("depth"); d && d->is_int64())
        s.engine_depth = int(d->as_int64());
    } else {
      throw LearnDataError(where + ": expected \"proven\" or \"engine\" (an object)");
    }
    if (auto why = check_line(start, s.line)) throw LearnDataError(where + ": line: " + *why);
    out.push_back(std::move(s));
  }
  return out;
}

bool explorer_position(const std::string& text, const explorer::Index* index, Position* out,
                       std::string* why) {
  const Rules rules = index ? index->rules() : Rules{};
  if (text.empty()) {
    *out = Position::start(rules);
    return true;
  }
  try {
    *out = parse_position(text, RuleOptions{std::nullopt, rules.tuz, rules.play_out});
  } catch (const std::exception& e) {
    *why = e.what();
    return false;
  }
  if (index && out->n() != rules.n) {
    *why = "another board size than the index's";
    return false;
  }
  return true;
}

LearnService::LearnService(const LearnOptions& options)
    : rng_(options.seed ? options.seed
                        : uint64_t(std::chrono::steady_clock::now().time_since_epoch().count())) {
  auto read_lines = [&](const std::string& path, bool tolerant) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      if (tolerant) return;  // no puzzle mined yet
      throw LearnDataError(path + ": cannot be read");
    }
    std::string text;
    for (int line_no = 1; std::getline(in, text); ++line_no)
      if (!text.empty() && !load_puzzle(text, path + ": line " + std::to_string(line_no), tolerant))
        ++mined_skipped_;
  };
  if (!options.puzzles_path.empty()) read_lines(options.puzzles_path, false);
  if (!options.mined_path.empty()) read_lines(options.mined_path, true);
  if (!options.studies_path.empty()) studies_ = read_studies(options.studies_path);
  if (!options.explorer_path.empty()) {
    try {
      explorer_ = std::make_unique<explorer::Index>(options.explorer_path);
    } catch (const explorer::IndexError& e) {
      throw LearnDataError(e.what());
    }
  }
}

LearnService::~LearnService() = default;

// One line of a puzzle file: added, or (tolerant) false when it does not read, else
// LearnDataError naming `where`. A duplicate is kept in a given file, skipped in a mined one.
bool LearnService::load_puzzle(const std::string& text, const std::string& where, bool tolerant) {
  puzzles::Puzzle p;
  std::string why;
  try {
    if (!puzzles::read_puzzle(text, &p, &why)) throw LearnDataError(where + ": " + why);
    if (p.line.empty()) throw LearnDataError(where + ": line: expected at least one move");
    if (auto bad = check_line(parse_position(p.position), p.line))
      throw LearnDataError(where + ": line: " + *bad);
  } catch (const std::exception&) {
    if (tolerant) return false;
    throw;
  }
  if (!dedup_.add(p) && tolerant) return true;
  puzzles_.push_back(std::move(p));
  return true;
}

size_t LearnService::puzzle_count() const {
  std::lock_guard<std::mutex> lock(puzzles_mutex_);
  return puzzles_.size();
}

bool LearnService::add_puzzle(puzzles::Puzzle p) {
  if (p.line.empty()) return false;
  try {
    if (check_line(parse_position(p.position), p.line)) return false;
  } catch (const std::exception&) {
    return false;
  }
  std::lock_guard<std::mutex> lock(puzzles_mutex_);
  if (!dedup_.add(p)) return false;
  puzzles_.push_back(std::move(p));
  return true;
}

std::optional<puzzles::Puzzle> LearnService::puzzle(const std::string& id) const {
  std::lock_guard<std::mutex> lock(puzzles_mutex_);
  for (const puzzles::Puzzle& p : puzzles_)
    if (hex(p.key) == id) return p;
  return std::nullopt;
}

AttemptVerdict judge_attempt(const puzzles::Puzzle& p, const std::vector<int>& moves,
                             std::string* why) {
  if (moves.size() > p.line.size()) {
    *why = "longer than the puzzle's line";
    return AttemptVerdict::Invalid;
  }
  Game g(parse_position(p.position));
  for (size_t i = 0; i < moves.size(); ++i) {
    const std::string ply = "ply " + std::to_string(i + 1);
    if (moves[i] == p.line[i]) {
      g.play(p.line[i]);
      continue;
    }
    // Off the line: only the solver's last move, and a legal one.
    if (i % 2 != 0) {
      *why = ply + ": not the puzzle's reply";
      return AttemptVerdict::Invalid;
    }
    if (i + 1 != moves.size()) {
      *why = ply + ": the attempt ends at a move off the line";
      return AttemptVerdict::Invalid;
    }
    std::string illegal;
    if (!g.play(moves[i], &illegal)) {
      *why = ply + ": " + illegal;
      return AttemptVerdict::Invalid;
    }
    return AttemptVerdict::Missed;
  }
  return moves.size() == p.line.size() ? AttemptVerdict::Solved : AttemptVerdict::Missed;
}

std::optional<int> LearnService::puzzle_difficulty(const std::string& id) const {
  std::lock_guard<std::mutex> lock(puzzles_mutex_);
  for (const puzzles::Puzzle& p : puzzles_)
    if (hex(p.key) == id) return p.difficulty;
  return std::nullopt;
}

LearnReply LearnService::summary(PuzzleRatingSource* ratings) const {
  std::lock_guard<std::mutex> lock(puzzles_mutex_);
  return puzzle_summary(ratings);
}

LearnReply LearnService::next(std::string_view query, PuzzleRatingSource* ratings) const {
  std::lock_guard<std::mutex> lock(puzzles_mutex_);
  return next_puzzle(query, ratings);
}

LearnReply LearnService::puzzle_of(const std::string& id, PuzzleRatingSource* ratings) const {
  std::lock_guard<std::mutex> lock(puzzles_mutex_);
  for (const puzzles::Puzzle& p : puzzles_)
    if (hex(p.key) == id) return puzzle_reply(p, ratings);
  return error(Refusal("no_puzzle_id", {{"id", id}}));
}

LearnReply LearnService::studies(std::string_view rest) const {
  if (rest.empty()) return studies_reply("");
  return studies_reply("/" + std::string(rest));
}

LearnReply LearnService::explorer_moves(std::string_view query) const {
  return explorer_reply(query);
}

LearnReply LearnService::puzzle_summary(PuzzleRatingSource* ratings) const {
  std::map<std::string, int> themes;
  for (const puzzles::Puzzle& p : puzzles_)
    for (const std::string& t : p.themes) ++themes[t];
  json::object th;
  for (const auto& [name, n] : themes) th[name] = n;
  // A viewer with an account is rated (docs/ratings.md "Puzzle ratings"), one without is not.
  const bool rated = ratings && ratings->signed_in();
  json::value player = nullptr;
  if (rated) player = rating_json(ratings->player().value_or(player_start_rating()));
  return reply(
      200, json::object{
               {"count", puzzles_.size()}, {"themes", th}, {"rated", rated}, {"player", player}});
}

LearnReply LearnService::next_puzzle(std::string_view query, PuzzleRatingSource* ratings) const {
  const auto q = net::query_pairs(query);
  const std::optional<std::string> theme = net::query_value(q, "theme");
  std::set<std::string> exclude;
  for (auto [it, end] = q.equal_range("exclude"); it != end; ++it) {
    std::string_view list = it->second;
    while (!list.empty()) {
      const size_t comma = list.find(',');
      exclude.emplace(list.substr(0, comma));
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
    }
  }
  std::vector<const puzzles::Puzzle*> pool;
  for (const puzzles::Puzzle& p : puzzles_) {
    if (theme && !theme->empty() &&
        std::find(p.themes.begin(), p.themes.end(), *theme) == p.themes.end())
      continue;
    if (!exclude.count(hex(p.key))) pool.push_back(&p);
  }
  if (pool.empty())
    return error(theme && !theme->empty() ? Refusal("no_puzzle", {{"theme", *theme}})
                                          : Refusal("no_puzzle"));
  if (ratings && ratings->signed_in()) {
    // Near the viewer's rating, among the puzzles not attempted rated yet (all of them again
    // once every one of the theme was).
    const double mine = ratings->player().value_or(player_start_rating()).rating;
    const std::set<std::string> attempted = ratings->attempted();
    const std::map<std::string, accounts::Rating> rated = ratings->puzzles();
    std::vector<std::pair<double, const puzzles::Puzzle*>> by_distance;
    for (const puzzles::Puzzle* p : pool) {
      const std::string id = hex(p->key);
      if (attempted.count(id)) continue;
      auto it = rated.find(id);
      const double r =
          it != rated.end() ? it->second.rating : puzzle_start_rating(p->difficulty).rating;
      by_distance.emplace_back(std::abs(r - mine), p);
    }
    if (!by_distance.empty()) {
      std::stable_sort(by_distance.begin(), by_distance.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      size_t near = 0;
      while (near < by_distance.size() && by_distance[near].first <= kNearWindow) ++near;
      if (near == 0) near = std::min(kNearest, by_distance.size());
      pool.clear();
      for (size_t i = 0; i < near; ++i) pool.push_back(by_distance[i].second);
    }
  }
  size_t pick;
  {
    std::lock_guard<std::mutex> lock(rng_mutex_);
    pick = std::uniform_int_distribution<size_t>(0, pool.size() - 1)(rng_);
  }
  // Picked by the server for this account: an attempt at it may be rated.
  if (ratings && ratings->signed_in()) ratings->served(hex(pool[pick]->key));
  return puzzle_reply(*pool[pick], ratings);
}

LearnReply LearnService::puzzle_reply(const puzzles::Puzzle& p, PuzzleRatingSource* ratings) const {
  const Position start = parse_position(p.position);
  json::object o;
  o["id"] = hex(p.key);
  o["position"] = p.position;
  o["side"] = side_word(p.side);
  o["themes"] = json::value_from(p.themes);
  o["difficulty"] = p.difficulty;
  o["best_cp"] = p.best_cp;
  o["second_cp"] = p.second_cp;
  if (p.proven)
    o["proven"] = json::object{
        {"result", proven_text(p.proven_result)},
        {"margin", p.proven_margin ? json::value(*p.proven_margin) : json::value(nullptr)}};
  else
    o["proven"] = nullptr;
  o["line"] = line_json(start, p.line);
  // Every legal move at each of the solver's turns, so the page shows a wrong move played.
  json::array choices;
  Position pos = start;
  for (size_t i = 0; i < p.line.size(); ++i) {
    if (i % 2 == 0) {
      json::array moves;
      for (const json::value& h : holes_of(pos.legal_mask()))
        moves.push_back(move_json(pos, int(h.as_int64())));
      choices.push_back(json::object{{"ply", i}, {"moves", std::move(moves)}});
    }
    pos.play(p.line[i]);
  }
  o["choices"] = std::move(choices);
  o["source"] = json::object{{"game", p.source.game}, {"ply", p.source.ply}};
  o["rating"] = rating_json(rating_of(p, ratings));
  // Whether an attempt now changes the ratings: the viewer's first at a puzzle the server
  // picked for him; else why not.
  const std::string id = hex(p.key);
  const char* unrated = !ratings || !ratings->signed_in() ? "anonymous"
                        : ratings->attempted().count(id)  ? "attempted"
                        : !ratings->was_served(id)        ? "not_served"
                                                          : nullptr;
  o["rated"] = unrated == nullptr;
  o["unrated_reason"] = unrated ? json::value(unrated) : json::value(nullptr);
  return reply(200, o);
}

LearnReply LearnService::studies_reply(std::string_view rest) const {
  auto study_json = [](const Study& s) {
    const Position start = parse_position(s.position);
    json::object o{{"study", s.number},
                   {"position", s.position},
                   {"side", side_word(start.side_to_move())},
                   {"task", s.task}};
    if (!s.proven.empty()) {
      o["proven"] =
          json::object{{"result", s.proven},
                       {"margin", s.margin ? json::value(*s.margin) : json::value(nullptr)},
                       {"nodes", s.nodes}};
      o["engine"] = nullptr;
    } else {
      o["proven"] = nullptr;
      o["engine"] = json::object{{"cp", s.engine_cp}, {"depth", s.engine_depth}};
    }
    o["line"] = line_json(start, s.line);
    return o;
  };
  if (rest.empty() || rest == "/") {
    json::array list;
    for (const Study& s : studies_) list.push_back(study_json(s));
    return reply(200, json::object{{"studies", std::move(list)}});
  }
  const std::string id(rest.substr(1));
  const std::optional<int> n = small_number(id);
  for (const Study& s : studies_)
    if (n && s.number == *n) return reply(200, study_json(s));
  return error(Refusal("no_study", {{"id", id}}));
}

LearnReply LearnService::explorer_reply(std::string_view query) const {
  if (!explorer_) return error(Refusal("no_explorer"));
  const auto q = net::query_pairs(query);
  Position pos = Position::start();
  std::string why;
  if (!explorer_position(net::query_value(q, "position").value_or(""), explorer_.get(), &pos, &why))
    return error(Refusal("bad_position", {{"why", why}}));
  explorer::Filter filter;
  const std::pair<const char*, std::optional<int>*> bounds[] = {{"min_rating", &filter.min_rating},
                                                                {"max_rating", &filter.max_rating},
                                                                {"from_year", &filter.from_year},
                                                                {"to_year", &filter.to_year}};
  for (const auto& [key, slot] : bounds) {
    auto v = net::query_value(q, key);
    if (!v || v->empty()) continue;
    *slot = small_number(*v);
    if (!*slot) return error(Refusal("bad_query", {{"field", key}}, "number"));
  }
  json::array moves;
  uint64_t total = 0;
  for (const explorer::MoveStats& m : explorer_->query(pos, filter)) {
    json::object j = explorer::move_json(pos, m);
    j["after"] = format_position(pos.after(m.hole));
    moves.push_back(std::move(j));
    total += m.games;
  }
  return reply(200, json::object{{"position", format_position(pos)},
                                 {"games", total},
                                 {"indexed_games", explorer_->games()},
                                 {"moves", std::move(moves)}});
}

}  // namespace toguz::site
