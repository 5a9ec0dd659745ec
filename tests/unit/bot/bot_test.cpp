// The bot (src/bot, docs/bot.md): its decisions on challenges and moves from the messages
// alone, its game socket against a real server with `toguz ugi` as the engine, and `toguz bot`
// end to end through the lobby.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "bot/brain.h"
#include "bot/client.h"
#include "rules/notation.h"
#include "server_client.h"

namespace toguz::bot {
namespace {

namespace json = boost::json;
namespace http = test::http;
namespace net = test::net;
namespace beast = test::beast;
namespace websocket = test::websocket;
using tcp = test::tcp;

json::object parse(const std::string& text) {
  return json::parse(text).as_object();
}

std::string challenge_msg(const std::string& id, const std::string& from, json::value clock,
                          bool rated = false, const std::string& speed = "blitz",
                          const std::string& variant = "standard") {
  return json::serialize(json::object{
      {"type", "challenge"},
      {"challenge",
       json::object{{"id", id},
                    {"from", from},
                    {"rating", 1500},
                    {"provisional", true},
                    {"variant", variant},
                    {"clock", clock},
                    {"days_per_move", nullptr},
                    {"speed", clock.is_null() ? json::value(nullptr) : json::value(speed)},
                    {"rated", rated},
                    {"color", "random"}}}});
}

json::object clock(int initial_ms, int increment_ms) {
  return {{"initial_ms", initial_ms}, {"increment_ms", increment_ms}};
}

TEST(BotTimeControl, ParsesMinutesPlusSeconds) {
  ClockSpec c;
  ASSERT_TRUE(parse_time_control("3+2", &c));
  EXPECT_EQ(c, (ClockSpec{180000, 2000}));
  ASSERT_TRUE(parse_time_control("0.5+0", &c));
  EXPECT_EQ(c, (ClockSpec{30000, 0}));
  for (const char* bad : {"3", "+2", "3+", "a+b", "0+0", "-1+0", "3+2x", ""})
    EXPECT_FALSE(parse_time_control(bad, &c)) << bad;
}

TEST(BotFilters, SayWhyAChallengeIsDeclined) {
  Challenge c;
  c.id = "c1";
  c.clock = ClockSpec{180000, 2000};
  c.speed = "blitz";
  Filters f;
  EXPECT_EQ(decline_reason(c, f, 0), "");
  EXPECT_NE(decline_reason(c, f, 1).find("busy"), std::string::npos);
  f.max_games = 2;
  EXPECT_EQ(decline_reason(c, f, 1), "");

  c.variant = "kozdatu";
  EXPECT_NE(decline_reason(c, f, 0).find("variant"), std::string::npos);
  c.variant = "standard";

  f.rated = RatedFilter::Rated;
  EXPECT_NE(decline_reason(c, f, 0).find("casual"), std::string::npos);
  c.rated = true;
  EXPECT_EQ(decline_reason(c, f, 0), "");
  f.rated = RatedFilter::Casual;
  EXPECT_NE(decline_reason(c, f, 0).find("rated"), std::string::npos);
  f.rated = RatedFilter::Any;

  f.speeds = {"rapid", "none"};
  EXPECT_NE(decline_reason(c, f, 0).find("speed blitz"), std::string::npos);
  Challenge untimed = c;
  untimed.clock.reset();
  untimed.speed = "";
  EXPECT_EQ(decline_reason(untimed, f, 0), "");
  Challenge corr = untimed;
  corr.days_per_move = 3;
  EXPECT_NE(decline_reason(corr, f, 0).find("correspondence"), std::string::npos);
  f.speeds.clear();

  f.time_controls = {ClockSpec{300000, 0}};
  EXPECT_NE(decline_reason(c, f, 0).find("time control"), std::string::npos);
  EXPECT_NE(decline_reason(untimed, f, 0).find("time control"), std::string::npos);
  f.time_controls.push_back(ClockSpec{180000, 2000});
  EXPECT_EQ(decline_reason(c, f, 0), "");
}

TEST(BotLobby, AcceptsUpToMaxGamesAndDeclinesTheRest) {
  Filters f;
  f.max_games = 1;
  LobbyBrain lobby(f);
  LobbyReaction r = lobby.on_message(challenge_msg("c1", "Aigerim", clock(180000, 2000)));
  ASSERT_EQ(r.send.size(), 1u);
  EXPECT_EQ(parse(r.send[0]), (json::object{{"type", "challenge_accept"}, {"id", "c1"}}));
  EXPECT_EQ(lobby.busy(), 1);

  // The accepted challenge holds the place until its game starts.
  r = lobby.on_message(challenge_msg("c2", "Bolat", clock(180000, 2000)));
  ASSERT_EQ(r.send.size(), 1u);
  EXPECT_EQ(parse(r.send[0]), (json::object{{"type", "challenge_decline"}, {"id", "c2"}}));
  EXPECT_NE(r.log.find("busy"), std::string::npos);

  r = lobby.on_message(R"({"type":"challenge_gone","id":"c1","reason":"accepted"})");
  EXPECT_EQ(lobby.busy(), 1);
  r = lobby.on_message(R"({"type":"start","game":"g1","token":"t1","side":"black"})");
  ASSERT_TRUE(r.start);
  EXPECT_EQ(r.start->game, "g1");
  EXPECT_EQ(r.start->token, "t1");
  EXPECT_EQ(r.start->side, "black");
  EXPECT_EQ(lobby.busy(), 1);
  EXPECT_TRUE(lobby.on_message(challenge_msg("c3", "Bolat", nullptr)).send[0].find("decline") !=
              std::string::npos);

  lobby.game_ended("g1");
  EXPECT_EQ(lobby.busy(), 0);
  r = lobby.on_message(challenge_msg("c4", "Bolat", nullptr));
  EXPECT_EQ(parse(r.send[0]).at("type"), "challenge_accept");
  // Cancelled before the accept arrived: the place is free again.
  lobby.on_message(R"({"type":"challenge_gone","id":"c4","reason":"cancelled"})");
  EXPECT_EQ(lobby.busy(), 0);

  // After a reconnect an accepted challenge holds no place.
  lobby.on_message(challenge_msg("c6", "Bolat", nullptr));
  EXPECT_EQ(lobby.busy(), 1);
  lobby.on_message(R"({"type":"lobby","you":"Kasym_bot","seeks":[],"pools":[]})");
  EXPECT_EQ(lobby.busy(), 0);

  lobby.close();
  r = lobby.on_message(challenge_msg("c5", "Bolat", nullptr));
  EXPECT_EQ(parse(r.send[0]).at("type"), "challenge_decline");
  EXPECT_NE(r.log.find("stopping"), std::string::npos);
}

TEST(BotLobby, IgnoresWhatItDoesNotUnderstand) {
  LobbyBrain lobby(Filters{});
  for (const char* m :
       {"", "not json", "[1,2]", R"({"type":7})", R"({"type":"challenge"})",
        R"({"type":"challenge","challenge":{"from":"x"}})", R"({"type":"challenge","challenge":5})",
        R"({"type":"start","game":"g"})", R"({"type":"lobby","seeks":[],"pools":[]})",
        R"({"type":"seek_added","seek":{}})"}) {
    LobbyReaction r = lobby.on_message(m);
    EXPECT_TRUE(r.send.empty()) << m;
    EXPECT_FALSE(r.start) << m;
  }
  EXPECT_EQ(lobby.busy(), 0);
}

// A state message as the server writes it, for the side `you`, after `holes` from the start.
std::string state_msg(const std::vector<int>& holes, const std::string& you,
                      json::value clock_v = nullptr, const std::string& status = "playing") {
  Game game;
  json::array moves;
  for (int h : holes) {
    EXPECT_TRUE(game.play(h));
    moves.push_back(json::object{{"hole", h}});
  }
  const std::string to_move = game.position().side_to_move() == Side::White ? "white" : "black";
  json::array legal;
  if (status == "playing" && you == to_move)
    for (int h = 1; h <= 9; ++h)
      if (game.position().is_legal(h)) legal.push_back(h);
  return json::serialize(
      json::object{{"type", "state"},
                   {"game", json::object{{"id", "g1"},
                                         {"variant", "standard"},
                                         {"tuz", true},
                                         {"play_out", false},
                                         {"start_position", format_position(game.start())},
                                         {"position", format_position(game.position())},
                                         {"moves", moves},
                                         {"ply", game.ply_count()},
                                         {"to_move", to_move},
                                         {"legal", legal},
                                         {"status", status},
                                         {"clock", clock_v},
                                         {"you", you}}}});
}

TEST(BotGame, ThinksOncePerPlyOnItsTurn) {
  GameBrain brain(Timing{250, 300});
  // Not its turn: nothing.
  EXPECT_FALSE(brain.on_message(state_msg({}, "black")).think);
  GameReaction r = brain.on_message(state_msg({7}, "black"));
  ASSERT_TRUE(r.think);
  EXPECT_EQ(r.think->ply, 1);
  EXPECT_EQ(r.think->game.ply_count(), 1);
  EXPECT_EQ(r.think->game.moves()[0].hole, 7);
  EXPECT_EQ(r.think->request.limits.movetime_ms, 250);
  EXPECT_EQ(r.think->request.clock_ms[0], -1);
  // The same state again (a presence change, a reconnect): no second think.
  EXPECT_FALSE(brain.on_message(state_msg({7}, "black")).think);
  // A move refused for the rate is sent again as it was.
  match::MoveReply reply;
  reply.move = 3;
  reply.move_text = "3";
  std::string log;
  const std::string sent = brain.answer(*r.think, reply, &log);
  GameReaction again =
      brain.on_message(R"({"type":"error","message":"rate limit","code":"rate_limit"})");
  ASSERT_TRUE(again.resend);
  EXPECT_EQ(*again.resend, sent);
  EXPECT_FALSE(again.think);
  // A stale move is thought about again at the next state.
  brain.on_message(R"({"type":"error","message":"move: stale","code":"stale"})");
  EXPECT_TRUE(brain.on_message(state_msg({7}, "black")).think);
  EXPECT_FALSE(brain.on_message(state_msg({7}, "black")).think);
  brain.reconnected();
  EXPECT_TRUE(brain.on_message(state_msg({7}, "black")).think);
  // Once the game went on, a rate refusal has nothing to send again.
  brain.on_message(state_msg({7, 3}, "black"));
  EXPECT_FALSE(
      brain.on_message(R"({"type":"error","message":"rate limit","code":"rate_limit"})").resend);

  EXPECT_EQ(parse(sent), (json::object{{"type", "move"}, {"hole", 3}, {"ply", 1}}));
  EXPECT_EQ(log, "");
}

TEST(BotGame, GivesTheEngineTheClocksLessTheOverhead) {
  GameBrain brain(Timing{1000, 300});
  json::object c{{"white_ms", 170000},
                 {"black_ms", 181000},
                 {"increment_ms", 2000},
                 {"initial_ms", 180000},
                 {"running", "black"}};
  GameReaction r = brain.on_message(state_msg({7}, "black", c));
  ASSERT_TRUE(r.think);
  EXPECT_EQ(r.think->request.clock_ms[0], 170000);
  EXPECT_EQ(r.think->request.clock_ms[1], 180700);
  EXPECT_EQ(r.think->request.inc_ms[1], 2000);
  EXPECT_EQ(r.think->request.limits.tc_ms, 180000);
  EXPECT_EQ(r.think->request.limits.movetime_ms, 0);
  EXPECT_GT(r.think->request.deadline_ms, 181000);
}

TEST(BotGame, ResignsWhenTheEngineFails) {
  GameBrain brain;
  GameReaction r = brain.on_message(state_msg({}, "white"));
  ASSERT_TRUE(r.think);
  std::string log;
  match::MoveReply illegal;
  illegal.move = 10;
  illegal.move_text = "10";
  EXPECT_EQ(parse(brain.answer(*r.think, illegal, &log)).at("type"), "resign");
  EXPECT_NE(log.find("illegal move '10'"), std::string::npos);
  match::MoveReply crashed;
  crashed.status = match::ReplyStatus::Crashed;
  crashed.error = "exit status 1";
  EXPECT_EQ(parse(brain.answer(*r.think, crashed, &log)).at("type"), "resign");
  EXPECT_NE(log.find("crashed"), std::string::npos);
  match::MoveReply hung;
  hung.status = match::ReplyStatus::Hung;
  EXPECT_EQ(parse(brain.answer(*r.think, hung, &log)).at("type"), "resign");
}

TEST(BotGame, EndsOnOverAndRefusesStatesThatDoNotAddUp) {
  GameBrain brain;
  GameReaction over = brain.on_message(state_msg({7, 3}, "white", nullptr, "over"));
  EXPECT_TRUE(over.over);
  EXPECT_FALSE(over.think);
  EXPECT_TRUE(brain.on_message(state_msg({}, "white", nullptr, "aborted")).over);

  // The moves do not lead to the position: no think, a log line instead.
  json::object m = parse(state_msg({7}, "black"));
  m["game"].as_object()["position"] = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 b";
  GameReaction r = brain.on_message(json::serialize(m));
  EXPECT_FALSE(r.think);
  EXPECT_NE(r.log.find("not understood"), std::string::npos);
  m = parse(state_msg({7}, "black"));
  m["game"].as_object()["moves"] = json::array{json::object{{"hole", 12}}};
  EXPECT_FALSE(brain.on_message(json::serialize(m)).think);
  m = parse(state_msg({7}, "black"));
  m["game"].as_object()["start_position"] = "nonsense";
  EXPECT_FALSE(brain.on_message(json::serialize(m)).think);
  for (const char* bad :
       {"", "{", R"({"type":"state"})", R"({"type":"state","game":3})",
        R"({"type":"state","game":{"status":"playing","legal":[1],"you":"white"}})"})
    EXPECT_FALSE(brain.on_message(bad).think) << bad;
}

TEST(BotUrl, TakesPlainHttpWithAHostAndAPort) {
  ServerAddress a = parse_server_url("http://127.0.0.1:8080/");
  EXPECT_EQ(a.host, "127.0.0.1");
  EXPECT_EQ(a.port, 8080);
  EXPECT_EQ(parse_server_url("http://example.org").port, 80);
  for (const char* bad : {"https://x", "127.0.0.1:80", "http://", "http://x:0", "http://x:99999",
                          "http://x:80/path", "http://x:a"})
    EXPECT_THROW(parse_server_url(bad), BotError) << bad;
}

#ifdef TOGUZ_BINARY
// An online game made over HTTP on a real server, its black seat for the bot.
struct OnlineGame {
  test::TempDir dir;
  test::TestServer srv{(dir.path / "games.db").string()};
  std::string id, white_token, black_token;
  OnlineGame() {
    auto made =
        test::http_post(srv.port, "/api/games", json::object{{"mode", "online"}, {"name", "human"}})
            .json()
            .as_object();
    id = made.at("id").as_string();
    white_token = made.at("token").as_string();
    auto joined = test::http_post(srv.port, "/api/games/" + id + "/join",
                                  json::object{{"invite", made.at("invite")}, {"name", "bot"}})
                      .json()
                      .as_object();
    black_token = joined.at("token").as_string();
  }
  // The bot with `toguz ugi` as its engine.
  BotConfig config(int movetime_ms) const {
    BotConfig cfg;
    cfg.server = {"127.0.0.1", srv.port};
    cfg.engine.cmd = TOGUZ_BINARY;
    cfg.engine.args = {"ugi"};
    cfg.timing.movetime_ms = movetime_ms;
    return cfg;
  }
};

// Plays White's first legal move at every turn until the game ends; the last state.
std::optional<json::object> play_first_moves(test::WsClient& white, int* bot_moves) {
  for (;;) {
    auto g = white.read_state([](const json::object&) { return true; });
    if (!g || (g->at("status") != "playing" && g->at("status") != "waiting")) return g;
    const json::array& legal = g->at("legal").as_array();
    if (legal.empty()) continue;
    const json::array& moves = g->at("moves").as_array();
    if (!moves.empty() && moves.back().at("side") == "black") ++*bot_moves;
    white.send(json::object{{"type", "move"}, {"hole", legal[0]}, {"ply", g->at("ply")}});
  }
}

// The bot's game socket against a real server, the test's client playing White to the end.
TEST(BotPlay, PlaysAnOnlineGameToTheEndWithAUgiEngine) {
  if (!std::filesystem::exists(TOGUZ_BINARY)) GTEST_SKIP() << "no " << TOGUZ_BINARY;
  OnlineGame online;
  BotConfig cfg = online.config(10);
  std::vector<std::string> lines;
  std::mutex lines_mutex;
  cfg.log = [&](const std::string& l) {
    std::lock_guard<std::mutex> lock(lines_mutex);
    lines.push_back(l);
  };
  Bot bot(cfg);
  std::thread runner([&] { bot.play(online.id, online.black_token); });
  test::WsClient white(online.srv.port, online.id, online.white_token);
  int bot_moves = 0;
  auto g = play_first_moves(white, &bot_moves);
  if (!g || g->at("status") != "over") {  // the bot's game too, so that play() returns
    bot.stop();
    bot.stop();
  }
  runner.join();
  ASSERT_TRUE(g) << "no state";
  EXPECT_EQ(g->at("status"), "over");
  EXPECT_GE(bot_moves, 5);
  EXPECT_EQ(bot.games_finished(), 1);
  std::lock_guard<std::mutex> lock(lines_mutex);
  for (const std::string& l : lines) EXPECT_EQ(l.find("resign"), std::string::npos) << l;
}

// Stopped while its opponent never moves: the first stop waits for the game, the second ends it.
TEST(BotPlay, SecondStopLeavesAGameInProgress) {
  if (!std::filesystem::exists(TOGUZ_BINARY)) GTEST_SKIP() << "no " << TOGUZ_BINARY;
  OnlineGame online;
  Bot bot(online.config(1000));
  std::atomic<bool> returned{false};
  std::thread runner([&] {
    bot.play(online.id, online.black_token);
    returned = true;
  });
  // White sees the bot's seat connected, then the bot is stopped twice.
  test::WsClient white(online.srv.port, online.id, online.white_token);
  const bool connected = white
                             .read_state([](const json::object& g) {
                               return g.at("players").at("black").at("connected").as_bool();
                             })
                             .has_value();
  bot.stop();
  bot.stop();
  const bool left = white
                        .read_state([](const json::object& g) {
                          return !g.at("players").at("black").at("connected").as_bool();
                        })
                        .has_value();
  runner.join();
  EXPECT_TRUE(connected);
  EXPECT_TRUE(left);
  EXPECT_TRUE(returned);
  EXPECT_EQ(bot.games_finished(), 0);
}
// A stand-in for the site's side of the contract (docs/web-protocol.md) that `Bot::run` talks
// to: POST /api/login, GET /api/users/<name>, /ws/lobby and one game socket, each scripted.
// The first lobby and the first game connection are dropped by the site, so the bot's
// reconnects are part of the script. Every connection is served on a thread of its own.
class FakeSite {
 public:
  FakeSite() : acceptor_(ioc_, {net::ip::make_address("127.0.0.1"), 0}) {
    port = acceptor_.local_endpoint().port();
    thread_ = std::thread([this] { accept_loop(); });
  }
  ~FakeSite() {
    stopping_ = true;
    beast::error_code ec;
    tcp::socket wake(ioc_);  // the blocking accept returns for this connection
    wake.connect({net::ip::make_address("127.0.0.1"), port}, ec);
    thread_.join();
    acceptor_.close(ec);
    for (auto& t : conns_) t.join();
  }
  uint16_t port = 0;
  std::mutex mutex;
  std::vector<std::string> cookies;  // the Cookie header of each WebSocket handshake
  std::vector<std::string> lobby_in, game_in;
  int lobby_connections = 0, game_connections = 0;
  std::atomic<bool> game_over_sent{false};

