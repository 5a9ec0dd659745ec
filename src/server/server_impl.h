// Internal to src/server: the server as a whole (docs/server.md). It owns the IO context, the
// store, the worker pool and its EngineWork, the rooms (RoomRegistry) and what is counted per
// client address; the network side (listener, HTTP sessions and routes, static files, WebSocket
// sessions) and the message handlers reach the rooms through it.
// Threading: everything here except WorkerPool tasks runs on the single IO thread, so rooms,
// sessions and the store need no locks; a worker's result comes back by net::post.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>

#include "server/engine_work.h"
#include "server/learn_api.h"
#include "server/lobby.h"
#include "server/room_registry.h"
#include "server/server.h"
#include "server/static_files.h"
#include "server/viewer.h"
#include "server/worker_pool.h"
#include "server/ws_session.h"
#include "store/store.h"

namespace toguz::server {

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
  std::unique_ptr<EngineWork> engine;
  std::mt19937_64 rng;
  bool stopped_io = false;  // shutdown_on_io ran: sessions closing, nothing more to do
  std::unique_ptr<RoomServices> services;
  std::unique_ptr<RoomRegistry> rooms;
  std::unordered_map<std::string, AddressState> addresses;
  StaticFiles static_files;
  std::unique_ptr<LearnService> learn;  // /api/puzzles, /api/studies, /api/explorer
  net::steady_timer sweep_timer{ioc};   // expiry and rooms leaving memory (sweep)
  net::steady_timer trim_timer{ioc};    // gives freed memory back after connections go
  bool trim_armed = false;
  std::thread io_thread;
  bool stopped = false;  // Server::stop() was called (guarded by stop_mutex)
  std::mutex stop_mutex;

  // The listener and shutdown (server.cpp)
  void do_accept();
  void shutdown_on_io();
  void sweep();  // expires stale games, drops idle rooms and idle address entries
  void arm_sweep();
  void schedule_trim();  // malloc_trim a little after connections went

  // HTTP routing (http_routes.cpp). A browser's request from another site is refused: Origin,
  // when sent, must name this server (the Host the request was sent to).
  using Respond = std::function<void(http::response<http::string_body>)>;
  void handle_http(const http::request<http::string_body>& req, const std::string& peer,
                   Respond respond);
  bool origin_allowed(const http::request<http::string_body>& req) const;

  // The HTTP API (http_api.cpp)
  http::response<http::string_body> api_create(const json::object& body);
  http::response<http::string_body> api_join(const std::string& id, const json::object& body);
  http::response<http::string_body> api_import(const json::object& body);
  http::response<http::string_body> api_list(const std::string& query);
  void api_analyze(const json::object& body, const std::string& peer, Respond respond);
  // Whether `peer` may start an analysis now (one at a time, a bucket of 4 at the set rate);
  // else the refusal.
  std::string analyze_refusal(const std::string& peer);

  // A WebSocket message after the hello (message_handlers.cpp): checked, then handled by the
  // handler of its type.
  void on_message(WsSession& s, std::string_view text);

  // The lobby (lobby.h) and its tick (server_lobby.cpp): pools paired, counts sent.
  std::unique_ptr<Lobby> lobby;
  net::steady_timer lobby_timer{ioc};
  void make_lobby();
  void arm_lobby_tick();
  // Who a request comes from: the session cookie's account, else anonymous.
  Viewer viewer_of(const http::request<http::string_body>& req);
  // A game between two viewers, both seated, playing (the lobby's); `error` when not made.
  PairedSeats start_paired_game(const PairedGame& game);
  // An account's rating in a category and an account by name (any case), from the store.
  LobbyRating lobby_rating(const Viewer& viewer, accounts::Speed speed);
  std::optional<Viewer> account_named(const std::string& name);
};

}  // namespace toguz::server
