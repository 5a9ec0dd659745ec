// A federation's rating lists on the site (site/ratings/ratings_site.h): the test season of
// tests/data/ratings computed, published in a folder and asked for through the route table:
// the list, a player's history, an event's calculation, the CSV, the print page, the names for
// moderators only, the refusals, a malformed season.json refused at start naming its file, and
// a list read again when its file changes.
#include "site/ratings/ratings_site.h"

#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include "federation/report.h"
#include "federation/season.h"
#include "site/refusal.h"
#include "temp_dir.h"
#include "test_util.h"

namespace toguz::site::ratings_test {
namespace {

namespace fed = toguz::federation;
namespace json = boost::json;
namespace http = boost::beast::http;
using ::toguz::test::TempDir;

// The test season (tests/cli/ratings.sh works its numbers out by hand) as season.json.
std::string season_text(const std::string& heading) {
  const std::string d = "ratings/";
  std::vector<fed::SeasonGame> games;
  std::vector<fed::SkippedGame> skipped;
  for (const char* f : {"cup.tgk", "open.pgn"})
    fed::read_season_games(::toguz::test::read_file(::toguz::test::data_path(d + f)), f, &games,
                           &skipped);
  const fed::Profile profile =
      fed::parse_profile(::toguz::test::read_file(::toguz::test::data_path(d + "profile.txt")));
  fed::SeasonResult s = fed::compute_season(
      fed::parse_list(::toguz::test::read_file(::toguz::test::data_path(d + "list.csv"))), games,
      profile,
      fed::parse_name_map(::toguz::test::read_file(::toguz::test::data_path(d + "names.txt"))));
  s.skipped.insert(s.skipped.begin(), skipped.begin(), skipped.end());  // as toguz ratings does
  return fed::season_json(s, profile, heading);
}

void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

struct RatingsAnswer {
  int status = 0;
  std::string body, type;
  json::value json() const { return json::parse(body); }
};

struct Site {
  RatingsSite ratings;
  net::Router router{[](http::status s, const std::string&, std::string) {
                       return net::Response{s, 11};
                     },
                     [](const net::Call&, const std::exception& e) -> net::Response {
                       ADD_FAILURE() << e.what();
                       return net::Response{http::status::internal_server_error, 11};
                     }};
  bool moderator = false;

  explicit Site(const std::string& dir)
      : ratings(RatingsServices{dir, [this](const net::Request&) { return moderator; }}) {
    ratings.add_routes(router);
  }
  RatingsAnswer get(const std::string& target) {
    net::Request req{http::verb::get, target, 11};
    const auto q = target.find('?');
    RatingsAnswer a;
    router.dispatch(net::Call{req,
                              target.substr(0, q),
                              q == std::string::npos ? "" : target.substr(q + 1),
                              {},
                              "192.0.2.1",
                              [&a](net::Response res) {
                                a.status = int(res.result_int());
                                a.body = res.body();
                                a.type = std::string(res[http::field::content_type]);
                              }});
    return a;
  }
};

TEST(RatingsSite, ListPlayerAndEventOfAPublishedSeason) {
  TempDir dir;
  write(dir.path / "2026-03" / "season.json", season_text("Рейтинг <2026>"));
  Site site(dir.path.string());

  json::value index = site.get("/api/ratings").json();
  ASSERT_EQ(index.at("lists").as_array().size(), 1u);
  EXPECT_EQ(index.at("lists").at(0).at("id"), "2026-03");
  EXPECT_EQ(index.at("lists").at(0).at("players"), 5);

  RatingsAnswer a = site.get("/api/ratings/2026-03?lang=ru");
  ASSERT_EQ(a.status, 200) << a.body;
  json::value list = a.json();
  EXPECT_EQ(list.at("heading"), "Рейтинг <2026>");
  EXPECT_EQ(list.at("columns").at(1), "Фамилия, имя");  // the print page's words
  // Eleusiz 2450 -> 2441 (February: -9.09), first; Кали 1800 -> 1872 (+35.99 +36.36).
  const json::array& rows = list.at("list").as_array();
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].at("name"), "Eleusiz Nurlan");
  EXPECT_EQ(rows[0].at("number"), 1);
  EXPECT_EQ(rows[0].at("after"), 2441);
  EXPECT_EQ(rows[0].at("change"), -9);
  int kali = -1;
  for (const json::value& r : rows)
    if (r.at("name") == "Кали Айдана") {
      kali = int(r.at("player").as_int64());
      EXPECT_EQ(r.at("before"), 1800);
      EXPECT_EQ(r.at("change"), 72);
      EXPECT_EQ(r.at("after"), 1872);
    }
  ASSERT_GE(kali, 0);
  // The newcomer has no rating before and no change.
  for (const json::value& r : rows) {
    if (r.at("before").is_null()) {
      EXPECT_TRUE(r.at("change").is_null());
    }
  }
  EXPECT_EQ(list.at("events").as_array().size(), 3u);
  EXPECT_FALSE(list.at("events").at(0).as_object().contains("lines"));

