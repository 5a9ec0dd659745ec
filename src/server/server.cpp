// `toguz serve` as a whole, the composition root of the site (docs/server.md): what it owns
// (the IO context, the store and its writer, the worker pool and its EngineWork, the rooms,
// what is counted per client address), each module of src/site made over its services and
// wired to the others, the cluster with --redis, the route table made from the modules' routes,
// the socket endpoints, the lobby's tick, the periodic sweep, start and shutdown. The network
// side is the listener of src/net over this site.
// Threading: everything here except WorkerPool tasks and the store's writer thread runs on the
// single IO thread, so rooms and sessions need no locks; a worker's result and a queued
// write's outcome come back by asio::post, and `store` is used only through the writer.
#include "server/server.h"

#include <malloc.h>

#include <algorithm>
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

#include "accounts/glicko2.h"
#include "accounts/username.h"
#include "cluster/cluster.h"
#include "engine_work/endgame_tables.h"
#include "engine_work/engine_queue.h"
#include "engine_work/engine_work.h"
#include "engine_work/move_evals.h"
#include "engine_work/worker_pool.h"
#include "net/client_address.h"
#include "net/http_listener.h"
#include "net/log.h"
#include "net/metrics.h"
#include "net/router.h"
#include "net/static_files.h"
#include "rules/record.h"
#include "site/accounts/accounts_site.h"
#include "site/accounts/hash_pool.h"
#include "site/accounts/mail_site.h"
#include "site/accounts/moderation.h"
#include "site/accounts/moderation_site.h"
#include "site/addresses.h"
#include "site/arbiter/arbiter_api.h"
#include "site/arbiter/team_api.h"
#include "site/games/game_socket.h"
#include "site/games/games_site.h"
#include "site/games/room_registry.h"
#include "site/json_in.h"
#include "site/json_out.h"
#include "site/learn/learn_api.h"
#include "site/learn/learn_site.h"
#include "site/learn/puzzle_miner.h"
#include "site/lobby/lobby.h"
#include "site/lobby/lobby_socket.h"
#include "site/ops/ops_site.h"
#include "site/rate_bucket.h"
#include "site/ratings/ratings_site.h"
#include "site/sockets.h"
#include "site/texts.h"
#include "site/tournaments/tournaments_site.h"
#include "site/viewer.h"
#include "store/sqlite_store.h"
#include "store/store.h"

namespace toguz::server {

// The site for the listener (net/http_listener.h): the routes, the socket endpoints, the
// client's address.
struct Server::Impl : net::HttpSite {
  explicit Impl(const Config& c);
  ~Impl();
  // The parts, made in this order by the constructor.
  void open_store();     // the store, its writer, the arbiter's events
  void make_engine();    // the worker pool, EngineWork, the password hashes, the tables
  void make_accounts();  // the accounts, moderation and learning pages
  void make_rooms();     // the rooms and what a game's end tells
  void make_cluster();   // with --redis: the cluster and the engine's queue
  void make_ops();       // the metrics' gauges, /metrics and /api/ready

  Config config;
  asio::io_context ioc{1};
  tcp::acceptor acceptor{ioc};
  // The metrics (docs/operations.md): the registry and the site's counters, made first so
  // that every part is wired to them as it is made.
  net::Metrics metrics;
  std::unique_ptr<SiteMetrics> site_metrics;
  std::unique_ptr<OpsSite> ops;
  tcp::acceptor metrics_acceptor{ioc};  // --metrics-listen
  void listen_metrics();
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
  // Draining (docs/operations.md "Draining"): no new game starts here, the games are handed
  // over (or left resumable) once their writes are committed, then shutdown_on_io.
  bool draining = false;
  bool drained = false;
  asio::steady_timer drain_timer{ioc};     // the bound on the wait for the writes
  std::function<void()> on_drain_request;  // Server::on_drain_request
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
  std::unique_ptr<TeamApi> team_events;       // /api/team-events: its team events
  std::unique_ptr<RatingsSite> ratings;       // /api/ratings: the federation's rating lists
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
  void drain();            // IO thread: stops new games, then hand_over_games() and shutdown
  void hand_over_games();  // once the writes are committed (or the bound passed)
  void shutdown_on_io();
  void sweep();  // expires stale games, drops idle rooms and idle address entries
  void arm_sweep();
  void schedule_trim();  // malloc_trim a little after connections went

  // The client of a request or WebSocket upgrade that came from the socket peer `peer`
  // (client_address.h): the one address every per-address limit and log line uses.
  std::string client_of(const asio::ip::address& peer,
                        const http::request<http::string_body>& req) const override;

