// The Redis bus (src/bus): URLs and errors, pub/sub, leases, the job queue and its takeover,
// the job format and stale results; each test against a redis-server of its own.
#include <gtest/gtest.h>

#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "bus/job.h"
#include "bus/lease.h"
#include "bus/pubsub.h"
#include "bus/queue.h"
#include "bus/redis.h"
#include "cli/engine_jobs.h"
#include "redis_server.h"

namespace toguz {
namespace {

using namespace std::chrono_literals;
using bus::BusError;
using bus::Connection;

class BusTest : public ::testing::Test {
 protected:
  void SetUp() override { TOGUZ_START_REDIS(server); }
  test::RedisServer server;
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(RedisUrl, ReadsHostPortDbAndPassword) {
  bus::RedisUrl u = bus::parse_redis_url("redis://10.0.0.5:7000/3");
  EXPECT_EQ(u.host, "10.0.0.5");
  EXPECT_EQ(u.port, 7000);
  EXPECT_EQ(u.db, 3);
  u = bus::parse_redis_url("redis://cache");
  EXPECT_EQ(u.host, "cache");
  EXPECT_EQ(u.port, 6379);
  EXPECT_EQ(u.db, 0);
  u = bus::parse_redis_url("redis://bob:s3cret@[::1]:6380/");
  EXPECT_EQ(u.host, "::1");
  EXPECT_EQ(u.port, 6380);
  EXPECT_EQ(u.user, "bob");
  EXPECT_EQ(u.password, "s3cret");
  EXPECT_EQ(u.text(), "[::1]:6380/0");
}

TEST(RedisUrl, ErrorsNameWhatIsWrong) {
  const std::string expected = " (expected redis://[[user]:password@]host[:port][/db])";
  auto err = [](const char* url) { return error_of([&] { bus::parse_redis_url(url); }); };
  EXPECT_EQ(err("http://x"), "redis URL 'http://x': it must start with redis://" + expected);
  EXPECT_EQ(err("redis://h:99999"),
            "redis URL 'redis://h:99999': the port '99999' is not a number in 1..65535" + expected);
  EXPECT_EQ(err("redis://h:1/x"),
            "redis URL 'redis://h:1/x': the database 'x' is not a number" + expected);
  EXPECT_EQ(err("redis://:5"), "redis URL 'redis://:5': no host" + expected);
  EXPECT_EQ(err("redis://h:"), "redis URL 'redis://h:': empty port" + expected);
}

TEST(RedisConnection, RefusedConnectionNamesTheServer) {
  const int port = test::free_port();
  const std::string why =
      error_of([&] { Connection c("redis://127.0.0.1:" + std::to_string(port)); });
  EXPECT_EQ(why, "redis at 127.0.0.1:" + std::to_string(port) + "/0: Connection refused");
}

TEST_F(BusTest, ErrorReplyIsThrownAndTheConnectionStaysGood) {
  Connection c(server.url());
  c.command({"SET", "k", "abc"});
  EXPECT_EQ(error_of([&] {
              c.command({"INCR", "k"});
            }),
            "redis: INCR: ERR value is not an integer or out of range");
  EXPECT_TRUE(c.connected());
  EXPECT_EQ(c.command({"GET", "k"}).str, "abc");
  EXPECT_EQ(c.command_reply({"NOSUCHCOMMAND"}).type, bus::Reply::Type::Error);
}

TEST_F(BusTest, AWrongPasswordIsAClearError) {
  const std::string why =
      error_of([&] { Connection c("redis://:nope@127.0.0.1:" + std::to_string(server.port())); });
  const std::string at = "redis at 127.0.0.1:" + std::to_string(server.port()) + "/0: AUTH: ERR";
  EXPECT_EQ(why.substr(0, at.size()), at) << why;
}

TEST_F(BusTest, SelectsTheDatabaseOfTheUrl) {
  Connection db0(server.url()), db2(server.url() + "/2");
  db2.command({"SET", "k", "two"});
  EXPECT_TRUE(db0.command({"GET", "k"}).nil());
  EXPECT_EQ(db2.command({"GET", "k"}).str, "two");
}

TEST_F(BusTest, ReconnectsOnTheNextCommandAfterALoss) {
  Connection c(server.url());
  c.command({"SET", "k", "1"});
  server.stop();
  const std::string why = error_of([&] { c.command({"GET", "k"}); });
  EXPECT_NE(why.find("redis at 127.0.0.1:" + std::to_string(server.port())), std::string::npos)
      << why;
  EXPECT_FALSE(c.connected());
  ASSERT_EQ(server.launch(), "");
  EXPECT_EQ(c.command({"PING"}).str, "PONG");  // a fresh server (nothing saved): k is gone
  EXPECT_TRUE(c.command({"GET", "k"}).nil());
}

// Collects what a Subscriber delivers, for the test thread to wait on.
struct Inbox {
  std::mutex m;
  std::condition_variable cv;
  std::vector<bus::Message> messages;
  std::vector<bool> states;
  void add(const bus::Message& msg) {
    std::lock_guard lock(m);
    messages.push_back(msg);
    cv.notify_all();
  }
  void state(bool up) {
    std::lock_guard lock(m);
    states.push_back(up);
    cv.notify_all();
  }
  bool wait_messages(size_t n, std::chrono::milliseconds t = 5s) {
    std::unique_lock lock(m);
    return cv.wait_for(lock, t, [&] { return messages.size() >= n; });
  }
};

TEST_F(BusTest, PubSubDeliversChannelsAndPatternsInOrder) {
  Inbox inbox;
  bus::Subscriber sub(
      bus::parse_redis_url(server.url()), [&](const bus::Message& m) { inbox.add(m); },
      [&](bool up, const std::string&) { inbox.state(up); });
  sub.subscribe("game:1");
  sub.psubscribe("lobby:*");
  ASSERT_TRUE(sub.wait_subscribed(5s));
  Connection pub(server.url());
  EXPECT_EQ(bus::publish(pub, "game:1", "move 7"), 1);
  EXPECT_EQ(bus::publish(pub, "lobby:seeks", "seek"), 1);
  EXPECT_EQ(bus::publish(pub, "game:2", "not subscribed"), 0);
  for (int i = 0; i < 100; ++i) bus::publish(pub, "game:1", std::to_string(i));
  ASSERT_TRUE(inbox.wait_messages(102));
  std::lock_guard lock(inbox.m);
  EXPECT_EQ(inbox.messages[0].channel, "game:1");
  EXPECT_EQ(inbox.messages[0].pattern, "");
  EXPECT_EQ(inbox.messages[0].payload, "move 7");
  EXPECT_EQ(inbox.messages[1].channel, "lobby:seeks");
  EXPECT_EQ(inbox.messages[1].pattern, "lobby:*");
  EXPECT_EQ(inbox.messages[1].payload, "seek");
  for (int i = 0; i < 100; ++i) EXPECT_EQ(inbox.messages[2 + i].payload, std::to_string(i));
  EXPECT_EQ(inbox.states, std::vector<bool>{true});
}

TEST_F(BusTest, PubSubUnsubscribeStopsDelivery) {
  Inbox inbox;
  bus::Subscriber sub(bus::parse_redis_url(server.url()),
                      [&](const bus::Message& m) { inbox.add(m); });
  sub.subscribe("a");
  sub.subscribe("b");
  ASSERT_TRUE(sub.wait_subscribed(5s));
  sub.unsubscribe("a");
  ASSERT_TRUE(sub.wait_subscribed(5s));
  Connection pub(server.url());
  EXPECT_EQ(bus::publish(pub, "a", "gone"), 0);
  EXPECT_EQ(bus::publish(pub, "b", "here"), 1);
  ASSERT_TRUE(inbox.wait_messages(1));
  std::this_thread::sleep_for(50ms);
  std::lock_guard lock(inbox.m);
  ASSERT_EQ(inbox.messages.size(), 1u);
  EXPECT_EQ(inbox.messages[0].payload, "here");
}

TEST_F(BusTest, PubSubSubscribesAgainAfterRedisComesBack) {
  Inbox inbox;
  bus::Subscriber sub(
      bus::parse_redis_url(server.url()), [&](const bus::Message& m) { inbox.add(m); },
      [&](bool up, const std::string&) { inbox.state(up); }, 50ms);
  sub.subscribe("game:1");
  ASSERT_TRUE(sub.wait_subscribed(5s));
  server.stop();
  ASSERT_EQ(server.launch(), "");
  {
    // The state went down (once for each try while Redis was away: a busy machine takes a while
    // to start it again) and then up, with the subscriptions confirmed.
    std::unique_lock lock(inbox.m);
    ASSERT_TRUE(inbox.cv.wait_for(lock, 30s,
                                  [&] { return inbox.states.size() >= 3 && inbox.states.back(); }))
        << inbox.states.size() << " states";
    EXPECT_EQ(inbox.states[0], true);
    EXPECT_EQ(inbox.states[1], false);
  }
  ASSERT_TRUE(sub.wait_subscribed(5s));
  Connection pub(server.url());
  EXPECT_EQ(bus::publish(pub, "game:1", "after"), 1);
  ASSERT_TRUE(inbox.wait_messages(1));
}

TEST_F(BusTest, LeaseIsExclusiveAndOnlyItsOwnerRenewsOrReleasesIt) {
  Connection c(server.url());
  const auto a = bus::acquire_lease(c, "lease:g1", "instance-a", 10s);
  ASSERT_TRUE(a.has_value());
  EXPECT_FALSE(bus::acquire_lease(c, "lease:g1", "instance-b", 10s).has_value());
  EXPECT_EQ(bus::acquire_lease(c, "lease:g1", "instance-a", 10s), a);  // held already: same token
  EXPECT_FALSE(bus::renew_lease(c, "lease:g1", "instance-b", 10s));
  EXPECT_FALSE(bus::release_lease(c, "lease:g1", "instance-b"));
  auto holder = bus::lease_holder(c, "lease:g1");
  ASSERT_TRUE(holder.has_value());
  EXPECT_EQ(holder->owner, "instance-a");
  EXPECT_EQ(holder->token, *a);
  EXPECT_GT(holder->ttl_ms, 9000);
  EXPECT_TRUE(bus::release_lease(c, "lease:g1", "instance-a"));
  EXPECT_FALSE(bus::lease_holder(c, "lease:g1").has_value());
  const auto b = bus::acquire_lease(c, "lease:g1", "instance-b", 10s);
  ASSERT_TRUE(b.has_value());
  EXPECT_GT(*b, *a);  // a fresh acquisition: a larger fencing token
  EXPECT_EQ(error_of([&] { bus::acquire_lease(c, "lease:g1", "", 10s); }),
            "lease: the owner id is empty");
}

// Redis restarted empty loses the fencing counter: a lease taken with the newest token the store
// has for the game (its floor) still gets a larger token, so the store accepts its writes.
TEST_F(BusTest, LeaseTokenStaysAboveTheStoredFenceAfterAnEmptyRestart) {
  Connection c(server.url());
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(bus::acquire_lease(c, "lease:g1", "instance-a", 10s).has_value());
    ASSERT_TRUE(bus::release_lease(c, "lease:g1", "instance-a"));
  }
  const auto stored = bus::acquire_lease(c, "lease:g1", "instance-a", 10s);  // the store has it
  ASSERT_EQ(stored, 4);
  server.stop();
  ASSERT_EQ(server.launch(), "");  // a fresh server: nothing saved
  Connection c2(server.url());     // (an instance connects again after a restart)
  const auto after = bus::acquire_lease(c2, "lease:g1", "instance-b", 10s, *stored);
  ASSERT_TRUE(after.has_value());
  EXPECT_GT(*after, *stored);
  ASSERT_TRUE(bus::release_lease(c2, "lease:g1", "instance-b"));
  const auto next = bus::acquire_lease(c2, "lease:g1", "instance-a", 10s);  // the counter moved on
  ASSERT_TRUE(next.has_value());
  EXPECT_GT(*next, *after);
}

TEST_F(BusTest, LeaseExpiresUnlessRenewed) {
  Connection c(server.url());
  const auto a = bus::acquire_lease(c, "lease:g1", "a", 1000ms);
  ASSERT_TRUE(a.has_value());
  ASSERT_TRUE(bus::acquire_lease(c, "lease:g2", "a", 1000ms).has_value());
  // g1 is renewed for 1.5 s, past its TTL; g2 is left to expire
  for (int i = 0; i < 6; ++i) {
    std::this_thread::sleep_for(250ms);
    EXPECT_TRUE(bus::renew_lease(c, "lease:g1", "a", 1000ms)) << i;
  }
  EXPECT_FALSE(bus::acquire_lease(c, "lease:g1", "b", 1000ms).has_value());
  EXPECT_FALSE(bus::lease_holder(c, "lease:g2").has_value());
  EXPECT_FALSE(bus::renew_lease(c, "lease:g2", "a", 1000ms));  // expired: not brought back
  const auto b = bus::acquire_lease(c, "lease:g2", "b", 1000ms);
  ASSERT_TRUE(b.has_value());
  EXPECT_FALSE(bus::release_lease(c, "lease:g2", "a"));
  EXPECT_EQ(bus::lease_holder(c, "lease:g2")->owner, "b");
}

bus::Job move_job(const std::string& id, uint64_t generation) {
  bus::Job job;
  job.id = id;
  job.kind = bus::JobKind::Move;
  job.game = "g1";
  job.generation = generation;
  job.reply = "toguz:results:test";
  job.moves = {7, 3};
  job.limits.depth = 3;
  return job;
}

TEST_F(BusTest, JobQueueRoundTrip) {
  Connection c(server.url());
  bus::JobQueue q(c);
  const std::string early = q.submit(bus::job_json(move_job("j0", 1)));  // before the group
  q.create_group();
  q.create_group();  // again: no error
  const std::string id = q.submit(bus::job_json(move_job("j1", 2)));
  EXPECT_EQ(q.waiting(), 2);
  auto d0 = q.next("w1", 100ms);
  ASSERT_TRUE(d0.has_value());
  EXPECT_EQ(d0->id, early);
  auto d = q.next("w1", 100ms);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->id, id);
  EXPECT_EQ(d->deliveries, 1);
  const bus::Job job = bus::parse_job(d->job);
  EXPECT_EQ(job.id, "j1");
  EXPECT_EQ(q.pending(), 2);
  EXPECT_FALSE(q.next("w1", 50ms).has_value());  // nothing more

