// The bot on the network (docs/bot.md): logs in over HTTP, keeps the lobby socket open,
// plays each started game over its game socket with one UGI engine process per game, and
// reconnects after a drop. Boost.Beast over one Asio thread; the engines think on threads of
// their own. The decisions are brain.h's; this file only moves messages.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "bot/brain.h"
#include "match/spec.h"

namespace toguz::bot {

// A failure the bot cannot go on from (a wrong URL, a refused login); the message says which.
class BotError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where the server is: "http://HOST[:PORT][/]" (plain HTTP; port 80 by default). Throws
// BotError for anything else.
struct ServerAddress {
  std::string host;
  uint16_t port = 80;
};
ServerAddress parse_server_url(const std::string& url);

struct BotConfig {
  ServerAddress server;
  std::string username;
  std::string password;
  match::EngineSpec engine;  // an external UGI engine (cmd, args, options)
  int handshake_ms = 10000;  // the engine's ugi/isready handshake
  Filters filters;
  Timing timing;
  int retry_max_ms = 8000;  // reconnects back off 0.5 s, 1 s, ... up to this
  // Every log line (no line end); called on the bot's network thread. The library prints
  // nothing itself.
  std::function<void(const std::string&)> log = [](const std::string&) {};
};

// POST /api/login: the session cookie ("toguz_session=..."), or BotError with the server's
// refusal (the password is never part of the message).
std::string login(const ServerAddress& server, const std::string& username,
                  const std::string& password);

// The bot: run() logs in and serves the lobby until stop().
class Bot {
 public:
  explicit Bot(BotConfig config);
  ~Bot();
  Bot(const Bot&) = delete;
  Bot& operator=(const Bot&) = delete;

  // Logs in and runs (challenges, games) until stopped; throws BotError when the first login
  // fails. Returns once every game has ended after stop(), or at once after a second stop().
  void run();
  // Plays one started game (its id and seat token) with the session `cookie` ("" for none)
  // and returns when it is over or after stop(). No lobby, no login.
  void play(const std::string& game, const std::string& token, const std::string& cookie = "");
  // Thread-safe (a signal thread calls it). The first call accepts no more challenges and
  // closes the lobby, letting the games in progress finish; the second ends them at once.
  void stop();
  // Games played to their end since the start (for tests and the final log line).
  int games_finished() const { return finished_.load(); }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::atomic<int> finished_{0};
};

}  // namespace toguz::bot