  // HTTP routing: the route table of every /api endpoint (make_router: each
  // module of src/site adds its own routes), the static files outside /api. A browser's request
  // from another site is refused: Origin, when sent, must name this server (the Host the
  // request was sent to). `peer` is the client's address (client_of).
  using Respond = std::function<void(http::response<http::string_body>)>;
  std::unique_ptr<net::Router> router;
  void make_router();
  void add_health_route();  // GET /api/health
  // A request from a client: routed, its answer counted (OpsSite::count).
  void handle_http(const http::request<http::string_body>& req, const std::string& peer,
                   Respond respond) override;
  // The same without the counting (a request another instance forwarded was counted there).
  void route_http(const http::request<http::string_body>& req, const std::string& peer,
                  Respond respond);
  http::response<http::string_body> refusal(Refused why, const std::string& detail) const override;
  // The socket endpoints: /ws/lobby, the lobby's socket for the session
  // cookie's player, and /ws/<id>, a game's (or, in a cluster, a relay to the instance that
  // drives it). Refused: another site's Origin, an unknown game, too many sockets from the
  // client's address.
  std::optional<http::response<http::string_body>> upgrade(
      http::request<http::string_body> req, const std::string& client,
      boost::beast::tcp_stream& stream) override;
  // upgrade() before its refusal is counted.
  std::optional<http::response<http::string_body>> open_socket(http::request<http::string_body> req,
                                                               const std::string& client,
                                                               boost::beast::tcp_stream& stream);
  bool origin_allowed(const http::request<http::string_body>& req) const;

  // The games (site/games/games_site.h); in a cluster a request about a game another instance
  // drives goes there (the cluster is their GamesCluster).
  std::unique_ptr<GamesSite> games;

  // The lobby (lobby.h) and its tick: pools paired, counts sent.
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
  // ---- mail (site/accounts/mail_site.h, docs/operations.md "Mail") ----
  std::unique_ptr<mail::Outbox> outbox;  // none without --smtp-url
  std::unique_ptr<MailSite> mail_site;
  void make_mail();
  std::string site_url() const;  // the mails' links' base
};

// ---- making ----

Server::Impl::Impl(const Config& c)
    : config(c), rng(std::random_device{}()), static_files(config.static_dir) {
  if (auto level = net::parse_log_level(config.log_level)) net::set_log_level(*level);
  if (auto format = net::parse_log_format(config.log_format)) net::set_log_format(*format);
  site_metrics = std::make_unique<SiteMetrics>(metrics);
  try {
    proxies = net::TrustedProxies::parse(config.trusted_proxies);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("--trusted-proxy: ") + e.what());
  }
  if (!config.puzzles_path.empty() || !config.studies_path.empty() || !config.explorer_path.empty())
    learn = std::make_unique<LearnService>(
        LearnOptions{config.puzzles_path, config.studies_path, config.explorer_path, 0,
                     config.mine_puzzles ? config.mined_puzzles_path : ""});
  open_store();
  make_engine();
  make_accounts();
  make_mail();
  make_rooms();
  sockets = std::make_unique<SiteSockets>(config, addresses, *store);
  if (!config.redis_url.empty()) make_cluster();
  games = std::make_unique<GamesSite>(
      GamesServices{config, *store, *rooms, *engine, *accounts_site, *moderation_site, addresses,
                    rng, *sockets, stopped_io, [this] { schedule_trim(); }, cluster.get()});
  store->expire_stale(now_ms() - int64_t(config.expire_waiting_seconds) * 1000,
                      now_ms() - int64_t(config.expire_analysis_seconds) * 1000);
  rooms->load_unfinished();
  make_lobby();
  make_tournaments();
  make_ops();
  make_router();
}

void Server::Impl::open_store() {
  backend = toguz::store::open_store(config.db_path);
  if (auto* sqlite = dynamic_cast<store::SqliteStore*>(backend.get()))
    sqlite->set_busy_ms(config.store_busy_ms);
  writer = std::make_unique<store::StoreWriter>(
      *backend, [this](std::function<void()> f) { asio::post(ioc, std::move(f)); });
  writer->set_commit_observer([m = site_metrics.get()](auto took, size_t failed) {
    m->store_commit.observe(std::chrono::duration<double>(took).count());
    m->store_failures.inc(failed);
  });
  store = std::make_unique<store::QueuedStore>(*writer);
  arbiter = std::make_unique<ArbiterApi>(*store, config.broadcast_dir, config.broadcast_urls,
                                         config.ratings_events_dir);
  team_events = std::make_unique<TeamApi>(*store, config.ratings_events_dir);
}