  bus::post_result(c, job.reply, R"({"job":"j1","kind":"move","done":true})");
  bus::ResultReader reader(c, job.reply);
  std::vector<std::string> results = reader.read(100ms);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(bus::parse_result_header(results[0]).job, "j1");
  EXPECT_TRUE(reader.read(50ms).empty());                          // read once
  EXPECT_GT(c.command({"PTTL", job.reply}).integer, 3000 * 1000);  // expires unless used

  q.ack(d0->id);
  q.ack(d->id);
  EXPECT_EQ(q.pending(), 0);
  EXPECT_EQ(c.command({"XLEN", q.config().stream}).integer, 0);  // done jobs leave the stream
}

TEST_F(BusTest, ResultListenerDeliversEveryResultOnItsThread) {
  Connection c(server.url());
  bus::post_result(c, "toguz:results:i1", "r1");  // before the listener: still read
  bus::post_result(c, "toguz:results:i1", "r2");
  Inbox inbox;
  std::thread::id listener_thread;
  bus::ResultListener listener(bus::parse_redis_url(server.url()), "toguz:results:i1",
                               [&](const std::string& r) {
                                 listener_thread = std::this_thread::get_id();
                                 inbox.add(bus::Message{"", "", r});
                               });
  ASSERT_TRUE(inbox.wait_messages(2));
  bus::post_result(c, "toguz:results:i1", "r3");
  ASSERT_TRUE(inbox.wait_messages(3));
  listener.stop();
  EXPECT_NE(listener_thread, std::this_thread::get_id());
  std::lock_guard lock(inbox.m);
  ASSERT_EQ(inbox.messages.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(inbox.messages[i].payload, "r" + std::to_string(i + 1));
}

TEST_F(BusTest, JobOfADeadConsumerIsTakenOverAfterItsIdleTime) {
  Connection c(server.url());
  bus::JobQueue q(c);
  q.create_group();
  q.submit(bus::job_json(move_job("j1", 1)));
  auto d = q.next("dead", 100ms);  // read, never acknowledged: the consumer "dies"
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(q.claim_idle("alive", 1000ms).empty());  // not idle long enough yet
  std::this_thread::sleep_for(1100ms);
  std::vector<bus::Delivery> claimed = q.claim_idle("alive", 1000ms);
  ASSERT_EQ(claimed.size(), 1u);
  EXPECT_EQ(claimed[0].id, d->id);
  EXPECT_EQ(claimed[0].job, d->job);
  EXPECT_EQ(claimed[0].deliveries, 2);
  EXPECT_FALSE(q.touch("dead", d->id));  // the old consumer lost it
  EXPECT_TRUE(q.touch("alive", d->id));
  q.ack(d->id);
  EXPECT_EQ(q.pending(), 0);
}

TEST_F(BusTest, TouchedJobIsNotTakenOverAndAHandedBackOneIsAtOnce) {
  Connection c(server.url());
  bus::JobQueue q(c);
  q.create_group();
  q.submit(bus::job_json(move_job("j1", 1)));
  auto d = q.next("busy", 100ms);
  ASSERT_TRUE(d.has_value());
  // touched every 250 ms for 1.5 s: never idle for the 1 s a takeover needs
  for (int i = 0; i < 6; ++i) {
    std::this_thread::sleep_for(250ms);
    ASSERT_TRUE(q.touch("busy", d->id));
    EXPECT_TRUE(q.claim_idle("other", 1000ms).empty()) << i;
  }
  q.hand_back("busy", d->id);
  std::vector<bus::Delivery> claimed = q.claim_idle("other", 1000ms);
  ASSERT_EQ(claimed.size(), 1u);
  EXPECT_EQ(claimed[0].id, d->id);
}

TEST_F(BusTest, LiveWorkersAreThoseHeardFromRecently) {
  Connection c(server.url());
  bus::JobQueue q(c);
  EXPECT_EQ(q.live_workers(1s), 0);
  q.announce_worker("w1");
  q.announce_worker("w2");
  EXPECT_EQ(q.live_workers(1s), 2);
  q.withdraw_worker("w1");
  EXPECT_EQ(q.live_workers(1s), 1);
  std::this_thread::sleep_for(150ms);
  EXPECT_EQ(q.live_workers(100ms), 0);
}

TEST(BusJob, JsonRoundTrip) {
  bus::Job job = move_job("j1", 7);
  job.variant = "kozdatu";
  job.tuz = 0;
  job.play_out = true;
  job.start = "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 0 w 1";
  job.limits = {};
  job.limits.level = 5;
  job.limits.time_ms[0] = 60000;
  job.limits.time_ms[1] = 50000;
  job.limits.inc_ms[0] = job.limits.inc_ms[1] = 2000;
  job.seed = 42;
  job.expires_ms = 1800000000000;
  const bus::Job back = bus::parse_job(bus::job_json(job));
  EXPECT_EQ(bus::job_json(back), bus::job_json(job));
  EXPECT_EQ(back.variant, "kozdatu");
  EXPECT_EQ(back.tuz, 0);
  EXPECT_EQ(back.limits.time_ms[1], 50000);
  EXPECT_EQ(back.limits.level, 5);
  const Game g = bus::job_game(back);
  EXPECT_EQ(g.rules().n, 7);
  EXPECT_FALSE(g.rules().tuz);
  EXPECT_EQ(g.ply_count(), 2);
}

TEST(BusJob, BadJobsNameTheField) {
  auto err = [](const std::string& text) { return error_of([&] { bus::parse_job(text); }); };
  const std::string base = R"("id":"j","reply":"r","limits":{"depth":2})";
  EXPECT_EQ(err("[1]"), "job: expected a JSON object");
  EXPECT_EQ(err("{"), "job: not JSON (incomplete JSON)");
  EXPECT_EQ(err(R"({"kind":"move","reply":"r"})"), "job: id: missing (expected a string)");
  EXPECT_EQ(err("{" + base + R"(,"kind":"dance"})"),
            "job: kind: 'dance': expected move, hint, analysis or review");
  EXPECT_EQ(err("{" + base + R"(,"kind":"analysis","multipv":9})"),
            "job: multipv: expected an integer 1..5");
  EXPECT_EQ(err("{" + base + R"(,"kind":"move","moves":[1,"2"]})"),
            "job: moves[1]: expected a hole 1..9");
  EXPECT_EQ(err("{" + base + R"(,"kind":"move","variant":"big"})"),
            "job: variant: 'big': expected standard, kozdatu or bestemshi");
  EXPECT_EQ(err(R"({"id":"j","reply":"r","kind":"move","limits":{}})"),
            "job: limits: no limit (expected movetime_ms, depth, nodes or the clocks)");
  EXPECT_EQ(err(R"({"id":"j","reply":"r","kind":"move","limits":{"level":0,"depth":1}})"),
            "job: limits: level: expected an integer 1..20");
  EXPECT_EQ(err("{" + base + R"(,"kind":"review"})"),
            "job: limits: a review needs nodes (per position)");

  bus::Job job = move_job("j", 1);
  job.moves = {7, 3, 4, 5, 1, 2};
  EXPECT_EQ(error_of([&] { bus::job_game(job); }), "job: moves[5]: hole 2: hole 2 is empty");
  job.moves = {};
  job.start = "9,9/9,9 0 0 w";
  EXPECT_NE(error_of([&] { bus::job_game(job); }).find("job: start: "), std::string::npos);

  bus::Job env;
  EXPECT_TRUE(bus::parse_job_envelope(
      R"({"id":"j","reply":"r","kind":"move","game":"g","generation":3,"multipv":99})", &env));
  EXPECT_EQ(env.game, "g");
  EXPECT_EQ(env.generation, 3u);
  EXPECT_FALSE(bus::parse_job_envelope(R"({"id":"j"})", &env));
}

// What run_job posts, collected.
std::vector<std::string> run(search::Engine& engine, const bus::Job& job,
                             cli::JobOutcome* outcome = nullptr) {
  std::vector<std::string> out;
  std::atomic<bool> cancel{false};
  std::string error;
  const cli::JobOutcome o = cli::run_job(
      engine, job, "test", [&](const std::string& r) { out.push_back(r); }, cancel, &error);
  if (outcome) *outcome = o;
  return out;
}

TEST(EngineJobs, MoveIsLegalAndAResultOfAnOlderGenerationIsStale) {
  search::Engine engine;
  const bus::Job job = move_job("j1", 4);
  const std::vector<std::string> results = run(engine, job);
  ASSERT_EQ(results.size(), 1u);
  const bus::ResultHeader h = bus::parse_result_header(results[0]);
  EXPECT_EQ(h.job, "j1");
  EXPECT_EQ(h.kind, bus::JobKind::Move);
  EXPECT_TRUE(h.done);
  EXPECT_EQ(h.error, "");
  const boost::json::object r = boost::json::parse(results[0]).as_object();
  const int hole = int(r.at("analysis").at("bestmove").as_int64());
  EXPECT_TRUE(bus::job_game(job).position().is_legal(hole)) << results[0];
  EXPECT_FALSE(r.at("resign").as_bool());
  EXPECT_FALSE(bus::is_stale(h, "g1", 4));
  EXPECT_TRUE(bus::is_stale(h, "g1", 5));  // the game moved on while the job ran
  EXPECT_TRUE(bus::is_stale(h, "g2", 4));
}

TEST(EngineJobs, AnalysisStreamsCompleteIterationsThenTheFinalLines) {
  search::Engine engine;
  bus::Job job = move_job("a1", 1);
  job.kind = bus::JobKind::Analysis;
  job.multipv = 3;
  job.stream = true;
  job.limits.depth = 4;
  const std::vector<std::string> results = run(engine, job);
  ASSERT_EQ(results.size(), 5u);  // depths 1..4, then the final result
  for (size_t i = 0; i < results.size(); ++i) {
    const boost::json::object r = boost::json::parse(results[i]).as_object();
    EXPECT_EQ(r.at("done").as_bool(), i == 4);
    const auto& a = r.at("analysis").as_object();
    EXPECT_EQ(a.at("lines").as_array().size(), 3u) << results[i];
    EXPECT_EQ(a.at("depth").as_int64(), int64_t(std::min<size_t>(i + 1, 4)));
  }
}

TEST(EngineJobs, ReviewIsCompleteAndABadMoveIsAnError) {
  search::Engine engine;
  bus::Job job = move_job("r1", 1);
  job.kind = bus::JobKind::Review;
  job.moves = {7, 3, 4, 5};
  job.limits = {};
  job.limits.nodes = 2000;
  std::vector<std::string> results = run(engine, job);
  ASSERT_EQ(results.size(), 1u);
  const boost::json::object r = boost::json::parse(results[0]).as_object();
  EXPECT_EQ(r.at("review").at("moves").as_array().size(), 4u);
  EXPECT_EQ(r.at("review").at("players").at("white").at("moves").as_int64(), 2);

  job.moves = {7, 3, 4, 5, 1, 2};
  cli::JobOutcome outcome;
  results = run(engine, job, &outcome);
  EXPECT_EQ(outcome, cli::JobOutcome::Failed);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(bus::parse_result_header(results[0]).error, "job: moves[5]: hole 2: hole 2 is empty");
}

}  // namespace
}  // namespace toguz
