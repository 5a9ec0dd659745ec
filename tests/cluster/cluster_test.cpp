// The cluster (docs/cluster.md): PostgreSQL, Redis, three `toguz serve --redis` instances and
// two `toguz worker`s on loopback, each a process of its own, and nginx in front (its config
// docs/nginx.conf with the test's ports and folders). Two players of one online game connect to
// different instances and a spectator to the third; they play to the end while the instance
// driving the game is killed (-9) in the middle: the game goes on elsewhere with every move in
// the store. Then a review runs on a worker that is killed (-9) and completes on the other.
// The lobby spans the instances: a seek made on one is listed and accepted on another, and two
// accepts of one seek on two instances make one game. Two players waiting in a pool on two
// instances get one game. A tournament made on one instance and joined on the two others is
// paired once, by the coordinator; the coordinator is killed (-9), another takes over from the
// store, and the game's end, on whichever instance drives it then, is the tournament's result.
// A logout on one instance closes the account's sockets on another.
// Every wait is for a condition with a generous deadline (a loaded 2-core machine); a needed
// binary that is absent skips with the reason.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <pqxx/pqxx>
#include <sstream>
#include <thread>

#include "../store/pg_cluster.h"
#include "../unit/redis_server.h"
#include "../unit/server_client.h"
#include "bus/redis.h"

namespace toguz::test {
namespace {

using std::chrono::seconds;
using Clock = std::chrono::steady_clock;

// A child process with its output in `log`, killed with the test at the latest.
struct Proc {
  pid_t pid = -1;
  std::string log;
  Proc() = default;
  Proc(const std::vector<std::string>& argv, std::string log_path) : log(std::move(log_path)) {
    pid = fork();
    if (pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(fd, 1);
      dup2(fd, 2);
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
  }
  void kill9() {
    if (pid <= 0) return;
    ::kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    pid = -1;
  }
  bool running() const { return pid > 0 && waitpid(pid, nullptr, WNOHANG) == 0; }
  // Its exit status once it exited within `limit` (-1: it did not; it runs on).
  int wait_exit(seconds limit) {
    const auto deadline = Clock::now() + limit;
    while (pid > 0 && Clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid, &status, WNOHANG) == pid) {
        pid = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -1;
  }
  // SIGTERM, then wait_exit(limit).
  int terminate(seconds limit) {
    if (pid > 0) ::kill(pid, SIGTERM);
    return wait_exit(limit);
  }
  std::string output() const {
    std::ifstream in(log);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  ~Proc() { kill9(); }
  Proc(const Proc&) = delete;
  Proc& operator=(const Proc&) = delete;
};

// Polls `cond` every 50 ms until it holds or `limit` passed.
bool wait_for(const std::function<bool()>& cond, seconds limit = seconds(60)) {
  const auto deadline = Clock::now() + limit;
  while (Clock::now() < deadline) {
    if (cond()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return cond();
}

std::string nginx_binary() {
  if (const char* p = std::getenv("TOGUZ_NGINX"); p && *p) return p;
  std::string found = find_program("nginx");
  if (found.empty() && access("/usr/sbin/nginx", X_OK) == 0) found = "/usr/sbin/nginx";
  return found;
}

std::string first_legal_hole(const json::object& state) {
  const json::array& legal = state.at("legal").as_array();
  return legal.empty() ? "" : std::to_string(legal.at(0).as_int64());
}

class ClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access(TOGUZ_BINARY, X_OK) != 0) GTEST_SKIP() << "no toguz binary at " TOGUZ_BINARY;
    TOGUZ_START_REDIS(redis_);
    if (skip_pg()) GTEST_SKIP() << "TOGUZ_SKIP_PG is set";
    std::string why;
    PgCluster* pg = shared_pg_cluster(&why);
    ASSERT_TRUE(pg) << why;
    db_ = pg->create_database();
    for (int i = 0; i < 3; ++i) start_instance(i);
    for (int i = 0; i < 3; ++i)
      ASSERT_TRUE(wait_for([&] { return http_get(ports_[i], "/api/health").status == 200; }))
          << "instance " << i << " did not come up:\n"
          << servers_[i]->output();
    for (int i = 0; i < 2; ++i)
      workers_[i] = std::make_unique<Proc>(
          std::vector<std::string>{TOGUZ_BINARY, "worker", "--redis", redis_.url(), "--threads",
                                   "1", "--claim-idle-ms", "2000"},
          dir_.path.string() + "/worker" + std::to_string(i) + ".log");
  }

  // Starts instance `i` (again on its port when it ran before).
  void start_instance(int i) {
    if (ports_[i] == 0) ports_[i] = free_port();
    if (metrics_ports_[i] == 0) metrics_ports_[i] = free_port();
    servers_[i] = std::make_unique<Proc>(
        std::vector<std::string>{
            TOGUZ_BINARY, "serve", "--host", "127.0.0.1", "--port", std::to_string(ports_[i]),
            "--db", db_, "--redis", redis_.url(), "--lease-ms", "1500", "--workers", "1",
            "--static", "", "--metrics-listen", "127.0.0.1:" + std::to_string(metrics_ports_[i]),
            "--puzzles", "", "--studies", "", "--review-nodes", "300000",
            "--max-connections-per-address", "10000",
            // a takeover may outlast the default time for a first move
            "--first-move-seconds", "600",
            // new accounts create its tournament
            "--tournament-min-rated-games", "0",
            // it moves as fast as the servers answer
            "--max-messages-per-second", "100000",
            // its games start one after another
            "--online-games-per-address", "10000",
            // its clients send no keep-alive while a review runs
            "--silent-socket-seconds", "600"},
        dir_.path.string() + "/serve" + std::to_string(i) + "-" + std::to_string(starts_[i]++) +
            ".log");
  }

  // The instance whose lease holds game `id` now (-1: none).
  int driver_of(const std::string& id) {
    bus::Connection c(redis_.url());
    const bus::Reply r = c.command({"GET", "toguz:game:" + id + ":lease"});
    if (r.nil()) return -1;
    for (int i = 0; i < 3; ++i)
      if (servers_[i] &&
          r.str.find("-" + std::to_string(servers_[i]->pid) + "-") != std::string::npos)
        return i;
    return -1;
  }

  std::string logs() const {
    std::string out;
    for (int i = 0; i < 3; ++i)
      if (servers_[i]) out += "--- serve " + std::to_string(i) + "\n" + servers_[i]->output();
    for (int i = 0; i < 2; ++i)
      if (workers_[i]) out += "--- worker " + std::to_string(i) + "\n" + workers_[i]->output();
    return out;
  }

  // The moves of game `id` in the store, in order, and its status.
  std::vector<int> stored_moves(const std::string& id, std::string* status,
                                std::string* review = nullptr) {
    pqxx::connection c(db_);
    pqxx::work tx(c);
    std::vector<int> holes;
    for (const auto& row :
         tx.exec_params("SELECT hole FROM moves WHERE game_id = $1 ORDER BY ply", id))
      holes.push_back(row[0].as<int>());
    const auto g = tx.exec_params("SELECT status, review FROM games WHERE id = $1", id);
    if (!g.empty()) {
      *status = g[0][0].as<std::string>();
      if (review) *review = g[0][1].as<std::string>();
    }
    return holes;
  }

  TempDir dir_;
  RedisServer redis_;
  std::string db_;
  int ports_[3] = {0, 0, 0};
  int metrics_ports_[3] = {0, 0, 0};  // their operator's listeners (toguz admin drain)
  int starts_[3] = {0, 0, 0};         // each instance's log is serve<i>-<start>.log
  std::unique_ptr<Proc> servers_[3];
  std::unique_ptr<Proc> workers_[2];
};

// An online game's two players and its watchers; each client's latest state.
struct Table {
  std::unique_ptr<WsClient> white, black;
  std::vector<std::unique_ptr<WsClient>> watchers;
  std::vector<int> holes;  // the moves made, in order
  std::string status = "playing";
  std::map<WsClient*, json::object> last;  // each client's latest state read
  std::string errors;                      // the error messages the clients got