void Server::Impl::make_engine() {
  int workers = config.workers;
  // Two at least by default: background work never takes the last worker from engine moves.
  if (workers <= 0) workers = std::max(2, int(std::thread::hardware_concurrency()) - 1);
  pool = std::make_unique<engine_work::WorkerPool>(workers,
                                                   size_t(std::max(1, config.max_queued_jobs)));
  pool->set_wait_observer([m = site_metrics.get()](engine_work::Priority, auto waited) {
    m->engine_wait.observe(std::chrono::duration<double>(waited).count());
  });
  engine = std::make_unique<engine_work::EngineWork>(ioc, *pool);
  arbiter->set_engine(engine.get());
  hashes = std::make_unique<HashPool>(std::max(1, config.hash_threads),
                                      size_t(std::max(2, config.max_queued_hashes)));
  endgame = std::make_unique<engine_work::EndgameTables>(
      config.tables_dir, config.tables_stones,
      [work = engine.get()](std::shared_ptr<const search::TableProbe> t) {
        work->set_tables(std::move(t));
      });
  move_evals = std::make_unique<engine_work::MoveEvals>(
      *engine, config.explorer_eval_depth, size_t(std::max(0, config.explorer_eval_cache)));
}

void Server::Impl::make_accounts() {
  accounts_site = std::make_unique<AccountsSite>(AccountsServices{
      config, *store, *hashes, ioc, [this](int64_t user_id) { sessions_ended(user_id); },
      [this](const GameRow& row) {
        const auto room = Room::from_row(*services, row);
        return write_record(room->game, export_tags(room->row()), RecordStyle::Pgn);
      }});
  moderation_site = std::make_unique<ModerationSite>(ModerationServices{
      config, *store, [this](const net::Request& req) { return accounts_site->viewer_of(req); }});
  learn_site = std::make_unique<LearnSite>(
      LearnServices{*store, learn.get(), *move_evals, *pool,
                    [this](const net::Request& req) { return accounts_site->viewer_of(req); }});
  ratings = std::make_unique<RatingsSite>(
      RatingsServices{config.ratings_dir, [this](const net::Request& req) {
                        const Viewer v = accounts_site->viewer_of(req);
                        return v.signed_in() && store->standing(v.user_id).moderator;
                      }});
}

void Server::Impl::make_mail() {
  if (!config.smtp_url.empty()) {
    mail::SmtpSettings smtp{config.smtp_url, config.smtp_user, config.smtp_password,
                            config.smtp_from};
    smtp.tls = config.smtp_tls;
    net::Counter& sent = metrics.counter("toguz_mail_sent_total", "Mails the SMTP server took");
    net::Counter& failed =
        metrics.counter("toguz_mail_failed_total", "Mails that could not be sent (logged)");
    outbox = std::make_unique<mail::Outbox>(
        [smtp, &sent, &failed](const mail::Mail& m) {
          std::string error = mail::send_mail(smtp, m);
          (error.empty() ? sent : failed).inc();
          return error;
        },
        [](const mail::Mail& m, const std::string& error) {
          net::log(net::LogLevel::Warn, "", "mail: not sent (" + m.subject + "): " + error);
        });
    metrics.gauge("toguz_mail_queued", "Mails waiting to be sent",
                  [this] { return double(outbox->queued()); });
  }
  mail_site = std::make_unique<MailSite>(MailServices{
      config, *store, *hashes, ioc, outbox.get(),
      [this](const net::Request& req) { return accounts_site->viewer_of(req); },
      [this](int64_t user_id) { sessions_ended(user_id); }, [this] { return site_url(); }});
}

