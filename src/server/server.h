// `toguz serve`: the HTTP + WebSocket server of the browser front end (docs/web-protocol.md,
// docs/server.md). One IO thread runs every socket, timer and game room; engine searches run
// in a worker pool; every game and move is written to the store (SQLite or PostgreSQL) as it
// happens.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "site/config.h"

namespace toguz::server {

// The server is the composition root of the site (src/net, src/site, src/engine_work): the
// names of the site's modules are its own.
using namespace toguz::site;

class Server {
 public:
  // Opens the database (creating its folder's file, not the folder), loads the learning data
  // and every unfinished game. Throws std::runtime_error on a database error, LearnDataError
  // (a std::runtime_error naming the file and line) on a data file that does not load.
  explicit Server(const Config& config);
  ~Server();  // stops if still running
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and listens, then runs the IO thread. Throws std::runtime_error when it cannot bind.
  void start();
  // The port actually listened on (after start()).
  uint16_t port() const;
  // The port of --metrics-listen (after start(); 0 without it).
  uint16_t metrics_port() const;
  // Drains and stops (docs/operations.md "Draining"): stops accepting and starting games,
  // refuses the players' requests, waits for the store's writes of every game (20 s at most),
  // saves the running clocks paused, in a cluster hands each game to another instance, then
  // stops the searches, closes the sockets and joins the threads. Safe to call from any
  // thread, more than once.
  void stop();
  // What the operator's `POST /drain` (--metrics-listen) does: `request` is called on the IO
  // thread; `toguz serve` makes it the same as SIGTERM. Set before start().
  void on_drain_request(std::function<void()> request);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace toguz::server
