// The store's contract, checked on both backends: the same tests for SqliteStore (a file in a
// temporary folder) and PgStore (a fresh database on a PostgreSQL server the tests start, see
// pg_cluster.h), then each backend's migrations from an older schema.
#include "store/store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <pqxx/pqxx>
#include <stdexcept>
#include <thread>

#include "pg_cluster.h"
#include "store/pg_store.h"
#include "store/sqlite_store.h"
#include "store/writer.h"

namespace {

using namespace toguz::store;
using toguz::test::PgCluster;
using toguz::test::shared_pg_cluster;

enum class Backend { Sqlite, Postgres };

// The number of schema versions a database records (both backends have the same ones; a
// version number may be skipped, so this is not kSchemaVersion).
int migration_count() {
  return int(pg_migrations().size());
}

// A temporary folder, removed with what it holds.
struct Scratch {
  std::string path;
  Scratch() {
    std::string t = (std::filesystem::temp_directory_path() / "toguz-store-XXXXXX").string();
    if (!mkdtemp(t.data())) throw std::runtime_error("mkdtemp failed");
    path = t;
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

// Runs SQL on a SQLite file directly, beside the store.
void sqlite_exec(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  const std::string why = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << why;
}

GameRow sample(const std::string& id, int64_t created_ms) {
  GameRow g;
  g.id = id;
  g.mode = "online";
  g.variant = "standard";
  g.tuz = true;
  g.play_out = false;
  g.start_position = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - w";
  g.white_name = "Aigerim";
  g.black_name = "Bolat";
  g.white_token = "wt-" + id;
  g.black_token = "bt-" + id;
  g.invite = "inv-" + id;
  g.status = "playing";
  g.clock_initial_ms = 600000;
  g.clock_increment_ms = 2000;
  g.white_ms = g.black_ms = 600000;
  g.created_ms = g.updated_ms = created_ms;
  return g;
}

void expect_same_row(const GameRow& a, const GameRow& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.mode, b.mode);
  EXPECT_EQ(a.variant, b.variant);
  EXPECT_EQ(a.tuz, b.tuz);
  EXPECT_EQ(a.play_out, b.play_out);
  EXPECT_EQ(a.start_position, b.start_position);
  EXPECT_EQ(a.white_name, b.white_name);
  EXPECT_EQ(a.black_name, b.black_name);
  EXPECT_EQ(a.white_token, b.white_token);
  EXPECT_EQ(a.black_token, b.black_token);
  EXPECT_EQ(a.invite, b.invite);
  EXPECT_EQ(a.white_seated, b.white_seated);
  EXPECT_EQ(a.black_seated, b.black_seated);
  EXPECT_EQ(a.engine_side, b.engine_side);
  EXPECT_EQ(a.level, b.level);
  EXPECT_EQ(a.clock_initial_ms, b.clock_initial_ms);
  EXPECT_EQ(a.clock_increment_ms, b.clock_increment_ms);
  EXPECT_EQ(a.white_ms, b.white_ms);
  EXPECT_EQ(a.black_ms, b.black_ms);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.winner, b.winner);
  EXPECT_EQ(a.reason, b.reason);
  EXPECT_EQ(a.score, b.score);
  EXPECT_EQ(a.moves, b.moves);
  EXPECT_EQ(a.created_ms, b.created_ms);
  EXPECT_EQ(a.updated_ms, b.updated_ms);
  EXPECT_EQ(a.review, b.review);
  EXPECT_EQ(a.tags, b.tags);
  EXPECT_EQ(a.white_user, b.white_user);
  EXPECT_EQ(a.black_user, b.black_user);
  EXPECT_EQ(a.rated, b.rated);
  EXPECT_EQ(a.speed, b.speed);
  EXPECT_EQ(a.days_per_move, b.days_per_move);
  EXPECT_EQ(a.white_rating, b.white_rating);
  EXPECT_EQ(a.black_rating, b.black_rating);
  EXPECT_EQ(a.white_provisional, b.white_provisional);
  EXPECT_EQ(a.black_provisional, b.black_provisional);
  EXPECT_EQ(a.white_diff, b.white_diff);
  EXPECT_EQ(a.black_diff, b.black_diff);
  EXPECT_EQ(a.move_deadline_ms, b.move_deadline_ms);
  EXPECT_EQ(a.aborted_by, b.aborted_by);
}

std::vector<std::string> ids_of(const std::vector<GameRow>& rows) {
  std::vector<std::string> out;
  for (const GameRow& g : rows) out.push_back(g.id);
  return out;
}

class StoreContract : public testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    if (GetParam() == Backend::Sqlite) {
      db_ = scratch_.path + "/toguz.db";
      return;
    }
    NEED_PG(pg);
    db_ = pg->create_database();
  }

  std::unique_ptr<Store> open() { return open_store(db_); }

  // Runs SQL on the test's database directly.
  void raw(const std::string& sql) {
    if (GetParam() == Backend::Sqlite) {
      sqlite_exec(db_, sql);
      return;
    }
    pqxx::connection c(db_);
    pqxx::work w(c);
    w.exec(sql);
    w.commit();
  }

  Scratch scratch_;
  std::string db_;
};

TEST_P(StoreContract, SaveAndLoadEveryField) {
  auto s = open();
  GameRow g = sample("g1", 1000);
  g.mode = "engine";
  g.variant = "no-tuz";
  g.tuz = false;
  g.play_out = true;
  g.white_name = "Айгерим";
  g.black_name = "Ölçek \"quoted\" 'name'";
  g.white_seated = true;
  g.engine_side = 1;
  g.level = 7;
  g.clock_initial_ms = -1;
  g.clock_increment_ms = 0;
  g.white_ms = 1234567890123;
  g.black_ms = -5;
  g.days_per_move = 14;
  g.move_deadline_ms = 1893456000000;
  g.status = "over";
  g.winner = "white";
  g.reason = "resign";
  g.score = "82-40";
  g.moves = 3;
  g.updated_ms = 2000;
  g.review = R"([{"ply":1,"best":"3"}])";
  g.tags = {{"Event", "Кубок \"Алматы\""}, {"Site", "a\\b"}, {"Round", ""}};
  g.white_user = 12;
  g.black_user = 34;
  g.rated = true;
  g.speed = "correspondence";
  g.days_per_move = 3;
  g.white_rating = 1623;
  g.black_rating = 1500;
  g.black_provisional = true;
  g.white_diff = -7;
  g.black_diff = 9;
  s->save_game(g);
  auto back = s->load_game("g1");
  ASSERT_TRUE(back.has_value());
  expect_same_row(*back, g);
  EXPECT_TRUE(back->holes.empty());
  EXPECT_FALSE(s->load_game("nope").has_value());

  // The same row again replaces it; a review is stored on its own.
  g.status = "aborted";
  g.aborted_by = 1;  // schema 8: who called it off
  g.tags.clear();
  g.review.clear();
  s->save_game(g);
  s->save_review("g1", "[1,2]");
  s->save_review("nope", "[3]");  // no game: nothing
  back = s->load_game("g1");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->status, "aborted");
  EXPECT_EQ(back->aborted_by, 1);
  EXPECT_TRUE(back->tags.empty());
  EXPECT_EQ(back->review, "[1,2]");
  EXPECT_FALSE(s->load_game("nope").has_value());
  int64_t total = -1;
  EXPECT_EQ(s->list_games({}, &total).size(), 1u);
  EXPECT_EQ(total, 1);
}

TEST_P(StoreContract, MovesAddReplaceAndTruncate) {
  auto s = open();
  GameRow g = sample("g1", 1000);
  s->save_game(g);
  for (int hole : {7, 3, 5, 1}) {
    ++g.moves;
    g.white_ms -= 1000;
    s->add_move(g, g.moves, hole);
  }
  auto back = s->load_game("g1");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->holes, (std::vector<int>{7, 3, 5, 1}));
  EXPECT_EQ(back->moves, 4);
  EXPECT_EQ(back->white_ms, 596000);

  // A takeback to ply 2, then another third move; a ply written twice keeps the last hole.
  g.moves = 2;
  s->truncate_moves(g, 2);
  back = s->load_game("g1");
  EXPECT_EQ(back->holes, (std::vector<int>{7, 3}));
  EXPECT_EQ(back->moves, 2);
  g.moves = 3;
  s->add_move(g, 3, 9);
  s->add_move(g, 3, 8);
  back = s->load_game("g1");
  EXPECT_EQ(back->holes, (std::vector<int>{7, 3, 8}));

  // add_move writes the game row too, so a game first stored with its move exists.
  GameRow h = sample("g2", 2000);
  h.moves = 1;
  s->add_move(h, 1, 4);
  back = s->load_game("g2");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->holes, (std::vector<int>{4}));
  EXPECT_EQ(back->moves, 1);
  EXPECT_EQ(s->load_game("g1")->holes.size(), 3u);  // the other game's moves stay apart
}