std::string Server::Impl::site_url() const {
  std::string url = config.public_url;
  if (url.empty()) {
    beast::error_code ec;
    const auto ep = acceptor.local_endpoint(ec);
    url = "http://" + config.host + ":" + std::to_string(ec ? config.port : ep.port());
  }
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

void Server::Impl::make_rooms() {
  services = std::make_unique<RoomServices>(
      RoomServices{ioc, config, *store, *writer, *engine, rng, stopped_io});
  services->move_made = [m = site_metrics.get()](SteadyClock::duration took) {
    m->moves.inc();
    m->move_state.observe(std::chrono::duration<double>(took).count());
  };
  // A correspondence game's move: the player to move may have asked for a mail.
  services->move_stored = [this](const Room& room) {
    if (!room.correspondence() || room.status != Status::Playing) return;
    const Player& next = room.players[index(room.to_move())];
    const Player& other = room.players[index(opposite(room.to_move()))];
    mail_site->your_turn(next.user_id, room.id, other.name);
  };
  services->blocks_between = [this](int64_t a, int64_t b) {
    return moderation_site->blocks_between(a, b);
  };
  rooms = std::make_unique<RoomRegistry>(*services);
  if (learn && !config.puzzles_path.empty() && config.mine_puzzles) {
    miner = std::make_unique<PuzzleMiner>(
        *engine, config.mined_puzzles_path,
        [this](const puzzles::Puzzle& p) { return learn->add_puzzle(p); });
    // the games played here, not analysis boards or imported records; aborted ones hold none
  }
  // Every game's end: the tournaments take their games' results, the miner the games played.
  services->game_ended = [this](const Room& room) {
    tournaments->game_ended(room);
    if (miner && room.mode != Mode::Analysis && room.status == Status::Over)
      miner->finished(room.id, room.game, export_tags(room.row()));
  };
  // A rated game's stored end: the feeding check, on the writer's thread after that write.
  services->rated_game_stored = [this](const GameRow& g) {
    writer->write([g, losses = config.feed_flag_losses, resigns = config.feed_flag_resignations](
                      Store& st) { moderation::flag_feeding(st, g, losses, resigns, now_ms()); },
                  nullptr);
  };
}

void Server::Impl::make_cluster() {
  cluster = std::make_unique<cluster::Cluster>(
      cluster::ClusterServices{
          ioc, config, *store, *rooms,
          [this](ClientSession& c, std::string_view text) { games->on_message(c, text); }, *sockets,
          stopped_io,
          [this](const net::Request& req, const std::string& client, net::Respond respond) {
            route_http(req, client, std::move(respond));
          },
          [this] {
            if (engine_queue) engine_queue->refresh();
          }},
      config.redis_url);
  rooms->set_ownership(cluster.get());
  engine_queue = std::make_unique<engine_work::EngineQueue>(ioc, *engine, config.redis_url,
                                                            cluster->instance());
  engine->set_remote(engine_queue.get());
}

Server::Impl::~Impl() {
  // stops a tables build that still runs
  endgame.reset();
  hashes.reset();
  pool.reset();  // joins the workers before the rooms and sessions go
  rooms->clear();
}

// ---- expiry and memory ----

void Server::Impl::schedule_trim() {
  if (trim_armed) return;
  trim_armed = true;
  trim_timer.expires_after(std::chrono::seconds(2));
  trim_timer.async_wait([this](beast::error_code ec) {
    trim_armed = false;
    // glibc keeps freed memory in its arenas; after many connections went, hand it back.
    if (!ec && !stopped_io) malloc_trim(0);
  });
}

void Server::Impl::arm_sweep() {
  const int shortest = std::min({config.expire_waiting_seconds, config.expire_analysis_seconds,
                                 config.idle_room_seconds, config.idle_game_seconds});
  const auto every =
      std::chrono::milliseconds(std::clamp<int64_t>(int64_t(shortest) * 500, 200, 60000));
  sweep_timer.expires_after(every);
  sweep_timer.async_wait([this](beast::error_code ec) {
    if (ec || stopped_io) return;
    sweep();
    arm_sweep();
  });
}

void Server::Impl::sweep() {
  const bool dropped = rooms->sweep();
  const auto now = SteadyClock::now();
  for (auto it = addresses.begin(); it != addresses.end();) {
    const AddressState& a = it->second;
    if (a.connections == 0 && a.analyses == 0 && now - a.refilled >= std::chrono::minutes(5) &&
        now - a.used >= kAddressIdle)
      it = addresses.erase(it);
    else
      ++it;
  }
  tournaments->sweep();
  accounts_site->sweep(now_ms());
  mail_site->sweep(now_ms());
  if (dropped) schedule_trim();
}

// ---- the operator's side (site/ops/ops_site.h, docs/operations.md) ----

void Server::Impl::make_ops() {
  const auto start_s = double(now_ms()) / 1000;
  metrics.gauge("toguz_games_live", "Games being played now (not analysis boards)", [this] {
    size_t n = 0;
    rooms->for_each([&](const std::shared_ptr<Room>& room) {
      n += room->mode != Mode::Analysis && room->status == Status::Playing;
    });
    return double(n);
  });
  metrics.gauge("toguz_rooms", "Games in memory", [this] { return double(rooms->size()); });
  metrics.gauge("toguz_websockets", "WebSocket connections open (games and lobby)", [this] {
    size_t n = 0;
    for (const auto& [address, a] : addresses) n += size_t(std::max(0, a.connections));
    return double(n);
  });
  metrics.gauge("toguz_websocket_queued_bytes", "Bytes waiting to be sent over WebSockets",
                [this] { return double(sockets->queued_total()); });
  metrics.gauge("toguz_engine_queue_depth", "Engine tasks waiting for a worker",
                [this] { return double(pool->queued()); });
  metrics.gauge("process_resident_memory_bytes", "Resident memory of the process",
                [] { return double(net::resident_bytes()); });
  metrics.gauge("process_start_time_seconds", "When the process started, seconds since the epoch",
                [start_s] { return start_s; });
  ops = std::make_unique<OpsSite>(OpsServices{config, metrics, *site_metrics,
                                              [this] {
                                                if (stopped_io) return std::string("stopping");
                                                if (draining) return std::string("draining");
                                                if (cluster && !cluster->bus_connected())
                                                  return std::string("the bus is not connected");
                                                return std::string();
                                              },
                                              [this] {
                                                if (on_drain_request) on_drain_request();
                                              }});
}

void Server::Impl::listen_metrics() {
  if (config.metrics_listen.empty()) return;
  std::pair<std::string, uint16_t> where;
  try {
    where = parse_listen_address(config.metrics_listen);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("--metrics-listen: ") + e.what());
  }
  beast::error_code ec;
  const auto addr = asio::ip::make_address(where.first, ec);
  if (ec) throw std::runtime_error("--metrics-listen: bad address '" + where.first + "'");
  const tcp::endpoint ep(addr, where.second);
  metrics_acceptor.open(ep.protocol(), ec);
  if (!ec) metrics_acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) metrics_acceptor.bind(ep, ec);
  if (!ec) metrics_acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    throw std::runtime_error("--metrics-listen: cannot listen on " + config.metrics_listen + ": " +
                             ec.message());
  net::accept_http(metrics_acceptor, ops->listener_site());
}

