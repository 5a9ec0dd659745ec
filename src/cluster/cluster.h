// `toguz serve --redis URL`: one instance of several on one PostgreSQL and one Redis
// (docs/cluster.md "Instances"). Each game in memory is driven by exactly one instance, the
// holder of its lease (renewed every lease/3; the token fences the store). An instance with
// connections to a game another instance drives relays them: the hello, messages and goodbyes
// of its clients go to the driver, which attaches a RemoteClient per connection to its room;
// whatever the room sends that client comes back as the already-built message text. HTTP
// requests about such a game (join, its state, its record) are forwarded the same way.
// Every instance listens on its own channel; all bus messages are "<header line>\n<payload>".
//
// When a driver dies its leases expire; a relay notices on its next tick, and an instance takes
// the game over from the store (its clients attach locally, the clocks paused until the player
// to move is back) or points its relays at the new driver. Unfinished online and engine games
// nobody holds are taken over the same way.
//
// Threading: everything runs on the server's IO thread, except the Subscriber's thread, which
// only posts what it receives there. Redis commands are made from the IO thread like store
// writes (short timeouts); none is made without --redis.
#pragma once

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "bus/pubsub.h"
#include "bus/redis.h"
#include "net/router.h"
#include "site/config.h"
#include "site/games/game_socket.h"
#include "site/games/games_site.h"
#include "site/games/room_registry.h"
#include "site/sockets.h"
#include "site/tournaments/tournaments_site.h"
#include "store/store.h"

namespace toguz::cluster {

using namespace toguz::site;
class RemoteClient;

// What the cluster needs of the instance it runs in.
struct ClusterServices {
  boost::asio::io_context& ioc;
  const Config& config;
  store::Store& store;
  RoomRegistry& rooms;
  // A relayed client's message to a room driven here (GamesSite::on_message).
  std::function<void(ClientSession&, std::string_view)> message;
  SiteSockets& sockets;  // an account's sockets close when its sessions end
  const bool& stopping;  // the instance shuts down
  // Answers a request another instance forwarded, as the site's routes do.
  std::function<void(const net::Request&, const std::string& client, net::Respond)> route;
  std::function<void()> on_tick;  // each tick (the engine's queue refreshed)
};

// The channel every instance subscribes to for the lobby's seeks, challenges and pairings (the
// lobby publishes its changes there; docs/cluster.md "Instances").
inline constexpr const char* kLobbyChannel = "toguz:lobby";
// The channel every instance subscribes to for ended login sessions: "ended <user id>" after a
// logout or a password change, and each instance closes that account's sockets whose session
// the store no longer has (docs/cluster.md "Instances").
inline constexpr const char* kSessionsChannel = "toguz:sessions";
// The coordinator's lease: the one instance that pairs the lobby's pools and runs the online
// tournaments (docs/cluster.md "The coordinator").
inline constexpr const char* kCoordinatorKey = "toguz:coordinator";

// The cluster implements what the features declare of it: the rooms' ownership, the games'
// forwarding and relays, the tournaments' coordinator.
class Cluster : public RoomOwnership, public GamesCluster, public TournamentsCluster {
 public:
  using Respond =
      std::function<void(boost::beast::http::response<boost::beast::http::string_body>)>;

  // Connects to Redis (throws bus::BusError naming it when it cannot) and names this instance.
  Cluster(ClusterServices services, const std::string& redis_url);
  ~Cluster() override;
  // Subscribes to this instance's channel (waiting for Redis to confirm) and starts the tick.
  void start();
  // At shutdown, on the IO thread: the leases released (another instance takes the games over
  // at once), the relays told to drop this instance's clients, the subscriber stopped.
  void stop();
  // Draining (docs/cluster.md "Draining"), on the IO thread, once every write of the games
  // driven here is committed: each game's lease is released and its next driver told to take
  // it over at once (an instance relaying its clients, else another live instance in turn);
  // the other relays of its clients say hello to that one, without closing their sockets. The
  // rooms leave memory: their sockets here close and the pages reconnect elsewhere. Answers how
  // many games were handed to another instance.
  size_t hand_over();
  // The drain begins: from now on no game is taken over or loaded here for another instance.
  void begin_drain() { draining_ = true; }
  const std::string& instance() const override { return instance_; }
  const std::string& redis_url() const { return redis_url_; }

  std::optional<int64_t> acquire(const std::string& id, int64_t floor) override;
  void release(const std::string& id) override;

  // The instance that drives game `id` now when it is another one ("" when none does or this
  // one does).
  std::string driver_elsewhere(const std::string& id);

  // GamesCluster: a request about a game another instance drives goes there (unless it was
  // forwarded here: it is answered here, never forwarded again); a socket to such a game
  // relays its hello, messages and end to the driver.
  bool forward(const std::string& id, const net::Request& req, const std::string& peer,
               const net::Respond& respond) override;
  bool driven_elsewhere(const std::string& id) override { return !driver_elsewhere(id).empty(); }
  void relay_hello(GameSocket& s) override;
  void relay_message(GameSocket& s, const std::string& text) override;
  void relay_bye(GameSocket& s) override;
  // TournamentsCluster: the tournaments' requests go to the coordinator (503 while there is
  // none); a game's end is published to it on the lobby's channel.
  bool forward(const net::Request& req, const std::string& peer,
               const net::Respond& respond) override;
  void publish(const std::string& message) override { publish_lobby(message); }
  // An HTTP request about game `id`, which `driver` drives, from the client at address `peer`:
  // forwarded with that address (the driver's limits and logs see the client, not this
  // instance), answered when the driver answers (502 when it does not within a few seconds).
  void forward_http(const std::string& driver,
                    const boost::beast::http::request<boost::beast::http::string_body>& req,
                    const std::string& peer, Respond respond);