TEST_P(StoreContract, UnfinishedIdsAreLiveOnlineAndEngineGamesOldestFirst) {
  auto s = open();
  struct Case {
    const char* id;
    const char* mode;
    const char* status;
    int64_t created;
  };
  for (const Case& c :
       {Case{"online-late", "online", "playing", 50}, Case{"engine-early", "engine", "waiting", 10},
        Case{"online-waiting", "online", "waiting", 30}, Case{"online-over", "online", "over", 5},
        Case{"engine-aborted", "engine", "aborted", 6}, Case{"local", "local", "playing", 7},
        Case{"analysis", "analysis", "playing", 8}}) {
    GameRow g = sample(c.id, c.created);
    g.mode = c.mode;
    g.status = c.status;
    s->save_game(g);
  }
  EXPECT_EQ(s->unfinished_ids(),
            (std::vector<std::string>{"engine-early", "online-waiting", "online-late"}));
}

TEST_P(StoreContract, ExpireStaleEndsOldWaitingUnstartedAndAnalysisGames) {
  auto s = open();
  struct Case {
    const char* id;
    const char* mode;
    const char* status;
    int moves;
    int64_t updated;
  };
  const Case cases[] = {
      {"waiting-old", "online", "waiting", 0, 100},   {"waiting-new", "online", "waiting", 0, 1000},
      {"unstarted-old", "online", "playing", 0, 100}, {"started-old", "online", "playing", 2, 100},
      {"over-old", "engine", "over", 0, 100},         {"board-old", "analysis", "playing", 0, 100},
      {"board-mid", "analysis", "playing", 0, 400},  // past the waiting limit, not the boards'
  };
  for (const Case& c : cases) {
    GameRow g = sample(c.id, 1);
    g.mode = c.mode;
    g.status = c.status;
    g.moves = c.moves;
    g.updated_ms = c.updated;
    g.winner = std::string(c.status) == "over" ? "black" : "white";
    s->save_game(g);
  }
  s->expire_stale(500, 200);
  auto status_of = [&](const char* id) {
    auto g = s->load_game(id);
    return g ? g->status + "/" + g->reason + "/" + g->winner : std::string("missing");
  };
  EXPECT_EQ(status_of("waiting-old"), "aborted/expired/");
  EXPECT_EQ(status_of("waiting-new"), "waiting//white");
  EXPECT_EQ(status_of("unstarted-old"), "aborted/expired/");
  EXPECT_EQ(status_of("started-old"), "playing//white");
  EXPECT_EQ(status_of("over-old"), "over//black");
  EXPECT_EQ(status_of("board-old"), "aborted/expired/");
  EXPECT_EQ(status_of("board-mid"), "playing//white");
}

TEST_P(StoreContract, ListGamesSearchesFoldedNamesAndPages) {
  auto s = open();
  struct Case {
    const char* id;
    const char* white;
    const char* black;
    const char* winner;
  };
  const Case cases[] = {
      {"g1", "АЙГЕРИМ", "Bolat", "white"},         {"g2", "Ерлан", "айгерим", "black"},
      {"g3", "ÉMILE", "Ғалым Қасым", "draw"},      {"g4", "100% real", "under_score", ""},
      {"g5", "back\\slash", "Үміт Өмір", "white"}, {"g6", "Nurlan", "underXscore", "black"},
  };
  int64_t created = 100;
  for (const Case& c : cases) {
    GameRow g = sample(c.id, created += 10);
    g.white_name = c.white;
    g.black_name = c.black;
    g.winner = c.winner;
    s->save_game(g);
  }
  auto find = [&](const std::string& player, const std::string& result, int64_t* total) {
    ListQuery q;
    q.player = player;
    q.result = result;
    return ids_of(s->list_games(q, total));
  };
  int64_t total = -1;
  EXPECT_EQ(find("", "", &total), (std::vector<std::string>{"g6", "g5", "g4", "g3", "g2", "g1"}));
  EXPECT_EQ(total, 6);
  EXPECT_EQ(find("айгерим", "", &total), (std::vector<std::string>{"g2", "g1"}));
  EXPECT_EQ(find("АЙГЕР", "black", &total), (std::vector<std::string>{"g2"}));
  EXPECT_EQ(total, 1);
  EXPECT_EQ(find("émile", "", &total), (std::vector<std::string>{"g3"}));
  EXPECT_EQ(find("ғалым қ", "draw", &total), (std::vector<std::string>{"g3"}));
  EXPECT_EQ(find("үміт ө", "", &total), (std::vector<std::string>{"g5"}));
  // %, _ and \ are the letters themselves, not patterns.
  EXPECT_EQ(find("%", "", &total), (std::vector<std::string>{"g4"}));
  EXPECT_EQ(find("r_s", "", &total), (std::vector<std::string>{"g4"}));
  EXPECT_EQ(total, 1);
  EXPECT_EQ(find("_", "", &total), (std::vector<std::string>{"g4"}));
  EXPECT_EQ(find("k\\s", "", &total), (std::vector<std::string>{"g5"}));
  EXPECT_EQ(find("", "white", &total), (std::vector<std::string>{"g5", "g1"}));
  EXPECT_EQ(find("zzz", "", &total).size(), 0u);
  EXPECT_EQ(total, 0);

  // Pages of two, newest first; the total counts every match.
  ListQuery q;
  q.limit = 2;
  std::vector<std::string> seen;
  for (q.offset = 0; q.offset < 8; q.offset += 2) {
    auto page = ids_of(s->list_games(q, &total));
    EXPECT_EQ(total, 6);
    EXPECT_LE(page.size(), 2u);
    seen.insert(seen.end(), page.begin(), page.end());
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"g6", "g5", "g4", "g3", "g2", "g1"}));
}

// A cluster instance's writes carry its lease token: once a newer token is claimed (another
// instance took the game over), the older writer's moves and rows are refused and nothing of
// them is stored; writes without a token are not checked.
TEST_P(StoreContract, FencingRefusesWritesWithAnOlderToken) {
  auto s = open();
  GameRow g = sample("g1", 1000);
  g.fence = 5;
  s->claim_fence("g1", 5);
  s->save_game(g);
  g.moves = 1;
  s->add_move(g, 1, 7);
  s->claim_fence("g1", 6);  // the takeover
  GameRow stale = g;
  stale.moves = 2;
  EXPECT_THROW(s->add_move(stale, 2, 3), FenceError);
  EXPECT_THROW(s->save_game(stale), FenceError);
  EXPECT_THROW(s->truncate_moves(stale, 0), FenceError);
  EXPECT_THROW(s->claim_fence("g1", 4), FenceError);
  auto back = s->load_game("g1");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->holes, (std::vector<int>{7}));
  EXPECT_EQ(back->moves, 1);
  GameRow next = *back;
  next.fence = 6;
  next.moves = 2;
  s->add_move(next, 2, 3);  // the new holder writes, and so may a later one
  next.fence = 7;
  next.moves = 3;
  s->add_move(next, 3, 1);
  next.fence = 0;
  s->save_game(next);
  EXPECT_EQ(s->load_game("g1")->holes, (std::vector<int>{7, 3, 1}));
  EXPECT_THROW(s->claim_fence("g1", 6), FenceError);
}

// The newest token the store has seen for a game, claimed or carried by a write: a new lease
// counter (a Redis restarted empty) starts above it (docs/cluster.md "Fencing").
TEST_P(StoreContract, FenceOfIsTheNewestTokenSeen) {
  auto s = open();
  EXPECT_EQ(s->fence_of("g1"), 0);
  s->claim_fence("g1", 5);
  EXPECT_EQ(s->fence_of("g1"), 5);
  GameRow g = sample("g1", 1000);
  g.fence = 9;
  s->save_game(g);
  EXPECT_EQ(s->fence_of("g1"), 9);
  EXPECT_THROW(s->claim_fence("g1", 8), FenceError);
  EXPECT_EQ(s->fence_of("g1"), 9);
  EXPECT_EQ(s->fence_of("g2"), 0);
}

TEST_P(StoreContract, ReopenKeepsDataAndMigratesOnce) {
  {
    auto s = open();
    GameRow g = sample("g1", 1000);
    s->save_game(g);
    g.moves = 1;
    s->add_move(g, 1, 6);
  }
  auto s = open();
  auto back = s->load_game("g1");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->holes, (std::vector<int>{6}));
  // Every version recorded once: the table has kSchemaVersion rows 1..kSchemaVersion, so a
  // row for kSchemaVersion + 1 is new (it would fail on a duplicate key otherwise).
  raw("INSERT INTO schema_version (version, applied_ms) VALUES (" + std::to_string(kSchemaVersion) +
      " + 1, 0)");
}

TEST_P(StoreContract, RefusesANewerSchema) {
  open().reset();
  raw("INSERT INTO schema_version (version, applied_ms) VALUES (99, 0)");
  try {
    open();
    FAIL() << "a database at schema version 99 was opened";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("schema version 99 is newer than this program knows (" +
                        std::to_string(kSchemaVersion) + ")"),
              std::string::npos)
        << what;
  }
}

UserRow user(const std::string& name) {
  UserRow u;
  u.username = name;
  for (char c : name) u.username_key += char(std::tolower(static_cast<unsigned char>(c)));
  u.password_hash = "$argon2id$v=19$m=65536,t=2,p=1$salt$hash-of-" + name;
  u.created_ms = 1000;
  return u;
}