uint16_t Server::metrics_port() const {
  beast::error_code ec;
  auto ep = impl_->metrics_acceptor.local_endpoint(ec);
  return ec ? 0 : ep.port();
}

// ---- start and stop ----

namespace {
// How long a drain waits for the store's writer before it stops anyway (a stuck database):
// under systemd's TimeoutStopSec (packaging/toguz.service).
constexpr auto kDrainLimit = std::chrono::seconds(20);
}  // namespace

void Server::Impl::drain() {
  if (draining) return;
  draining = true;
  beast::error_code ec;
  acceptor.close(ec);  // new connections go to the other instances
  if (cluster) cluster->begin_drain();
  size_t n = 0;
  rooms->for_each([&](const std::shared_ptr<Room>& room) {
    room->begin_handover();
    ++n;
  });
  log(net::LogLevel::Info, "", "draining: " + std::to_string(n) + " games in memory");
  drain_timer.expires_after(kDrainLimit);
  drain_timer.async_wait([this](beast::error_code e) {
    if (e) return;
    log(net::LogLevel::Warn, "", "draining: the store's writes did not finish; stopping anyway");
    hand_over_games();
  });
  // Queued after every write of the games: its answer comes once they are committed.
  writer->write([](Store&) {}, [this](std::exception_ptr) { hand_over_games(); });
}

void Server::Impl::hand_over_games() {
  if (drained) return;
  drained = true;
  drain_timer.cancel();
  rooms->for_each([](const std::shared_ptr<Room>& room) { room->save_paused_clocks(); });
  if (cluster) {
    const size_t handed = cluster->hand_over();
    log(net::LogLevel::Info, "", "draining: " + std::to_string(handed) + " games handed over");
  }
  shutdown_on_io();
}

void Server::Impl::shutdown_on_io() {
  beast::error_code ec;
  acceptor.close(ec);
  metrics_acceptor.close(ec);
  stopped_io = true;
  sweep_timer.cancel();
  trim_timer.cancel();
  lobby_timer.cancel();
  pool->shutdown();
  hashes->shutdown();
  if (engine_queue) engine_queue->stop();
  rooms->for_each([](const std::shared_ptr<Room>& room) { room->stop_for_shutdown(); });
  if (cluster) cluster->stop();
  ioc.stop();
}