 private:
  using Ws = websocket::stream<tcp::socket>;

  void accept_loop() {
    while (!stopping_) {
      beast::error_code ec;
      tcp::socket sock(ioc_);
      acceptor_.accept(sock, ec);
      if (ec || stopping_) return;
      conns_.emplace_back([this, s = std::move(sock)]() mutable { serve(std::move(s)); });
    }
  }

  static std::string read_text(Ws& ws) {
    beast::flat_buffer b;
    beast::error_code ec;
    ws.read(b, ec);
    return ec ? std::string() : beast::buffers_to_string(b.data());
  }

  void serve(tcp::socket sock) {
    beast::flat_buffer buf;
    http::request<http::string_body> req;
    beast::error_code ec;
    http::read(sock, buf, req, ec);
    if (ec) return;
    if (websocket::is_upgrade(req)) {
      Ws ws(std::move(sock));
      ws.accept(req, ec);
      if (ec) return;
      {
        std::lock_guard<std::mutex> lock(mutex);
        cookies.push_back(std::string(req[http::field::cookie]));
      }
      ws.text(true);
      if (req.target() == "/ws/lobby") return lobby(ws);
      if (req.target() == "/ws/g1") return game(ws);
      return;
    }
    http::response<http::string_body> res{http::status::ok, req.version()};
    res.set(http::field::content_type, "application/json");
    if (req.target() == "/api/login") {
      const json::object body = json::parse(req.body()).as_object();
      if (body.at("username") == "Kasym_bot" && body.at("password") == "secret-bot-password") {
        res.set(http::field::set_cookie, "toguz_session=abc; Path=/; HttpOnly; SameSite=Lax");
        res.body() = R"({"username":"Kasym_bot"})";
      } else {
        res.result(http::status::unauthorized);
        res.body() = R"({"error":"login: wrong name or password","code":"login_failed"})";
      }
    } else if (req.target() == "/api/users/Kasym_bot") {
      res.body() = R"({"username":"Kasym_bot","bot":true})";
    } else {
      res.result(http::status::not_found);
      res.body() = R"({"error":"no such path"})";
    }
    res.prepare_payload();
    http::write(sock, res, ec);
  }