  // The lobby's hook: `on_message` gets (on the IO thread) every message published on
  // kLobbyChannel by any instance, this one included. Set before start().
  void on_lobby(std::function<void(const std::string&)> on_message) {
    lobby_ = std::move(on_message);
  }
  void publish_lobby(const std::string& message) { publish_on(kLobbyChannel, message); }
  // Tells every instance (this one included) that sessions of `user_id` ended.
  void publish_sessions_ended(int64_t user_id);

  // The lobby's claim of seek `id` (LobbyHooks::claim): SET NX on its key in Redis, so exactly
  // one instance's claim succeeds; false when it is taken or Redis does not answer.
  bool claim_seek(const std::string& id);
  // Whether `instance` still runs (its alive key is there; true when Redis does not answer).
  bool instance_alive(const std::string& instance);

  // Whether this instance is the coordinator now: it holds the lease, renewed on every tick, and
  // the last renewal is younger than the lease less a margin (so that an instance that stalled
  // past it stops before another takes over).
  bool coordinator() const override;
  // Whether the bus's subscription is up now (readiness, docs/operations.md).
  bool bus_connected() const { return bus_connected_.load(); }
  // The coordinator when it is another instance ("" when it is this one or there is none).
  std::string coordinator_elsewhere();
  // Called (on the IO thread) each time this instance becomes the coordinator. Set before start().
  void on_coordinator(std::function<void()> became) { became_coordinator_ = std::move(became); }

  // For the driver's RemoteClients: sends `header\npayload` to `instance`.
  // The number of instances that got it (0: that instance is gone).
  long long send_to(const std::string& instance, const std::string& header,
                    const std::string& payload);
  void forget(const std::string& key);  // a RemoteClient that closed

 private:
  struct Relayed {
    std::string driver;
    std::set<uint64_t> conns;
  };
  struct PendingHttp {
    Respond respond;
    std::unique_ptr<boost::asio::steady_timer> timer;
  };
  void on_bus(const std::string& payload);
  void on_sessions_ended(const std::string& payload);
  void on_hello(const std::string& game, const std::string& from, const std::string& conn,
                const std::string& token, const Viewer& viewer, const std::string& address);
  void on_remote_message(const std::string& game, const std::string& from, const std::string& conn,
                         const std::string& text);
  void on_remote_bye(const std::string& from, const std::string& conn);
  void on_http(const std::string& from, const std::string& req, const std::string& method,
               const std::string& target, const std::string& client, const std::string& body);
  void on_http_reply(const std::string& req, int status, const std::string& content_type,
                     const std::string& body);
  std::shared_ptr<GameSocket> relay_session(uint64_t conn) const;
  void close_relayed(uint64_t conn);
  // Sends the hello of `s` to the driver of its game: false when no instance holds the game.
  bool hello_driver(GameSocket& s, const std::string& driver);
  // "moved <game> <successor>": a game handed over (hand_over); the successor takes it over,
  // a relay says hello to it.
  void on_moved(const std::string& game, const std::string& successor);
  // Takes game `game` over now (its lease, its row) and attaches this instance's relayed
  // sockets of it to the room; false when another instance holds it.
  bool take_over(const std::string& game, const std::string& from);
  // The other instances alive now (their alive keys).
  std::vector<std::string> live_instances();
  void arm_tick();
  void tick();
  void renew_leases();
  void watch_relayed();
  void drop_dead_remotes();
  void adopt_orphans();
  void hold_coordinator();
  long long publish_on(const std::string& channel, const std::string& message);
  static std::string channel_of(const std::string& instance);
  static std::string lease_key(const std::string& id);

  ClusterServices server_;
  bool routing_forwarded_ = false;  // a request another instance forwarded is being routed
  std::string redis_url_;
  std::string instance_;
  bus::Connection redis_;
  std::unique_ptr<bus::Subscriber> subscriber_;
  std::atomic<bool> bus_connected_{false};  // the subscriber's connection (its thread sets it)
  boost::asio::steady_timer tick_timer_;
  std::chrono::milliseconds lease_;
  int ticks_ = 0;
  bool stopped_ = false;
  bool draining_ = false;  // begin_drain()
  uint64_t next_conn_ = 1, next_request_ = 1;
  std::unordered_map<std::string, Relayed> relayed_;                        // game -> its relay
  std::unordered_map<uint64_t, std::weak_ptr<GameSocket>> sessions_;        // relay conn -> session
  std::unordered_map<std::string, std::shared_ptr<RemoteClient>> remotes_;  // "inst conn"
  std::unordered_map<uint64_t, PendingHttp> pending_http_;
  std::set<std::string> handed_over_;  // games this instance handed to another (draining)
  std::function<void(const std::string&)> lobby_;
  std::function<void()> became_coordinator_;
  bool coordinator_ = false;
  std::chrono::steady_clock::time_point coordinator_until_{};
};

}  // namespace toguz::cluster