Server::Server(const Config& config) : impl_(std::make_unique<Impl>(config)) {}

Server::~Server() {
  stop();
}

void Server::start() {
  Impl& im = *impl_;
  beast::error_code ec;
  auto addr = asio::ip::make_address(im.config.host, ec);
  if (ec) throw std::runtime_error("bad --host '" + im.config.host + "': " + ec.message());
  tcp::endpoint ep(addr, im.config.port);
  im.acceptor.open(ep.protocol(), ec);
  if (!ec) im.acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) im.acceptor.bind(ep, ec);
  if (!ec) im.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    throw std::runtime_error("cannot listen on " + im.config.host + ":" +
                             std::to_string(im.config.port) + ": " + ec.message());
  if (im.cluster) {
    im.cluster->start();
    im.lobby->announce();  // the other instances' seeks
  }
  net::accept_http(im.acceptor, im);
  im.listen_metrics();
  // Rooms loaded at start may need the engine or a flag timer: start them on the IO thread.
  asio::post(im.ioc, [&im] {
    im.rooms->for_each([](const std::shared_ptr<Room>& room) {
      room->start_engine();
      room->arm_flag_timer();
    });
    im.arm_sweep();
    im.arm_lobby_tick();
  });
  im.io_thread = std::thread([&im] {
    for (;;) {
      try {
        im.ioc.run();
        return;
      } catch (const std::exception& e) {
        // A handler threw: keep serving (the error was the request's, not the server's).
        log(net::LogLevel::Error, "", std::string("IO thread: ") + e.what());
      }
    }
  });
}

void Server::Impl::sessions_ended(int64_t user_id) {
  sockets->close_ended_sessions(user_id);
  if (cluster) cluster->publish_sessions_ended(user_id);
}

std::string Server::Impl::client_of(const asio::ip::address& peer,
                                    const http::request<http::string_body>& req) const {
  return net::client_address(peer, req["X-Forwarded-For"], req["X-Real-IP"], proxies);
}

void Server::on_drain_request(std::function<void()> request) {
  impl_->on_drain_request = std::move(request);
}

uint16_t Server::port() const {
  beast::error_code ec;
  auto ep = impl_->acceptor.local_endpoint(ec);
  return ec ? 0 : ep.port();
}

void Server::stop() {
  Impl& im = *impl_;
  std::lock_guard<std::mutex> lock(im.stop_mutex);
  if (im.stopped) return;
  im.stopped = true;
  if (im.io_thread.joinable()) {
    asio::post(im.ioc, [&im] { im.drain(); });
    im.io_thread.join();
  }
  im.pool->shutdown();
  im.hashes->shutdown();
}

// ---- the HTTP routes ----
// One table (net/router.h): every /api endpoint with its method, in the order the router tries
// them. Outside /api only GET and HEAD, answered by the static files. The Origin check for
// every request that changes something; 404, 405 and a handler's exception are answered by
// the router.

bool Server::Impl::origin_allowed(const http::request<http::string_body>& req) const {
  auto it = req.find(http::field::origin);
  if (it == req.end()) return true;  // not sent: no browser's cross-site request
  const std::string origin(it->value()), host(req[http::field::host]);
  return !host.empty() && (origin == "http://" + host || origin == "https://" + host);
}

void Server::Impl::make_router() {
  router = std::make_unique<net::Router>(
      [](http::status status, const std::string& request, std::string allow) {
        if (status != http::status::method_not_allowed)
          return Refusal("no_endpoint", {{"request", request}}).response();
        auto res =
            Refusal("method_not_allowed", {{"request", request}, {"allow", allow}}).response();
        res.set(http::field::allow, allow);
        return res;
      },
      [this](const net::Call& c, const std::exception& e) {
        const std::string what = std::string(c.req.method_string()) + " " + c.path + ": ";
        log(net::LogLevel::Error, "", what + e.what());
        // A temporary refusal of the store (busy, read-only, full, unreachable): nothing was
        // written; the client may try again.
        if (const auto* u = dynamic_cast<const store::StoreUnavailable*>(&e))
          return fault_refusal(u->fault).response();
        return Refusal("server_error", {{"detail", e.what()}}).response();
      });
  add_health_route();
  ops->add_routes(*router);
  games->add_routes(*router);
  accounts_site->add_routes(*router);
  mail_site->add_routes(*router);
  moderation_site->add_routes(*router);
  tournaments->add_routes(*router);
  arbiter->add_routes(*router);
  team_events->add_routes(*router);
  learn_site->add_routes(*router);
  ratings->add_routes(*router);
}

