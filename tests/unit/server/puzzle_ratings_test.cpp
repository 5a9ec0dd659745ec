// Puzzle ratings on a real server (docs/ratings.md "Puzzle ratings", docs/web-protocol.md):
// POST /api/puzzles/<id>/attempt with the moves played rates an account's first attempt at a
// puzzle the server picked for it with Glicko-2 (the solver's rating up on a solve and the
// puzzle's down, the other way on a miss), once per account and puzzle; the server judges the
// moves against the stored line, never the page's word (docs/accounts.md "Fair play"); an
// anonymous attempt, or one at a puzzle not served to the account, is answered unrated; bad
// ids, bodies and moves are refused by name with nothing stored; the next puzzle of a
// signed-in player is near his rating.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "accounts/glicko2.h"
#include "server_client.h"
#include "site/learn/learn_api.h"
#include "test_util.h"

namespace toguz::test {
namespace {

using Headers = std::vector<std::pair<http::field, std::string>>;

struct PuzzleServer {
  TempDir dir;
  std::unique_ptr<TestServer> srv;
  PuzzleServer() {
    server::Config cfg;
    cfg.puzzles_path = data_path("../../web/data/puzzles-default.jsonl");
    cfg.mine_puzzles = false;
    srv = std::make_unique<TestServer>((dir.path / "t.db").string(), cfg);
  }
  uint16_t port() const { return srv->port; }
};

HttpResult call(uint16_t port, http::verb method, const std::string& target,
                const std::string& cookie, const std::string& body = "") {
  Headers h;
  if (!cookie.empty()) h.emplace_back(http::field::cookie, cookie);
  return http_call(port, method, target, body, h);
}

HttpResult attempt(uint16_t port, const std::string& id, const std::string& cookie,
                   const std::string& body) {
  return call(port, http::verb::post, "/api/puzzles/" + id + "/attempt", cookie, body);
}

json::object get(uint16_t port, const std::string& target, const std::string& cookie) {
  HttpResult r = call(port, http::verb::get, target, cookie);
  EXPECT_EQ(r.status, 200) << target << " " << r.body;
  return r.json().as_object();
}

// Every puzzle id of the served set, in the file's order.
std::vector<std::string> all_ids() {
  std::vector<std::string> out;
  for (const json::value& v : read_jsonl("../../web/data/puzzles-default.jsonl"))
    out.push_back(jstr(v.at("key")));
  return out;
}

// Puzzle `id` served to the account by /api/puzzles/next (every other one excluded): the reply.
json::object serve(uint16_t port, const std::string& cookie, const std::string& id) {
  std::string exclude;
  for (const std::string& other : all_ids())
    if (other != id) exclude += (exclude.empty() ? "" : ",") + other;
  json::object p = get(port, "/api/puzzles/next?exclude=" + exclude, cookie);
  EXPECT_EQ(jstr(p.at("id")), id);
  return p;
}

// An attempt's body: the whole line (a solve), or `wrong` moves.
std::string solve_body(const json::object& puzzle, bool hint = false) {
  json::array moves;
  for (const json::value& m : puzzle.at("line").as_array()) moves.push_back(m.at("hole"));
  json::object body{{"moves", moves}};
  if (hint) body["hint"] = true;
  return json::serialize(body);
}
// A miss: the first legal move of the solver that is not the solution's.
std::string miss_body(const json::object& puzzle) {
  const int64_t right = jint(puzzle.at("line").at(0).at("hole"));
  for (const json::value& m : puzzle.at("choices").at(0).at("moves").as_array())
    if (jint(m.at("hole")) != right)
      return json::serialize(json::object{{"moves", json::array{m.at("hole")}}});
  ADD_FAILURE() << "no wrong move";
  return "{}";
}

// The first puzzle of the served set with difficulty `d` (the file's order is fixed).
std::string puzzle_of_difficulty(int d) {
  for (const json::value& v : read_jsonl("../../web/data/puzzles-default.jsonl"))
    if (jint(v.at("difficulty")) == d) return jstr(v.at("key"));
  ADD_FAILURE() << "no puzzle of difficulty " << d;
  return "";
}

TEST(PuzzleRatings, SolveRaisesMissLowersOncePerPuzzle) {
  PuzzleServer s;
  const std::string me = sign_up_cookie(s.port(), "Aigerim");
  json::object summary = get(s.port(), "/api/puzzles", me);
  EXPECT_TRUE(summary.at("rated").as_bool());
  EXPECT_EQ(jint(summary.at("player").at("rating")), 1500);
  EXPECT_TRUE(summary.at("player").at("provisional").as_bool());

  const std::string easy = puzzle_of_difficulty(1);
  // Opened by its link it is not rated; once the server picked it for the account, it is.
  json::object linked = get(s.port(), "/api/puzzles/" + easy, me);
  EXPECT_FALSE(linked.at("rated").as_bool());
  EXPECT_EQ(jstr(linked.at("unrated_reason")), "not_served");
  json::object before = serve(s.port(), me, easy);
  EXPECT_TRUE(before.at("rated").as_bool());
  EXPECT_TRUE(get(s.port(), "/api/puzzles/" + easy, me).at("rated").as_bool());
  EXPECT_EQ(jint(before.at("rating").at("rating")), 1200);  // difficulty 1's start
  EXPECT_EQ(jint(before.at("rating").at("attempts")), 0);

  // Solved: the expected Glicko-2 figures of a new player (1500/350) beating a 1200/350 puzzle.
  const auto [player, puzzle] = accounts::rate_game(
      accounts::Rating{}, site::puzzle_start_rating(1), 1.0, accounts::Glicko2Config{}, 0.0, 0.0);
  HttpResult solved = attempt(s.port(), easy, me, solve_body(before));
  ASSERT_EQ(solved.status, 200) << solved.body;
  json::object a = solved.json().as_object();
  EXPECT_TRUE(a.at("rated").as_bool());
  EXPECT_EQ(jint(a.at("player").at("rating")), std::lround(player.rating));
  EXPECT_EQ(jint(a.at("player").at("diff")), std::lround(player.rating) - 1500);
  EXPECT_GT(jint(a.at("player").at("diff")), 0);
  EXPECT_EQ(jint(a.at("puzzle").at("rating")), std::lround(puzzle.rating));
  EXPECT_LT(jint(a.at("puzzle").at("diff")), 0);
  const int64_t after_solve = jint(a.at("player").at("rating"));

  // The same puzzle again, missed: answered, nothing changes.
  HttpResult again = attempt(s.port(), easy, me, miss_body(before));
  ASSERT_EQ(again.status, 200) << again.body;
  json::object b = again.json().as_object();
  EXPECT_FALSE(b.at("rated").as_bool());
  EXPECT_EQ(jstr(b.at("reason")), "attempted");
  EXPECT_EQ(jint(b.at("player").at("diff")), 0);
  EXPECT_EQ(jint(b.at("player").at("rating")), after_solve);
  EXPECT_TRUE(b.at("first").at("solved").as_bool());
  EXPECT_EQ(jint(get(s.port(), "/api/puzzles", me).at("player").at("rating")), after_solve);
  json::object shown = get(s.port(), "/api/puzzles/" + easy, me);
  EXPECT_FALSE(shown.at("rated").as_bool());
  EXPECT_EQ(jint(shown.at("rating").at("rating")), std::lround(puzzle.rating));
  EXPECT_EQ(jint(shown.at("rating").at("attempts")), 1);

  // Missed, another puzzle: the player down, the puzzle up.
  const std::string hard = puzzle_of_difficulty(3);
  HttpResult missed = attempt(s.port(), hard, me, miss_body(serve(s.port(), me, hard)));
  ASSERT_EQ(missed.status, 200) << missed.body;
  json::object c = missed.json().as_object();
  EXPECT_TRUE(c.at("rated").as_bool());
  EXPECT_LT(jint(c.at("player").at("diff")), 0);
  EXPECT_GT(jint(c.at("puzzle").at("diff")), 0);
  EXPECT_EQ(jint(c.at("player").at("rating")) - jint(c.at("player").at("diff")), after_solve);
  EXPECT_EQ(jint(c.at("player").at("attempts")), 2);

  // A solve after the hint counts as a miss.
  const std::string medium = puzzle_of_difficulty(2);
  HttpResult hinted = attempt(s.port(), medium, me, solve_body(serve(s.port(), me, medium), true));
  ASSERT_EQ(hinted.status, 200) << hinted.body;
  EXPECT_TRUE(hinted.json().at("rated").as_bool());
  EXPECT_LT(jint(hinted.json().at("player").at("diff")), 0);

  // Another account sees the puzzle as the first attempt left it, and its own start.
  const std::string other = sign_up_cookie(s.port(), "Bolat");
  json::object theirs = serve(s.port(), other, easy);
  EXPECT_TRUE(theirs.at("rated").as_bool());
  EXPECT_EQ(jint(theirs.at("rating").at("rating")), std::lround(puzzle.rating));
  EXPECT_EQ(jint(get(s.port(), "/api/puzzles", other).at("player").at("rating")), 1500);
}

TEST(PuzzleRatings, WithoutAnAccountAnAttemptIsUnrated) {
  PuzzleServer s;
  json::object summary = get(s.port(), "/api/puzzles", "");
  EXPECT_FALSE(summary.at("rated").as_bool());
  EXPECT_TRUE(summary.at("player").is_null());
  const std::string id = puzzle_of_difficulty(1);
  const json::object p0 = get(s.port(), "/api/puzzles/" + id, "");
  EXPECT_FALSE(p0.at("rated").as_bool());
  EXPECT_EQ(jstr(p0.at("unrated_reason")), "anonymous");
  HttpResult r = attempt(s.port(), id, "", solve_body(p0));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_FALSE(r.json().at("rated").as_bool());
  EXPECT_EQ(jstr(r.json().at("reason")), "anonymous");
  EXPECT_TRUE(r.json().at("player").is_null());
  EXPECT_EQ(jint(r.json().at("puzzle").at("diff")), 0);
  // a made-up session cookie is anonymous too
  EXPECT_EQ(jstr(attempt(s.port(), id, "toguz_session=forged", solve_body(p0)).json().at("reason")),
            "anonymous");
  json::object p = get(s.port(), "/api/puzzles/" + id, "");
  EXPECT_EQ(jint(p.at("rating").at("rating")), 1200);
  EXPECT_EQ(jint(p.at("rating").at("attempts")), 0);
}

TEST(PuzzleRatings, BadIdsAndBodiesAreRefusedByName) {
  PuzzleServer s;
  const std::string me = sign_up_cookie(s.port(), "Aigerim");
  // A puzzle whose line has a forced reply (at least 3 plies), served to the account.
  std::string id;
  for (const json::value& v : read_jsonl("../../web/data/puzzles-default.jsonl"))
    if (v.at("line").as_array().size() >= 3) {
      id = jstr(v.at("key"));
      break;
    }
  ASSERT_FALSE(id.empty());
  const json::object p = serve(s.port(), me, id);
  const json::array& line = p.at("line").as_array();
  const int64_t h0 = jint(line.at(0).at("hole")), h1 = jint(line.at(1).at("hole"));
  const int64_t other_reply = h1 % 9 + 1;  // another hole than the line's reply
  int64_t illegal = 0;                     // a hole the solver may not play first
  for (int64_t h = 1; h <= 9 && illegal == 0; ++h) {
    bool legal = false;
    for (const json::value& m : p.at("choices").at(0).at("moves").as_array())
      legal = legal || jint(m.at("hole")) == h;
    if (!legal) illegal = h;
  }
  auto moves = [](std::initializer_list<int64_t> holes) {
    json::array a;
    for (int64_t h : holes) a.push_back(h);
    return json::serialize(json::object{{"moves", a}});
  };
  struct Bad {
    std::string id, body;
    int status;
    std::string code, message;
  };
  std::vector<Bad> bad = {
      Bad{"zz", solve_body(p), 400, "bad_puzzle_id", "id: expected 16 hexadecimal digits"},
      Bad{"0123456789ABCDEF", solve_body(p), 400, "bad_puzzle_id",
          "id: expected 16 hexadecimal digits"},
      Bad{"0123456789abcdef", solve_body(p), 404, "no_puzzle_id",
          "puzzle 0123456789abcdef: no such puzzle"},
      Bad{id, "[]", 400, "bad_message", "body: expected a JSON object"},
      Bad{id, "{not json", 400, "bad_message", "body: expected a JSON object"},
      // the page's word alone is refused: the moves are what counts
      Bad{id, "{}", 400, "bad_attempt", "moves: expected the holes played (1..9)"},
      Bad{id, R"({"solved":true})", 400, "bad_attempt", "moves: expected the holes played (1..9)"},
      Bad{id, R"({"moves":"6"})", 400, "bad_attempt", "moves: expected the holes played (1..9)"},
      Bad{id, R"({"moves":[0]})", 400, "bad_attempt", "moves: expected the holes played (1..9)"},
      Bad{id, moves({h0, other_reply}), 400, "bad_attempt", "moves: ply 2: not the puzzle's reply"},
      Bad{id, moves({h0 % 9 + 1, h1}), 400, "bad_attempt",
          "moves: ply 1: the attempt ends at a move off the line"},
      Bad{id, R"({"moves":[1,1,1,1,1,1,1,1,1,1,1,1]})", 400, "bad_attempt",
          "moves: longer than the puzzle's line"},
      Bad{id, R"({"moves":[],"hint":1})", 400, "bad_attempt", "hint: expected true or false"},
  };
  if (illegal != 0) {
    HttpResult r = attempt(s.port(), id, me, moves({illegal}));
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(code_of(r), "bad_attempt") << r.body;
  }
  for (const Bad& b : bad) {
    HttpResult r = attempt(s.port(), b.id, me, b.body);
    EXPECT_EQ(r.status, b.status) << b.id << " " << b.body << ": " << r.body;
    EXPECT_EQ(code_of(r), b.code) << r.body;
    EXPECT_EQ(jstr(r.json().at("error")), b.message) << r.body;
  }
  HttpResult get_attempt = call(s.port(), http::verb::get, "/api/puzzles/" + id + "/attempt", me);
  EXPECT_EQ(get_attempt.status, 405);
  EXPECT_EQ(std::string(get_attempt.headers[http::field::allow]), "POST");
  // Nothing was stored: the first good attempt is still the rated one.
  EXPECT_EQ(jint(get(s.port(), "/api/puzzles", me).at("player").at("attempts")), 0);
  HttpResult ok = attempt(s.port(), id, me, solve_body(p));
  EXPECT_TRUE(ok.json().at("rated").as_bool()) << ok.body;
  EXPECT_TRUE(ok.json().at("solved").as_bool()) << ok.body;
}

// The page's word is not taken: 20 attempts claiming a solve without the moves change nothing,
// wrong moves are a miss whatever the page says, and a puzzle the server did not pick for the
// account (asked for by its id) is answered unrated.
TEST(PuzzleRatings, OnlyTheMovesOfAServedPuzzleAreRated) {
  PuzzleServer s;
  const std::string me = sign_up_cookie(s.port(), "Aigerim");
  const std::vector<std::string> ids = all_ids();
  for (size_t i = 0; i < 20; ++i)
    EXPECT_EQ(attempt(s.port(), ids[i], me, R"({"solved":true})").status, 400);
  // Not served: answered with the ratings as they stand, nothing stored.
  const json::object linked = get(s.port(), "/api/puzzles/" + ids[0], me);
  HttpResult r = attempt(s.port(), ids[0], me, solve_body(linked));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_FALSE(r.json().at("rated").as_bool());
  EXPECT_EQ(jstr(r.json().at("reason")), "not_served");
  EXPECT_TRUE(r.json().at("solved").as_bool());
  EXPECT_EQ(jint(r.json().at("player").at("diff")), 0);
  EXPECT_EQ(jint(get(s.port(), "/api/puzzles", me).at("player").at("attempts")), 0);
  EXPECT_EQ(jint(get(s.port(), "/api/puzzles", me).at("player").at("rating")), 1500);
  // Served, then wrong moves with "solved": true: a miss.
  const json::object p = serve(s.port(), me, ids[1]);
  json::value body = json::parse(miss_body(p));
  body.as_object()["solved"] = true;
  HttpResult wrong = attempt(s.port(), ids[1], me, json::serialize(body));
  ASSERT_EQ(wrong.status, 200) << wrong.body;
  EXPECT_TRUE(wrong.json().at("rated").as_bool());
  EXPECT_FALSE(wrong.json().at("solved").as_bool());
  EXPECT_LT(jint(wrong.json().at("player").at("diff")), 0);
}

// The served set's difficulties 2 to 6 start at 1300 to 1700: a new player's (1500) next puzzles
// are among them, never one he attempted rated already.
TEST(PuzzleRatings, NextPuzzleIsNearThePlayersRatingAndNew) {
  PuzzleServer s;
  const std::string me = sign_up_cookie(s.port(), "Aigerim");
  std::set<std::string> seen;
  for (int i = 0; i < 6; ++i) {
    json::object p = get(s.port(), "/api/puzzles/next", me);
    const std::string id = jstr(p.at("id"));
    EXPECT_TRUE(seen.insert(id).second) << "attempted already: " << id;
    EXPECT_TRUE(p.at("rated").as_bool());
    const int64_t mine = jint(get(s.port(), "/api/puzzles", me).at("player").at("rating"));
    EXPECT_LE(std::abs(jint(p.at("rating").at("rating")) - mine), 200)
        << "puzzle " << id << " at " << jint(p.at("rating").at("rating")) << ", player " << mine;
    HttpResult a = attempt(s.port(), id, me, i % 2 ? solve_body(p) : miss_body(p));
    ASSERT_EQ(a.status, 200) << a.body;
    EXPECT_TRUE(a.json().at("rated").as_bool()) << a.body;
  }
  // With a theme, within it.
  json::object p = get(s.port(), "/api/puzzles/next?theme=tuz", me);
  bool tuz = false;
  for (const json::value& t : p.at("themes").as_array()) tuz = tuz || jstr(t) == "tuz";
  EXPECT_TRUE(tuz);
}

}  // namespace
}  // namespace toguz::test
