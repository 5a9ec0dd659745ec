// The learning pages' API (src/site/learn/learn_api.h) called directly: the shipped puzzle file and
// studies (web/data), an explorer index built from a hand-made record, and bad requests and
// files. The studies' proven lines are replayed by the referee, and the cheap proofs are found
// again by the solver within a node budget.
#include "site/learn/learn_api.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "explorer/explorer.h"
#include "rules/game.h"
#include "rules/notation.h"
#include "rules/record.h"
#include "tables/solver.h"
#include "test_util.h"

namespace toguz {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using site::LearnDataError;
using site::LearnOptions;
using site::LearnReply;
using site::LearnService;

std::string web_data(const std::string& name) {
  return test::data_path("../../web/data/" + name);
}

const LearnService& shipped() {
  static LearnService s([] {
    LearnOptions o;
    o.puzzles_path = web_data("puzzles-default.jsonl");
    o.studies_path = web_data("studies.json");
    o.seed = 7;
    return o;
  }());
  return s;
}

// The service's answer to GET `target`, as the route of its path calls it (learn_site.cpp).
std::optional<LearnReply> answer(const LearnService& s, const std::string& target) {
  const size_t q = target.find('?');
  const std::string path = target.substr(0, q);
  const std::string query = q == std::string::npos ? "" : target.substr(q + 1);
  if (path == "/api/puzzles") return s.summary();
  if (path == "/api/puzzles/next") return s.next(query);
  if (path.rfind("/api/puzzles/", 0) == 0) return s.puzzle_of(path.substr(13));
  if (path == "/api/studies") return s.studies("");
  if (path.rfind("/api/studies/", 0) == 0) return s.studies(path.substr(13));
  if (path == "/api/explorer") return s.explorer_moves(query);
  return std::nullopt;
}

json::object get(const LearnService& s, const std::string& target, int want_status = 200) {
  std::optional<LearnReply> r = answer(s, target);
  EXPECT_TRUE(r.has_value()) << target;
  if (!r) return {};
  EXPECT_EQ(r->status, want_status) << target << ": " << r->body;
  return json::parse(r->body).as_object();
}

std::string str(const json::value& v) {
  return std::string(v.as_string());
}

// A temporary file removed at the end.
using test::TempFile;

TEST(LearnApi, SummaryCountsThePuzzlesAndThemes) {
  json::object o = get(shipped(), "/api/puzzles");
  EXPECT_EQ(o.at("count").to_number<uint64_t>(), shipped().puzzle_count());
  EXPECT_GE(shipped().puzzle_count(), 100u);
  EXPECT_FALSE(o.at("rated").as_bool());
  EXPECT_TRUE(o.at("player").is_null());
  // Counted from the file itself.
  std::map<std::string, int64_t> want;
  for (const json::value& v : test::read_jsonl("../../web/data/puzzles-default.jsonl"))
    for (const json::value& t : v.at("themes").as_array()) ++want[str(t)];
  const json::object& themes = o.at("themes").as_object();
  EXPECT_EQ(themes.size(), want.size());
  for (const auto& [name, n] : want) EXPECT_EQ(themes.at(name).as_int64(), n) << name;
}

TEST(LearnApi, APuzzleHasItsLineAndEveryChoice) {
  const auto file = test::read_jsonl("../../web/data/puzzles-default.jsonl");
  // A puzzle of more than one move, if the file has one; else the first.
  const json::value* pick = &file.front();
  for (const json::value& v : file)
    if (v.at("line").as_array().size() > 1) pick = &v;
  const std::string id = str(pick->at("key"));
  json::object o = get(shipped(), "/api/puzzles/" + id);
  EXPECT_EQ(str(o.at("id")), id);
  EXPECT_EQ(str(o.at("position")), str(pick->at("position")));
  // Without ratings (no store): the start rating of its difficulty, unrated for the viewer.
  EXPECT_EQ(o.at("rating").at("rating").as_int64(), 1100 + 100 * pick->at("difficulty").as_int64());
  EXPECT_TRUE(o.at("rating").at("provisional").as_bool());
  EXPECT_FALSE(o.at("rated").as_bool());
  const json::array& line = o.at("line").as_array();
  const json::array& holes = pick->at("line").as_array();
  ASSERT_EQ(line.size(), holes.size());
  Game g(parse_position(str(o.at("position"))));
  const json::array& choices = o.at("choices").as_array();
  ASSERT_EQ(choices.size(), (holes.size() + 1) / 2);
  for (size_t i = 0; i < line.size(); ++i) {
    const json::object& mv = line[i].as_object();
    EXPECT_EQ(mv.at("hole").as_int64(), holes[i].as_int64());
    if (i % 2 == 0) {
      // Every legal hole once, each with the position after it; the solution's among them.
      const json::object& c = choices[i / 2].as_object();
      EXPECT_EQ(c.at("ply").as_int64(), int64_t(i));
      std::set<int64_t> seen;
      for (const json::value& m : c.at("moves").as_array()) {
        const int h = int(m.at("hole").as_int64());
        seen.insert(h);
        Position after = g.position();
        after.play(h);
        EXPECT_EQ(str(m.at("position")), format_position(after));
      }
      std::set<int64_t> legal;
      for (int h = 1; h <= g.position().n(); ++h)
        if (g.legal_mask() & (1u << (h - 1))) legal.insert(h);
      EXPECT_EQ(seen, legal);
    }
    ASSERT_TRUE(g.play(int(mv.at("hole").as_int64())));
    EXPECT_EQ(str(mv.at("position")), format_position(g.position()));
    EXPECT_EQ(str(mv.at("side")),
              i % 2 == 0 ? str(o.at("side")) : (str(o.at("side")) == "white" ? "black" : "white"));
  }
  json::object missing = get(shipped(), "/api/puzzles/0000000000000000", 404);
  EXPECT_EQ(str(missing.at("code")), "no_puzzle_id");
}

TEST(LearnApi, NextHonoursThemeAndExclusions) {
  const auto file = test::read_jsonl("../../web/data/puzzles-default.jsonl");
  std::vector<std::string> tuz;
  for (const json::value& v : file)
    for (const json::value& t : v.at("themes").as_array())
      if (str(t) == "tuz") tuz.push_back(str(v.at("key")));
  ASSERT_GE(tuz.size(), 2u);
  for (int i = 0; i < 10; ++i) {
    json::object o = get(shipped(), "/api/puzzles/next?theme=tuz");
    const json::array& themes = o.at("themes").as_array();
    EXPECT_NE(std::find(themes.begin(), themes.end(), json::value("tuz")), themes.end());
  }
  // All but the last excluded (in two parameters, comma lists): only the last is left.
  std::string q = "/api/puzzles/next?theme=tuz&exclude=";
  for (size_t i = 0; i + 1 < tuz.size(); ++i)
    q += (i == tuz.size() / 2 ? "&exclude=" : i ? "%2C" : "") + tuz[i];
  for (int i = 0; i < 5; ++i) EXPECT_EQ(str(get(shipped(), q).at("id")), tuz.back());
  json::object none = get(shipped(), q + "," + tuz.back(), 404);
  EXPECT_EQ(str(none.at("code")), "no_puzzle");
  EXPECT_EQ(str(get(shipped(), "/api/puzzles/next?theme=nosuch", 404).at("code")), "no_puzzle");
}

TEST(LearnApi, StudiesProvenAndNot) {
  json::object o = get(shipped(), "/api/studies");
  const json::array& studies = o.at("studies").as_array();
  ASSERT_EQ(studies.size(), 8u);
  auto doc = test::read_json("etudes.json");
  for (const json::value& v : studies) {
    const json::object& s = v.as_object();
    const int n = int(s.at("study").as_int64());
    SCOPED_TRACE("study " + std::to_string(n));
    const json::object& vec = doc.at("studies").as_array().at(size_t(n - 1)).as_object();
    EXPECT_EQ(str(s.at("position")), str(vec.at("position")));
    EXPECT_EQ(str(s.at("task")), str(vec.at("result_for_white")));
    const bool proven = n != 3 && n != 8;
    EXPECT_EQ(!s.at("proven").is_null(), proven);
    EXPECT_EQ(!s.at("engine").is_null(), !proven);
    // The line replays; a proven one ends the game with the proven result.
    Game g(parse_position(str(s.at("position"))));
    const json::array& line = s.at("line").as_array();
    EXPECT_GE(line.size(), 8u);
    for (const json::value& m : line) ASSERT_TRUE(g.play(int(m.at("hole").as_int64())));
    if (proven) {
      ASSERT_TRUE(g.over());
      const std::string r = str(s.at("proven").at("result"));
      EXPECT_EQ(result_text(g.result()), result_text(r == "win"    ? Result::WhiteWins
                                                     : r == "draw" ? Result::Draw
                                                                   : Result::BlackWins));
      // The book's result, except study 7: proven a White win under these rules
      // (docs/tables.md "Study 7").
      EXPECT_EQ(r, n == 7 ? "win" : str(vec.at("result_for_white")));
    } else {
      EXPECT_FALSE(g.over());
      EXPECT_GT(s.at("engine").at("cp").as_int64(), 0);
    }
  }
  EXPECT_EQ(get(shipped(), "/api/studies/5").at("study").as_int64(), 5);
  EXPECT_EQ(str(get(shipped(), "/api/studies/9", 404).at("code")), "no_study");
  EXPECT_EQ(str(get(shipped(), "/api/studies/x", 404).at("code")), "no_study");
}

// The cheap proofs of the studies file found again: the same result and margin within a node
// budget (3-5x what the recorded proofs took: studies 1, 2 and 4 with the margin).
TEST(LearnApi, CheapStudyProofsAreFoundAgain) {
  for (const auto& s : site::read_studies(web_data("studies.json"))) {
    if (s.number != 1 && s.number != 2 && s.number != 4) continue;
    SCOPED_TRACE("study " + std::to_string(s.number));
    tables::SolveOptions opt;
    opt.max_nodes = 5 * s.nodes;
    opt.hash_log2 = 20;
    tables::Solution sol = tables::solve(parse_position(s.position), opt);
    ASSERT_TRUE(sol.proven);
    EXPECT_EQ(sol.result, s.proven == "win" ? 1 : s.proven == "draw" ? 0 : -1);
    EXPECT_EQ(sol.margin, s.margin);
  }
}

TEST(LearnApi, ExplorerAnswersAsTheIndex) {
  TempFile idx("toguz-learn-explorer.idx");
  explorer::IndexBuilder b;
  for (const Record& r : read_records(test::read_file(test::data_path("explorer/small.pgn"))))
    b.add_record(r);  // the record's deliberately bad games are skipped
  ASSERT_GT(b.games(), 2u);
  b.write(idx.path.string());
  LearnOptions o;
  o.explorer_path = idx.path.string();
  LearnService s(o);
  EXPECT_TRUE(s.has_explorer());
  explorer::Index index(idx.path.string());
  const Position start = Position::start(index.rules());
  json::object at_start = get(s, "/api/explorer");
  EXPECT_EQ(str(at_start.at("position")), format_position(start));
  const auto want = index.query(start);
  const json::array& moves = at_start.at("moves").as_array();
  ASSERT_EQ(moves.size(), want.size());
  ASSERT_FALSE(want.empty());
  uint64_t total = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(moves[i].at("hole").as_int64(), want[i].hole);
    EXPECT_EQ(moves[i].at("games").to_number<uint64_t>(), want[i].games);
    EXPECT_EQ(moves[i].at("white_wins").to_number<uint64_t>(), want[i].white_wins);
    EXPECT_EQ(moves[i].at("draws").to_number<uint64_t>(), want[i].draws);
    EXPECT_EQ(moves[i].at("black_wins").to_number<uint64_t>(), want[i].black_wins);
    Position after = start;
    after.play(want[i].hole);
    EXPECT_EQ(str(moves[i].at("after")), format_position(after));
    total += want[i].games;
  }
  EXPECT_EQ(at_start.at("games").to_number<uint64_t>(), total);
  // After the most played move, by position; a rating filter as the index's own.
  Position after = start;
  after.play(want[0].hole);
  const std::string enc = format_position(after);
  std::string q;
  for (char c : enc) q += c == ' ' ? std::string("%20") : c == ',' ? "%2C" : std::string(1, c);
  json::object next = get(s, "/api/explorer?position=" + q + "&min_rating=1500");
  EXPECT_EQ(str(next.at("position")), enc);
  explorer::Filter f;
  f.min_rating = 1500;
  EXPECT_EQ(next.at("moves").as_array().size(), index.query(after, f).size());
  EXPECT_EQ(str(get(s, "/api/explorer?position=9,9/9,9%200%200%20w", 400).at("code")),
            "bad_position");
  EXPECT_EQ(str(get(s, "/api/explorer?min_rating=abc", 400).at("code")), "bad_query");
  EXPECT_EQ(str(get(shipped(), "/api/explorer", 404).at("code")), "no_explorer");
}