void Server::Impl::add_health_route() {
  router->add(net::Method::Get, "/api/health", [this](const net::Call& c) {
    size_t connections = 0;
    rooms->for_each([&](const auto& room) { connections += room->connections(); });
    c.respond(
        json_response(http::status::ok, json::object{{"ok", true},
                                                     {"version", TOGUZ_VERSION},
                                                     {"rooms", rooms->size()},
                                                     {"connections", connections},
                                                     {"queued_bytes", sockets->queued_total()},
                                                     {"queued_bytes_peak", sockets->queued_peak()},
                                                     {"reviews", games->reviews_running()}}));
  });
}

void Server::Impl::handle_http(const http::request<http::string_body>& req, const std::string& peer,
                               Respond respond) {
  const std::string target(req.target());
  const std::string path = target.substr(0, target.find('?'));
  const bool get = req.method() == http::verb::get || req.method() == http::verb::head;
  if (path == "/metrics" && get && ops->public_metrics()) return ops->metrics(req, respond);
  route_http(req, peer, [this, path, respond = std::move(respond)](auto res) {
    ops->count(path, res);
    respond(std::move(res));
  });
}

void Server::Impl::route_http(const http::request<http::string_body>& req, const std::string& peer,
                              Respond respond) {
  const std::string target(req.target());
  const auto q = target.find('?');
  const std::string path = target.substr(0, q);
  const std::string query = q == std::string::npos ? "" : target.substr(q + 1);
  const bool get = req.method() == http::verb::get || req.method() == http::verb::head;
  if (!get && !origin_allowed(req)) {
    respond(Refusal("origin").response());
    return;
  }
  // While draining no game starts here (the client tries again and reaches another instance).
  if (draining && req.method() == http::verb::post &&
      (path == "/api/games" || path == "/api/import" || path == "/api/analyze")) {
    respond(Refusal("draining").response());
    return;
  }
  if (path.rfind("/api/", 0) == 0 || path == "/api") {
    router->dispatch(net::Call{req, path, query, {}, peer, std::move(respond)});
  } else if (!get) {
    auto res = Refusal("bad_method").response();
    res.set(http::field::allow, "GET, HEAD");
    respond(std::move(res));
  } else if (path.rfind("/@/", 0) == 0) {
    // A player page: the front end's page itself, which reads the name from the address.
    http::request<http::string_body> page = req;
    page.target("/");
    static_files.serve(page, respond);
  } else {
    static_files.serve(req, respond);
  }
}

// ---- the socket endpoints ----
// The WebSocket side of the route table: an upgrade the listener hands over becomes a lobby or
// a game socket, or is refused.

http::response<http::string_body> Server::Impl::refusal(Refused why,
                                                        const std::string& detail) const {
  switch (why) {
    case Refused::BodyTooLarge:
      return Refusal("too_long", {}, "body").response();
    case Refused::HeadersTooLarge:
      return Refusal("headers_too_large").response();
    case Refused::Malformed:
      break;
  }
  return Refusal("bad_http", {{"detail", detail}}).response();
}

std::optional<http::response<http::string_body>> Server::Impl::upgrade(
    http::request<http::string_body> req, const std::string& client,
    boost::beast::tcp_stream& stream) {
  const std::string target(req.target());
  const std::string path = target.substr(0, target.find('?'));
  auto refused = open_socket(std::move(req), client, stream);
  if (refused) ops->count(path, *refused);
  return refused;
}

std::optional<http::response<http::string_body>> Server::Impl::open_socket(
    http::request<http::string_body> req, const std::string& client,
    boost::beast::tcp_stream& stream) {
  const std::string target(req.target());
  const std::string path = target.substr(0, target.find('?'));
  if (!origin_allowed(req)) return Refusal("origin").response();
  // /ws/lobby: the lobby, whose player is the session cookie's.
  if (path == "/ws/lobby") {
    if (auto refused = sockets->refusal(client)) return refused;
    Viewer viewer = accounts_site->viewer_of(req);
    std::make_shared<LobbySocket>(*lobby_sockets, stream.release_socket())
        ->start(std::move(req), std::move(viewer), client);
    return std::nullopt;
  }
  if (path.rfind("/ws/", 0) == 0) return games->open_socket(std::move(req), client, stream);
  return Refusal("no_game").response();
}

