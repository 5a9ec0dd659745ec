// Internal to src/server: the server's state, sessions and rooms (docs/server.md).
// Threading: everything here except WorkerPool tasks runs on the single IO thread, so rooms,
// sessions and the store need no locks; a worker's result comes back by net::post.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "rules/game.h"
#include "server/server.h"
#include "server/store.h"
#include "server/worker_pool.h"

namespace toguz::server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace json = boost::json;
using tcp = net::ip::tcp;
using SteadyClock = std::chrono::steady_clock;

constexpr int kSpectator = -1;
constexpr int kBoth = 2;
constexpr size_t kMaxBody = 64 * 1024;       // HTTP request bodies (413 above)
constexpr size_t kMaxMessage = 4 * 1024;     // WebSocket messages (error above)
constexpr size_t kMaxQueuedWrites = 512;     // a client this far behind is dropped
constexpr int kDrawOfferGap = 10;            // plies between a declined offer and the next

class WsSession;

// One game: the referee, the players, the clocks and the connections watching it.
struct Room {
  explicit Room(net::io_context& ioc) : flag_timer(ioc), abandon_timer{net::steady_timer(ioc), net::steady_timer(ioc)} {}
  GameRow row;  // what is stored; status, result and clock fields kept current
  Game game;
  // Clocks: left[s] is side s's time when its turn started (turn_start) or, when not
  // running, its time now. They run once the first move is made, and not after a restart
  // until the player to move is back.
  bool has_clock = false;
  bool clock_running = false;
  int64_t left[2] = {0, 0};
  int64_t increment = 0;
  SteadyClock::time_point turn_start;
  net::steady_timer flag_timer;
  int draw_offer = -1, rematch_offer = -1;
  // The ply at which side s's last draw offer was declined: he may offer again kDrawOfferGap
  // plies later, so offers cannot be repeated move after move.
  int draw_declined_ply[2] = {-kDrawOfferGap, -kDrawOfferGap};
  bool may_offer_draw(int s) const {
    return game.ply_count() >= draw_declined_ply[s] + kDrawOfferGap;
  }
  std::string rematch_id;
  // Connections per seat (kBoth counts for both) and since when a seat has been empty.
  std::vector<WsSession*> sessions;
  int connected[2] = {0, 0};
  SteadyClock::time_point gone_since[2];
  net::steady_timer abandon_timer[2];
  // The engine's move search (engine mode): a newer generation makes an older result stale.
  bool thinking = false;
  uint64_t engine_gen = 0;
  std::shared_ptr<Job> engine_job;
  // The background review.
  bool reviewing = false;
  double review_progress = 0;
  std::shared_ptr<Job> review_job;
  std::vector<std::weak_ptr<WsSession>> review_waiters;

  // The "moves" of the state, one entry per ply, extended as moves are made (cleared on takeback).
  json::array moves_json;

  int side_to_move() const { return index(game.position().side_to_move()); }
  // Side s's clock now.
  int64_t clock_left(int s) const;
};

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(Server::Impl& server, tcp::socket&& socket);
  ~WsSession();
  // Accepts the upgrade `req` and joins `room` as `side` (kSpectator, 0, 1 or kBoth).
  void start(http::request<http::string_body> req, std::shared_ptr<Room> room, int side);
  // Queues one text message (IO thread).
  void send(std::string message);
  void close();

  std::shared_ptr<Room> room;
  int side = kSpectator;
  std::shared_ptr<Job> analysis;  // the running analyze stream, if any
  SteadyClock::time_point window_start;
  int window_count = 0;

 private:
  void do_read();
  void do_write();
  void on_gone();
  Server::Impl& server_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  bool writing_ = false;
  bool attached_ = false;
  bool gone_ = false;
};

struct Server::Impl {
  explicit Impl(const Config& c);
  ~Impl();

  Config config;
  net::io_context ioc{1};
  tcp::acceptor acceptor{ioc};
  std::unique_ptr<Store> store;
  std::unique_ptr<WorkerPool> pool;
  std::thread io_thread;
  std::unordered_map<std::string, std::shared_ptr<Room>> rooms;
  std::mt19937_64 rng;
  bool stopped = false;     // Server::stop() was called (guarded by stop_mutex)
  bool stopped_io = false;  // shutdown_on_io ran: sessions closing, nothing more to do
  std::mutex stop_mutex;

  // net (server.cpp)
  void do_accept();
  using Respond = std::function<void(http::response<http::string_body>)>;
  void handle_http(const http::request<http::string_body>& req, Respond respond);
  void serve_static(const http::request<http::string_body>& req, Respond& respond);
  void shutdown_on_io();

  // rooms (rooms.cpp)
  std::string random_id(int length);
  std::shared_ptr<Room> find_room(const std::string& id);
  std::shared_ptr<Room> room_from_row(GameRow row);
  void load_unfinished();
  int side_for_token(const Room& room, const std::string& token) const;
  void attach(WsSession& s);
  void detach(WsSession& s);
  void on_message(WsSession& s, std::string_view text);
  void broadcast(Room& room);
  std::string state_message(Room& room, int viewer);
  json::object state_json(Room& room, int viewer);
  void persist(Room& room);
  void persist_move(Room& room, int hole);
  void maybe_start_engine(const std::shared_ptr<Room>& room);
  void on_engine_result(const std::shared_ptr<Room>& room, uint64_t gen, const search::SearchResult& r);
  bool apply_move(const std::shared_ptr<Room>& room, int hole, std::string* why);
  void finish(Room& room, const std::string& winner, const std::string& reason);
  void finish_from_board(Room& room);
  void arm_flag_timer(const std::shared_ptr<Room>& room);
  void on_flag_timer(const std::shared_ptr<Room>& room);
  void resume_clock(Room& room);
  void stop_engine(Room& room);
  void start_review(const std::shared_ptr<Room>& room, WsSession& s);
  void start_rematch(const std::shared_ptr<Room>& room);

  // HTTP API (api.cpp)
  http::response<http::string_body> api_create(const json::object& body);
  http::response<http::string_body> api_join(const std::string& id, const json::object& body);
  http::response<http::string_body> api_import(const json::object& body);
  http::response<http::string_body> api_list(const std::string& query);
  void api_analyze(const json::object& body, Respond respond);
  std::shared_ptr<Room> new_room(const std::string& mode, const Game& game);
};

// JSON helpers shared by the files of src/server.
json::object score_json(const search::Score& s, Side to_move);
std::string side_name(int s);  // "white", "black"
http::response<http::string_body> json_response(http::status status, const json::value& body, unsigned version = 11);
http::response<http::string_body> error_response(http::status status, const std::string& message);
int64_t now_ms();  // wall clock, ms since the epoch
// Percent-decoding for paths and query values ('+' is a space). Bad escapes are kept as written.
std::string url_decode(std::string_view s);

}  // namespace toguz::server
