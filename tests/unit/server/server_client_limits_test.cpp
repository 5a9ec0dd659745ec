// The limits that protect people from one client (docs/server.md "Limits per client"), over
// real sockets against a real server: sockets that never read cannot pile up memory (a review
// is sent once per connection, a cap on what is not a state, a budget per address), one review
// at a time per client and stopped when its asker leaves, seeks per address, challenges per
// minute, online games per address, who may create tournaments and how often, entry-code
// guesses. Every client of these tests is 127.0.0.1: one address.
#include <gtest/gtest.h>

#include <bit>
#include <fstream>
#include <thread>

#include "rules/game.h"
#include "rules/record.h"
#include "server_client.h"

// A namespace of its own: the unit tests are compiled as unity files.
namespace toguz::test::client_limits {
namespace {

using Clock = std::chrono::steady_clock;

// Whether resident memory tells what the server holds: under AddressSanitizer freed memory
// sits in its quarantine (256 MiB) and every allocation carries redzones, so only the
// server's own count of queued bytes is checked there.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kRssMeasures = false;
#else
constexpr bool kRssMeasures = true;
#endif

// The server's resident memory (it runs in this process), in bytes.
int64_t rss_bytes() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  return 0;
}

// GET /api/health's number `name`, -1 when it has none.
int64_t health(uint16_t port, const char* name) {
  const json::value v = http_get(port, "/api/health").json();
  const json::value* n = v.is_object() ? v.as_object().if_contains(name) : nullptr;
  return n && n->is_number() ? n->to_number<int64_t>() : -1;
}

std::string code_of(const std::optional<json::object>& m) {
  if (!m || !m->contains("code") || !m->at("code").is_string()) return "";
  return jstr(m->at("code"));
}

// A game of `plies` moves (to its end when -1) always taking the first legal hole, as a PGN
// record (played out, about a hundred plies: its review is tens of KB).
std::string record(int plies = -1) {
  Game g;
  for (int i = 0; !g.over() && i != plies; ++i) g.play(std::countr_zero(g.legal_mask()) + 1);
  return write_record(g, {{"White", "A"}, {"Black", "B"}}, RecordStyle::Pgn);
}

// An imported board: its id and token.
std::pair<std::string, std::string> import(uint16_t port, const json::object& body) {
  HttpResult r = http_post(port, "/api/import", json::value(body));
  EXPECT_EQ(r.status, 200) << r.body;
  if (r.status != 200) return {"", ""};
  return {jstr(r.json().at("id")), jstr(r.json().at("token"))};
}

bool is_type(const json::object& m, const char* t) {
  return m.at("type") == t;
}
bool review_done(const json::object& m) {
  return is_type(m, "review") && m.at("done").as_bool();
}

// A WebSocket that never reads what it is sent, its receive buffer small so that what waits
// stays on the server's side. It learns that the server closed it from a write that fails.
class MuteSocket {
 public:
  MuteSocket(uint16_t port, const std::string& target) {
    tcp::socket& s = beast::get_lowest_layer(ws_).socket();
    beast::error_code ec;
    s.open(tcp::v4(), ec);
    s.set_option(net::socket_base::receive_buffer_size(4096), ec);
    beast::error_code result = net::error::timed_out;
    beast::get_lowest_layer(ws_).expires_after(kWait);
    beast::get_lowest_layer(ws_).async_connect(
        tcp::endpoint(net::ip::make_address("127.0.0.1"), port), [&](beast::error_code ec) {
          if (ec) {
            result = ec;
            return;
          }
          ws_.async_handshake("127.0.0.1:" + std::to_string(port), target,
                              [&](beast::error_code ec) { result = ec; });
        });
    ioc_.run();
    open_ = !result;
  }
  bool open() const { return open_; }
  bool timed_out() const { return timed_out_; }

  // Sends `text`; false once the server has closed the socket.
  bool send(const std::string& text) {
    if (!open_) return false;
    beast::error_code result = net::error::timed_out;
    beast::get_lowest_layer(ws_).expires_after(kWait);
    ws_.text(true);
    ws_.async_write(net::buffer(text), [&](beast::error_code ec, size_t) { result = ec; });
    ioc_.restart();
    ioc_.run();
    if (result) {
      open_ = false;
      timed_out_ = result == beast::error::timeout;
    }
    return open_;
  }
  bool send(const json::object& o) { return send(json::serialize(o)); }

