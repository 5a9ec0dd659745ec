// The operator's endpoints through a real server (docs/operations.md): GET /metrics behind its
// bearer token on the public port and on a listener of its own, counting moves, refusals and
// logins; GET /api/ready apart from /api/health; and a real Prometheus (Debian's) scraping the
// server while a game is played, until its query API sees the moves.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <thread>

#include "prometheus_server.h"
#include "server_client.h"

// A namespace of its own: the unit tests are compiled as unity files.
namespace toguz::test::metrics_server {
namespace {

constexpr const char* kToken = "metrics-secret-1";

HttpResult get_metrics(uint16_t port, const std::string& token = kToken) {
  std::vector<std::pair<http::field, std::string>> headers;
  if (!token.empty()) headers.push_back({http::field::authorization, "Bearer " + token});
  return http_call(port, http::verb::get, "/metrics", "", headers);
}

// The value of the sample line `name` (with its labels as written) of a metrics text; -1 when
// it has none.
double sample(const std::string& text, const std::string& name) {
  const std::string line = "\n" + name + " ";
  const size_t at = text.find(line);
  return at == std::string::npos ? -1 : std::stod(text.substr(at + line.size()));
}

// Plays `plies` plies of a new online game between two clients.
void play_online_game(uint16_t port, int plies) {
  HttpResult r = http_post(port, "/api/games",
                           json::value(json::object{{"mode", "online"}, {"color", "white"}}));
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string id = jstr(r.json().at("id"));
  HttpResult j = http_post(
      port, "/api/games/" + id + "/join",
      json::value(json::object{{"invite", jstr(r.json().at("invite"))}, {"name", "Bolat"}}));
  ASSERT_EQ(j.status, 200) << j.body;
  WsClient w(port, id, jstr(r.json().at("token"))), b(port, id, jstr(j.json().at("token")));
  ASSERT_TRUE(w.ok() && b.ok());
  ASSERT_TRUE(play_plies(w, b, 0, plies));
  ASSERT_TRUE(w.read_state([&](const json::object& g) { return jint(g.at("ply")) == plies; }));
}

server::Config metrics_config() {
  server::Config cfg;
  cfg.max_messages_per_second = 100000;
  cfg.metrics_token = kToken;
  cfg.metrics_listen = "127.0.0.1:0";
  return cfg;
}

TEST(ServerMetrics, TokenListenerMovesRefusalsAndLogins) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string(), metrics_config());
  // The public port wants the token; the metrics listener has it too.
  HttpResult none = get_metrics(srv.port, "");
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(code_of(none), "metrics_token");
  EXPECT_EQ(get_metrics(srv.port, "wrong").status, 401);
  HttpResult ok = get_metrics(srv.port);
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(ok.content_type, "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_EQ(sample(ok.body, "toguz_moves_total"), 0);
  const uint16_t listener = srv.server->metrics_port();
  ASSERT_NE(listener, 0);
  EXPECT_NE(listener, srv.port);
  EXPECT_EQ(get_metrics(listener).status, 200);
  EXPECT_EQ(http_get(listener, "/api/health").status, 404);  // the listener serves /metrics only

  play_online_game(srv.port, 6);
  EXPECT_EQ(http_post(srv.port, "/api/login",
                      json::value(json::object{{"username", "nobody"}, {"password", "x"}}))
                .status,
            401);
  EXPECT_EQ(http_get(srv.port, "/api/nothing-here").status, 404);
  const std::string text = get_metrics(listener).body;
  EXPECT_EQ(sample(text, "toguz_moves_total"), 6) << text;
  EXPECT_EQ(sample(text, "toguz_move_state_seconds_count"), 6) << text;
  EXPECT_EQ(sample(text, "toguz_move_state_seconds_bucket{le=\"+Inf\"}"), 6) << text;
  EXPECT_EQ(sample(text, "toguz_games_live"), 1) << text;
  EXPECT_GE(sample(text, "toguz_store_commit_seconds_count"), 6) << text;
  EXPECT_EQ(sample(text, "toguz_store_write_failures_total"), 0) << text;
  EXPECT_EQ(sample(text, "toguz_logins_total{result=\"refused\"}"), 1) << text;
  EXPECT_EQ(sample(text, "toguz_refusals_total{code=\"no_endpoint\"}"), 1) << text;
  EXPECT_GT(sample(text, "process_resident_memory_bytes"), 1 << 20) << text;
  EXPECT_GE(sample(text, "toguz_engine_queue_depth"), 0) << text;
}

TEST(ServerMetrics, OffByDefaultAndReadinessApartFromLiveness) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  EXPECT_EQ(get_metrics(srv.port).body.find("toguz_moves_total"), std::string::npos);
  EXPECT_EQ(srv.server->metrics_port(), 0);
  HttpResult ready = http_get(srv.port, "/api/ready");
  EXPECT_EQ(ready.status, 200) << ready.body;
  EXPECT_EQ(ready.json().at("ready"), true);
  EXPECT_EQ(http_get(srv.port, "/api/health").status, 200);
}