  // Client `c`'s state at `ply`: the latest one read, else the next one that comes.
  std::optional<json::object> state_at(WsClient* c, int ply) {
    if (auto it = last.find(c); it != last.end() && jint(it->second.at("ply")) == ply)
      return it->second;
    auto m = c->read_until([&](const json::object& m) {
      if (jstr(m.at("type")) == "error") errors += json::serialize(m) + "\n";
      return jstr(m.at("type")) == "state" && jint(m.at("game").at("ply")) == ply;
    });
    if (!m) return std::nullopt;
    last[c] = m->at("game").as_object();
    return last[c];
  }

  std::vector<WsClient*> all() {
    std::vector<WsClient*> out{white.get(), black.get()};
    for (auto& w : watchers) out.push_back(w.get());
    return out;
  }
  // Every client's state at ply `ply`; the mover's state into *mover_state.
  ::testing::AssertionResult sync(int ply, json::object* white_state, json::object* black_state) {
    int i = 0;
    for (WsClient* c : all()) {
      auto s = state_at(c, ply);
      if (!s)
        return ::testing::AssertionFailure()
               << "client " << i << ": no state at ply " << ply << "; errors: " << errors;
      if (i == 0) *white_state = *s;
      if (i == 1) *black_state = *s;
      status = jstr(s->at("status"));
      ++i;
    }
    return ::testing::AssertionSuccess();
  }
  // Plays first legal moves from ply `ply` until `until` (or the end); the ply reached.
  ::testing::AssertionResult play(int* ply, int until) {
    json::object ws, bs;
    if (auto r = sync(*ply, &ws, &bs); !r) return r;
    while (*ply < until && status == "playing") {
      const bool white_moves = jstr(ws.at("to_move")) == "white";
      const std::string hole = first_legal_hole(white_moves ? ws : bs);
      if (hole.empty()) return ::testing::AssertionFailure() << "no legal move at ply " << *ply;
      (white_moves ? white : black)
          ->send(json::object{{"type", "move"}, {"hole", std::stoi(hole)}, {"ply", *ply}});
      holes.push_back(std::stoi(hole));
      ++*ply;
      if (auto r = sync(*ply, &ws, &bs); !r) return r;
    }
    return ::testing::AssertionSuccess();
  }
};

// A connection to `port` for game `id` that got the state at `ply` (kept in `t`), retried while
// the game moves to another instance.
std::unique_ptr<WsClient> reconnect(Table& t, uint16_t port, const std::string& id,
                                    const std::string& token, int ply) {
  const auto deadline = Clock::now() + seconds(90);
  while (Clock::now() < deadline) {
    auto c = std::make_unique<WsClient>(port, id, token);
    if (c->ok() && t.state_at(c.get(), ply)) return c;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return nullptr;
}

// Creates an online game on `create_port`, joined through `join_port`; the id and tokens.
void new_game(uint16_t create_port, uint16_t join_port, std::string* id, std::string* white,
              std::string* black) {
  HttpResult c =
      http_post(create_port, "/api/games",
                json::value(json::object{
                    {"mode", "online"},
                    {"name", "Айгерим"},
                    {"clock", json::object{{"initial_ms", 3600000}, {"increment_ms", 0}}}}));
  ASSERT_EQ(c.status, 200) << c.body;
  *id = jstr(c.json().at("id"));
  *white = jstr(c.json().at("token"));
  HttpResult j =
      http_post(join_port, "/api/games/" + *id + "/join",
                json::value(json::object{{"invite", c.json().at("invite")}, {"name", "Bolat"}}));
  ASSERT_EQ(j.status, 200) << j.body;
  *black = jstr(j.json().at("token"));
  ASSERT_EQ(jstr(j.json().at("side")), "black");
}

TEST_F(ClusterTest, TheDriverAndAWorkerDieAndTheGameAndReviewGoOn) {
  std::string id, wt, bt;
  new_game(ports_[0], ports_[1], &id, &wt, &bt);
  ASSERT_EQ(driver_of(id), 0) << logs();
  // Its state through an instance that does not drive it.
  HttpResult got = http_get(ports_[2], "/api/games/" + id);
  ASSERT_EQ(got.status, 200) << got.body;
  EXPECT_EQ(jstr(got.json().at("game").at("players").at("black").at("name")), "Bolat");

  Table t;
  t.white = std::make_unique<WsClient>(ports_[0], id, wt);
  t.black = std::make_unique<WsClient>(ports_[1], id, bt);
  t.watchers.push_back(std::make_unique<WsClient>(ports_[2], id));
  int ply = 0;
  ASSERT_TRUE(t.play(&ply, 12)) << logs();
  ASSERT_EQ(ply, 12);

  // The driver dies; White's page reconnects to another instance, Black and the spectator stay
  // on theirs, and the game goes on.
  servers_[0]->kill9();
  t.last.clear();  // every client waits for a state from the new driver
  t.white = reconnect(t, ports_[2], id, wt, ply);
  ASSERT_TRUE(t.white) << "White could not reconnect\n" << logs();
  ASSERT_TRUE(wait_for([&] { return driver_of(id) == 1 || driver_of(id) == 2; })) << logs();
  json::object ws, bs;
  ASSERT_TRUE(t.sync(ply, &ws, &bs)) << logs();
  // The clocks stayed paused while nobody drove the game and run again now.
  EXPECT_TRUE(ws.at("clock").at("running").is_string()) << json::serialize(ws);
  ASSERT_TRUE(t.play(&ply, 100000)) << logs();
  ASSERT_EQ(t.status, "over") << "ply " << ply;

  std::string status;
  EXPECT_EQ(stored_moves(id, &status), t.holes);
  EXPECT_EQ(status, "over");

  // A review on a worker that dies: the other worker takes the job over and completes it.
  WsClient& spectator = *t.watchers[0];
  spectator.send(json::object{{"type", "review"}});
  auto first = spectator.read_type("review");
  ASSERT_TRUE(first) << logs();
  ASSERT_FALSE(first->at("done").as_bool()) << "the review ended before a worker was killed";
  bus::Connection redis(redis_.url());
  int victim = -1;
  ASSERT_TRUE(wait_for([&] {
    const bus::Reply r = redis.command({"XPENDING", "toguz:jobs", "workers", "-", "+", "10"});
    for (const bus::Reply& e : r.elements) {
      if (!e.is_array() || e.elements.size() < 2) continue;
      for (int i = 0; i < 2; ++i)
        if (e.elements[1].str.find("-" + std::to_string(workers_[i]->pid) + "-") !=
            std::string::npos)
          victim = i;
    }
    return victim >= 0;
  })) << logs();
  workers_[victim]->kill9();
  auto done = spectator.read_until([](const json::object& m) {
    return jstr(m.at("type")) == "review" && m.at("done").as_bool();
  });
  ASSERT_TRUE(done) << logs();
  EXPECT_EQ(done->at("moves").as_array().size(), t.holes.size());
  // The worker logs the job once it has posted the result.
  EXPECT_TRUE(wait_for([&] {
    return workers_[1 - victim]->output().find("delivery 2") != std::string::npos;
  })) << logs();
  std::string review;
  stored_moves(id, &status, &review);
  EXPECT_NE(review.find("\"moves\""), std::string::npos);
}

// A lobby socket on `port` that has read its first message (the lobby's state, in *state).
std::unique_ptr<WsClient> lobby_socket(uint16_t port, json::object* state = nullptr) {
  auto c = std::make_unique<WsClient>(port, "lobby", "", WsOptions{"", false, ""});
  auto first = c->read();
  if (!first || jstr(first->at("type")) != "lobby") return nullptr;
  if (state) *state = *first;
  return c;
}

// The seek `id` listed to `c` (a seek_added message).
bool listed(WsClient& c, const std::string& id) {
  return bool(c.read_until([&](const json::object& m) {
    return jstr(m.at("type")) == "seek_added" && jstr(m.at("seek").at("id")) == id;
  }));
}

int64_t stored_games(const std::string& db) {
  pqxx::connection c(db);
  pqxx::work tx(c);
  return tx.exec("SELECT COUNT(*) FROM games")[0][0].as<int64_t>();
}

TEST_F(ClusterTest, TheLobbySpansTheInstances) {
  auto a = lobby_socket(ports_[0]), b = lobby_socket(ports_[1]), c = lobby_socket(ports_[2]);
  ASSERT_TRUE(a && b && c) << logs();
  const json::object seek{{"type", "seek"},
                          {"variant", "standard"},
                          {"clock", json::object{{"initial_ms", 180000}, {"increment_ms", 2000}}},
                          {"color", "white"}};
  a->send(seek);
  auto created = a->read_type("seek_created");
  ASSERT_TRUE(created) << logs();
  const std::string id = jstr(created->at("id"));
  ASSERT_TRUE(listed(*b, id)) << logs();
  ASSERT_TRUE(listed(*c, id)) << logs();
  // A socket that opens later on another instance finds it in the lobby's first message.
  json::object state;
  auto late = lobby_socket(ports_[2], &state);
  ASSERT_TRUE(late);
  const json::array& seeks = state.at("seeks").as_array();
  ASSERT_EQ(seeks.size(), 1u) << json::serialize(state);
  EXPECT_EQ(jstr(seeks[0].at("id")), id);
  EXPECT_FALSE(seeks[0].at("mine").as_bool());

  // Accepted on instance 1: both players get the game, and their tokens open its seats.
  b->send(json::object{{"type", "accept"}, {"id", id}});
  auto b_start = b->read_type("start");
  ASSERT_TRUE(b_start) << logs();
  auto a_start = a->read_type("start");
  ASSERT_TRUE(a_start) << logs();
  EXPECT_EQ(jstr(a_start->at("game")), jstr(b_start->at("game")));
  EXPECT_EQ(jstr(a_start->at("side")), "white");
  EXPECT_EQ(jstr(b_start->at("side")), "black");
  EXPECT_TRUE(c->read_until([&](const json::object& m) {
    return jstr(m.at("type")) == "seek_removed" && jstr(m.at("id")) == id;
  })) << logs();
  const std::string game = jstr(a_start->at("game"));
  Table t;
  t.white = std::make_unique<WsClient>(ports_[0], game, jstr(a_start->at("token")));
  t.black = std::make_unique<WsClient>(ports_[1], game, jstr(b_start->at("token")));
  int ply = 0;
  ASSERT_TRUE(t.play(&ply, 4)) << logs();
  std::string status;
  EXPECT_EQ(stored_moves(game, &status), t.holes);
  EXPECT_EQ(stored_games(db_), 1);

  // Two accepts of one seek on instances 1 and 2: one game, the other accept refused.
  a->send(seek);
  created = a->read_type("seek_created");
  ASSERT_TRUE(created) << logs();
  const std::string second = jstr(created->at("id"));
  ASSERT_TRUE(listed(*b, second)) << logs();
  ASSERT_TRUE(listed(*c, second)) << logs();
  b->send(json::object{{"type", "accept"}, {"id", second}});
  c->send(json::object{{"type", "accept"}, {"id", second}});
  auto answer = [&](WsClient& x) {
    auto m = x.read_until([](const json::object& m) {
      return jstr(m.at("type")) == "start" || jstr(m.at("type")) == "error";
    });
    return m ? jstr(m->at("type")) : std::string("none");
  };
  const std::string from_b = answer(*b), from_c = answer(*c);
  EXPECT_TRUE((from_b == "start") != (from_c == "start")) << from_b << " " << from_c << logs();
  EXPECT_TRUE(from_b == "error" || from_c == "error") << from_b << " " << from_c;
  a_start = a->read_type("start");
  ASSERT_TRUE(a_start) << logs();
  EXPECT_EQ(stored_games(db_), 2);
}

TEST_F(ClusterTest, APoolPairsAcrossTheInstances) {
  auto a = lobby_socket(ports_[0]), b = lobby_socket(ports_[1]);
  ASSERT_TRUE(a && b) << logs();
  a->send(json::object{{"type", "pool_join"}, {"pool", "3+0"}});
  // Heard of on the other instance (the pools' counts are everyone's) before b joins.
  ASSERT_TRUE(b->read_until([](const json::object& m) {
    if (jstr(m.at("type")) != "pools") return false;
    for (const json::value& p : m.at("pools").as_array())
      if (jstr(p.at("id")) == "3+0" && jint(p.at("waiting")) == 1) return true;
    return false;
  })) << logs();
  b->send(json::object{{"type", "pool_join"}, {"pool", "3+0"}});
  auto a_start = a->read_type("start"), b_start = b->read_type("start");
  ASSERT_TRUE(a_start && b_start) << logs();
  EXPECT_EQ(jstr(a_start->at("game")), jstr(b_start->at("game")));
  EXPECT_NE(jstr(a_start->at("side")), jstr(b_start->at("side")));
  const std::string game = jstr(a_start->at("game"));
  Table t;
  const bool a_white = jstr(a_start->at("side")) == "white";
  t.white = std::make_unique<WsClient>(ports_[a_white ? 0 : 1], game,
                                       jstr((a_white ? a_start : b_start)->at("token")));
  t.black = std::make_unique<WsClient>(ports_[a_white ? 1 : 0], game,
                                       jstr((a_white ? b_start : a_start)->at("token")));
  int ply = 0;
  ASSERT_TRUE(t.play(&ply, 2)) << logs();
  EXPECT_EQ(stored_games(db_), 1);
}

// The instance holding the coordinator lease now (-1: none).
int coordinator_of(RedisServer& redis, std::unique_ptr<Proc> (&servers)[3]) {
  bus::Connection c(redis.url());
  const bus::Reply r = c.command({"GET", "toguz:coordinator"});
  if (r.nil()) return -1;
  for (int i = 0; i < 3; ++i)
    if (servers[i] && r.str.find("-" + std::to_string(servers[i]->pid) + "-") != std::string::npos)
      return i;
  return -1;
}

TEST_F(ClusterTest, ATournamentIsPairedOnceAndOutlivesItsCoordinator) {
  const std::string cookie[3] = {sign_up_cookie(ports_[0], "Aigerim"),
                                 sign_up_cookie(ports_[1], "Bolat"),
                                 sign_up_cookie(ports_[2], "Chingiz")};
  auto call = [&](int i, http::verb method, const std::string& target,
                  const json::object& body = {}) {
    return http_call(ports_[i], method, target,
                     method == http::verb::post ? json::serialize(body) : "",
                     {{http::field::cookie, cookie[i]}});
  };
  ASSERT_TRUE(wait_for([&] { return coordinator_of(redis_, servers_) >= 0; })) << logs();
  const int64_t later = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count() +
                        3600000;
  HttpResult r = call(0, http::verb::post, "/api/tournaments",
                      {{"name", "Кечки"},
                       {"system", "round-robin"},
                       {"initial_ms", 600000},
                       {"increment_ms", 0},
                       {"max_players", 10},
                       {"starts_at", later}});
  ASSERT_EQ(r.status, 200) << r.body << logs();
  const std::string id = jstr(r.json().at("id"));
  for (int i : {1, 2}) {
    r = call(i, http::verb::post, "/api/tournaments/" + id + "/join");
    ASSERT_EQ(r.status, 200) << r.body << logs();
  }
  r = call(0, http::verb::post, "/api/tournaments/" + id + "/start");
  ASSERT_EQ(r.status, 200) << r.body << logs();
  json::object view = r.json().at("tournament").as_object();
  ASSERT_EQ(view.at("games").as_array().size(), 1u) << json::serialize(view);
  const std::string game = jstr(view.at("games").as_array()[0].at("id"));
  // Read on every instance, it is the same; the other instances' ticks paired nothing.
  for (int i = 0; i < 3; ++i) {
    r = call(i, http::verb::get, "/api/tournaments/" + id);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json().at("tournament").at("games").as_array().size(), 1u) << r.body;
  }
  EXPECT_EQ(stored_games(db_), 1);

  // The coordinator dies; another takes over within its lease.
  const int dead = coordinator_of(redis_, servers_);
  ASSERT_GE(dead, 0);
  servers_[dead]->kill9();
  ASSERT_TRUE(wait_for([&] {
    const int c = coordinator_of(redis_, servers_);
    return c >= 0 && c != dead;
  })) << logs();
  // Bolat resigns over a socket of a live instance, whichever drives the game by then: before
  // two moves each that calls the game off, his loss by forfeit (docs/accounts.md "Fair play").
  const int live = dead == 1 ? 2 : 1;
  {
    std::unique_ptr<WsClient> ws;
    ASSERT_TRUE(wait_for([&] {
      ws = std::make_unique<WsClient>(ports_[live], game, "", WsOptions{}, cookie[1]);
      return ws->ok() && ws->read_state([](const json::object&) { return true; });
    })) << logs();
    ws->send(json::object{{"type", "resign"}});
    ASSERT_TRUE(ws->read_state([](const json::object& s) { return s.at("status") == "aborted"; }))
        << logs();
  }
  json::object after;
  ASSERT_TRUE(wait_for(
      [&] {
        r = call(live, http::verb::get, "/api/tournaments/" + id);
        if (r.status != 200) return false;
        after = r.json().at("tournament").as_object();
        return jstr(after.at("games").as_array()[0].at("result")) != "*";
      },
      seconds(120)))
      << r.body << logs();
  const bool bolat_white = after.at("games").as_array()[0].at("white_name") == "Bolat";
  EXPECT_EQ(jstr(after.at("games").as_array()[0].at("result")), bolat_white ? "-+" : "+-");
  EXPECT_EQ(after.at("games").as_array().size(), 1u);
  EXPECT_EQ(stored_games(db_), 1);

  // Sessions end on every instance: Bolat's game and lobby sockets on the other live instance
  // (the game's socket relayed when this one drives it) close when he logs out here.
  const int other = 3 - dead - live;
  WsClient lobby(ports_[other], "lobby", "", WsOptions{"", false, ""}, cookie[1]);
  WsClient watch(ports_[other], game, "", WsOptions{}, cookie[1]);
  ASSERT_TRUE(lobby.read_type("lobby")) << logs();
  ASSERT_TRUE(watch.read_type("state")) << logs();
  r = http_call(ports_[live], http::verb::post, "/api/logout", "{}",
                {{http::field::cookie, cookie[1]}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(lobby.closed_by_server()) << logs();
  EXPECT_TRUE(watch.closed_by_server()) << logs();
}

// The same deployment behind nginx (docs/nginx.conf): every request and socket goes through it,
// and a player whose instance dies reconnects through it too.
TEST_F(ClusterTest, BehindNginx) {
  const std::string nginx = nginx_binary();
  if (nginx.empty())
    GTEST_SKIP() << "nginx is not installed: run scripts/install-deps (nginx-light), or set "
                    "TOGUZ_NGINX to an nginx binary";
  std::ifstream in(TOGUZ_NGINX_CONF);
  ASSERT_TRUE(in) << "cannot read " TOGUZ_NGINX_CONF;
  std::stringstream ss;
  ss << in.rdbuf();
  std::string conf = ss.str();
  const int port = free_port();
  const std::string folder = dir_.path.string();
  // The deployment's addresses and folders become the test's.
  auto replace = [&](const std::string& what, const std::string& with) {
    ASSERT_NE(conf.find(what), std::string::npos) << "docs/nginx.conf has no '" << what << "'";
    for (size_t at = conf.find(what); at != std::string::npos;
         at = conf.find(what, at + with.size()))
      conf.replace(at, what.size(), with);
  };
  replace("listen 80;", "listen 127.0.0.1:" + std::to_string(port) + ";");
  for (int i = 0; i < 3; ++i)
    replace("server 127.0.0.1:" + std::to_string(8081 + i) + " ",
            "server 127.0.0.1:" + std::to_string(ports_[i]) + " ");
  replace("/var/lib/nginx/", folder + "/");
  replace("/var/log/nginx/", folder + "/");
  replace("/run/nginx.pid", folder + "/nginx.pid");
  { std::ofstream(folder + "/nginx.conf") << conf; }
  Proc proxy({nginx, "-e", folder + "/nginx-error.log", "-p", folder, "-c", folder + "/nginx.conf",
              "-g", "daemon off; master_process off;"},
             folder + "/nginx.out");
  ASSERT_TRUE(wait_for([&] { return http_get(port, "/api/health").status == 200; }))
      << proxy.output() << logs();

  std::string id, wt, bt;
  new_game(port, port, &id, &wt, &bt);
  Table t;
  t.white = std::make_unique<WsClient>(port, id, wt);
  t.black = std::make_unique<WsClient>(port, id, bt);
  t.watchers.push_back(std::make_unique<WsClient>(port, id));
  int ply = 0;
  ASSERT_TRUE(t.play(&ply, 8)) << logs();
  const int driver = driver_of(id);
  ASSERT_GE(driver, 0);
  servers_[driver]->kill9();
  t.last.clear();
  // Whoever was on the dead instance reconnects through nginx, which skips it.
  for (auto* slot : {&t.white, &t.black}) {
    const std::string& token = slot == &t.white ? wt : bt;
    *slot = reconnect(t, port, id, token, ply);
    ASSERT_TRUE(*slot) << logs();
  }
  t.watchers[0] = reconnect(t, port, id, "", ply);
  ASSERT_TRUE(t.watchers[0]) << logs();
  ASSERT_TRUE(t.play(&ply, 100000)) << logs();
  EXPECT_EQ(t.status, "over");
  std::string status;
  EXPECT_EQ(stored_moves(id, &status), t.holes);
  EXPECT_EQ(status, "over");
}

// ---- draining (docs/operations.md "Draining") ----

int ply_of(const json::object& game) {
  return int(jint(game.at("ply")));
}

// One game of the rolling restart's load: both players, played by one thread as fast as the
// cluster answers; a player whose socket closes reconnects to whichever instance answers, and
// a move whose state did not come back is sent again unless the state shows it made.
struct LoadGame {
  std::string id, token[2];
  const int* ports = nullptr;  // the three instances'
  std::unique_ptr<WsClient> ws[2];
  std::vector<int> holes;  // the moves whose state came back, in order
  // The games it played to their end before this one, with their moves.
  std::vector<std::pair<std::string, std::vector<int>>> over;
  int ply = 0;
  std::string to_move = "white", status = "playing", failure;
  Clock::duration max_pause{};
  std::string worst, trace;  // what happened to the move of the largest pause, to this one
  std::atomic<int> moves{0};
  std::atomic<bool> finished{false};  // over, or failed (its thread returned)
  std::atomic<bool> failed{false};    // `failure` says why

  // A socket for `side` on the first instance that answers (from instance `first` on) and the
  // state it got first.
  std::optional<json::object> connect(int side, int first) {
    const auto deadline = Clock::now() + seconds(90);
    for (int i = first; Clock::now() < deadline; ++i) {
      auto c = std::make_unique<WsClient>(ports[i % 3], id, token[side]);
      auto m = c->ok() ? c->read_type("state") : std::nullopt;
      if (m) {
        ws[side] = std::move(c);
        return m->at("game").as_object();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return std::nullopt;
  }
  // `side`'s next state at ply `at` or later, reconnecting when its socket closed.
  std::optional<json::object> state_from(int side, int at) {
    for (int tries = 0; tries < 20; ++tries) {
      if (!ws[side]) {
        auto first = connect(side, tries);
        if (!first) return std::nullopt;
        if (ply_of(*first) >= at) return first;
      }
      auto m = ws[side]->read_until([&](const json::object& m) {
        return jstr(m.at("type")) == "state" && ply_of(m.at("game").as_object()) >= at;
      });
      if (m) return m->at("game").as_object();
      ws[side].reset();
    }
    return std::nullopt;
  }
  void made(const json::object& state, int hole, Clock::time_point sent) {
    holes.push_back(hole);
    ply = ply_of(state);
    to_move = jstr(state.at("to_move"));
    status = jstr(state.at("status"));
    if (Clock::now() - sent > max_pause) {
      max_pause = Clock::now() - sent;
      worst = "game " + id + " ply " + std::to_string(ply - 1) + ":" + trace;
    }
    ++moves;
  }
  // The next move (the mover's first legal hole), sent until its state comes back.
  bool play_one() {
    const int side = to_move == "white" ? 0 : 1;
    auto view = state_from(side, ply);
    if (!view || ply_of(*view) != ply) return fail("no state at ply " + std::to_string(ply));
    if (jstr(view->at("status")) != "playing") return (status = jstr(view->at("status")), true);
    const std::string hole_text = first_legal_hole(*view);
    if (hole_text.empty()) return fail("no legal move at ply " + std::to_string(ply));
    const int hole = std::stoi(hole_text);
    const auto sent = Clock::now();
    trace.clear();
    const auto note = [&](const std::string& what) {
      trace +=
          " " + what + "@" +
          std::to_string(
              std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - sent).count());
    };
    // A move that reached a draining instance just as it handed the game over is lost with
    // its answer: the state the next driver sends (the same ply) says to send it again.
    bool send_now = true;
    for (int tries = 0; tries < 1000; ++tries) {
      if (!ws[side]) {
        auto first = connect(side, tries);
        note("reconnected");
        if (!first) return fail("cannot reconnect");
        if (ply_of(*first) == ply + 1) return (made(*first, hole, sent), true);
        send_now = true;
      }
      if (send_now) {
        ws[side]->send(json::object{{"type", "move"}, {"hole", hole}, {"ply", ply}});
        send_now = false;
      }
      auto m = ws[side]->read_until([&](const json::object& m) {
        const std::string type = jstr(m.at("type"));
        return type == "error" || (type == "state" && ply_of(m.at("game").as_object()) >= ply);
      });
      const std::string type = m ? jstr(m->at("type")) : "";
      const std::string code = type == "error" ? jstr(m->at("code")) : "";
      if (!m) {
        note("closed");
        ws[side].reset();  // closed: the state it gets on reconnecting says whether it was made
      } else if (type == "state" && ply_of(m->at("game").as_object()) > ply) {
        return (made(m->at("game").as_object(), hole, sent), true);
      } else if (type == "state") {
        note("state");  // sent again: a move already made is refused as stale
        send_now = true;
      } else if (code == "game_moving") {
        note("game_moving");
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        send_now = true;
      } else if (code == "stale") {
        note("stale");  // a move sent twice: its state (or an earlier one's) is on its way
      } else {
        return fail("ply " + std::to_string(ply) + ": " + json::serialize(*m));
      }
    }
    return fail("the move at ply " + std::to_string(ply) + " never came back");
  }
  // The game is over: the next one starts (created on instance `first`, or the next that
  // takes it: a draining instance refuses it), and both players connect.
  bool next_game(int first) {
    over.emplace_back(id, std::move(holes));
    holes.clear();
    ply = 0;
    to_move = "white";
    status = "playing";
    ws[0].reset();
    ws[1].reset();
    for (int i = first; i < first + 300; ++i) {
      HttpResult c =
          http_post(ports[i % 3], "/api/games",
                    json::value(json::object{
                        {"mode", "online"},
                        {"name", "Айгерим"},
                        {"clock", json::object{{"initial_ms", 3600000}, {"increment_ms", 0}}}}));
      HttpResult j;
      if (c.status == 200)
        j = http_post(
            ports[(i + 1) % 3], "/api/games/" + jstr(c.json().at("id")) + "/join",
            json::value(json::object{{"invite", c.json().at("invite")}, {"name", "Bolat"}}));
      if (j.status != 200) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        continue;
      }
      id = jstr(c.json().at("id"));
      token[0] = jstr(c.json().at("token"));
      token[1] = jstr(j.json().at("token"));
      if (!connect(0, i) || !connect(1, i + 1)) return fail("cannot connect to its next game");
      return true;
    }
    return fail("no instance started its next game");
  }
  bool fail(const std::string& why) {
    failure = "game " + id + ": " + why;
    failed = true;
    return false;
  }
};

// Every game made `n` moves more than in `before` (or is over).
bool moved_on(const std::vector<std::unique_ptr<LoadGame>>& games, const std::vector<int>& before,
              int n) {
  for (size_t i = 0; i < games.size(); ++i)
    if (!games[i]->finished && games[i]->moves < before[i] + n) return false;
  return true;
}

std::vector<int> move_counts(const std::vector<std::unique_ptr<LoadGame>>& games) {
  std::vector<int> out;
  for (const auto& g : games) out.push_back(g->moves);
  return out;
}

// Six online games played continuously across the three instances while each instance in turn
// drains and starts again (SIGTERM for the first two, `toguz admin drain` for the third): every
// move whose state came back is in the store once, in order, every game goes on, and the
// largest pause a player saw between sending a move and its state coming back is printed.
TEST_F(ClusterTest, ARollingRestartUnderLoadLosesNoMove) {
  constexpr int kGames = 6;
  std::vector<std::unique_ptr<LoadGame>> games;
  for (int i = 0; i < kGames; ++i) {
    auto g = std::make_unique<LoadGame>();
    new_game(ports_[i % 3], ports_[(i + 1) % 3], &g->id, &g->token[0], &g->token[1]);
    g->ports = ports_;
    ASSERT_TRUE(g->connect(0, i % 3) && g->connect(1, (i + 1) % 3)) << logs();
    games.push_back(std::move(g));
  }
  std::atomic<bool> stop{false};
  std::vector<std::thread> players;
  for (auto& g : games)
    players.emplace_back([&stop, g = g.get()] {
      for (int n = 0; !stop && g->play_one();)
        if (g->status != "playing" && !g->next_game(++n)) break;
      g->finished = true;
    });
  const auto stop_players = [&] {
    stop = true;
    for (std::thread& t : players) t.join();
    players.clear();
  };
  // (read once a game's thread has returned: `failure` is written before `failed`)
  auto failures = [&] {
    std::string out;
    for (const auto& g : games) out += g->failed ? g->failure + "\n" : "";
    return out;
  };
  EXPECT_TRUE(
      wait_for([&] { return moved_on(games, std::vector<int>(kGames, 0), 4); }, seconds(120)))
      << failures() << logs();
  for (int i = 0; i < 3 && failures().empty(); ++i) {
    const std::vector<int> before = move_counts(games);
    if (i < 2) {
      EXPECT_EQ(servers_[i]->terminate(seconds(60)), 0) << logs();
    } else {
      Proc admin({TOGUZ_BINARY, "admin", "drain", "--metrics-listen",
                  "127.0.0.1:" + std::to_string(metrics_ports_[i])},
                 dir_.path.string() + "/admin.log");
      EXPECT_EQ(admin.wait_exit(seconds(90)), 0) << admin.output() << logs();
      EXPECT_NE(admin.output().find("the server has stopped"), std::string::npos) << admin.output();
      EXPECT_EQ(servers_[i]->wait_exit(seconds(30)), 0) << logs();
    }
    start_instance(i);
    ASSERT_TRUE(wait_for([&] { return http_get(ports_[i], "/api/health").status == 200; }))
        << logs();
    // Every game goes on across the restart.
    EXPECT_TRUE(wait_for([&] { return moved_on(games, before, 3); }, seconds(120)))
        << failures() << logs();
  }
  stop_players();
  ASSERT_EQ(failures(), "") << logs();
  Clock::duration pause{};
  std::string worst;
  int total = 0;
  for (const auto& g : games) {
    std::string status;
    EXPECT_EQ(stored_moves(g->id, &status), g->holes) << "game " << g->id;
    for (const auto& [id, holes] : g->over) {
      EXPECT_EQ(stored_moves(id, &status), holes) << "game " << id;
      EXPECT_EQ(status, "over") << "game " << id;
      total += int(holes.size());
    }
    if (g->max_pause > pause) pause = g->max_pause, worst = g->worst;
    total += int(g->holes.size());
  }
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(pause).count();
  size_t played = 0;
  for (const auto& g : games) played += 1 + g->over.size();
  std::cout << "rolling restart of 3 instances: " << played << " games, " << total
            << " moves, largest pause from a move to its state " << ms << " ms (" << worst << ")"
            << std::endl;
  RecordProperty("largest_pause_ms", int(ms));
}

// One `toguz serve` on a SQLite file, stopped by SIGTERM while an online game and a game
// against the engine are played (a move of each just sent): it exits 0 within the bound, and
// started again on the same file it has every move whose state came back (and at most the one
// in flight), with the clocks paused until the player to move is back, and both games go on.
TEST(Drain, ASigtermLeavesEveryGameResumable) {
  if (access(TOGUZ_BINARY, X_OK) != 0) GTEST_SKIP() << "no toguz binary at " TOGUZ_BINARY;
  TempDir dir;
  const int port = free_port(), metrics_port = free_port();
  const std::string db = dir.path.string() + "/toguz.db";
  auto serve = [&](const std::string& log) {
    const std::vector<std::string> argv{TOGUZ_BINARY,
                                        "serve",
                                        "--host",
                                        "127.0.0.1",
                                        "--port",
                                        std::to_string(port),
                                        "--db",
                                        db,
                                        "--workers",
                                        "1",
                                        "--static",
                                        "",
                                        "--puzzles",
                                        "",
                                        "--studies",
                                        "",
                                        "--first-move-seconds",
                                        "600",
                                        "--max-messages-per-second",
                                        "100000",
                                        "--metrics-listen",
                                        "127.0.0.1:" + std::to_string(metrics_port),
                                        "--metrics-token",
                                        "sesame"};
    return std::make_unique<Proc>(argv, dir.path.string() + "/" + log);
  };
  auto server = serve("serve0.log");
  ASSERT_TRUE(wait_for([&] { return http_get(port, "/api/health").status == 200; }))
      << server->output();
  std::string id, wt, bt;
  new_game(port, port, &id, &wt, &bt);
  HttpResult e =
      http_post(port, "/api/games",
                json::value(json::object{
                    {"mode", "engine"},
                    {"color", "white"},
                    {"level", 1},
                    {"name", "Айгерим"},
                    {"clock", json::object{{"initial_ms", 3600000}, {"increment_ms", 0}}}}));
  ASSERT_EQ(e.status, 200) << e.body;
  const std::string engine_id = jstr(e.json().at("id"));
  const std::string engine_token = jstr(e.json().at("token"));

  Table t;
  t.white = std::make_unique<WsClient>(port, id, wt);
  t.black = std::make_unique<WsClient>(port, id, bt);
  int ply = 0;
  ASSERT_TRUE(t.play(&ply, 6)) << server->output();
  WsClient human(port, engine_id, engine_token);
  auto es = human.read_type("state");
  ASSERT_TRUE(es);
  std::vector<int> engine_holes;  // the human's moves whose answer came back
  for (int i = 0; i < 2; ++i) {
    const int at = ply_of(es->at("game").as_object());
    const int hole = std::stoi(first_legal_hole(es->at("game").as_object()));
    human.send(json::object{{"type", "move"}, {"hole", hole}, {"ply", at}});
    es = human.read_until([&](const json::object& m) {
      return jstr(m.at("type")) == "state" && ply_of(m.at("game").as_object()) == at + 2;
    });
    ASSERT_TRUE(es) << server->output();
  }
  const int engine_ply = ply_of(es->at("game").as_object());

  // `toguz admin drain` without the server's metrics token is refused, and the server runs on.
  Proc refused({TOGUZ_BINARY, "admin", "drain", "--metrics-listen",
                "127.0.0.1:" + std::to_string(metrics_port)},
               dir.path.string() + "/admin.log");
  EXPECT_EQ(refused.wait_exit(seconds(60)), 1) << refused.output();
  EXPECT_NE(refused.output().find("401"), std::string::npos) << refused.output();
  EXPECT_EQ(http_get(port, "/api/health").status, 200);

  // A move of each game in flight, then SIGTERM.
  json::object ws, bs;
  ASSERT_TRUE(t.sync(ply, &ws, &bs));
  const int in_flight = std::stoi(first_legal_hole(ws));
  t.white->send(json::object{{"type", "move"}, {"hole", in_flight}, {"ply", ply}});
  human.send(json::object{{"type", "move"},
                          {"hole", std::stoi(first_legal_hole(es->at("game").as_object()))},
                          {"ply", engine_ply}});
  const auto sent = Clock::now();
  EXPECT_EQ(server->terminate(seconds(30)), 0) << server->output();
  std::cout << "SIGTERM to exit: "
            << std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - sent).count()
            << " ms" << std::endl;
  EXPECT_NE(server->output().find("draining"), std::string::npos) << server->output();

  server = serve("serve1.log");
  ASSERT_TRUE(wait_for([&] { return http_get(port, "/api/health").status == 200; }))
      << server->output();
  // A spectator first: the clock stands still while the player to move is away.
  WsClient watcher(port, id);
  auto seen = watcher.read_type("state");
  ASSERT_TRUE(seen) << server->output();
  const json::object& g = seen->at("game").as_object();
  const int resumed = ply_of(g);
  ASSERT_TRUE(resumed == ply || resumed == ply + 1) << json::serialize(g);
  if (resumed == ply + 1) {
    EXPECT_EQ(jint(g.at("moves").as_array().back().at("hole")), in_flight);
    t.holes.push_back(in_flight);
  }
  EXPECT_TRUE(g.at("clock").at("running").is_null()) << json::serialize(g);
  std::vector<int> stored;
  for (const auto& m : g.at("moves").as_array()) stored.push_back(int(jint(m.at("hole"))));
  EXPECT_EQ(stored, t.holes);
  ply = resumed;
  t.last.clear();
  t.white = std::make_unique<WsClient>(port, id, wt);
  t.black = std::make_unique<WsClient>(port, id, bt);
  ASSERT_TRUE(t.play(&ply, ply + 4)) << server->output();

  // The engine's game: every move it had, and the engine answers again.
  WsClient back(port, engine_id, engine_token);
  auto state = back.read_until([&](const json::object& m) {
    return jstr(m.at("type")) == "state" && jstr(m.at("game").at("to_move")) == "white" &&
           !m.at("game").at("thinking").as_bool();
  });
  ASSERT_TRUE(state) << server->output();
  const int at = ply_of(state->at("game").as_object());
  EXPECT_TRUE(at == engine_ply || at == engine_ply + 2) << at << " vs " << engine_ply;
  back.send(json::object{{"type", "move"},
                         {"hole", std::stoi(first_legal_hole(state->at("game").as_object()))},
                         {"ply", at}});
  EXPECT_TRUE(back.read_until([&](const json::object& m) {
    return jstr(m.at("type")) == "state" && ply_of(m.at("game").as_object()) == at + 2;
  })) << server->output();
  EXPECT_EQ(server->terminate(seconds(30)), 0) << server->output();
}

}  // namespace
}  // namespace toguz::test