TEST_P(StoreContract, UsersAndSessions) {
  auto s = open();
  const int64_t a = s->create_user(user("Aigerim"));
  ASSERT_GT(a, 0);
  EXPECT_EQ(s->create_user(user("aigerim")), 0);  // the key is taken
  UserRow bot = user("Engine-7");
  bot.bot = true;
  const int64_t b = s->create_user(bot);
  ASSERT_GT(b, 0);
  EXPECT_NE(a, b);
  auto found = s->find_user("aigerim");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->id, a);
  EXPECT_EQ(found->username, "Aigerim");
  EXPECT_EQ(found->password_hash, user("Aigerim").password_hash);
  EXPECT_FALSE(found->bot);
  EXPECT_TRUE(s->user_by_id(b)->bot);
  EXPECT_FALSE(s->find_user("Aigerim"));  // by the key only
  EXPECT_FALSE(s->user_by_id(999));
  s->set_password(a, "new-hash");
  EXPECT_EQ(s->find_user("aigerim")->password_hash, "new-hash");

  s->add_session("h1", a, 5000);
  s->add_session("h2", a, 9000);
  s->add_session("h3", b, 100);
  auto h1 = s->find_session("h1");
  ASSERT_TRUE(h1);
  EXPECT_EQ(h1->user_id, a);
  EXPECT_EQ(h1->expires_ms, 5000);
  s->delete_session("h1");
  EXPECT_FALSE(s->find_session("h1"));
  s->add_session("h4", a, 9000);
  // A's others end, and the expired h3 of B goes too.
  s->delete_other_sessions(a, "h4", 200);
  EXPECT_FALSE(s->find_session("h2"));
  EXPECT_FALSE(s->find_session("h3"));
  EXPECT_TRUE(s->find_session("h4"));
}

// Mail (schema 10): the address, its verification, the notices and the language, found by
// address; a mail link's token taken once, with the account's other tokens of its purpose,
// and never after it expired.
TEST_P(StoreContract, EmailAndMailTokens) {
  auto s = open();
  const int64_t a = s->create_user(user("Aigerim"));
  const int64_t b = s->create_user(user("Bolat"));
  EXPECT_EQ(s->user_by_id(a)->email, "");
  EXPECT_EQ(s->user_by_id(a)->lang, "en");
  s->set_email(a, "a@example.org", false, "ru");
  s->set_email(b, "a@example.org", true, "kk");
  s->set_notices(a, kNoticeYourTurn | kNoticeTournaments);
  const auto both = s->users_by_email("a@example.org", 5);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].id, a);
  EXPECT_FALSE(both[0].email_verified);
  EXPECT_EQ(both[0].lang, "ru");
  EXPECT_EQ(both[0].notices, kNoticeYourTurn | kNoticeTournaments);
  EXPECT_TRUE(both[1].email_verified);
  EXPECT_EQ(s->users_by_email("a@example.org", 1).size(), 1u);
  EXPECT_TRUE(s->users_by_email("b@example.org", 5).empty());

  s->add_mail_token(MailToken{"t1", a, "reset", "a@example.org", 5000});
  s->add_mail_token(MailToken{"t2", a, "reset", "a@example.org", 5000});
  s->add_mail_token(MailToken{"v1", a, "verify", "a@example.org", 5000});
  s->add_mail_token(MailToken{"t3", b, "reset", "a@example.org", 100});
  EXPECT_FALSE(s->take_mail_token("t1", "verify", 200));  // another purpose
  const auto t1 = s->take_mail_token("t1", "reset", 200);
  ASSERT_TRUE(t1);
  EXPECT_EQ(t1->user_id, a);
  EXPECT_EQ(t1->email, "a@example.org");
  EXPECT_FALSE(s->take_mail_token("t1", "reset", 200));  // once
  EXPECT_FALSE(s->take_mail_token("t2", "reset", 200));  // voided with it
  EXPECT_FALSE(s->take_mail_token("t3", "reset", 200));  // expired
  EXPECT_TRUE(s->take_mail_token("v1", "verify", 200));  // another purpose stays
}

// Settings (schema 12): none until stored, replaced by the next, one account's apart from
// another's, kept when the store is opened again.
TEST_P(StoreContract, AccountSettings) {
  int64_t a = 0, b = 0;
  {
    auto s = open();
    a = s->create_user(user("Aigerim"));
    b = s->create_user(user("Bolat"));
    EXPECT_EQ(s->settings(a), "");
    s->set_settings(a, R"({"blind":true})", 1000);
    s->set_settings(a, R"({"blind":true,"theme":"dark"})", 2000);
    s->set_settings(b, R"({"sound":false})", 2000);
  }
  auto s = open();
  EXPECT_EQ(s->settings(a), R"({"blind":true,"theme":"dark"})");
  EXPECT_EQ(s->settings(b), R"({"sound":false})");
  EXPECT_EQ(s->settings(999), "");
}

// A rated game between two new accounts, stored before its end.
GameRow rated_game(Store& s, const std::string& speed, int64_t* white, int64_t* black) {
  *white = s.create_user(user("Aigerim"));
  *black = s.create_user(user("Bolat"));
  GameRow g = sample("r1", 1000);
  g.white_user = *white;
  g.black_user = *black;
  g.rated = true;
  g.speed = speed;
  return g;
}

// A rated game's end: the result and both ratings in one transaction, written once.
TEST_P(StoreContract, FinishGameRatesOnceAndOnlyUnfinishedGames) {
  auto s = open();
  int64_t a = 0, b = 0;
  GameRow g = rated_game(*s, "blitz", &a, &b);
  g.white_rating = g.black_rating = 1500;
  g.white_provisional = g.black_provisional = true;
  s->save_game(g);
  int calls = 0;
  RateGame rate = [&](const std::optional<RatingRow>& w, const std::optional<RatingRow>& bl) {
    ++calls;
    EXPECT_FALSE(w);  // never rated in blitz
    EXPECT_FALSE(bl);
    return std::pair{RatingRow{"blitz", 1662.31, 290.3, 0.06, 1, 5000},
                     RatingRow{"blitz", 1337.69, 290.3, 0.06, 1, 5000}};
  };
  g.status = "over";
  g.winner = "white";
  g.reason = "timeout";
  g.moves = 1;
  ASSERT_TRUE(s->finish_game(g, rate, 1, 5));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(g.white_diff, 162);
  EXPECT_EQ(g.black_diff, -162);
  auto back = s->load_game("r1");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->status, "over");
  EXPECT_EQ(back->holes, (std::vector<int>{5}));
  EXPECT_EQ(back->white_user, a);
  EXPECT_TRUE(back->rated);
  EXPECT_EQ(back->speed, "blitz");
  EXPECT_EQ(back->white_rating, 1500);
  EXPECT_TRUE(back->white_provisional);
  EXPECT_EQ(back->black_diff, -162);

  // The second end (a resignation after the flag) writes nothing.
  GameRow again = g;
  again.reason = "resign";
  again.winner = "black";
  EXPECT_FALSE(s->finish_game(again, rate, 0, 0));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(s->load_game("r1")->reason, "timeout");
  auto ra = s->ratings(a);
  ASSERT_EQ(ra.size(), 1u);
  EXPECT_EQ(ra[0].category, "blitz");
  EXPECT_DOUBLE_EQ(ra[0].rating, 1662.31);
  EXPECT_DOUBLE_EQ(ra[0].rd, 290.3);
  EXPECT_EQ(ra[0].games, 1);
  EXPECT_EQ(ra[0].updated_ms, 5000);
  auto hist = s->rating_history(b);
  ASSERT_EQ(hist.size(), 1u);
  EXPECT_EQ(hist[0].game_id, "r1");
  EXPECT_DOUBLE_EQ(hist[0].rating_before, 1500);
  EXPECT_DOUBLE_EQ(hist[0].rating_after, 1337.69);
  EXPECT_DOUBLE_EQ(hist[0].rd_before, 350);

  // The next game sees the stored ratings; a casual end calls no rating.
  GameRow g2 = sample("r2", 2000);
  g2.white_user = b;
  g2.black_user = a;
  g2.rated = true;
  g2.speed = "blitz";
  g2.status = "over";
  g2.winner = "draw";
  ASSERT_TRUE(s->finish_game(
      g2,
      [&](const std::optional<RatingRow>& w, const std::optional<RatingRow>& bl) {
        EXPECT_TRUE(w && bl);
        EXPECT_DOUBLE_EQ(w->rating, 1337.69);
        EXPECT_DOUBLE_EQ(bl->rating, 1662.31);
        return std::pair{RatingRow{"blitz", 1400, 250, 0.06, 2, 6000},
                         RatingRow{"blitz", 1600, 250, 0.06, 2, 6000}};
      },
      0, 0));
  EXPECT_EQ(s->rating_history(a).size(), 2u);
  GameRow casual = sample("c1", 3000);
  casual.status = "over";
  casual.winner = "black";
  ASSERT_TRUE(s->finish_game(casual, rate, 0, 0));
  EXPECT_EQ(calls, 1);

  // Counts by colour, the games of an account, the leaderboard.
  const ResultCounts ca = s->result_counts(a);
  EXPECT_EQ(ca.win[0], 1);
  EXPECT_EQ(ca.draw[1], 1);
  EXPECT_EQ(ca.loss[0] + ca.loss[1], 0);
  ListQuery q;
  q.account = a;
  int64_t total = 0;
  EXPECT_EQ(ids_of(s->list_games(q, &total)), (std::vector<std::string>{"r2", "r1"}));
  EXPECT_EQ(total, 2);
  auto board = s->leaderboard("blitz", 300, 10);
  ASSERT_EQ(board.size(), 2u);
  EXPECT_EQ(board[0].username, "Aigerim");
  EXPECT_DOUBLE_EQ(board[0].rating, 1600);
  EXPECT_EQ(board[0].games, 2);
  EXPECT_TRUE(s->leaderboard("blitz", 200, 10).empty());
  EXPECT_TRUE(s->leaderboard("bullet", 400, 10).empty());
}