  // Reads what waits, up to the pong of a ping sent now: the messages before it (nullopt when
  // the socket closed first).
  std::optional<std::vector<json::object>> drain() {
    if (!send(json::object{{"type", "ping"}})) return std::nullopt;
    std::vector<json::object> got;
    for (;;) {
      beast::error_code result = net::error::timed_out;
      beast::get_lowest_layer(ws_).expires_after(kWait);
      buffer_.consume(buffer_.size());
      ws_.async_read(buffer_, [&](beast::error_code ec, size_t) { result = ec; });
      ioc_.restart();
      ioc_.run();
      if (result) return std::nullopt;
      json::error_code jec;
      json::value v = json::parse(beast::buffers_to_string(buffer_.data()), jec);
      if (jec || !v.is_object()) continue;
      if (is_type(v.as_object(), "pong")) return got;
      got.push_back(std::move(v.as_object()));
    }
  }

 private:
  net::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_{ioc_};
  beast::flat_buffer buffer_;
  bool open_ = false, timed_out_ = false;
};

// The attack of the memory finding, scaled to a test: 60 sockets of one address that never
// read ask for a stored review of a long game 16 times a second. Each gets the review once
// (then a small refusal), so the server's queues and memory stay small; a server that sends it
// every time queues megabytes a socket.
TEST(ClientLimits, NeverReadingSocketsAskingForAReviewDoNotPileItUp) {
  TempDir dir;
  server::Config cfg;
  cfg.review_nodes = 2000;
  cfg.max_messages_per_second = 1000;
  // Room for one state and one review on each of the 60 sockets (about 150 KB each): what is
  // checked here is that the review is sent once, not the address budget (tested below).
  cfg.max_queued_bytes_per_address = 16 << 20;
  TestServer srv((dir.path / "t.db").string(), cfg);
  auto [id, token] = import(srv.port, {{"record", record()}});
  size_t review_size = 0;
  {
    WsClient first(srv.port, id, token);
    ASSERT_TRUE(first.read_type("state"));
    first.send(json::object{{"type", "review"}});
    auto done = first.read_until(review_done);
    ASSERT_TRUE(done);
    review_size = json::serialize(*done).size();
  }
  ASSERT_GT(review_size, 20000u) << "the review of a long game";
  std::vector<std::unique_ptr<MuteSocket>> mute;
  for (int i = 0; i < 60; ++i) {
    mute.push_back(std::make_unique<MuteSocket>(srv.port, "/ws/" + id));
    ASSERT_TRUE(mute.back()->open()) << i;
    mute.back()->send(json::object{{"type", "hello"}, {"token", token}});  // a player
  }
  const int64_t rss_before = rss_bytes();
  int64_t rss_peak = rss_before;
  // 48 rounds paced at 16 a second: 3 s, 2,880 requests of a review.
  for (int round = 0; round < 48; ++round) {
    for (auto& m : mute) m->send(json::object{{"type", "review"}});
    rss_peak = std::max(rss_peak, rss_bytes());
    if (kRssMeasures && rss_peak - rss_before > (256 << 20)) break;  // it piles up: stop
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
  }
  // Each socket got the review at most once, then refusals that say why.
  for (auto& m : mute) {
    auto got = m->drain();
    rss_peak = std::max(rss_peak, rss_bytes());
    ASSERT_TRUE(got) << "a socket that costs little was closed";
    int reviews = 0;
    for (const json::object& msg : *got) {
      reviews += review_done(msg);
      if (is_type(msg, "error")) {
        EXPECT_EQ(code_of(msg), "review_sent") << json::serialize(msg);
      }
    }
    EXPECT_LE(reviews, 1);
  }
  const int64_t peak = health(srv.port, "queued_bytes_peak");
  ASSERT_GE(peak, 0) << "GET /api/health gives the queued bytes";
  EXPECT_LE(peak, int64_t(16 << 20)) << "over the address's budget";
  if (kRssMeasures) {
    EXPECT_LT(rss_peak - rss_before, int64_t(64 << 20))
        << "memory grew by " << (rss_peak - rss_before) / (1 << 20) << " MiB";
  }
}

// A player's socket that never reads while each of its messages gets an error: what is not a
// state is capped far below the whole queue, so it is closed after a few hundred KB (a server
// that lets a player queue 16 MiB grows by that much first).
TEST(ClientLimits, NeverReadingSocketIsClosedBeforeItQueuesMuch) {
  TempDir dir;
  server::Config cfg;
  cfg.max_messages_per_second = 1000000;  // each message answered: an error
  TestServer srv((dir.path / "t.db").string(), cfg);
  HttpResult g = http_post(srv.port, "/api/games", json::value(json::object{{"mode", "local"}}));
  ASSERT_EQ(g.status, 200) << g.body;
  MuteSocket s(srv.port, "/ws/" + jstr(g.json().at("id")));
  ASSERT_TRUE(s.open());
  ASSERT_TRUE(s.send(json::object{{"type", "hello"}, {"token", jstr(g.json().at("token"))}}));
  const int64_t rss_before = rss_bytes();
  int64_t rss_peak = rss_before;
  const auto deadline = Clock::now() + std::chrono::seconds(60);
  int sent = 0;
  // Until the server closes it: the close is the event waited for.
  while (s.send(R"({"type":"no_such_type"})") && Clock::now() < deadline)
    if (++sent % 1000 == 0) rss_peak = std::max(rss_peak, rss_bytes());
  ASSERT_FALSE(s.open()) << "still open after " << sent << " messages";
  ASSERT_FALSE(s.timed_out());
  const int64_t peak = health(srv.port, "queued_bytes_peak");
  ASSERT_GE(peak, 0) << "GET /api/health gives the queued bytes";
  EXPECT_LE(peak, int64_t(300 << 10));
  if (kRssMeasures) {
    EXPECT_LT(rss_peak - rss_before, int64_t(8 << 20));
  }
}

// Several sockets of one address that never read: past the address's budget its fullest socket
// is closed, so what one address holds stays within it.
TEST(ClientLimits, AddressOverItsBudgetLosesItsFullestSockets) {
  TempDir dir;
  server::Config cfg;
  cfg.max_messages_per_second = 1000000;
  cfg.max_queued_bytes_per_address = 64 << 10;
  TestServer srv((dir.path / "t.db").string(), cfg);
  std::vector<std::unique_ptr<MuteSocket>> mute;
  for (int i = 0; i < 4; ++i) {
    HttpResult g = http_post(srv.port, "/api/games", json::value(json::object{{"mode", "local"}}));
    ASSERT_EQ(g.status, 200) << g.body;
    mute.push_back(std::make_unique<MuteSocket>(srv.port, "/ws/" + jstr(g.json().at("id"))));
    ASSERT_TRUE(
        mute.back()->send(json::object{{"type", "hello"}, {"token", jstr(g.json().at("token"))}}));
  }
  const auto deadline = Clock::now() + std::chrono::seconds(60);
  for (bool any = true; any && Clock::now() < deadline;) {
    any = false;
    for (auto& m : mute)
      for (int i = 0; i < 50 && m->open(); ++i) any = m->send(R"({"type":"no_such_type"})") || any;
  }
  for (auto& m : mute) {
    EXPECT_FALSE(m->open()) << "a socket over the budget stayed open";
    EXPECT_FALSE(m->timed_out());
  }
  // One error message is about 100 bytes: the peak passes the budget by at most that.
  EXPECT_LE(health(srv.port, "queued_bytes_peak"), int64_t((64 << 10) + 200));
  // A closed socket's queue is given back when its session goes, which a busy machine may run
  // a little after the client saw the close.
  int64_t queued = health(srv.port, "queued_bytes");
  for (int i = 0; i < 600 && queued != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    queued = health(srv.port, "queued_bytes");
  }
  EXPECT_EQ(queued, 0) << "bytes still queued after the sockets closed";
}

// One review at a time per client: a second one from the same address is refused while the
// first runs; the first stops when its asker's socket closes, which frees the engine at once
// (a review left running would hold the one background worker for a minute).
TEST(ClientLimits, OneReviewAtATimeAndItStopsWhenItsAskerLeaves) {
  TempDir dir;
  server::Config cfg;
  cfg.workers = 2;  // one worker for background work
  // A long game's review outlasts the test at either budget; each position's search is what a
  // stopped review finishes before the worker is free (seconds at 10^6 nodes under ASan).
  cfg.review_nodes = kRssMeasures ? 1000000 : 100000;
  TestServer srv((dir.path / "t.db").string(), cfg);
  const std::string long_game = record();
  auto a = import(srv.port, {{"record", long_game}});
  auto b = import(srv.port, {{"record", long_game}});
  auto c = import(srv.port, {{"record", record(2)}});  // its review: a few positions
  auto first = std::make_unique<WsClient>(srv.port, a.first, a.second);
  WsClient second(srv.port, b.first, b.second), third(srv.port, c.first, c.second);
  for (WsClient* w : {first.get(), &second, &third}) ASSERT_TRUE(w->read_type("state"));
  first->send(json::object{{"type", "review"}});
  ASSERT_TRUE(first->read_until([](const json::object& m) { return is_type(m, "review"); }));
  second.send(json::object{{"type", "review"}});
  auto refused = second.read_until(
      [](const json::object& m) { return is_type(m, "review") || is_type(m, "error"); });
  ASSERT_TRUE(refused);
  EXPECT_EQ(code_of(refused), "review_pending") << json::serialize(*refused);
  EXPECT_EQ(health(srv.port, "reviews"), 1);
  first->close();
  first.reset();
  // Stopped: nobody waits for it.
  const auto deadline = Clock::now() + kWait;
  while (health(srv.port, "reviews") != 0 && Clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(health(srv.port, "reviews"), 0);
  // The worker is free: the short review is done at once, not after the long one.
  third.send(json::object{{"type", "review"}});
  auto done = third.read_until([](const json::object& m) { return review_done(m); });
  ASSERT_TRUE(done) << "the short review waited behind the abandoned one";
  // And the client may ask for another now.
  second.send(json::object{{"type", "review"}});
  auto started = second.read_until(
      [](const json::object& m) { return is_type(m, "review") || is_type(m, "error"); });
  ASSERT_TRUE(started);
  EXPECT_TRUE(is_type(*started, "review")) << json::serialize(*started);
}

const WsOptions kLobby{.hello = false};

json::object seek() {
  return json::object{{"type", "seek"},
                      {"clock", json::object{{"initial_ms", 180000}, {"increment_ms", 2000}}}};
}

// Seeks per address: three guests' sockets of one address (each a player with at most 3
// seeks) open 6 seeks, the most one address may; the 7th is refused.
TEST(ClientLimits, SeeksPerAddress) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  std::vector<std::unique_ptr<WsClient>> guests;
  for (int i = 0; i < 3; ++i) {
    guests.push_back(std::make_unique<WsClient>(srv.port, "lobby", "", kLobby));
    ASSERT_TRUE(guests.back()->read_type("lobby"));
  }
  auto answer = [](WsClient& w) {
    return w.read_until(
        [](const json::object& m) { return is_type(m, "seek_created") || is_type(m, "error"); });
  };
  for (int i = 0; i < 6; ++i) {
    WsClient& w = *guests[size_t(i / 3)];
    w.send(seek());
    auto m = answer(w);
    ASSERT_TRUE(m);
    ASSERT_TRUE(is_type(*m, "seek_created")) << i << ": " << json::serialize(*m);
  }
  guests[2]->send(seek());
  auto refused = answer(*guests[2]);
  ASSERT_TRUE(refused);
  EXPECT_EQ(code_of(refused), "too_many_seeks_address") << json::serialize(*refused);
}

// Challenges per account per minute: made and cancelled again and again, the sixth in a minute
// is refused (the challenged player gets no more pop-ups).
TEST(ClientLimits, ChallengesPerMinute) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const std::string ca = sign_up_cookie(srv.port, "Aigerim");
  sign_up_cookie(srv.port, "Bolat");
  WsClient a(srv.port, "lobby", "", kLobby, ca);
  ASSERT_TRUE(a.read_type("lobby"));
  auto answer = [&] {
    return a.read_until([](const json::object& m) {
      return is_type(m, "challenge_created") || is_type(m, "error");
    });
  };
  for (int i = 0; i < 5; ++i) {
    a.send(json::object{{"type", "challenge"}, {"to", "Bolat"}});
    auto m = answer();
    ASSERT_TRUE(m);
    ASSERT_TRUE(is_type(*m, "challenge_created")) << i << ": " << json::serialize(*m);
    a.send(json::object{{"type", "challenge_cancel"}, {"id", m->at("id")}});
  }
  a.send(json::object{{"type", "challenge"}, {"to", "Bolat"}});
  auto refused = answer();
  ASSERT_TRUE(refused);
  EXPECT_EQ(code_of(refused), "challenge_rate") << json::serialize(*refused);
}

