// The server as a whole: what it owns, start (listen, resume the rooms, run the IO thread),
// the periodic sweep, and shutdown. The network side is the listener of src/net over this site,
// http_routes.cpp and socket_routes.cpp; the features in src/site.
#include <malloc.h>

#include <algorithm>

#include "net/log.h"
#include "rules/record.h"
#include "server/server_impl.h"
#include "site/accounts/moderation.h"
#include "site/json_out.h"
#include "site/texts.h"
#include "store/sqlite_store.h"

namespace toguz::server {

Server::Impl::Impl(const Config& c)
    : config(c), rng(std::random_device{}()), static_files(config.static_dir) {
  if (auto level = net::parse_log_level(config.log_level)) net::set_log_level(*level);
  try {
    proxies = net::TrustedProxies::parse(config.trusted_proxies);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("--trusted-proxy: ") + e.what());
  }
  if (!config.puzzles_path.empty() || !config.studies_path.empty() || !config.explorer_path.empty())
    learn = std::make_unique<LearnService>(
        LearnOptions{config.puzzles_path, config.studies_path, config.explorer_path, 0,
                     config.mine_puzzles ? config.mined_puzzles_path : ""});
  backend = toguz::store::open_store(config.db_path);
  if (auto* sqlite = dynamic_cast<store::SqliteStore*>(backend.get()))
    sqlite->set_busy_ms(config.store_busy_ms);
  writer = std::make_unique<store::StoreWriter>(
      *backend, [this](std::function<void()> f) { asio::post(ioc, std::move(f)); });
  store = std::make_unique<store::QueuedStore>(*writer);
  arbiter = std::make_unique<ArbiterApi>(*store);
  int workers = config.workers;
  // Two at least by default: background work never takes the last worker from engine moves.
  if (workers <= 0) workers = std::max(2, int(std::thread::hardware_concurrency()) - 1);
  pool = std::make_unique<engine_work::WorkerPool>(workers,
                                                   size_t(std::max(1, config.max_queued_jobs)));
  engine = std::make_unique<engine_work::EngineWork>(ioc, *pool);
  hashes = std::make_unique<HashPool>(std::max(1, config.hash_threads),
                                      size_t(std::max(2, config.max_queued_hashes)));
  accounts_site = std::make_unique<AccountsSite>(AccountsServices{
      config, *store, *hashes, ioc, [this](int64_t user_id) { sessions_ended(user_id); },
      [this](const GameRow& row) {
        const auto room = Room::from_row(*services, row);
        return write_record(room->game, export_tags(room->row()), RecordStyle::Pgn);
      }});
  moderation_site = std::make_unique<ModerationSite>(ModerationServices{
      config, *store, [this](const net::Request& req) { return accounts_site->viewer_of(req); }});
  endgame = std::make_unique<engine_work::EndgameTables>(
      config.tables_dir, config.tables_stones,
      [work = engine.get()](std::shared_ptr<const search::TableProbe> t) {
        work->set_tables(std::move(t));
      });
  move_evals = std::make_unique<engine_work::MoveEvals>(
      *engine, config.explorer_eval_depth, size_t(std::max(0, config.explorer_eval_cache)));
  learn_site = std::make_unique<LearnSite>(
      LearnServices{*store, learn.get(), *move_evals, *pool,
                    [this](const net::Request& req) { return accounts_site->viewer_of(req); }});
  services = std::make_unique<RoomServices>(
      RoomServices{ioc, config, *store, *writer, *engine, rng, stopped_io});
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
  sockets = std::make_unique<SiteSockets>(config, addresses, *store);
  if (!config.redis_url.empty()) {
    cluster = std::make_unique<cluster::Cluster>(
        cluster::ClusterServices{
            ioc, config, *store, *rooms,
            [this](ClientSession& c, std::string_view text) { games->on_message(c, text); },
            *sockets, stopped_io,
            [this](const net::Request& req, const std::string& client, net::Respond respond) {
              handle_http(req, client, std::move(respond));
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
  games = std::make_unique<GamesSite>(
      GamesServices{config, *store, *rooms, *engine, *accounts_site, *moderation_site, addresses,
                    rng, *sockets, stopped_io, [this] { schedule_trim(); }, cluster.get()});
  store->expire_stale(now_ms() - int64_t(config.expire_waiting_seconds) * 1000,
                      now_ms() - int64_t(config.expire_analysis_seconds) * 1000);
  rooms->load_unfinished();
  make_lobby();
  make_tournaments();
  make_router();
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
  if (dropped) schedule_trim();
}

// ---- start and stop ----

void Server::Impl::shutdown_on_io() {
  beast::error_code ec;
  acceptor.close(ec);
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
    asio::post(im.ioc, [&im] { im.shutdown_on_io(); });
    im.io_thread.join();
  }
  im.pool->shutdown();
  im.hashes->shutdown();
}

}  // namespace toguz::server