TEST(LearnApi, BadFilesNameTheFileAndLine) {
  auto message = [](const LearnOptions& o) {
    try {
      LearnService s(o);
    } catch (const LearnDataError& e) {
      return std::string(e.what());
    }
    return std::string("(loaded)");
  };
  LearnOptions o;
  o.puzzles_path = "/nonexistent/puzzles.jsonl";
  EXPECT_EQ(message(o), "/nonexistent/puzzles.jsonl: cannot be read");
  std::ifstream in(web_data("puzzles-default.jsonl"));
  std::string first;
  std::getline(in, first);
  TempFile bad("toguz-learn-bad.jsonl", first + "\n{\"position\":1}\n");
  o.puzzles_path = bad.path.string();
  EXPECT_NE(message(o).find(bad.path.string() + ": line 2: "), std::string::npos) << message(o);
  // A line that is not legal from the position.
  std::string wrong = first;
  const size_t at = wrong.find("\"line\":[");
  ASSERT_NE(at, std::string::npos);
  wrong.insert(at + 8, "1,1,1,1,1,1,1,1,1,1,");
  TempFile illegal("toguz-learn-illegal.jsonl", wrong + "\n");
  o.puzzles_path = illegal.path.string();
  EXPECT_NE(message(o).find(": line 1: "), std::string::npos) << message(o);
  EXPECT_NE(message(o).find("not legal"), std::string::npos) << message(o);
  o.puzzles_path.clear();
  TempFile studies("toguz-learn-studies.json",
                   R"({"studies":[{"study":1,"position":"9,9/9,9 0 0 w","task":"win"}]})");
  o.studies_path = studies.path.string();
  EXPECT_NE(message(o).find(": study 1: position: "), std::string::npos) << message(o);
  o.studies_path.clear();
  TempFile idx("toguz-learn-bad.idx", "not an index");
  o.explorer_path = idx.path.string();
  EXPECT_NE(message(o).find(idx.path.string()), std::string::npos) << message(o);
}