// Two changes for one (game, player) cannot both be stored: the second end's transaction fails
// whole, the game as the first left it.
TEST_P(StoreContract, RatingChangeIsStoredOncePerGameAndPlayer) {
  auto s = open();
  int64_t a = 0, b = 0;
  GameRow g = rated_game(*s, "rapid", &a, &b);
  g.status = "over";
  g.winner = "white";
  RateGame rate = [](const std::optional<RatingRow>&, const std::optional<RatingRow>&) {
    return std::pair{RatingRow{"rapid", 1600, 300, 0.06, 1, 1},
                     RatingRow{"rapid", 1400, 300, 0.06, 1, 1}};
  };
  ASSERT_TRUE(s->finish_game(g, rate, 0, 0));
  raw("UPDATE games SET status = 'playing' WHERE id = 'r1'");  // as if the end were lost
  EXPECT_THROW(s->finish_game(g, rate, 0, 0), std::runtime_error);
  EXPECT_EQ(s->rating_history(a).size(), 1u);
  EXPECT_EQ(s->ratings(a).at(0).games, 1);
  EXPECT_EQ(s->load_game("r1")->status, "playing");
}

TEST_P(StoreContract, EventsSaveReplaceAndLoad) {
  {
    auto s = open();
    EXPECT_FALSE(s->load_event("e1").has_value());
    EventRow e{"e1", "hash-1", R"({"name":"Бишкек ачык"})", 1000, 1000};
    s->save_event(e);
    s->save_event(EventRow{"e2", "hash-2", "{}", 2000, 2000});
    e.state = R"({"name":"Бишкек ачык","players":[]})";
    e.updated_ms = 1500;
    s->save_event(e);
  }
  auto s = open();  // reopened: the events stay
  auto back = s->load_event("e1");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->id, "e1");
  EXPECT_EQ(back->key_hash, "hash-1");
  EXPECT_EQ(back->state, R"({"name":"Бишкек ачык","players":[]})");
  EXPECT_EQ(back->created_ms, 1000);
  EXPECT_EQ(back->updated_ms, 1500);
  EXPECT_EQ(s->load_event("e2")->state, "{}");
  EXPECT_FALSE(s->load_event("e3").has_value());
}

// Group commit (Store::write_group): each write that succeeds is committed, one that throws is
// not, and each gets its own outcome.
TEST_P(StoreContract, WriteGroupCommitsEachWriteThatSucceeds) {
  auto s = open();
  GameRow g = sample("g1", 1000);
  g.fence = 5;
  s->claim_fence("g1", 5);
  s->save_game(g);
  GameRow stale = g;
  stale.fence = 4;
  GameRow h = sample("g2", 2000);
  g.moves = 1;
  std::vector<std::exception_ptr> errors;
  s->write_group({[&] { s->add_move(g, 1, 7); },
                  [&] {
                    stale.moves = 1;
                    s->add_move(stale, 1, 2);  // an older fencing token
                  },
                  [&] { s->save_game(h); }},
                 &errors);
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_FALSE(errors[0]);
  ASSERT_TRUE(errors[1]);
  EXPECT_THROW(std::rethrow_exception(errors[1]), FenceError);
  EXPECT_FALSE(errors[2]);
  auto back = open()->load_game("g1");  // a second connection sees them committed
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->holes, (std::vector<int>{7}));
  EXPECT_EQ(back->moves, 1);
  EXPECT_TRUE(open()->load_game("g2").has_value());
}

// A group is one transaction: while its later writes run, another connection sees none of its
// earlier ones; once it returns, all of them (the writer thread relies on this to share one
// commit among many games' moves).
TEST_P(StoreContract, WriteGroupCommitsTogether) {
  auto s = open();
  auto other = open();
  GameRow g = sample("g1", 1000);
  s->save_game(g);
  g.moves = 1;
  bool seen_during = true;
  std::vector<std::exception_ptr> errors;
  s->write_group({[&] { s->add_move(g, 1, 7); },
                  [&] {
                    auto now = other->load_game("g1");
                    seen_during = !now || !now->holes.empty();
                    s->save_game(sample("g2", 2000));
                  }},
                 &errors);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_FALSE(errors[0]);
  EXPECT_FALSE(errors[1]);
  EXPECT_FALSE(seen_during) << "the first write was visible before the group committed";
  auto back = other->load_game("g1");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->holes, (std::vector<int>{7}));
  EXPECT_TRUE(other->load_game("g2").has_value());
}

// The writer thread: queued writes are committed in order, each outcome comes back through
// the post function, and a call waits for the writes queued before it.
TEST_P(StoreContract, WriterCommitsQueuedWritesInOrder) {
  auto s = open();
  GameRow g = sample("g1", 1000);
  s->save_game(g);
  std::mutex m;
  std::vector<std::function<void()>> posted;
  {
    StoreWriter writer(*s, [&](std::function<void()> f) {
      std::lock_guard<std::mutex> lock(m);
      posted.push_back(std::move(f));
    });
    std::vector<int> outcome(41, -1);
    for (int ply = 1; ply <= 40; ++ply) {
      GameRow r = g;
      r.moves = ply;
      writer.write([r, ply](Store& st) { st.add_move(r, ply, 1 + ply % 9); },
                   [&outcome, ply](std::exception_ptr e) { outcome[ply] = e ? 1 : 0; });
    }
    // A write that fails gets its error; the others are not touched by it.
    writer.write([](Store& st) { st.claim_fence("g1", 9); }, nullptr);
    writer.write([](Store& st) { st.claim_fence("g1", 3); },
                 [&outcome](std::exception_ptr e) { outcome[0] = e ? 1 : 0; });
    QueuedStore queued(writer);
    auto back = queued.load_game("g1");
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->holes.size(), 40u);
    EXPECT_EQ(back->moves, 40);
    EXPECT_THROW(queued.claim_fence("g1", 2), FenceError);
    std::lock_guard<std::mutex> lock(m);
    for (auto& f : posted) f();
    EXPECT_EQ(outcome[0], 1);
    for (int ply = 1; ply <= 40; ++ply) EXPECT_EQ(outcome[ply], 0) << ply;
  }
  EXPECT_EQ(open()->load_game("g1")->holes.size(), 40u);
}

// A call that cannot start in time (the writer is stuck behind a slow or refusing database) is
// not waited for: it is refused as busy and dropped unrun, so nothing of it is written later.
TEST_P(StoreContract, WriterCallThatCannotStartInTimeIsRefusedAndDropped) {
  auto s = open();
  std::mutex m;
  std::condition_variable cv;
  bool released = false;
  {
    StoreWriter writer(*s, [](std::function<void()> f) { f(); });
    writer.set_call_wait(std::chrono::milliseconds(50));
    writer.write(
        [&](Store&) {
          std::unique_lock<std::mutex> lock(m);
          cv.wait(lock, [&] { return released; });
        },
        nullptr);
    QueuedStore queued(writer);
    try {
      queued.save_game(sample("g1", 1000));
      ADD_FAILURE() << "the call waited for the stuck writer";
    } catch (const StoreUnavailable& e) {
      EXPECT_EQ(e.fault, StoreFault::Busy);
    }
    {
      std::lock_guard<std::mutex> lock(m);
      released = true;
    }
    cv.notify_all();
    EXPECT_FALSE(queued.load_game("g1").has_value());  // runs after the dropped call
  }
  EXPECT_FALSE(open()->load_game("g1").has_value());
}

// Tournaments: saved, replaced, reloaded after a reopen; the list has every open one by start
// time, then only the newest finished ones up to the limit.
TEST_P(StoreContract, TournamentsSaveListAndReload) {
  {
    auto s = open();
    EXPECT_FALSE(s->load_tournament("t1").has_value());
    EXPECT_TRUE(s->list_tournaments(10).empty());
    s->save_tournament(TournamentRow{"t1", "upcoming", R"({"name":"Арена"})", 5000, 100, 100});
    s->save_tournament(TournamentRow{"t2", "running", "{}", 3000, 200, 200});
    s->save_tournament(TournamentRow{"t3", "finished", "{}", 1000, 300, 900});
    s->save_tournament(TournamentRow{"t4", "cancelled", "{}", 2000, 400, 950});
    s->save_tournament(TournamentRow{"t5", "finished", "{}", 1000, 500, 800});
    s->save_tournament(TournamentRow{"t1", "running", R"({"name":"Арена","x":1})", 5000, 100, 600});
  }
  auto s = open();  // reopened: the tournaments stay
  auto back = s->load_tournament("t1");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->status, "running");
  EXPECT_EQ(back->state, R"({"name":"Арена","x":1})");
  EXPECT_EQ(back->starts_ms, 5000);
  EXPECT_EQ(back->created_ms, 100);
  EXPECT_EQ(back->updated_ms, 600);
  std::vector<std::string> ids;
  for (const TournamentRow& t : s->list_tournaments(2)) ids.push_back(t.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"t2", "t1", "t4", "t3"}));
  EXPECT_EQ(s->list_tournaments(0).size(), 2u);
  EXPECT_FALSE(s->load_tournament("t9").has_value());
}