// ---- the lobby and the tournaments ----
// The Lobby made with the server's clock, randomness, store and rooms, the tournaments with
// theirs (the cluster as the interface they declare), and their tick every second.

void Server::Impl::make_tournaments() {
  TournamentsServices ts{config, *store, *rooms, *services,
                         [this](std::function<void()> f) {
                           asio::post(ioc, [this, f = std::move(f)] {
                             if (!stopped_io) f();
                           });
                         },
                         [this](const net::Request& req) { return accounts_site->viewer_of(req); },
                         // In a cluster an account may be connected to another instance.
                         [this](int64_t user_id) {
                           return accounts_site->online(user_id) ||
                                  (lobby && lobby->online_elsewhere(user_id));
                         },
                         [this](const PairedGame& g) { return games->start_paired(g); },
                         [this](const Viewer& v, accounts::Speed s) { return lobby_rating(v, s); },
                         [this](const std::string& peer) -> RateBucket& {
                           AddressState& a = addresses[peer];
                           a.used = SteadyClock::now();
                           return a.entry_codes;
                         },
                         cluster.get()};
  ts.started = [this](int64_t user_id, const std::string& id, const std::string& name) {
    mail_site->tournament_started(user_id, id, name);
  };
  tournaments = std::make_unique<TournamentsSite>(std::move(ts));
  tournaments->start();
}

void Server::Impl::make_lobby() {
  LobbyHooks hooks;
  hooks.now_ms = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               SteadyClock::now().time_since_epoch())
        .count();
  };
  hooks.random = [this] { return uint64_t(rng()); };
  hooks.rating = [this](const Viewer& v, accounts::Speed s) { return lobby_rating(v, s); };
  hooks.find_user = [this](const std::string& name) { return account_named(name); };
  hooks.start_game = [this](const PairedGame& g) {
    PairedSeats seats = games->start_paired(g);
    if (!seats.error.empty()) log(net::LogLevel::Warn, "lobby", "no game started: " + seats.error);
    return seats;
  };
  // People seated in online games being played between people, and those games.
  hooks.playing = [this] {
    std::pair<int, int> out{0, 0};
    rooms->for_each([&](const std::shared_ptr<Room>& room) {
      if (room->mode != Mode::Online || room->status != Status::Playing) return;
      out.first += 2;
      ++out.second;
    });
    return out;
  };
  hooks.marked = [this](int64_t user) { return store->standing(user).marked; };
  hooks.blocked = [this](int64_t a, int64_t b) { return moderation_site->blocks_between(a, b); };
  if (cluster) {
    hooks.instance = cluster->instance();
    hooks.publish = [this](const std::string& m) { cluster->publish_lobby(m); };
    hooks.claim = [this](const std::string& id) { return cluster->claim_seek(id); };
    hooks.alive = [this](const std::string& inst) { return cluster->instance_alive(inst); };
    hooks.coordinator = [this] { return cluster->coordinator(); };
    hooks.users = [this] { return accounts_site->online_ids(); };
    cluster->on_lobby([this](const std::string& m) {
      lobby->on_bus(m);
      tournaments->on_channel(m);
    });
    // The new coordinator runs the tournaments from the store, where the last one left them.
    cluster->on_coordinator([this] { tournaments->start(); });
  }
  lobby = std::make_unique<Lobby>(std::move(hooks));
  lobby_sockets = std::make_unique<LobbySocketServices>(
      LobbySocketServices{config, *sockets, *accounts_site, *lobby, stopped_io, draining});
  lobby->challenges_per_minute = config.challenges_per_minute;
}

LobbyRating Server::Impl::lobby_rating(const Viewer& viewer, accounts::Speed speed) {
  const store::RatingRow r =
      accounts_site->rating_now(viewer.user_id, std::string(accounts::name(speed)));
  return {r.rating, r.rd > accounts::kProvisionalRd};
}

std::optional<Viewer> Server::Impl::account_named(const std::string& name) {
  if (name.size() > 100) return std::nullopt;
  const auto user = store->find_user(accounts::username_key(name));
  if (!user) return std::nullopt;
  Viewer v;
  v.user_id = user->id;
  v.username = user->username;
  v.bot = user->bot;
  return v;
}

void Server::Impl::arm_lobby_tick() {
  lobby_timer.expires_after(std::chrono::seconds(1));
  lobby_timer.async_wait([this](beast::error_code ec) {
    if (ec || stopped_io || draining) return;
    lobby->tick();
    tournaments->tick();
    arm_lobby_tick();
  });
}

}  // namespace toguz::server
