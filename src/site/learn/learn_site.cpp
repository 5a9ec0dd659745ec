// The learning pages' routes, and puzzle ratings (docs/ratings.md "Puzzle ratings"): the learning
// API's view of the store for the viewer of a request, and POST /api/puzzles/<id>/attempt, which
// rates an account's first attempt at a puzzle with Glicko-2: the solver and the puzzle are the two
// players of one game, a solve the solver's win.
#include "site/learn/learn_site.h"

#include <boost/json.hpp>
#include <cmath>

#include "accounts/glicko2.h"
#include "net/url.h"
#include "site/accounts/accounts_site.h"
#include "site/json_out.h"

namespace toguz::site {

namespace {

using Response = http::response<http::string_body>;

store::RatingRow row_of(const accounts::Rating& r, const std::string& category, int64_t time_ms) {
  return {category, r.rating, r.rd, r.volatility, r.games, time_ms};
}

double days_since(const store::RatingRow& r, int64_t now) {
  return r.games > 0 ? double(now - r.updated_ms) / 86400000.0 : 0.0;
}

// The solver's rating as shown now: the deviation grown by the days since the last attempt (a
// puzzle's does not grow: it does not change while nobody attempts it).
accounts::Rating shown(const store::RatingRow& r, int64_t now) {
  accounts::Rating out = rating_of(r);
  out.rd = accounts::rd_after(out, days_since(r, now), accounts::Glicko2Config{});
  return out;
}

// The store's ratings for one request's viewer, read when the learning API asks.
class StoreRatings final : public PuzzleRatingSource {
 public:
  StoreRatings(store::Store& store, const Viewer& viewer) : store_(store), viewer_(viewer) {}
  bool signed_in() override { return viewer_.signed_in(); }
  std::optional<accounts::Rating> player() override {
    if (!viewer_.signed_in()) return std::nullopt;
    const auto r = store_.puzzle_player_rating(viewer_.user_id);
    if (!r) return std::nullopt;
    return shown(*r, now_ms());
  }
  std::optional<accounts::Rating> puzzle(const std::string& id) override {
    const auto r = store_.puzzle_rating(id);
    if (!r) return std::nullopt;
    return rating_of(*r);
  }
  std::map<std::string, accounts::Rating> puzzles() override {
    std::map<std::string, accounts::Rating> out;
    for (const store::RatingRow& r : store_.puzzle_ratings()) out[r.category] = rating_of(r);
    return out;
  }
  std::set<std::string> attempted() override {
    if (!viewer_.signed_in()) return {};
    const auto ids = store_.attempted_puzzles(viewer_.user_id);
    return {ids.begin(), ids.end()};
  }
  void served(const std::string& id) override {
    if (viewer_.signed_in()) store_.add_puzzle_served(viewer_.user_id, id, now_ms());
  }
  bool was_served(const std::string& id) override {
    return viewer_.signed_in() && store_.puzzle_was_served(viewer_.user_id, id);
  }