  void lobby(Ws& ws) {
    int n;
    {
      std::lock_guard<std::mutex> lock(mutex);
      n = ++lobby_connections;
    }
    ws.write(net::buffer(std::string(
        R"({"type":"lobby","you":"Kasym_bot","seeks":[],"pools":[],"online":{"players":1,"games":0}})")));
    if (n == 1) return;  // dropped: the bot connects again
    const json::object clock{{"initial_ms", 300000}, {"increment_ms", 5000}};
    ws.write(net::buffer(challenge_msg("c1", "Aigerim", clock, true)));
    ws.write(net::buffer(challenge_msg("c2", "Aigerim", clock, false)));
    for (int i = 0; i < 2; ++i) {
      const std::string m = read_text(ws);
      std::lock_guard<std::mutex> lock(mutex);
      lobby_in.push_back(m);
    }
    ws.write(
        net::buffer(std::string(R"({"type":"start","game":"g1","token":"tok","side":"black"})")));
    while (!read_text(ws).empty()) {
    }
  }

  void game(Ws& ws) {
    int n;
    {
      std::lock_guard<std::mutex> lock(mutex);
      n = ++game_connections;
    }
    const std::string hello = read_text(ws);
    {
      std::lock_guard<std::mutex> lock(mutex);
      game_in.push_back(hello);
    }
    if (n == 1) return;  // dropped after the hello
    ws.write(net::buffer(state_msg({7}, "black")));
    const std::string move = read_text(ws);
    {
      std::lock_guard<std::mutex> lock(mutex);
      game_in.push_back(move);
    }
    ws.write(net::buffer(state_msg({7, 1}, "black", nullptr, "over")));
    game_over_sent = true;
    while (!read_text(ws).empty()) {
    }
  }