// Online games created per address: the default bucket of 20, then 429; other games are not
// counted.
TEST(ClientLimits, OnlineGamesPerAddress) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const json::value online(json::object{{"mode", "online"}});
  for (int i = 0; i < 20; ++i) {
    HttpResult r = http_post(srv.port, "/api/games", online);
    ASSERT_EQ(r.status, 200) << i << ": " << r.body;
  }
  HttpResult refused = http_post(srv.port, "/api/games", online);
  EXPECT_EQ(refused.status, 429) << refused.body;
  EXPECT_EQ(code_of(refused), "games_rate") << refused.body;
  HttpResult local =
      http_post(srv.port, "/api/games", json::value(json::object{{"mode", "local"}}));
  EXPECT_EQ(local.status, 200) << local.body;
}

HttpResult post_as(uint16_t port, const std::string& cookie, const std::string& target,
                   const json::object& body) {
  return http_call(port, http::verb::post, target, json::serialize(body),
                   {{http::field::cookie, cookie}});
}

json::object arena(const std::string& code = "") {
  const int64_t in_an_hour = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count() +
                             3600000;
  json::object t{
      {"name", "Arena"}, {"system", "arena"}, {"duration_minutes", 30}, {"starts_at", in_an_hour}};
  if (!code.empty()) t["entry_code"] = code;
  return t;
}