// A rated attempt moves both ratings once per (account, puzzle): the starts given are used the
// first time, a second attempt writes nothing and answers the first, another account's attempt
// sees the puzzle's new rating.
// The puzzles served to an account (schema 8): kept once, per account.
TEST_P(StoreContract, PuzzlesServedAreKeptPerAccount) {
  auto s = open();
  const int64_t a = s->create_user(user("Aigerim"));
  const int64_t b = s->create_user(user("Bolat"));
  EXPECT_FALSE(s->puzzle_was_served(a, "p1"));
  s->add_puzzle_served(a, "p1", 1000);
  s->add_puzzle_served(a, "p1", 2000);  // again: nothing new
  EXPECT_TRUE(s->puzzle_was_served(a, "p1"));
  EXPECT_FALSE(s->puzzle_was_served(a, "p2"));
  EXPECT_FALSE(s->puzzle_was_served(b, "p1"));
}

TEST_P(StoreContract, PuzzleAttemptsAreRatedOncePerAccountAndPuzzle) {
  auto s = open();
  const int64_t a = s->create_user(user("Aigerim"));
  const int64_t b = s->create_user(user("Bolat"));
  EXPECT_FALSE(s->puzzle_player_rating(a));
  EXPECT_FALSE(s->puzzle_rating("p1"));
  EXPECT_TRUE(s->puzzle_ratings().empty());
  const RatingRow player_start{"puzzle", 1500, 350, 0.06, 0, 0};
  const RatingRow puzzle_start{"p1", 1200, 350, 0.06, 0, 0};
  int calls = 0;
  RateAttempt rate = [&](const RatingRow& player, const RatingRow& puzzle) {
    ++calls;
    return std::pair{
        RatingRow{"puzzle", player.rating + 100, 300, 0.06, player.games + 1, 5000},
        RatingRow{puzzle.category, puzzle.rating - 100, 300, 0.06, puzzle.games + 1, 5000}};
  };
  PuzzleAttempt at{a, "p1", true, 0, 0, 0, 0, 5000};
  AttemptResult first = s->rate_puzzle_attempt(at, player_start, puzzle_start, rate);
  EXPECT_TRUE(first.rated);
  EXPECT_EQ(calls, 1);
  EXPECT_DOUBLE_EQ(first.attempt.player_before, 1500);
  EXPECT_DOUBLE_EQ(first.attempt.player_after, 1600);
  EXPECT_DOUBLE_EQ(first.attempt.puzzle_before, 1200);
  EXPECT_DOUBLE_EQ(first.attempt.puzzle_after, 1100);
  EXPECT_DOUBLE_EQ(first.player.rating, 1600);
  EXPECT_DOUBLE_EQ(first.puzzle.rating, 1100);
  auto pr = s->puzzle_player_rating(a);
  ASSERT_TRUE(pr);
  EXPECT_DOUBLE_EQ(pr->rating, 1600);
  EXPECT_DOUBLE_EQ(pr->rd, 300);
  EXPECT_EQ(pr->games, 1);
  EXPECT_EQ(pr->updated_ms, 5000);
  ASSERT_TRUE(s->puzzle_rating("p1"));
  EXPECT_DOUBLE_EQ(s->puzzle_rating("p1")->rating, 1100);
  EXPECT_EQ(s->puzzle_rating("p1")->category, "p1");

  // Again, missed this time: nothing written, the first attempt answered.
  at.solved = false;
  at.time_ms = 6000;
  AttemptResult again = s->rate_puzzle_attempt(at, player_start, puzzle_start, rate);
  EXPECT_FALSE(again.rated);
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(again.attempt.solved);
  EXPECT_EQ(again.attempt.time_ms, 5000);
  EXPECT_DOUBLE_EQ(again.player.rating, 1600);
  EXPECT_DOUBLE_EQ(again.puzzle.rating, 1100);
  EXPECT_DOUBLE_EQ(s->puzzle_player_rating(a)->rating, 1600);
  EXPECT_EQ(s->puzzle_player_rating(a)->games, 1);

  // Another account at the same puzzle: its start, the puzzle as the first attempt left it.
  AttemptResult other =
      s->rate_puzzle_attempt({b, "p1", false, 0, 0, 0, 0, 7000}, player_start, puzzle_start, rate);
  EXPECT_TRUE(other.rated);
  EXPECT_DOUBLE_EQ(other.attempt.puzzle_before, 1100);
  EXPECT_DOUBLE_EQ(other.puzzle.rating, 1000);
  EXPECT_EQ(other.puzzle.games, 2);
  // A second puzzle for the first account starts from its stored rating.
  AttemptResult second = s->rate_puzzle_attempt({a, "p2", true, 0, 0, 0, 0, 8000}, player_start,
                                                {"p2", 1300, 350, 0.06, 0, 0}, rate);
  EXPECT_DOUBLE_EQ(second.attempt.player_before, 1600);
  EXPECT_EQ(s->attempted_puzzles(a), (std::vector<std::string>{"p1", "p2"}));
  EXPECT_EQ(s->attempted_puzzles(b), (std::vector<std::string>{"p1"}));
  const auto all = s->puzzle_ratings();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].category, "p1");
  EXPECT_DOUBLE_EQ(all[1].rating, 1200);

  // A rating that throws leaves nothing behind.
  EXPECT_THROW(s->rate_puzzle_attempt(
                   {b, "p3", true, 0, 0, 0, 0, 9000}, player_start, {"p3", 1500, 350, 0.06, 0, 0},
                   [](const RatingRow&, const RatingRow&) -> std::pair<RatingRow, RatingRow> {
                     throw std::runtime_error("no rating");
                   }),
               std::runtime_error);
  EXPECT_FALSE(s->puzzle_rating("p3"));
  EXPECT_EQ(s->attempted_puzzles(b).size(), 1u);
}

// The games of an account by status: its games being played, for the "your turn" list.
TEST_P(StoreContract, ListGamesFiltersByStatus) {
  auto s = open();
  const int64_t a = s->create_user(user("Aigerim"));
  for (const auto& [id, status] : std::vector<std::pair<std::string, std::string>>{
           {"g1", "playing"}, {"g2", "over"}, {"g3", "playing"}, {"g4", "waiting"}}) {
    GameRow g = sample(id, 1000 + int64_t(id[1]));
    g.white_user = a;
    g.status = status;
    s->save_game(g);
  }
  GameRow theirs = sample("g5", 5000);
  s->save_game(theirs);
  ListQuery q;
  q.account = a;
  q.status = "playing";
  int64_t total = 0;
  EXPECT_EQ(ids_of(s->list_games(q, &total)), (std::vector<std::string>{"g3", "g1"}));
  EXPECT_EQ(total, 2);
  q.account = 0;
  EXPECT_EQ(ids_of(s->list_games(q, &total)), (std::vector<std::string>{"g5", "g3", "g1"}));
  q.status = "";
  q.account = a;
  EXPECT_EQ(s->list_games(q, &total).size(), 4u);
}

// ---- moderation (schema 9) ----

TEST_P(StoreContract, StandingReportsAndBlocks) {
  auto s = open();
  const int64_t a = s->create_user(user("Aigerim")), b = s->create_user(user("Bolat")),
                c = s->create_user(user("Chingiz"));
  EXPECT_FALSE(s->standing(a).moderator);
  EXPECT_FALSE(s->standing(a).marked);
  s->set_standing(a, Standing{true, false, false});
  s->set_standing(b, Standing{false, true, true});
  EXPECT_TRUE(s->standing(a).moderator);
  EXPECT_FALSE(s->standing(a).closed);
  EXPECT_TRUE(s->standing(b).marked);
  EXPECT_TRUE(s->standing(b).closed);
  s->set_standing(b, Standing{false, false, true});
  EXPECT_FALSE(s->standing(b).marked);

  s->add_session("h1", b, 99999999999999);
  s->add_session("h2", b, 99999999999999);
  s->add_session("h3", a, 99999999999999);
  s->delete_sessions(b);
  EXPECT_FALSE(s->find_session("h1"));
  EXPECT_FALSE(s->find_session("h2"));
  EXPECT_TRUE(s->find_session("h3"));

  ReportRow r;
  r.target = b;
  r.reporter = a;
  r.game_id = "g1";
  r.reason = "rude";
  r.created_ms = 1000;
  const int64_t report = s->add_report(r);
  ReportRow f;
  f.target = c;
  f.about = a;
  f.reason = "feeding: 5";
  f.created_ms = 2000;
  const int64_t flag = s->add_report(f);
  EXPECT_NE(report, flag);
  EXPECT_TRUE(s->open_flag(c, a));
  EXPECT_FALSE(s->open_flag(c, b));
  EXPECT_FALSE(s->open_flag(b, 0));  // a player's report is no flag
  auto list = s->list_reports(false, 10);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].id, flag);  // newest first
  EXPECT_EQ(list[0].target_name, "Chingiz");
  EXPECT_EQ(list[0].reporter_name, "");
  EXPECT_EQ(list[0].about_name, "Aigerim");
  EXPECT_EQ(list[1].reporter_name, "Aigerim");
  EXPECT_EQ(list[1].game_id, "g1");
  EXPECT_EQ(list[1].reason, "rude");
  EXPECT_EQ(list[1].created_ms, 1000);
  EXPECT_TRUE(s->resolve_report(flag));
  EXPECT_FALSE(s->resolve_report(flag + report + 100));
  EXPECT_FALSE(s->open_flag(c, a));
  EXPECT_EQ(s->list_reports(false, 10).size(), 1u);
  list = s->list_reports(true, 10);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_TRUE(list[0].resolved);
  EXPECT_EQ(s->list_reports(true, 1).size(), 1u);

  s->set_block(a, c, true, 5);
  s->set_block(a, b, true, 5);
  s->set_block(a, b, true, 6);  // again: no error
  s->set_block(c, b, true, 5);
  EXPECT_EQ(s->blocks(a),
            (std::vector<std::pair<int64_t, std::string>>{{b, "Bolat"}, {c, "Chingiz"}}));
  auto either = s->blocked_either_way(b);
  std::sort(either.begin(), either.end());
  EXPECT_EQ(either, (std::vector<int64_t>{a, c}));
  s->set_block(a, b, false, 7);
  EXPECT_EQ(s->blocks(a).size(), 1u);
  EXPECT_EQ(s->blocked_either_way(b), (std::vector<int64_t>{c}));
  EXPECT_TRUE(s->blocks(b).empty());
}

