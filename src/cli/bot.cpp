// toguz bot --server URL --username U --password-file F [filters] --engine CMD [ARGS]: a UGI
// engine plays on the site as a bot account (docs/bot.md). The work is in src/bot.
#include <chrono>
#include <csignal>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "bot/client.h"
#include "cli/commands.h"
#include "cli/stop_signals.h"

namespace toguz::cli {

namespace {

struct BotArgs {
  std::string server, username, password_file;
  std::vector<std::string> engine;
  std::vector<std::string> options;
  std::vector<std::string> tcs, speeds, variants{"standard"};
  std::string rated = "any";
  int max_games = 1;
  int movetime = 1000;
  int overhead = 300;
  int handshake = 10000;
};

void log_line(const std::string& line) {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
  std::cerr << stamp << " toguz bot: " << line << std::endl;
}

// The first line of the file, without its line end: the password never comes from the
// command line (other users see it there).
std::string read_password(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw bot::BotError("--password-file " + path + ": cannot be read");
  std::string line;
  std::getline(in, line);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.empty()) throw bot::BotError("--password-file " + path + ": the first line is empty");
  return line;
}

bot::BotConfig make_config(const BotArgs& a) {
  bot::BotConfig c;
  c.server = bot::parse_server_url(a.server);
  c.username = a.username;
  c.password = read_password(a.password_file);
  c.engine.cmd = a.engine.at(0);
  c.engine.args.assign(a.engine.begin() + 1, a.engine.end());
  c.engine.tokens = a.engine;
  for (const std::string& o : a.options) {
    const size_t eq = o.find('=');
    if (eq == std::string::npos || eq == 0)
      throw bot::BotError("--option '" + o + "': expected NAME=VALUE");
    c.engine.options.emplace_back(o.substr(0, eq), o.substr(eq + 1));
  }
  c.handshake_ms = a.handshake;
  for (const std::string& t : a.tcs) {
    bot::ClockSpec clock;
    if (!bot::parse_time_control(t, &clock))
      throw bot::BotError("--tc '" + t + "': expected MINUTES+SECONDS, e.g. 3+2");
    c.filters.time_controls.push_back(clock);
  }
  c.filters.speeds = a.speeds;
  c.filters.variants = a.variants;
  c.filters.rated = a.rated == "rated"    ? bot::RatedFilter::Rated
                    : a.rated == "casual" ? bot::RatedFilter::Casual
                                          : bot::RatedFilter::Any;
  c.filters.max_games = a.max_games;
  c.timing.movetime_ms = a.movetime;
  c.timing.overhead_ms = a.overhead;
  c.log = log_line;
  return c;
}

}  // namespace

void add_bot(CLI::App& app) {
  auto a = std::make_shared<BotArgs>();
  auto* cmd = app.add_subcommand(
      "bot", "play on a toguz site as a bot account: accept challenges, a UGI engine moves");
  cmd->add_option("--server", a->server, "the site, http://HOST[:PORT]")->required();
  cmd->add_option("--username", a->username, "the bot account")->required();
  cmd->add_option("--password-file", a->password_file, "a file whose first line is the password")
      ->required();
  cmd->add_option("--engine", a->engine, "the engine's program and its arguments (put it last)")
      ->required()
      ->expected(1, -1);
  cmd->add_option("--option", a->options, "an engine option NAME=VALUE (repeat)");
  cmd->add_option("--tc", a->tcs, "accept only these clocks, MINUTES+SECONDS (repeat)")
      ->delimiter(',');
  cmd->add_option("--speed", a->speeds,
                  "accept only these speeds: bullet, blitz, rapid, classical, correspondence, "
                  "none (no clock)")
      ->delimiter(',')
      ->check(CLI::IsMember({"bullet", "blitz", "rapid", "classical", "correspondence", "none"}));
  cmd->add_option("--variant", a->variants, "accept only these variants")
      ->delimiter(',')
      ->check(CLI::IsMember({"standard", "kozdatu", "bestemshi"}))
      ->capture_default_str();
  cmd->add_option("--rated", a->rated, "any, rated or casual games")
      ->check(CLI::IsMember({"any", "rated", "casual"}))
      ->capture_default_str();
  cmd->add_option("--max-games", a->max_games, "games at once (one engine process each)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--movetime", a->movetime, "ms a move in a game without a clock")
      ->check(CLI::Range(1, 600000))
      ->capture_default_str();
  cmd->add_option("--overhead", a->overhead, "ms of the clock kept back for the network")
      ->check(CLI::Range(0, 60000))
      ->capture_default_str();
  cmd->add_option("--handshake-ms", a->handshake, "wait this long for the engine's ugiok")
      ->check(CLI::Range(100, 600000))
      ->capture_default_str();
  cmd->callback([a] {
    // SIGINT / SIGTERM are taken by the signal thread below.
    const sigset_t set = block_stop_signals();
    try {
      bot::Bot b(make_config(*a));
      std::atomic<bool> done{false};
      std::thread signals([&] {
        const timespec wait{0, 200 * 1000 * 1000};
        while (!done) {
          const int sig = sigtimedwait(&set, nullptr, &wait);
          if (sig <= 0) continue;
          log_line(std::string(sig == SIGINT ? "SIGINT" : "SIGTERM") + ", stopping");
          b.stop();
        }
      });
      try {
        b.run();
      } catch (...) {
        done = true;
        signals.join();
        throw;
      }
      done = true;
      signals.join();
      log_line("stopped after " + std::to_string(b.games_finished()) + " games");
    } catch (const std::exception& e) {
      std::cerr << "toguz bot: " << e.what() << "\n";
      throw CLI::RuntimeError(1);
    }
  });
}

}  // namespace toguz::cli
