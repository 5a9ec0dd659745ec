// Internal to src/server: the server's state, sessions and rooms (docs/server.md).
// Threading: everything here except WorkerPool tasks runs on the single IO thread, so rooms,
// sessions and the store need no locks; a worker's result comes back by net::post.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "rules/game.h"
#include "server/server.h"
#include "server/worker_pool.h"
#include "store/store.h"

namespace toguz::server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace json = boost::json;
using tcp = net::ip::tcp;
using store::GameRow;
using store::ListQuery;
using store::Store;
using SteadyClock = std::chrono::steady_clock;

constexpr int kSpectator = -1;
constexpr int kBoth = 2;
constexpr size_t kMaxBody = 64 * 1024;    // HTTP request bodies (413 above)
constexpr size_t kMaxMessage = 4 * 1024;  // WebSocket messages (error above)
// A client this far behind is dropped: a spectator early (it only watches), a player late (his
// states are coalesced, so only his own analysis and hints can pile up).
constexpr size_t kMaxQueuedSpectator = 64, kMaxQueuedPlayer = 512;
constexpr size_t kMaxQueuedBytesSpectator = 1 << 20, kMaxQueuedBytesPlayer = 16 << 20;
constexpr int kDrawOfferGap = 10;  // plies between a declined offer and the next

class WsSession;

// One game: the referee, the players, the clocks and the connections watching it.
struct Room {
  explicit Room(net::io_context& ioc)
      : flag_timer(ioc),
        presence_timer(ioc),
        abandon_timer{net::steady_timer(ioc), net::steady_timer(ioc)} {}
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
  // Spectators coming and going: one small presence message per room and interval.
  net::steady_timer presence_timer;
  bool presence_pending = false;
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
  int spectators = 0;  // sessions watching (no seat)
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

  SteadyClock::time_point idle_since = SteadyClock::now();  // since when no session is here

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
  // Accepts the upgrade `req` for `room` from address `peer`; the first message (hello) then
  // names the seat and attaches the session.
  void start(http::request<http::string_body> req, std::shared_ptr<Room> room, std::string peer);
  // Queues one text message (IO thread).
  void send(std::string message);
  // Queues a state message, replacing one still waiting: a slow client gets the latest state.
  void send_state(std::string message);
  void close();
  size_t queued() const { return queue_.size(); }

  std::shared_ptr<Room> room;
  int side = kSpectator;
  std::shared_ptr<Job> analysis;  // the running analyze stream, if any (one per connection)
  bool hint_pending = false;      // a hint is queued or searching (one at a time)
  SteadyClock::time_point window_start;
  int window_count = 0;

 private:
  void do_read();
  void do_write();
  void on_gone();
  void on_hello(std::string_view text);
  Server::Impl& server_;
  websocket::stream<beast::tcp_stream> ws_;
  net::steady_timer hello_timer_;
  std::string peer_;
  bool counted_ = false;  // in addresses[peer_].connections
  beast::flat_buffer buffer_;
  struct Out {
    std::string text;
    bool state;
  };
  void push(std::string message, bool state);
  std::deque<Out> queue_;
  size_t queued_bytes_ = 0;
  bool writing_ = false;
  bool attached_ = false;
  bool gone_ = false;
};

// A static file as served: read once and kept while its size and time stay the same.
struct StaticFile {
  bool ok = false;
  std::filesystem::file_time_type mtime;
  uintmax_t size = 0;
  std::string type, body, gzip, etag;  // gzip: "" when not compressed
};

// What the server counts per client address (HTTP and WebSocket alike).
struct AddressState {
  int connections = 0;  // WebSocket sessions
  int analyses = 0;     // POST /api/analyze running or queued
  double tokens = -1;   // the analyze rate's bucket (-1: full, not yet used)
  SteadyClock::time_point refilled;
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
  std::unordered_map<std::string, AddressState> addresses;
  std::unordered_map<std::string, StaticFile> static_cache;
  net::steady_timer sweep_timer{ioc};  // expiry and rooms leaving memory (sweep)
  net::steady_timer trim_timer{ioc};   // gives freed memory back after connections go
  bool trim_armed = false;
  std::mt19937_64 rng;
  bool stopped = false;     // Server::stop() was called (guarded by stop_mutex)
  bool stopped_io = false;  // shutdown_on_io ran: sessions closing, nothing more to do
  std::mutex stop_mutex;

  // net (server.cpp)
  void do_accept();
  using Respond = std::function<void(http::response<http::string_body>)>;
  void handle_http(const http::request<http::string_body>& req, const std::string& peer,
                   Respond respond);
  void serve_static(const http::request<http::string_body>& req, Respond& respond);
  StaticFile load_static(const std::filesystem::path& file);
  // A browser's request from another site is refused: Origin, when sent, must name this server
  // (the Host the request was sent to).
  bool origin_allowed(const http::request<http::string_body>& req) const;
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
  void schedule_presence(const std::shared_ptr<Room>& room);
  std::string state_message(Room& room, int viewer);
  json::object state_json(Room& room, int viewer);
  void persist(Room& room);
  void persist_move(Room& room, int hole);
  void maybe_start_engine(const std::shared_ptr<Room>& room);
  void on_engine_result(const std::shared_ptr<Room>& room, uint64_t gen,
                        const search::SearchResult& r);
  bool apply_move(const std::shared_ptr<Room>& room, int hole, std::string* why);
  void finish(Room& room, const std::string& winner, const std::string& reason);
  void finish_from_board(Room& room);
  void arm_flag_timer(const std::shared_ptr<Room>& room);
  void on_flag_timer(const std::shared_ptr<Room>& room);
  void resume_clock(Room& room);
  void stop_engine(Room& room);
  void start_review(const std::shared_ptr<Room>& room, WsSession& s);
  void start_rematch(const std::shared_ptr<Room>& room);
  void sweep();  // expires stale games, drops idle rooms and idle address entries
  void arm_sweep();
  void schedule_trim();  // malloc_trim a little after connections went

  // HTTP API (api.cpp)
  http::response<http::string_body> api_create(const json::object& body);
  http::response<http::string_body> api_join(const std::string& id, const json::object& body);
  http::response<http::string_body> api_import(const json::object& body);
  http::response<http::string_body> api_list(const std::string& query);
  void api_analyze(const json::object& body, const std::string& peer, Respond respond);
  std::shared_ptr<Room> new_room(const std::string& mode, const Game& game);
};

// JSON helpers shared by the files of src/server.
json::object score_json(const search::Score& s, Side to_move);
std::string side_name(int s);  // "white", "black"
http::response<http::string_body> json_response(http::status status, const json::value& body,
                                                unsigned version = 11);
http::response<http::string_body> error_response(http::status status, const std::string& message);
int64_t now_ms();                                   // wall clock, ms since the epoch
std::string error_message(const std::string& why);  // {"type":"error","message":why}
// Why background engine work was refused: the queue is full.
std::string busy_message(const WorkerPool& pool);
// A display name: well-formed UTF-8 only, control and bidi-control characters dropped, spaces
// trimmed, at most kMaxNameChars characters (cut between characters); `fallback` when empty.
constexpr size_t kMaxNameChars = 40;
std::string clean_name(std::string_view in, const std::string& fallback);
// Percent-decoding for paths and query values ('+' is a space). Bad escapes are kept as written.
std::string url_decode(std::string_view s);

}  // namespace toguz::server