// A game's chat: kept in order per game, each message found by its id; a report keeps the
// text of the chat message it is about.
TEST_P(StoreContract, ChatMessagesAndTheirReports) {
  auto s = open();
  const int64_t a = s->create_user(user("Aigerim"));
  ChatRow m;
  m.game_id = "g1";
  m.side = 1;
  m.user_id = a;
  m.name = "Aigerim";
  m.text = "сәлем <b>";
  m.created_ms = 1000;
  const int64_t first = s->add_chat(m);
  ChatRow other = m;
  other.game_id = "g2";
  s->add_chat(other);
  m.side = 0;
  m.text = "gg";
  m.created_ms = 2000;
  const int64_t second = s->add_chat(m);
  EXPECT_GT(second, first);
  const auto chat = s->game_chat("g1");
  ASSERT_EQ(chat.size(), 2u);
  EXPECT_EQ(chat[0].id, first);
  EXPECT_EQ(chat[0].side, 1);
  EXPECT_EQ(chat[0].user_id, a);
  EXPECT_EQ(chat[0].name, "Aigerim");
  EXPECT_EQ(chat[0].text, "сәлем <b>");
  EXPECT_EQ(chat[0].created_ms, 1000);
  EXPECT_EQ(chat[1].text, "gg");
  EXPECT_TRUE(s->game_chat("none").empty());
  ASSERT_TRUE(s->chat_message(second).has_value());
  EXPECT_EQ(s->chat_message(second)->game_id, "g1");
  EXPECT_FALSE(s->chat_message(second + 100).has_value());
  ReportRow r;
  r.target = a;
  r.reporter = a;
  r.game_id = "g1";
  r.reason = "chat";
  r.chat = chat[0].text;
  s->add_report(r);
  const auto list = s->list_reports(false, 10);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].chat, "сәлем <b>");
}

TEST_P(StoreContract, PairCountsAndLossesToAnAccount) {
  auto s = open();
  int64_t a = 0, b = 0;
  const GameRow base = rated_game(*s, "blitz", &a, &b);
  const int64_t c = s->create_user(user("Chingiz"));
  struct Case {
    std::string id;
    int64_t white, black;
    bool rated;
    std::string status, winner, reason;
    int64_t created_ms;
  };
  const Case cases[] = {
      {"g1", a, b, true, "over", "black", "resign", 10000},   // a lost, resigned
      {"g2", b, a, true, "over", "white", "timeout", 20000},  // a lost on time
      {"g3", a, b, true, "over", "white", "resign", 30000},   // b lost
      {"g4", a, b, false, "over", "black", "resign", 40000},  // casual
      {"g5", a, b, true, "aborted", "", "abort", 50000},      // aborted: not counted
      {"g6", a, c, true, "over", "black", "resign", 60000},   // another pair
      {"g7", b, a, true, "playing", "", "", 70000},           // being played
      {"g8", a, b, true, "over", "black", "resign", 500},     // long ago
  };
  for (const Case& k : cases) {
    GameRow g = base;
    g.id = k.id;
    g.white_user = k.white;
    g.black_user = k.black;
    g.rated = k.rated;
    g.status = k.status;
    g.winner = k.winner;
    g.reason = k.reason;
    g.created_ms = g.updated_ms = k.created_ms;
    s->save_game(g);
  }
  EXPECT_EQ(s->rated_games_between(a, b, 1000), 4);  // g1 g2 g3 g7
  EXPECT_EQ(s->rated_games_between(b, a, 1000), 4);
  EXPECT_EQ(s->rated_games_between(a, b, 0), 5);
  EXPECT_EQ(s->rated_games_between(a, b, 25000), 2);
  EXPECT_EQ(s->rated_games_between(a, c, 0), 1);
  const LossCounts lost = s->losses_to(a, b, 1000);
  EXPECT_EQ(lost.losses, 2);
  EXPECT_EQ(lost.resignations, 1);
  EXPECT_EQ(s->losses_to(a, b, 0).resignations, 2);
  EXPECT_EQ(s->losses_to(b, a, 0).losses, 1);
  EXPECT_EQ(s->losses_to(a, c, 0).losses, 1);
  EXPECT_EQ(s->losses_to(c, a, 0).losses, 0);
}

TEST_P(StoreContract, LeaderboardLeavesOutMarkedAndClosedAccounts) {
  auto s = open();
  const int64_t ids[3] = {s->create_user(user("Aigerim")), s->create_user(user("Bolat")),
                          s->create_user(user("Chingiz"))};
  const double ratings[3] = {1900, 1800, 1700};
  for (int i = 0; i < 3; ++i)
    raw("INSERT INTO ratings (user_id, category, rating, rd, volatility, games, updated_ms)"
        " VALUES (" +
        std::to_string(ids[i]) + ", 'blitz', " + std::to_string(ratings[i]) +
        ", 60, 0.06, 30, 1000)");
  auto names = [&] {
    std::vector<std::string> out;
    for (const LeaderRow& r : s->leaderboard("blitz", 110, 10)) out.push_back(r.username);
    return out;
  };
  EXPECT_EQ(names(), (std::vector<std::string>{"Aigerim", "Bolat", "Chingiz"}));
  s->set_standing(ids[0], Standing{false, true, false});
  s->set_standing(ids[2], Standing{false, false, true});
  s->set_standing(ids[1], Standing{true, false, false});  // a moderator is listed
  EXPECT_EQ(names(), (std::vector<std::string>{"Bolat"}));
  s->set_standing(ids[0], Standing{});
  EXPECT_EQ(names(), (std::vector<std::string>{"Aigerim", "Bolat"}));
}

// A rate step that is easy to follow: +100 for a win, -100 for a loss, plus a thousandth of
// the opponent's rating; the deviation 10 less.
RatingRow simple_step(const RatingRow& p, const ReplayGame& g) {
  return RatingRow{p.category,  p.rating + (g.score - 0.5) * 200 + g.opponent_rating / 1000,
                   p.rd - 10,   p.volatility,
                   p.games + 1, g.time_ms};
}

// Ends rated game `id` (white wins) at `time_ms`, rated by simple_step.
void finish_rated(Store& s, const std::string& id, int64_t white, int64_t black, int64_t time_ms) {
  GameRow g = sample(id, time_ms);
  g.white_user = white;
  g.black_user = black;
  g.rated = true;
  g.speed = "blitz";
  s.save_game(g);
  g.status = "over";
  g.winner = "white";
  g.reason = "resign";
  RateGame rate = [&](const std::optional<RatingRow>& w, const std::optional<RatingRow>& b) {
    RatingRow wr = w.value_or(RatingRow{"blitz"}), br = b.value_or(RatingRow{"blitz"});
    wr.category = br.category = "blitz";
    const ReplayGame for_white{id, time_ms, br.rating, br.rd, 1.0};
    const ReplayGame for_black{id, time_ms, wr.rating, wr.rd, 0.0};
    return std::pair{simple_step(wr, for_white), simple_step(br, for_black)};
  };
  ASSERT_TRUE(s.finish_game(g, rate, 0, 0));
}