// Tournaments are listed for everyone: creating one needs an account with 10 rated games (a new
// one is refused), and 3 a day at most; an entry code takes 5 wrong guesses, then none, not even
// the right one, for a while.
TEST(ClientLimits, TournamentCreatorsAndEntryCodes) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  std::string ca, cb;
  {
    TestServer srv(db);
    ca = sign_up_cookie(srv.port, "Aigerim");
    cb = sign_up_cookie(srv.port, "Bolat");
    HttpResult r = post_as(srv.port, ca, "/api/tournaments", arena());
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_EQ(code_of(r), "tournament_needs_games") << r.body;
  }
  // Aigerim has played 12 rated blitz games since.
  sqlite_run(db,
             "INSERT INTO ratings(user_id, category, rating, rd, volatility, games, updated_ms) "
             "SELECT id, 'blitz', 1600, 80, 0.06, 12, 0 FROM users WHERE username = 'Aigerim'");
  TestServer srv(db);
  std::string coded;
  for (int i = 0; i < 3; ++i) {
    HttpResult r = post_as(srv.port, ca, "/api/tournaments", arena(i == 0 ? "kumush" : ""));
    ASSERT_EQ(r.status, 200) << i << ": " << r.body;
    if (i == 0) coded = jstr(r.json().at("id"));
  }
  HttpResult fourth = post_as(srv.port, ca, "/api/tournaments", arena());
  EXPECT_EQ(fourth.status, 429) << fourth.body;
  EXPECT_EQ(code_of(fourth), "tournaments_per_day") << fourth.body;
  const std::string join = "/api/tournaments/" + coded + "/join";
  for (int i = 0; i < 5; ++i) {
    HttpResult r = post_as(srv.port, cb, join, {{"code", "guess" + std::to_string(i)}});
    EXPECT_EQ(r.status, 409) << i << ": " << r.body;
  }
  HttpResult right = post_as(srv.port, cb, join, {{"code", "kumush"}});
  EXPECT_EQ(right.status, 429) << right.body;
  EXPECT_EQ(code_of(right), "entry_code_attempts") << right.body;
}

}  // namespace
}  // namespace toguz::test::client_limits