// Malformed targets get an answer (a status and a JSON body), never a crash.
TEST(LearnApi, MalformedRequestsAreAnswered) {
  TempFile idx("toguz-learn-malformed.idx");
  explorer::IndexBuilder b;
  for (const Record& r : read_records(test::read_file(test::data_path("explorer/small.pgn"))))
    b.add_record(r);
  b.write(idx.path.string());
  LearnOptions o;
  o.puzzles_path = web_data("puzzles-default.jsonl");
  o.studies_path = web_data("studies.json");
  o.explorer_path = idx.path.string();
  LearnService s(o);
  const std::string targets[] = {"/api/puzzles/",
                                 "/api/puzzles/%",
                                 "/api/puzzles/next?",
                                 "/api/puzzles/next?&&=&theme",
                                 "/api/puzzles/next?exclude=,,,&exclude=",
                                 "/api/puzzles/next?theme=%ZZ%",
                                 "/api/puzzles/next?exclude=" + std::string(100000, ','),
                                 "/api/studies/",
                                 "/api/studies//",
                                 "/api/studies/99999999999999999999",
                                 "/api/studies/-1",
                                 "/api/explorer?position=%ZZ",
                                 "/api/explorer?position=",
                                 "/api/explorer?position=x,x/x,x",
                                 "/api/explorer?position=0,0,0,0,0/0,0,0,0,0%200%200%20w",
                                 "/api/explorer?min_rating=-5",
                                 "/api/explorer?to_year=9999999999",
                                 "/api/explorer?from_year=2020&to_year=2000"};
  for (const std::string& t : targets) {
    SCOPED_TRACE(t);
    std::optional<LearnReply> r = answer(s, t);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(r->status == 200 || r->status == 400 || r->status == 404) << r->status;
    boost::system::error_code ec;
    json::value v = json::parse(r->body, ec);
    ASSERT_FALSE(ec) << r->body;
    if (r->status != 200) {
      EXPECT_TRUE(v.as_object().contains("code")) << r->body;
    }
  }
}