TEST_P(StoreContract, VoidGameUndoesItsChangesAndReplaysTheLaterOnes) {
  auto s = open();
  const int64_t a = s->create_user(user("Aigerim")), b = s->create_user(user("Bolat")),
                c = s->create_user(user("Chingiz"));
  finish_rated(*s, "v1", a, b, 1000);  // a 1601.5/340 (1500 + 100 + 1.5), b 1401.5/340
  finish_rated(*s, "v2", a, c, 2000);  // a 1703.0 (1601.5 + 100 + 1.5), c 1401.6015
  finish_rated(*s, "v3", b, a, 3000);  // b 1503.203 (1401.5 + 100 + 1.703), a 1604.4015
  ASSERT_NEAR(s->ratings(a)[0].rating, 1604.4015, 1e-6);
  const double c_before = s->ratings(c)[0].rating;

  EXPECT_TRUE(s->void_game("v1", simple_step));
  // a replayed from a new rating: v2 a win against c's 1500 (1601.5), v3 a loss against b's
  // recorded 1401.5 (1601.5 - 100 + 1.4015).
  auto ra = s->ratings(a);
  ASSERT_EQ(ra.size(), 1u);
  EXPECT_NEAR(ra[0].rating, 1502.9015, 1e-6);
  EXPECT_NEAR(ra[0].rd, 330, 1e-9);
  EXPECT_EQ(ra[0].games, 2);
  EXPECT_EQ(ra[0].updated_ms, 3000);
  auto ha = s->rating_history(a);
  ASSERT_EQ(ha.size(), 2u);
  EXPECT_EQ(ha[0].game_id, "v2");
  EXPECT_NEAR(ha[0].rating_before, 1500, 1e-9);
  EXPECT_NEAR(ha[0].rating_after, 1601.5, 1e-9);
  EXPECT_NEAR(ha[1].rating_before, 1601.5, 1e-9);
  // b: v3 alone, a win against a's recorded 1703.0 from new: 1500 + 100 + 1.703.
  auto rb = s->ratings(b);
  ASSERT_EQ(rb.size(), 1u);
  EXPECT_NEAR(rb[0].rating, 1601.703, 1e-6);
  EXPECT_EQ(rb[0].games, 1);
  // c, a later opponent, is not recomputed.
  EXPECT_DOUBLE_EQ(s->ratings(c)[0].rating, c_before);
  const auto v1 = s->load_game("v1");
  ASSERT_TRUE(v1);
  EXPECT_FALSE(v1->rated);
  EXPECT_EQ(v1->white_diff, 0);
  EXPECT_EQ(v1->status, "over");
  // Once: a second void, or one of a game without changes, writes nothing.
  EXPECT_FALSE(s->void_game("v1", simple_step));
  EXPECT_FALSE(s->void_game("nothing", simple_step));
  // A player left with no rated game in the category has no rating there.
  EXPECT_TRUE(s->void_game("v3", simple_step));
  EXPECT_TRUE(s->ratings(b).empty());
  EXPECT_EQ(s->ratings(a)[0].games, 1);
  EXPECT_NEAR(s->ratings(a)[0].rating, 1601.5, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Sqlite, StoreContract, testing::Values(Backend::Sqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, StoreContract, testing::Values(Backend::Postgres));

// The first schema, as toguz wrote it before tags and before schema versions.
constexpr const char* kFirstSqliteSchema = R"SQL(
CREATE TABLE games (
  id TEXT PRIMARY KEY, mode TEXT NOT NULL, variant TEXT NOT NULL, tuz INTEGER NOT NULL,
  play_out INTEGER NOT NULL, start_position TEXT NOT NULL,
  white_name TEXT NOT NULL, black_name TEXT NOT NULL, white_token TEXT NOT NULL,
  black_token TEXT NOT NULL, invite TEXT NOT NULL, white_seated INTEGER NOT NULL,
  black_seated INTEGER NOT NULL, engine_side INTEGER NOT NULL, level INTEGER NOT NULL,
  clock_initial_ms INTEGER NOT NULL, clock_increment_ms INTEGER NOT NULL,
  white_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL, status TEXT NOT NULL,
  winner TEXT NOT NULL, reason TEXT NOT NULL, score TEXT NOT NULL, moves INTEGER NOT NULL,
  created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL, review TEXT NOT NULL DEFAULT '');
CREATE INDEX games_created ON games(created_ms);
CREATE INDEX games_status ON games(status);
CREATE TABLE moves (
  game_id TEXT NOT NULL, ply INTEGER NOT NULL, hole INTEGER NOT NULL,
  white_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL,
  PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
INSERT INTO games VALUES ('old', 'online', 'standard', 1, 0, 'start', 'Aigerim', 'Bolat', 'wt',
  'bt', 'inv', 1, 1, -1, 0, 600000, 2000, 590000, 595000, 'playing', '', '', '', 2, 10, 20, '');
INSERT INTO moves VALUES ('old', 1, 7, 590000, 600000), ('old', 2, 3, 590000, 595000);
)SQL";

int sqlite_int(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* st = nullptr;
  int v = -1;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    v = sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return v;
}

TEST(SqliteMigration, FileFromBeforeTagsAndVersionsOpensMigrated) {
  Scratch dir;
  const std::string db = dir.path + "/old.db";
  sqlite_exec(db, kFirstSqliteSchema);
  {
    SqliteStore s(db);
    auto g = s.load_game("old");
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(g->white_name, "Aigerim");
    EXPECT_EQ(g->black_ms, 595000);
    EXPECT_EQ(g->holes, (std::vector<int>{7, 3}));
    EXPECT_TRUE(g->tags.empty());
    GameRow h = *g;
    h.tags = {{"Event", "Open"}};
    s.save_game(h);
  }
  EXPECT_EQ(sqlite_int(db, "SELECT MAX(version) FROM schema_version"), kSchemaVersion);
  EXPECT_EQ(sqlite_int(db, "SELECT COUNT(*) FROM schema_version"), migration_count());
  SqliteStore s(db);
  EXPECT_EQ(s.load_game("old")->tags,
            (std::vector<std::pair<std::string, std::string>>{{"Event", "Open"}}));
}

TEST(SqliteMigration, FileWithTagsButNoVersionsIsTakenAsVersionTwo) {
  Scratch dir;
  const std::string db = dir.path + "/tags.db";
  sqlite_exec(db, std::string(kFirstSqliteSchema) +
                      "ALTER TABLE games ADD COLUMN tags TEXT NOT NULL DEFAULT '';"
                      "UPDATE games SET tags = '[[\"Site\",\"Bishkek\"]]';");
  SqliteStore s(db);
  auto g = s.load_game("old");
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->tags, (std::vector<std::pair<std::string, std::string>>{{"Site", "Bishkek"}}));
  // Versions 1 and 2 recorded as found, then the later ones applied.
  EXPECT_EQ(sqlite_int(db, "SELECT COUNT(*) FROM schema_version"), migration_count());
  EXPECT_EQ(g->white_user, 0);
  EXPECT_FALSE(g->rated);
}

// Every schema version the project has shipped, made by that version's own migrations (the
// schema_version table as the store keeps it) with a game and its moves in it, opens migrated
// to the current version: the game loads, and what the later versions added works.
TEST(SqliteMigration, EveryShippedVersionUpgradesToTheCurrent) {
  const std::vector<int> versions = sqlite_schema_versions();
  ASSERT_EQ(versions.back(), kSchemaVersion);
  for (int have : versions) {
    SCOPED_TRACE("a file of schema version " + std::to_string(have));
    Scratch dir;
    const std::string db = dir.path + "/v" + std::to_string(have) + ".db";
    std::string sql =
        "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_ms INTEGER NOT NULL);";
    for (int v : versions) {
      if (v > have) break;
      sql += sqlite_migration_sql(v) + ";\nINSERT INTO schema_version VALUES (" +
             std::to_string(v) + ", 0);";
    }
    // The game as version 1 wrote it (later columns take their defaults).
    sql += R"SQL(
INSERT INTO games (id, mode, variant, tuz, play_out, start_position, white_name, black_name,
  white_token, black_token, invite, white_seated, black_seated, engine_side, level,
  clock_initial_ms, clock_increment_ms, white_ms, black_ms, status, winner, reason, score, moves,
  created_ms, updated_ms)
VALUES ('old', 'online', 'standard', 1, 0, 'start', 'Aigerim', 'Bolat', 'wt', 'bt', 'inv', 1, 1,
  -1, 0, 600000, 2000, 590000, 595000, 'playing', '', '', '', 2, 10, 20);
INSERT INTO moves VALUES ('old', 1, 7, 590000, 600000), ('old', 2, 3, 590000, 595000);
)SQL";
    sqlite_exec(db, sql);
    {
      SqliteStore s(db);
      auto g = s.load_game("old");
      ASSERT_TRUE(g.has_value());
      EXPECT_EQ(g->holes, (std::vector<int>{7, 3}));
      EXPECT_EQ(g->white_name, "Aigerim");
      const int64_t u = s.create_user(user("Aigerim"));
      EXPECT_GT(u, 0);
      s.set_settings(u, R"({"blind":true})", 0);
      EXPECT_EQ(s.settings(u), R"({"blind":true})");
      GameRow h = *g;
      h.tags = {{"Event", "Open"}};
      s.save_game(h);
      s.add_move(h, 3, 5);
      EXPECT_EQ(s.load_game("old")->holes, (std::vector<int>{7, 3, 5}));
      ChatRow m;
      m.game_id = "old";
      m.text = "gg";
      EXPECT_GT(s.add_chat(m), 0);
      EXPECT_EQ(s.game_chat("old").size(), 1u);
    }
    EXPECT_EQ(sqlite_int(db, "SELECT MAX(version) FROM schema_version"), kSchemaVersion);
    EXPECT_EQ(sqlite_int(db, "SELECT COUNT(*) FROM schema_version"), int(versions.size()));
  }
}

TEST(SqliteMigration, UnopenableFileIsNamed) {
  try {
    SqliteStore s("/nonexistent-folder/x/toguz.db");
    FAIL() << "opened";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-folder/x/toguz.db"), std::string::npos)
        << e.what();
  }
}