  // Кали's January: a draw with Ахметов (2000), K 40, E = 0.240253, +10.39.
  json::value player = site.get("/api/ratings/2026-03/players/" + std::to_string(kali)).json();
  const json::array& history = player.at("player").at("history").as_array();
  ASSERT_FALSE(history.empty());
  EXPECT_EQ(history[0].at("opponent_name"), "Ахметов Дамир");
  EXPECT_EQ(history[0].at("opponent_rating"), 2000);
  EXPECT_EQ(history[0].at("k"), 40);
  EXPECT_NEAR(history[0].at("change").as_double(), 10.39, 0.005);
  EXPECT_EQ(history[0].at("event_index"), 0);
  EXPECT_EQ(player.at("player").at("number"), 5);  // after Eleusiz, the newcomer, Ахметов, Бекет

  json::value event = site.get("/api/ratings/2026-03/events/0").json();
  EXPECT_EQ(event.at("event").at("name"), "Кубок <Астаны>");
  double sum = 0;
  for (const json::value& l : event.at("event").at("lines").as_array()) {
    EXPECT_TRUE(l.at("name").is_string());
    sum += l.at("change").as_double();
  }
  EXPECT_GT(sum, 0);  // Кали's K is 40, the others' 20: the changes do not sum to zero

  RatingsAnswer csv = site.get("/api/ratings/2026-03/list.csv");
  EXPECT_EQ(csv.type, "text/csv; charset=utf-8");
  EXPECT_NE(csv.body.find("1,Eleusiz Nurlan,Almaty,GM,2450,-9,2441,"), std::string::npos)
      << csv.body;
  RatingsAnswer print = site.get("/api/ratings/2026-03/print?lang=kk");
  EXPECT_NE(print.body.find("Аты-жөні"), std::string::npos);
  EXPECT_NE(print.body.find("Рейтинг &lt;2026&gt;"), std::string::npos);
}

TEST(RatingsSite, RefusalsAndTheOfficersNames) {
  TempDir dir;
  write(dir.path / "spring.json", season_text(""));
  Site site(dir.path.string());
  for (const char* target :
       {"/api/ratings/autumn", "/api/ratings/autumn/players/0", "/api/ratings/autumn/list.csv"}) {
    RatingsAnswer a = site.get(target);
    EXPECT_EQ(a.status, 404) << target;
    EXPECT_EQ(a.json().at("code"), "no_rating_list") << target;
    EXPECT_TRUE(refusal_known("no_rating_list"));
  }
  for (const char* target : {"/api/ratings/spring/players/99", "/api/ratings/spring/events/x",
                             "/api/ratings/spring/events/3"}) {
    RatingsAnswer a = site.get(target);
    EXPECT_EQ(a.status, 404) << target;
    EXPECT_EQ(a.json().at("code"), "no_rating_entry") << target;
  }
  RatingsAnswer names = site.get("/api/ratings/spring/names");
  EXPECT_EQ(names.status, 403);
  EXPECT_EQ(names.json().at("code"), "not_moderator");
  site.moderator = true;
  names = site.get("/api/ratings/spring/names");
  ASSERT_EQ(names.status, 200) << names.body;
  // Before the officer's names file: none given here, the test computes with it; the forfeit.
  EXPECT_EQ(names.json().at("skipped").at(0).at("reason"), "forfeit");
}

TEST(RatingsSite, AMalformedSeasonIsRefusedAtStartNamingItsFile) {
  TempDir dir;
  write(dir.path / "bad" / "season.json", "{\"players\": [{\"name\": 3}]}");
  try {
    RatingsSite site(RatingsServices{dir.path.string(), nullptr});
    ADD_FAILURE() << "a malformed season.json was read";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find((dir.path / "bad" / "season.json").string()), std::string::npos) << what;
    EXPECT_NE(what.find("player 0: \"name\": expected a string"), std::string::npos) << what;
  }
  write(dir.path / "bad" / "season.json", "{\"players\": [], \"events\": [], }");
  EXPECT_THROW(RatingsSite(RatingsServices{dir.path.string(), nullptr}), std::runtime_error);
  EXPECT_THROW(RatingsSite(RatingsServices{(dir.path / "none").string(), nullptr}),
               std::runtime_error);
}

TEST(RatingsSite, AListIsReadAgainWhenItsFileChanges) {
  TempDir dir;
  const auto path = dir.path / "s" / "season.json";
  write(path, season_text("one"));
  Site site(dir.path.string());
  EXPECT_EQ(site.get("/api/ratings/s").json().at("heading"), "one");
  // A broken file keeps the list as it was; a good one replaces it; a new list appears.
  write(path, "{");
  std::filesystem::last_write_time(
      path, std::filesystem::last_write_time(path) + std::chrono::seconds(5));
  write(dir.path / "t.json", season_text("two"));
  // The folder is looked at again a second after the last look: wait for it (no fixed sleep
  // decides the result, only how long the loop runs).
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (site.get("/api/ratings").json().at("lists").as_array().size() < 2 &&
         std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(site.get("/api/ratings/t").json().at("heading"), "two");
  EXPECT_EQ(site.get("/api/ratings/s").json().at("heading"), "one");
  write(path, season_text("three"));
  std::filesystem::last_write_time(
      path, std::filesystem::last_write_time(path) + std::chrono::seconds(10));
  until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (site.get("/api/ratings/s").json().at("heading") != "three" &&
         std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(site.get("/api/ratings/s").json().at("heading"), "three");
}

}  // namespace
}  // namespace toguz::site::ratings_test
