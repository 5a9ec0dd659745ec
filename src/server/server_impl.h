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

#include "engine_work/endgame_tables.h"
#include "engine_work/engine_queue.h"
#include "engine_work/engine_work.h"
#include "engine_work/move_evals.h"
#include "engine_work/worker_pool.h"
#include "net/client_address.h"
#include "net/http_listener.h"
#include "net/router.h"
#include "net/static_files.h"
#include "server/cluster.h"
#include "server/server.h"
#include "server/session_sockets.h"
#include "server/ws_session.h"
#include "site/accounts/accounts_site.h"
#include "site/accounts/hash_pool.h"
#include "site/accounts/moderation_site.h"
#include "site/arbiter/arbiter_api.h"
#include "site/games/room_registry.h"
#include "site/learn/learn_api.h"
#include "site/learn/learn_site.h"
#include "site/learn/puzzle_miner.h"
#include "site/lobby/lobby.h"
#include "site/rate_bucket.h"
#include "site/tournaments/tournaments_site.h"
#include "site/viewer.h"
#include "store/store.h"

namespace toguz::server {

// What the server counts per client address (HTTP and WebSocket alike): the address is the
// client's as client_of() finds it, behind a trusted proxy the one the proxy names.
struct AddressState {
  int connections = 0;  // WebSocket sessions
  int analyses = 0;     // POST /api/analyze running or queued
  double tokens = -1;   // the analyze rate's bucket (-1: full, not yet used)
  SteadyClock::time_point refilled;
  // The send queues of its WebSockets and their bytes (Config::max_queued_bytes_per_address).
  std::vector<QueuedSocket*> sockets;
  size_t queued_bytes = 0;
  RateBucket games;              // online games created (Config::online_games_per_address)
  RateBucket entry_codes;        // wrong tournament entry codes (tournaments_site.h)
  SteadyClock::time_point used;  // a limit last counted: the sweep keeps the entry an hour
};

// The window over which Config::online_games_per_address refills.
inline constexpr int kGameWindowMinutes = 10;
// An AddressState whose counts are at rest leaves memory this long after its last use.
inline constexpr auto kAddressIdle = std::chrono::hours(1);

// One review at a time per client: the keys (its address, its account) of the reviews running.
// A claim is a ticket held while its review runs; dropping it frees its keys.
class ReviewClaims : public std::enable_shared_from_this<ReviewClaims> {
 public:
  // A ticket for a review asked from `address` by `user_id` (0: anonymous); `fallback` keys a
  // client with neither (a relayed socket). Null, with the refusal in *why, when one of its
  // keys has a review running.
  std::shared_ptr<void> claim(const std::string& address, int64_t user_id,
                              const std::string& fallback, std::string* why);
  size_t running() const { return running_; }

 private:
  std::set<std::string> keys_;
  size_t running_ = 0;
};

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
  std::unordered_map<std::string, AddressState> addresses;
  net::TrustedProxies proxies;  // --trusted-proxy
  // True while a request another instance of the cluster forwarded is routed (synchronously,
  // Cluster::on_http): it is answered here, never forwarded again.
  bool routing_forwarded = false;
  std::shared_ptr<ReviewClaims> reviews = std::make_shared<ReviewClaims>();
  // The send budgets (ws_session.cpp). Every game and lobby socket of `peer` is registered
  // while open; its queue's growth and shrinking are counted here, and after a growth, while
  // the address is over its budget, its socket with the most queued is closed.
  void socket_opened(const std::string& peer, QueuedSocket& s);
  void socket_closed(const std::string& peer, QueuedSocket& s);
  void queue_grew(const std::string& peer, size_t bytes);
  void queue_shrank(const std::string& peer, size_t bytes);
  size_t queued_total = 0, queued_peak = 0;  // over every address (GET /api/health)
  net::StaticFiles static_files;
  std::unique_ptr<LearnService> learn;    // /api/puzzles, /api/studies, /api/explorer
  std::unique_ptr<LearnSite> learn_site;  // the learning pages' routes (learn_site.h)
  std::unique_ptr<ArbiterApi> arbiter;    // /api/events: the arbiter page
  std::unique_ptr<Cluster> cluster;       // with --redis only
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
  // module of src/site adds its own routes; add_game_routes and add_account_routes those not
  // yet in a module, `on` adding a route whose BadRequest is its answer), the static files
  // outside /api. A browser's request from another site is refused: Origin, when sent,
  // must name this server (the Host the request was sent to). `peer` is the client's address
  // (client_of).
  using Respond = std::function<void(http::response<http::string_body>)>;
  std::unique_ptr<net::Router> router;
  void make_router();
  void on(net::Method method, std::string_view pattern,
          std::function<void(const net::Call&)> handler);
  void add_game_routes();
  void add_account_routes();
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
  // In a cluster: a request about game `id` that another instance drives is forwarded there
  // (true); false when this instance answers it.
  bool forward_game_request(const std::string& id, const http::request<http::string_body>& req,
                            const std::string& peer, const Respond& respond);

