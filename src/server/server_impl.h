// Internal to src/server: the server as a whole (docs/server.md). It owns the IO context, the
// store, the worker pool and its EngineWork, the rooms (RoomRegistry) and what is counted per
// client address; the network side (listener, HTTP sessions and routes, static files, WebSocket
// sessions) and the message handlers reach the rooms through it.
// Threading: everything here except WorkerPool tasks and the store's writer thread runs on the
// single IO thread, so rooms and sessions need no locks; a worker's result and a queued
// write's outcome come back by asio::post, and `store` is used only through the writer.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "cluster/cluster.h"
#include "engine_work/endgame_tables.h"
#include "engine_work/engine_queue.h"
#include "engine_work/engine_work.h"
#include "engine_work/move_evals.h"
#include "engine_work/worker_pool.h"
#include "net/client_address.h"
#include "net/http_listener.h"
#include "net/router.h"
#include "net/static_files.h"
#include "server/server.h"
#include "site/accounts/accounts_site.h"
#include "site/accounts/hash_pool.h"
#include "site/accounts/moderation_site.h"
#include "site/addresses.h"
#include "site/arbiter/arbiter_api.h"
#include "site/games/game_socket.h"
#include "site/games/games_site.h"
#include "site/games/room_registry.h"
#include "site/learn/learn_api.h"
#include "site/learn/learn_site.h"
#include "site/learn/puzzle_miner.h"
#include "site/lobby/lobby.h"
#include "site/lobby/lobby_socket.h"
#include "site/rate_bucket.h"
#include "site/sockets.h"
#include "site/tournaments/tournaments_site.h"
#include "site/viewer.h"
#include "store/store.h"

namespace toguz::server {

// The site for the listener (net/http_listener.h): the routes, the socket endpoints, the
// client's address.
struct Server::Impl : net::HttpSite {
  explicit Impl(const Config& c);
  ~Impl();

  Config config;
  asio::io_context ioc{1};
  tcp::acceptor acceptor{ioc};
  // The store (the backend opened from --db) behind its writer thread; `store` is the
  // synchronous face of both (store/writer.h): every use of it is ordered with the moves.
  std::unique_ptr<Store> backend;
  std::unique_ptr<store::StoreWriter> writer;
  std::unique_ptr<Store> store;
  std::unique_ptr<engine_work::WorkerPool> pool;
  std::unique_ptr<HashPool> hashes;  // every password hash and verification (hash_pool.h)
  std::unique_ptr<engine_work::EngineWork> engine;
  std::unique_ptr<engine_work::EndgameTables> endgame;  // the solver and tables every search gets
  std::mt19937_64 rng;
  bool stopped_io = false;  // shutdown_on_io ran: sessions closing, nothing more to do
  std::unique_ptr<RoomServices> services;
  std::unique_ptr<RoomRegistry> rooms;
  Addresses addresses;
  net::TrustedProxies proxies;  // --trusted-proxy
  // The game and lobby sockets: counted per address, their send budgets, their login sessions.
  std::unique_ptr<SiteSockets> sockets;
  net::StaticFiles static_files;
  std::unique_ptr<LearnService> learn;        // /api/puzzles, /api/studies, /api/explorer
  std::unique_ptr<LearnSite> learn_site;      // the learning pages' routes (learn_site.h)
  std::unique_ptr<ArbiterApi> arbiter;        // /api/events: the arbiter page
  std::unique_ptr<cluster::Cluster> cluster;  // with --redis only
  std::unique_ptr<engine_work::EngineQueue> engine_queue;  // with --redis: jobs for the workers
  asio::steady_timer sweep_timer{ioc};  // expiry and rooms leaving memory (sweep)
  asio::steady_timer trim_timer{ioc};   // gives freed memory back after connections go
  bool trim_armed = false;
  // /api/explorer/eval
  std::unique_ptr<engine_work::MoveEvals> move_evals;
  // the finished games mined for puzzles
  std::unique_ptr<PuzzleMiner> miner;
  std::thread io_thread;
  bool stopped = false;  // Server::stop() was called (guarded by stop_mutex)
  std::mutex stop_mutex;

  // Shutdown (server.cpp); the listener is net::accept_http over this site.
  void shutdown_on_io();
  void sweep();  // expires stale games, drops idle rooms and idle address entries
  void arm_sweep();
  void schedule_trim();  // malloc_trim a little after connections went

  // The client of a request or WebSocket upgrade that came from the socket peer `peer`
  // (client_address.h): the one address every per-address limit and log line uses.
  std::string client_of(const asio::ip::address& peer,
                        const http::request<http::string_body>& req) const override;

  // HTTP routing (http_routes.cpp): the route table of every /api endpoint (make_router: each
  // module of src/site adds its own routes), the static files outside /api. A browser's request
  // from another site is refused: Origin, when sent, must name this server (the Host the
  // request was sent to). `peer` is the client's address (client_of).
  using Respond = std::function<void(http::response<http::string_body>)>;
  std::unique_ptr<net::Router> router;
  void make_router();
  void add_health_route();  // GET /api/health
  void handle_http(const http::request<http::string_body>& req, const std::string& peer,
                   Respond respond) override;
  http::response<http::string_body> refusal(http::status status,
                                            const std::string& message) const override;
  // The socket endpoints (socket_routes.cpp): /ws/lobby, the lobby's socket for the session
  // cookie's player, and /ws/<id>, a game's (or, in a cluster, a relay to the instance that
  // drives it). Refused: another site's Origin, an unknown game, too many sockets from the
  // client's address.
  std::optional<http::response<http::string_body>> upgrade(
      http::request<http::string_body> req, const std::string& client,
      boost::beast::tcp_stream& stream) override;
  bool origin_allowed(const http::request<http::string_body>& req) const;

  // The games (site/games/games_site.h); in a cluster a request about a game another instance
  // drives goes there (the cluster is their GamesCluster).
  std::unique_ptr<GamesSite> games;

  // The lobby (lobby.h) and its tick (server_lobby.cpp): pools paired, counts sent.
  std::unique_ptr<Lobby> lobby;
  std::unique_ptr<LobbySocketServices> lobby_sockets;  // what each /ws/lobby socket uses
  asio::steady_timer lobby_timer{ioc};
  void make_lobby();
  void arm_lobby_tick();
  // An account's rating in a category and an account by name (any case), from the store.
  LobbyRating lobby_rating(const Viewer& viewer, accounts::Speed speed);
  std::optional<Viewer> account_named(const std::string& name);

  // Online tournaments (site/tournaments/tournaments_site.h): made after the rooms are loaded,
  // ticked with the lobby, told of every game's end; in a cluster the cluster is their
  // TournamentsCluster.
  std::unique_ptr<TournamentsSite> tournaments;
  void make_tournaments();
  // ---- accounts (site/accounts/accounts_site.h, docs/accounts.md) ----
  std::unique_ptr<AccountsSite> accounts_site;
  // Sessions of `user_id` ended (a logout, a password change): its sockets opened with them
  // close here and, in a cluster, on every other instance.
  void sessions_ended(int64_t user_id);
  // ---- moderation (site/accounts/moderation_site.h, docs/accounts.md "Moderation") ----
  std::unique_ptr<ModerationSite> moderation_site;
};

}  // namespace toguz::server