 private:
  store::Store& store_;
  const Viewer& viewer_;
};

// 16 hexadecimal digits in lower case: the form of a puzzle's id (its position key).
bool puzzle_id_form(const std::string& id) {
  return id.size() == 16 && id.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// The holes of the attempt's "moves" (every ply played on the board), or nullopt when the field
// is missing or not an array of small integers.
std::optional<std::vector<int>> moves_of(const json::object& body) {
  const json::value* v = body.if_contains("moves");
  if (!v || !v->is_array() || v->as_array().size() > 64) return std::nullopt;
  std::vector<int> out;
  for (const json::value& h : v->as_array()) {
    if (!h.is_int64() || h.as_int64() < 1 || h.as_int64() > Position::kMaxN) return std::nullopt;
    out.push_back(int(h.as_int64()));
  }
  return out;
}

// {"rating","rd","provisional","attempts","diff"}: a rating with its change by the attempt, in
// whole points as shown.
json::object rating_change(const accounts::Rating& after, double before) {
  json::object o = rating_json(after);
  o["diff"] = std::lround(after.rating) - std::lround(before);
  return o;
}

// The attempt's body checked and judged from its moves (the page's word is never taken):
// *solved and *hint, or the refusal.
std::optional<Response> judge_body(const std::string& body_text, const puzzles::Puzzle& puzzle,
                                   bool* solved, bool* hint) {
  json::error_code ec;
  const json::value v = json::parse(body_text, ec);
  if (ec || !v.is_object()) return Refusal("bad_message", {}, "body").response();
  const json::object& body = v.as_object();
  const std::optional<std::vector<int>> moves = moves_of(body);
  if (!moves) return Refusal("bad_attempt", {{"field", "moves"}}, "holes").response();
  std::string why;
  const AttemptVerdict verdict = judge_attempt(puzzle, *moves, &why);
  if (verdict == AttemptVerdict::Invalid)
    return Refusal("bad_attempt", {{"field", "moves"}, {"detail", why}}, "line").response();
  const json::value* hint_v = body.if_contains("hint");
  if (hint_v && !hint_v->is_bool())
    return Refusal("bad_attempt", {{"field", "hint"}}, "bool").response();
  *solved = verdict == AttemptVerdict::Solved;
  *hint = hint_v && hint_v->as_bool();
  return std::nullopt;
}

// The answer to an attempt that changes nothing: anonymous, or at a puzzle the server did not
// pick for the account ("not_served"); both ratings as they stand.
Response unrated_answer(store::Store& store, const Viewer& viewer, const std::string& id,
                        bool solved, bool hint, const accounts::Rating& puzzle_start) {
  json::object out{{"id", id}, {"solved", solved}, {"hint", hint}, {"rated", false}};
  out["reason"] = viewer.signed_in() ? "not_served" : "anonymous";
  out["player"] = nullptr;
  if (viewer.signed_in()) {
    const auto mine = store.puzzle_player_rating(viewer.user_id);
    const accounts::Rating player = mine ? shown(*mine, now_ms()) : player_start_rating();
    out["player"] = rating_change(player, player.rating);
  }
  const auto stored = store.puzzle_rating(id);
  const accounts::Rating rating = stored ? rating_of(*stored) : puzzle_start;
  out["puzzle"] = rating_change(rating, rating.rating);
  return json_response(http::status::ok, out);
}

}  // namespace

Response LearnSite::puzzle_attempt(const std::string& id, const std::string& body_text,
                                   const Viewer& viewer) {
  if (!puzzle_id_form(id))
    return Refusal("bad_puzzle_id", {{"id", id.substr(0, 40)}}, "hex").response();
  const std::optional<puzzles::Puzzle> puzzle = s_.learn ? s_.learn->puzzle(id) : std::nullopt;
  if (!puzzle) return Refusal("no_puzzle_id", {{"id", id}}).response();
  bool solved = false, hint = false;
  if (auto refused = judge_body(body_text, *puzzle, &solved, &hint)) return std::move(*refused);
  const int64_t now = now_ms();
  const accounts::Rating puzzle_start = puzzle_start_rating(puzzle->difficulty);
  // Rated: an account's first attempt at a puzzle the server picked for it.
  if (!viewer.signed_in() || !s_.store.puzzle_was_served(viewer.user_id, id))
    return unrated_answer(s_.store, viewer, id, solved, hint, puzzle_start);
  json::object out{{"id", id}, {"solved", solved}, {"hint", hint}};
  // A solve after a hint counts as a miss, as lichess counts a solution looked at.
  const double score = solved && !hint ? 1.0 : 0.0;
  store::PuzzleAttempt attempt;
  attempt.user_id = viewer.user_id;
  attempt.puzzle_id = id;
  attempt.solved = solved && !hint;
  attempt.time_ms = now;
  const store::AttemptResult r = s_.store.rate_puzzle_attempt(
      attempt, row_of(player_start_rating(), "puzzle", 0), row_of(puzzle_start, id, 0),
      [&](const store::RatingRow& player, const store::RatingRow& puzzle) {
        const accounts::Glicko2Config config;
        // One attempt is one rating period for both, the solver's deviation grown by the time
        // since the last attempt; the puzzle's by none.
        const auto [p, z] =
            accounts::rate_game(rating_of(player), rating_of(puzzle), score, config,
                                accounts::periods_between(days_since(player, now), config), 0.0);
        return std::pair{row_of(p, "puzzle", now), row_of(z, id, now)};
      });
  out["rated"] = r.rated;
  out["reason"] = r.rated ? json::value(nullptr) : json::value("attempted");
  if (r.rated) {
    out["player"] = rating_change(rating_of(r.player), r.attempt.player_before);
    out["puzzle"] = rating_change(rating_of(r.puzzle), r.attempt.puzzle_before);
  } else {
    const accounts::Rating player = shown(r.player, now);
    out["player"] = rating_change(player, player.rating);
    out["puzzle"] = rating_change(rating_of(r.puzzle), r.puzzle.rating);
    out["first"] = json::object{{"solved", r.attempt.solved},
                                {"player_diff", std::lround(r.attempt.player_after) -
                                                    std::lround(r.attempt.player_before)}};
  }
  return json_response(http::status::ok, out);
}

void LearnSite::add_routes(net::Router& router) {
  using net::Call;
  using net::Method;
  router.add(Method::Get, "/api/explorer/eval",
             [this](const Call& c) { explorer_eval(c.query, c.respond); });
  if (!s_.learn) return;  // no puzzles, studies or explorer served
  router.add(Method::Post, "/api/puzzles/:id/attempt", [this](const Call& c) {
    c.respond(puzzle_attempt(c.param(0), c.req.body(), s_.viewer_of(c.req)));
  });
  // The learning service's answers (learn_api.h); only the puzzles need the viewer (a store
  // read for the session).
  auto answer = [](const Call& c, const LearnReply& r) {
    c.respond(json_text_response(http::status(r.status), r.body, c.req.version()));
  };
  const LearnService* learn = s_.learn;
  router.add(Method::Get, "/api/puzzles", [this, answer, learn](const Call& c) {
    const Viewer viewer = s_.viewer_of(c.req);  // StoreRatings keeps a reference to it
    StoreRatings ratings(s_.store, viewer);
    answer(c, learn->summary(&ratings));
  });
  router.add(Method::Get, "/api/puzzles/next", [this, answer, learn](const Call& c) {
    const Viewer viewer = s_.viewer_of(c.req);  // StoreRatings keeps a reference to it
    StoreRatings ratings(s_.store, viewer);
    answer(c, learn->next(c.query, &ratings));
  });
  router.add(Method::Get, "/api/puzzles/:id", [this, answer, learn](const Call& c) {
    const Viewer viewer = s_.viewer_of(c.req);  // StoreRatings keeps a reference to it
    StoreRatings ratings(s_.store, viewer);
    answer(c, learn->puzzle_of(c.param(0), &ratings));
  });
  router.add(Method::Get, "/api/studies",
             [answer, learn](const Call& c) { answer(c, learn->studies("")); });
  router.add(Method::Get, "/api/studies/*rest",
             [answer, learn](const Call& c) { answer(c, learn->studies(c.param(0))); });
  router.add(Method::Get, "/api/explorer",
             [answer, learn](const Call& c) { answer(c, learn->explorer_moves(c.query)); });
}

void LearnSite::explorer_eval(const std::string& query, net::Respond respond) {
  Position pos = Position::start();
  std::string why;
  const std::string text = net::query_value(net::query_pairs(query), "position").value_or("");
  if (!explorer_position(text, s_.learn ? s_.learn->explorer() : nullptr, &pos, &why)) {
    respond(Refusal("position", {{"detail", why}}).response());
    return;
  }
  auto answer = [respond](const std::string& body) {
    respond(json_text_response(http::status::ok, body));
  };
  if (!s_.move_evals.evaluate(pos, answer)) respond(busy_refusal(s_.pool).response());
}

}  // namespace toguz::site