  // The HTTP API (http_api.cpp)
  // A new game (POST /api/games), answered once it is stored (503 when the store refuses it).
  // An online game is one of Config::online_games_per_address from `peer` (a bucket refilled
  // over kGameWindowMinutes).
  void api_create(const json::object& body, const Viewer& viewer, const std::string& peer,
                  Respond respond);
  http::response<http::string_body> api_join(const std::string& id, const json::object& body,
                                             const Viewer& viewer);
  // An imported record or position (POST /api/import), answered once it is stored.
  void api_import(const json::object& body, Respond respond);
  // Throws BadRequest when `name`, a cleaned name typed into `field` for a seat no account
  // takes, ends in a rating ("Aigerim (2500)") or reads as an account's name other than the
  // viewer's own (any case, look-alike letters as what they resemble).
  void check_guest_name(const char* field, const std::string& name, const Viewer& viewer);
  // A room just created, queued to the store (Room::store_new) and `ok` answered once it is
  // stored; when the store refuses it the room is dropped and 503 (a fault) or 500 answered:
  // nothing is answered as created unless it was stored. The IO thread does not wait for it.
  void store_created(const std::shared_ptr<Room>& room, bool with_moves,
                     http::response<http::string_body> ok, Respond respond);
  http::response<http::string_body> api_list(const std::string& query);
  void api_analyze(const json::object& body, const std::string& peer, Respond respond);
  // Whether `peer` may start an analysis now (one at a time, a bucket of 4 at the set rate);
  // else the refusal.
  std::string analyze_refusal(const std::string& peer);

  // A WebSocket message after the hello (message_handlers.cpp): checked, then handled by the
  // handler of its type.
  void on_message(ClientSession& s, std::string_view text);

  // The lobby (lobby.h) and its tick (server_lobby.cpp): pools paired, counts sent.
  std::unique_ptr<Lobby> lobby;
  asio::steady_timer lobby_timer{ioc};
  void make_lobby();
  void arm_lobby_tick();
  // An account's rating in a category and an account by name (any case), from the store.
  LobbyRating lobby_rating(const Viewer& viewer, accounts::Speed speed);
  std::optional<Viewer> account_named(const std::string& name);

  // Online tournaments (site/tournaments/tournaments_site.h): made after the rooms are loaded,
  // ticked with the lobby, told of every game's end; in a cluster through `tournaments_link`.
  std::unique_ptr<TournamentsSite> tournaments;
  std::unique_ptr<TournamentsCluster> tournaments_link;
  void make_tournaments();
  // ---- accounts (site/accounts/accounts_site.h, docs/accounts.md) ----
  std::unique_ptr<AccountsSite> accounts_site;
  // The sockets opened with a login session (session_sockets.h, session_sockets.cpp).
  SessionSockets session_sockets;
  // Remembers a socket of `v` (nothing for an anonymous one) so that the end of its session
  // closes it with `close`; answers the number to forget it by (0: nothing to forget).
  uint64_t add_session_socket(const Viewer& v, std::function<void()> close);
  // Closes this instance's sockets of `user_id` whose session the store no longer has (or has
  // expired); answers how many.
  size_t close_ended_sessions(int64_t user_id);
  // Sessions of `user_id` ended (a logout, a password change): its sockets opened with them
  // close here and, in a cluster, on every other instance.
  void sessions_ended(int64_t user_id);
  // GET /api/account/games[?turn=mine] (account_games.cpp): the online games the viewer plays,
  // the ones where it is his move first; 401 without an account.
  http::response<http::string_body> api_account_games(const Viewer& v, const std::string& query);
  // Binds seat `p` of `room` to `v`'s account (paired_games.cpp): its name, and in a rated game
  // its rating in the room's category.
  void bind_account(Player& p, const Room& room, const Viewer& v);

  // Starts a game between two viewers at once (the lobby: an accepted seek or challenge, a
  // pool pairing). A rated game needs both players logged in (different accounts) and a clock
  // or days per move; it is refused with that code otherwise and nothing is made. The game is
  // online and playing from the start (nobody joins), each seat bound to its viewer's account
  // (only that account may sit or move there) or, for an anonymous viewer, to its token alone;
  // the ratings before the game are read for a rated one. Answers the id and both tokens.
  PairedSeats start_paired_game(const PairedGame& game);

  // ---- moderation (site/accounts/moderation_site.h, docs/accounts.md "Moderation") ----
  std::unique_ptr<ModerationSite> moderation_site;
};

}  // namespace toguz::server
