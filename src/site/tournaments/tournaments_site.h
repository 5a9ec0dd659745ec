// The online tournaments on the site (docs/tournaments.md "Online tournaments", the HTTP
// contract in docs/web-protocol.md): the Tournaments piece made with the site's services, fed
// with every game's end, ticked with the lobby, and its routes under /api/tournaments.
// In a cluster only the coordinator runs them (docs/cluster.md "The coordinator"); what that
// needs of the cluster is TournamentsCluster, which the cluster implements: this module never
// sees the cluster itself.
// Threading: the IO thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "net/router.h"
#include "site/config.h"
#include "site/games/room_registry.h"
#include "site/rate_bucket.h"
#include "site/tournaments/tournaments.h"
#include "site/viewer.h"
#include "store/store.h"

namespace toguz::site {

// The cluster as the tournaments see it (absent on a single instance).
class TournamentsCluster {
 public:
  virtual ~TournamentsCluster() = default;
  // Whether this instance coordinates the tournaments now.
  virtual bool coordinator() const = 0;
  // A tournament request that this instance must not answer goes to the coordinator (answered
  // 503 "tournaments_unavailable" while there is none): true then; false when it is answered
  // here (this instance coordinates, or the request was forwarded to it).
  virtual bool forward(const net::Request& req, const std::string& peer,
                       const net::Respond& respond) = 0;
  // Tells the coordinator of the end of a game this instance drove (`message`, the lobby
  // channel's "tournament_game").
  virtual void publish(const std::string& message) = 0;
  virtual const std::string& instance() const = 0;
};

// What the tournaments need of the rest of the site.
struct TournamentsServices {
  const Config& config;
  store::Store& store;
  RoomRegistry& rooms;          // the games module: a tournament's games
  RoomServices& room_services;  // to read a stored game that is not in memory
  // Runs `f` later on the IO thread (not at all once the server shuts down).
  std::function<void(std::function<void()>)> post;
  // Who sent a request (the session cookie's account, else anonymous).
  std::function<Viewer(const net::Request&)> viewer_of;
  // Whether an account has a game or lobby socket open here or on another instance.
  std::function<bool(int64_t user_id)> online;
  std::function<PairedSeats(const PairedGame&)> start_game;
  std::function<LobbyRating(const Viewer&, accounts::Speed)> rating;
  // The wrong-entry-code bucket of the client at address `peer` (marked as used).
  std::function<RateBucket&(const std::string& peer)> entry_code_bucket;
  TournamentsCluster* cluster = nullptr;
  // A tournament started, told once per entrant (the mail's notice); may be null.
  std::function<void(int64_t user_id, const std::string& id, const std::string& name)> started =
      nullptr;
};

// Wrong tournament entry codes per client (address and account): a bucket of this many,
// refilled at one every kEntryCodeRefillMinutes. A code of 4 random letters then takes years
// to guess; a player who mistyped tries again at once.
inline constexpr int kEntryCodeAttempts = 5;
inline constexpr int kEntryCodeRefillMinutes = 2;

class TournamentsSite {
 public:
  explicit TournamentsSite(TournamentsServices services);

  // (Re)makes the tournaments from the store, where the last coordinator left them.
  void start();
  // Pairs, starts and finishes (each second, with the lobby), on the coordinator only.
  void tick();
  // Every game's end: a tournament game's result is taken in (later, on the IO thread), or in
  // a cluster published to the coordinator.
  void game_ended(const Room& room);
  // A lobby-channel message: a game's end published by the instance that drove it, taken in
  // by the coordinator.
  void on_channel(const std::string& text);
  // The routes of /api/tournaments.
  void add_routes(net::Router& router);
  // Forgets an account's wrong entry codes once its bucket is full again (the site's sweep).
  void sweep();

 private:
  net::Response answer(const net::Request& req, const std::string& id, const std::string& action,
                       const std::string& peer);
  net::Response create(const net::Request& req, const Viewer& viewer);
  net::Response act(const net::Request& req, const std::string& id, const std::string& action,
                    const Viewer& viewer, const std::string& peer);
  net::Response export_games(const std::string& id, bool pgn);
  bool call_off_unstarted(const std::string& id);
  void check_creator(const Viewer& viewer);
  void count_entry_code(const std::string& id, const std::string& code, const Viewer& viewer,
                        const std::string& peer);

  TournamentsServices s_;
  std::unique_ptr<Tournaments> tournaments_;
  std::unordered_map<int64_t, RateBucket> entry_codes_by_account_;
};

}  // namespace toguz::site