// A real Prometheus scrapes the public port with the token every second while a game is
// played; its query API sees the moves counter reach the moves made.
// The operator's listener takes POST /drain (toguz admin drain) with the token, and then the
// server's drain hook runs (toguz serve makes it a SIGTERM); the public port has no /drain.
TEST(ServerMetrics, TheListenerTakesTheDrainRequest) {
  TempDir dir;
  server::Config cfg = metrics_config();
  cfg.host = "127.0.0.1";
  cfg.port = 0;
  cfg.db_path = (dir.path / "t.db").string();
  cfg.workers = 2;
  server::Server srv(cfg);
  std::atomic<int> requested{0};
  srv.on_drain_request([&] { ++requested; });
  srv.start();
  const uint16_t listener = srv.metrics_port();
  const auto drain = [&](http::verb method, const std::string& token) {
    std::vector<std::pair<http::field, std::string>> headers;
    if (!token.empty()) headers.push_back({http::field::authorization, "Bearer " + token});
    return http_call(listener, method, "/drain", "", headers);
  };
  EXPECT_EQ(drain(http::verb::post, "").status, 401);
  EXPECT_EQ(drain(http::verb::post, "wrong").status, 401);
  EXPECT_EQ(drain(http::verb::get, kToken).status, 405);
  EXPECT_EQ(http_post(srv.port(), "/drain", std::string()).status,
            405);  // the public port: a static path
  EXPECT_EQ(requested, 0);
  HttpResult ok = drain(http::verb::post, kToken);
  EXPECT_EQ(ok.status, 202) << ok.body;
  for (int i = 0; i < 2000 && requested == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(requested, 1);
  srv.stop();
}

TEST(ServerMetrics, RealPrometheusScrapesTheMoves) {
  PrometheusServer prom;
  const char* skip = std::getenv("TOGUZ_SKIP_PROMETHEUS");
  if (!prom.installed() && skip && std::string(skip) == "1")
    GTEST_SKIP() << PrometheusServer::kMissing;
  TempDir dir;
  TestServer srv((dir.path / "t.db").string(), metrics_config());
  const std::string why = prom.start(srv.port, kToken);
  ASSERT_EQ(why, "");
  play_online_game(srv.port, 8);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  double seen = -1;
  std::string last;
  while (std::chrono::steady_clock::now() < deadline && seen < 8) {
    HttpResult q = http_get(uint16_t(prom.port()), "/api/v1/query?query=toguz_moves_total");
    last = q.body;
    const json::value v = q.json();
    if (q.status == 200 && v.is_object() && v.at("status") == "success") {
      const auto& result = v.at("data").at("result").as_array();
      if (!result.empty()) seen = std::stod(jstr(result.at(0).at("value").as_array().at(1)));
    }
    if (seen < 8) std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the next scrape
  }
  EXPECT_EQ(seen, 8) << "last answer: " << last << "\nprometheus log:\n" << prom.log();
  // The target is up, scraped with the token (a 401 would make it down).
  HttpResult up = http_get(uint16_t(prom.port()), "/api/v1/query?query=up");
  EXPECT_NE(up.body.find("\"1\"]"), std::string::npos) << up.body;
}

}  // namespace
}  // namespace toguz::test::metrics_server