TEST(PostgresMigration, VersionOneDatabaseGainsTags) {
  NEED_PG(pg);
  const std::string url = pg->create_database();
  {
    pqxx::connection c(url);
    pqxx::work w(c);
    w.exec(pg_migrations().at(0).sql);
    w.exec(
        "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_ms BIGINT NOT NULL);"
        "INSERT INTO schema_version VALUES (1, 0);"
        "INSERT INTO games VALUES ('old', 'online', 'standard', true, false, 'start', 'Aigerim',"
        " 'Bolat', 'wt', 'bt', 'inv', true, true, -1, 0, 600000, 2000, 590000, 595000,"
        " 'playing', '', '', '', 1, 10, 20, '', 'aigerim', 'bolat');"
        "INSERT INTO moves VALUES ('old', 1, 7, 590000, 600000);");
    w.commit();
  }
  PgStore s(url);
  auto g = s.load_game("old");
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->holes, (std::vector<int>{7}));
  EXPECT_TRUE(g->tags.empty());
  ListQuery q;
  q.player = "AIGER";
  int64_t total = 0;
  EXPECT_EQ(s.list_games(q, &total).size(), 1u);
  pqxx::connection c(url);
  pqxx::work w(c);
  EXPECT_EQ(w.exec("SELECT MAX(version) FROM schema_version")[0][0].as<int>(), kSchemaVersion);
}

TEST(PostgresStore, BadUrlIsNamedWithoutItsPassword) {
  // Port 1 on loopback: nothing listens there.
  try {
    open_store("postgresql://toguz:secret@127.0.0.1:1/nodb");
    FAIL() << "connected";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("postgresql://toguz:***@127.0.0.1:1/nodb"), std::string::npos) << what;
    EXPECT_EQ(what.find("secret"), std::string::npos) << what;
  }
}

TEST(PostgresStore, TextIsStoredAsValidUtf8) {
  NEED_PG(pg);
  PgStore s(pg->create_database());
  GameRow g = sample("g1", 1);
  g.white_name = std::string(
                     "a\xff"
                     "b") +
                 '\0' + "c";
  g.tags = {{"Event", "\xd0"}};  // a character cut in half
  s.save_game(g);
  auto back = s.load_game("g1");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->white_name,
            "a\xef\xbf\xbd"
            "bc");
  ASSERT_EQ(back->tags.size(), 1u);
  EXPECT_EQ(back->tags[0].second, "\xef\xbf\xbd");
}

// Instances that start together on one new database migrate it once; writers on one game
// from several connections never duplicate a ply.
TEST(PostgresStore, ConcurrentOpenAndWrites) {
  NEED_PG(pg);
  const std::string url = pg->create_database();
  constexpr int kWriters = 4, kPlies = 40;
  std::vector<std::string> errors(kWriters);
  std::vector<std::thread> threads;
  for (int t = 0; t < kWriters; ++t)
    threads.emplace_back([&, t] {
      try {
        PgStore s(url);
        GameRow g = sample("shared", 1);
        for (int ply = 1; ply <= kPlies; ++ply) {
          g.moves = ply;
          s.add_move(g, ply, 1 + (ply + t) % 9);
        }
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  for (auto& th : threads) th.join();
  for (const std::string& e : errors) EXPECT_EQ(e, "");
  PgStore s(url);
  auto g = s.load_game("shared");
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->holes.size(), size_t(kPlies));
  EXPECT_EQ(g->moves, kPlies);
  pqxx::connection c(url);
  pqxx::work w(c);
  EXPECT_EQ(w.exec("SELECT COUNT(*) FROM schema_version")[0][0].as<int>(), migration_count());
  EXPECT_EQ(w.exec("SELECT COUNT(*) FROM moves")[0][0].as<int>(), kPlies);
}

// Attempts at one puzzle from several instances at once: one account's repeated attempts are
// rated once, and the other accounts' attempts each move the puzzle (none lost to another).
TEST(PostgresStore, ConcurrentPuzzleAttemptsAreRatedOnceEach) {
  NEED_PG(pg);
  const std::string url = pg->create_database();
  constexpr int kWriters = 4, kAccounts = 3;
  std::vector<int64_t> ids;
  {
    PgStore s(url);
    for (int i = 0; i < kAccounts; ++i)
      ids.push_back(s.create_user(user("Solver" + std::to_string(i))));
  }
  std::vector<std::string> errors(kWriters);
  std::vector<int> rated(kWriters, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kWriters; ++t)
    threads.emplace_back([&, t] {
      try {
        PgStore s(url);
        for (int64_t id : ids) {
          const AttemptResult r = s.rate_puzzle_attempt(
              {id, "p1", true, 0, 0, 0, 0, 1000 + t}, RatingRow{"puzzle", 1500, 350, 0.06, 0, 0},
              RatingRow{"p1", 1500, 350, 0.06, 0, 0},
              [](const RatingRow& player, const RatingRow& puzzle) {
                return std::pair{
                    RatingRow{"puzzle", player.rating + 10, 300, 0.06, player.games + 1, 1},
                    RatingRow{"p1", puzzle.rating - 10, 300, 0.06, puzzle.games + 1, 1}};
              });
          rated[t] += r.rated;
        }
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  for (auto& th : threads) th.join();
  for (const std::string& e : errors) EXPECT_EQ(e, "");
  int total = 0;
  for (int r : rated) total += r;
  EXPECT_EQ(total, kAccounts);
  PgStore s(url);
  for (int64_t id : ids) {
    EXPECT_EQ(s.puzzle_player_rating(id)->games, 1);
    EXPECT_DOUBLE_EQ(s.puzzle_player_rating(id)->rating, 1510);
  }
  EXPECT_EQ(s.puzzle_rating("p1")->games, kAccounts);
  EXPECT_DOUBLE_EQ(s.puzzle_rating("p1")->rating, 1500 - 10 * kAccounts);
}

TEST(PostgresStore, ConnectsAgainWhenTheConnectionIsLost) {
  NEED_PG(pg);
  const std::string url = pg->create_database();
  PgStore s(url);
  s.save_game(sample("g1", 1));
  {
    pqxx::connection admin(pg->url("postgres"));
    pqxx::nontransaction n(admin);
    const auto r =
        n.exec_params("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
                      url.substr(url.rfind('/') + 1));
    ASSERT_EQ(r.size(), 1u);  // the store's connection, now cut
  }
  GameRow g = sample("g2", 2);
  g.moves = 1;
  s.add_move(g, 1, 5);
  auto back = s.load_game("g2");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->holes, (std::vector<int>{5}));
  EXPECT_TRUE(s.load_game("g1").has_value());
}

// A group whose connection is cut in the middle: every write of it is reported failed (the
// ones before the cut went with the transaction), none is stored, and the next call connects
// again.
TEST(PostgresStore, AGroupOnALostConnectionFailsWhole) {
  NEED_PG(pg);
  const std::string url = pg->create_database();
  PgStore s(url);
  GameRow g = sample("g1", 1);
  s.save_game(g);
  g.moves = 1;
  std::vector<std::exception_ptr> errors;
  s.write_group({[&] { s.add_move(g, 1, 5); },
                 [&] {
                   pqxx::connection admin(pg->url("postgres"));
                   pqxx::nontransaction n(admin);
                   n.exec_params(
                       "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
                       url.substr(url.rfind('/') + 1));
                   s.save_game(sample("g2", 2));
                 },
                 [&] { s.save_game(sample("g3", 3)); }},
                &errors);
  ASSERT_EQ(errors.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(errors[i]) << "write " << i;
  auto back = s.load_game("g1");  // connects again
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(back->holes.empty());
  EXPECT_FALSE(s.load_game("g2").has_value());
  EXPECT_FALSE(s.load_game("g3").has_value());
  s.add_move(g, 1, 5);
  EXPECT_EQ(s.load_game("g1")->holes, (std::vector<int>{5}));
}

TEST(StoreUrl, PicksTheBackendByPrefix) {
  EXPECT_TRUE(is_postgres_url("postgresql://u@h/db"));
  EXPECT_TRUE(is_postgres_url("postgres://h/db"));
  EXPECT_FALSE(is_postgres_url("data/toguz.db"));
  EXPECT_FALSE(is_postgres_url("postgresql.db"));
  EXPECT_EQ(redact_url("postgresql://u:pw@h:5/db?sslmode=require&password=x&a=b"),
            "postgresql://u:***@h:5/db?sslmode=require&password=***&a=b");
  EXPECT_EQ(redact_url("postgresql://u@h/db"), "postgresql://u@h/db");
  Scratch dir;
  auto s = open_store(dir.path + "/x.db");
  EXPECT_NE(dynamic_cast<SqliteStore*>(s.get()), nullptr);
}

TEST(FoldCase, LatinCyrillicKazakhAndKyrgyz) {
  EXPECT_EQ(fold_case("AbC xyz"), "abc xyz");
  EXPECT_EQ(fold_case("ÀÉÞ×"), "àéþ×");  // × (U+00D7) has no lower case
  EXPECT_EQ(fold_case("АЙГЕРИМ ЁІ"), "айгерим ёі");
  EXPECT_EQ(fold_case("ӘҒҚҢӨҰҮҺ Ӏ"), "әғқңөұүһ ӏ");
  EXPECT_EQ(fold_case("ӨҢҮ"), "өңү");          // Kyrgyz
  EXPECT_EQ(fold_case("日本 ΑΒ"), "日本 ΑΒ");  // other scripts as they are
}

}  // namespace