  net::io_context ioc_;
  tcp::acceptor acceptor_;
  std::thread thread_;
  std::vector<std::thread> conns_;
  std::atomic<bool> stopping_{false};
};

// `Bot::run` through the whole contract: login, the cookie on both sockets, a declined and an
// accepted challenge, a dropped lobby and a dropped game socket, the engine's move, the end.
TEST(BotRun, LogsInAcceptsPlaysAndReconnects) {
  if (!std::filesystem::exists(TOGUZ_BINARY)) GTEST_SKIP() << "no " << TOGUZ_BINARY;
  FakeSite site;
  BotConfig cfg;
  cfg.server = {"127.0.0.1", site.port};
  cfg.username = "Kasym_bot";
  cfg.password = "secret-bot-password";
  cfg.engine.cmd = TOGUZ_BINARY;
  cfg.engine.args = {"ugi"};
  cfg.timing.movetime_ms = 10;
  cfg.filters.rated = RatedFilter::Casual;
  cfg.retry_max_ms = 500;
  std::vector<std::string> lines;
  std::mutex lines_mutex;
  std::condition_variable cv;
  cfg.log = [&](const std::string& l) {
    std::lock_guard<std::mutex> lock(lines_mutex);
    lines.push_back(l);
    cv.notify_all();
  };
  Bot bot(cfg);
  std::thread runner([&] { bot.run(); });
  bool finished;
  {
    std::unique_lock<std::mutex> lock(lines_mutex);
    finished = cv.wait_for(lock, test::kWait, [&] { return bot.games_finished() == 1; });
  }
  bot.stop();
  if (!finished) bot.stop();  // the game too, so that run() returns
  runner.join();
  ASSERT_TRUE(finished);

  std::lock_guard<std::mutex> lock(site.mutex);
  EXPECT_EQ(site.lobby_connections, 2);
  EXPECT_EQ(site.game_connections, 2);
  for (const std::string& c : site.cookies) EXPECT_EQ(c, "toguz_session=abc");
  ASSERT_EQ(site.lobby_in.size(), 2u);
  EXPECT_EQ(parse(site.lobby_in[0]), (json::object{{"type", "challenge_decline"}, {"id", "c1"}}));
  EXPECT_EQ(parse(site.lobby_in[1]), (json::object{{"type", "challenge_accept"}, {"id", "c2"}}));
  ASSERT_EQ(site.game_in.size(), 3u);
  EXPECT_EQ(parse(site.game_in[0]), (json::object{{"type", "hello"}, {"token", "tok"}}));
  EXPECT_EQ(parse(site.game_in[1]), parse(site.game_in[0]));
  const json::object move = parse(site.game_in[2]);
  EXPECT_EQ(move.at("type"), "move");
  EXPECT_EQ(move.at("ply"), 1);
  Game g;
  g.play(7);
  EXPECT_TRUE(g.position().is_legal(int(move.at("hole").as_int64()))) << site.game_in[2];
}

TEST(BotRun, AWrongPasswordIsAClearError) {
  FakeSite site;
  BotConfig cfg;
  cfg.server = {"127.0.0.1", site.port};
  cfg.username = "Kasym_bot";
  cfg.password = "not-the-password";
  Bot bot(cfg);
  try {
    bot.run();
    FAIL() << "run() returned";
  } catch (const BotError& e) {
    EXPECT_NE(std::string(e.what()).find("login as Kasym_bot: login: wrong name or password"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(std::string(e.what()).find("not-the-password"), std::string::npos);
  }
}

// The session cookie of a fresh account, "" when the server has no accounts.
std::string sign_up(uint16_t port, const std::string& name, const std::string& password,
                    int* status) {
  test::HttpResult r = test::http_post(
      port, "/api/signup", json::object{{"username", name}, {"password", password}, {"bot", true}});
  *status = r.status;
  for (const auto& f : r.headers)
    if (f.name() == http::field::set_cookie && f.value().starts_with("toguz_session="))
      return std::string(f.value().substr(0, f.value().find(';')));
  return "";
}

// A child process with its stderr in a file; killed at the end if still running.
struct Child {
  pid_t pid = -1;
  Child(const std::vector<std::string>& args, const std::filesystem::path& err) {
    std::vector<char*> argv;
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid = fork();
    if (pid == 0) {
      FILE* f = std::freopen(err.c_str(), "w", stderr);
      (void)f;
      execv(argv[0], argv.data());
      _exit(127);
    }
  }
  // The exit status after SIGTERM, -1 when it did not exit within the deadline.
  int terminate() {
    ::kill(pid, SIGTERM);
    const auto end = std::chrono::steady_clock::now() + test::kWait;
    while (std::chrono::steady_clock::now() < end) {
      int status = 0;
      if (waitpid(pid, &status, WNOHANG) == pid) {
        pid = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -1;
  }
  ~Child() {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  }
};

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `toguz bot` end to end: a player and the bot sign up, the bot runs as its own process with
// `toguz ugi` as its engine, the player challenges it from the lobby socket and plays the game
// to the end; SIGTERM stops the bot with status 0. Skipped when the server has no accounts
// (POST /api/signup answers 404).
TEST(BotSite, AcceptsAChallengeAndPlaysItToTheEnd) {
  if (!std::filesystem::exists(TOGUZ_BINARY)) GTEST_SKIP() << "no " << TOGUZ_BINARY;
  test::TempDir dir;
  test::TestServer srv((dir.path / "games.db").string());
  int status = 0;
  const std::string human = sign_up(srv.port, "Aigerim", "aigerim-password", &status);
  if (status == 404) GTEST_SKIP() << "this server has no accounts";
  ASSERT_EQ(status, 201);
  ASSERT_FALSE(human.empty());
  sign_up(srv.port, "Kasym_bot", "kasym-bot-password", &status);
  ASSERT_EQ(status, 201);
  const auto password_file = dir.path / "password";
  std::ofstream(password_file) << "kasym-bot-password\n";

  // The human's lobby socket first, so the bot's arrival shows in the online count.
  test::WsOptions lobby_opts;
  lobby_opts.hello = false;
  lobby_opts.cookie = human;
  test::WsClient lobby(srv.port, "lobby", "", lobby_opts);
  auto first = lobby.read_type("lobby");
  ASSERT_TRUE(first) << "no lobby message";
  EXPECT_EQ(first->at("you"), "Aigerim");

  const auto log = dir.path / "bot.log";
  Child bot({TOGUZ_BINARY, "bot", "--server", "http://127.0.0.1:" + std::to_string(srv.port),
             "--username", "Kasym_bot", "--password-file", password_file.string(), "--rated",
             "casual", "--movetime", "20", "--engine", TOGUZ_BINARY, "ugi"},
            log);
  ASSERT_GT(bot.pid, 0);
  ASSERT_TRUE(lobby.read_until([](const json::object& m) {
    return m.at("type") == "online" && m.at("players").as_int64() >= 2;
  })) << read_file(log);

  // A rated challenge is declined (the bot takes casual games only), a casual one accepted.
  const json::object clock{{"initial_ms", 300000}, {"increment_ms", 5000}};
  lobby.send(json::object{{"type", "challenge"},
                          {"to", "Kasym_bot"},
                          {"variant", "standard"},
                          {"clock", clock},
                          {"days_per_move", nullptr},
                          {"rated", true},
                          {"color", "white"}});
  auto created = lobby.read_type("challenge_created");
  ASSERT_TRUE(created) << read_file(log);
  auto gone = lobby.read_type("challenge_gone");
  ASSERT_TRUE(gone) << read_file(log);
  EXPECT_EQ(gone->at("id"), created->at("id"));
  EXPECT_EQ(gone->at("reason"), "declined");

  // A correspondence game: without a clock the bot's engine takes its --movetime (20 ms), so
  // the game to its end takes seconds, not the minutes a clock's time management would spend.
  lobby.send(json::object{{"type", "challenge"},
                          {"to", "Kasym_bot"},
                          {"variant", "standard"},
                          {"clock", nullptr},
                          {"days_per_move", 1},
                          {"rated", false},
                          {"color", "white"}});
  ASSERT_TRUE(lobby.read_type("challenge_created"));
  auto start = lobby.read_type("start");
  ASSERT_TRUE(start) << read_file(log);
  EXPECT_EQ(start->at("side"), "white");

  test::WsOptions game_opts;
  game_opts.cookie = human;
  test::WsClient white(srv.port, test::jstr(start->at("game")), test::jstr(start->at("token")),
                       game_opts);
  int bot_moves = 0;
  auto g = play_first_moves(white, &bot_moves);
  ASSERT_TRUE(g) << read_file(log);
  EXPECT_EQ(g->at("status"), "over");
  // Every Black move of the finished game is the bot's (counted from the record: states may be
  // coalesced); how long the game lasts depends on the engine's time, so only a floor no game
  // to the end can stay under.
  int black_moves = 0;
  for (const json::value& m : g->at("moves").as_array())
    black_moves += m.at("side") == "black" ? 1 : 0;
  EXPECT_GE(black_moves, 5);
  EXPECT_GE(black_moves, bot_moves);
  EXPECT_EQ(g->at("players").at("black").at("name"), "Kasym_bot");

  EXPECT_EQ(bot.terminate(), 0) << read_file(log);
  const std::string text = read_file(log);
  EXPECT_NE(text.find("declining the challenge of Aigerim: rated games are not accepted"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("accepting the challenge of Aigerim"), std::string::npos) << text;
  EXPECT_NE(text.find("stopped after 1 games"), std::string::npos) << text;
}

#endif

}  // namespace
}  // namespace toguz::bot