// The browser test answers the learning API from a fixture (web/test/fixtures/learn.json)
// until the server routes it: the fixture must be what the service answers for the shipped
// files. TOGUZ_UPDATE_FIXTURES=1 writes it afresh.
TEST(LearnApi, BrowserFixtureIsWhatTheServiceAnswers) {
  const auto file = test::read_jsonl("../../web/data/puzzles-default.jsonl");
  std::string solve, miss;  // the first puzzle of three plies, the first of one
  for (const json::value& v : file) {
    const size_t n = v.at("line").as_array().size();
    if (n == 3 && solve.empty()) solve = str(v.at("key"));
    if (n == 1 && miss.empty()) miss = str(v.at("key"));
  }
  ASSERT_FALSE(solve.empty());
  ASSERT_FALSE(miss.empty());
  TempFile idx("toguz-learn-fixture.idx");
  explorer::IndexBuilder b;
  for (const Record& r : read_records(test::read_file(test::data_path("explorer/small.pgn"))))
    b.add_record(r);
  b.write(idx.path.string());
  LearnOptions eo;
  eo.explorer_path = idx.path.string();
  LearnService with_index(eo);
  json::object start = get(with_index, "/api/explorer");
  const std::string after(start.at("moves").as_array().at(0).at("after").as_string());
  std::string q;  // the position as the page sends it
  for (char c : after) q += c == ' ' ? std::string("%20") : c == ',' ? "%2C" : std::string(1, c);
  json::object want{{"summary", get(shipped(), "/api/puzzles")},
                    {"explorer_start", start},
                    {"explorer_after", get(with_index, "/api/explorer?position=" + q)},
                    {"solve", get(shipped(), "/api/puzzles/" + solve)},
                    {"miss", get(shipped(), "/api/puzzles/" + miss)},
                    {"studies", get(shipped(), "/api/studies")}};
  const std::string path = test::data_path("../../web/test/fixtures/learn.json");
  if (std::getenv("TOGUZ_UPDATE_FIXTURES")) {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path) << json::serialize(want) << "\n";
  }
  ASSERT_TRUE(fs::exists(path)) << path << " missing: run with TOGUZ_UPDATE_FIXTURES=1";
  EXPECT_EQ(json::parse(test::read_file(path)), json::value(want))
      << path << " is stale: run with TOGUZ_UPDATE_FIXTURES=1";
}

}  // namespace
}  // namespace toguz
