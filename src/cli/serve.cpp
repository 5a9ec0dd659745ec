// toguz serve [--host H] [--port P] [--db FILE|URL] [--static DIR] [--workers N]
// [--abandon-seconds S] [limits]: the web app's server (docs/server.md, docs/web-protocol.md).
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <iostream>
#include <map>

#include "cli/commands.h"
#include "cli/config_file.h"
#include "cli/stop_signals.h"
#include "net/log.h"
#include "server/server.h"
#include "store/store.h"

#ifndef TOGUZ_WEB_DIST
#define TOGUZ_WEB_DIST "web/dist"
#endif
#ifndef TOGUZ_WEB_DATA
#define TOGUZ_WEB_DATA "web/data"
#endif

namespace toguz::cli {

namespace {

// The log's first lines: which file and which values the server runs with (secrets masked).
void log_settings(const CLI::App& cmd, const server::Config& cfg, const std::string& path,
                  const std::vector<std::string>& from_file) {
  if (auto level = net::parse_log_level(cfg.log_level)) net::set_log_level(*level);
  if (auto format = net::parse_log_format(cfg.log_format)) net::set_log_format(*format);
  net::log(net::LogLevel::Info, "",
           path.empty() ? "configuration: no file (--config), options and defaults"
                        : "configuration: " + std::filesystem::absolute(path).string());
  std::string values;
  for (const std::string& line : describe_options(cmd, from_file))
    values += (values.empty() ? "" : "; ") + line;
  net::log(net::LogLevel::Info, "", "settings: " + values);
}

// The mail's options (docs/operations.md "Mail").
void add_mail_options(CLI::App& cmd, server::Config& cfg) {
  cmd.add_option("--smtp-url", cfg.smtp_url,
                 "smtp://host[:port] or smtps://host[:port]: send mail (password resets, "
                 "notices) through this server (default: no mail)");
  cmd.add_option("--smtp-user", cfg.smtp_user, "the SMTP server's login (AUTH)");
  cmd.add_option("--smtp-password", cfg.smtp_password, "the SMTP login's password")
      ->envname("TOGUZ_SMTP_PASSWORD");
  cmd.add_option("--smtp-from", cfg.smtp_from, "the mails' sender address")->capture_default_str();
  const std::map<std::string, mail::Tls> tls{
      {"try", mail::Tls::Try}, {"require", mail::Tls::Require}, {"none", mail::Tls::None}};
  cmd.add_option("--smtp-tls", cfg.smtp_tls,
                 "STARTTLS on smtp://: try (when offered, the default), require, none")
      ->transform(CLI::CheckedTransformer(tls));
  cmd.add_option("--public-url", cfg.public_url,
                 "the site's address in mailed links, e.g. https://toguz.example (default: "
                 "http://HOST:PORT)");
  cmd.add_option("--reset-link-seconds", cfg.reset_link_seconds,
                 "how long a password reset link works (once)")
      ->check(CLI::Range(60, 86400))
      ->capture_default_str();
  cmd.add_option("--resets-per-hour", cfg.resets_per_hour,
                 "password reset requests per client address in an hour")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd.add_option("--your-turn-mail-hours", cfg.your_turn_mail_hours,
                 "at most one \"your turn\" mail per correspondence game in this many hours")
      ->check(CLI::Range(1, 24 * 14))
      ->capture_default_str();
  cmd.add_flag("--require-email-verification", cfg.require_email_verification,
               "an address gets no reset and no notice until its mailed link is followed");
}

}  // namespace

void add_serve(CLI::App& app) {
  auto cfg = std::make_shared<server::Config>();
  cfg->static_dir = TOGUZ_WEB_DIST;
  cfg->puzzles_path = TOGUZ_WEB_DATA "/puzzles-default.jsonl";
  cfg->studies_path = TOGUZ_WEB_DATA "/studies.json";
  auto* cmd = app.add_subcommand(
      "serve", "the web app: HTTP + WebSocket server (play, online games, analysis)");
  cmd->add_option("--host", cfg->host, "address to listen on")->capture_default_str();
  cmd->add_option("--port", cfg->port, "port (0: any free port)")->capture_default_str();
  cmd->add_option("--db", cfg->db_path,
                  "SQLite database file (its folder is created) or postgresql://user@host/db URL")
      ->envname("TOGUZ_DATABASE_URL")
      ->capture_default_str();
  cmd->add_option("--static", cfg->static_dir, "the built front end")->capture_default_str();
  cmd->add_option("--workers", cfg->workers, "engine threads (0: cores - 1, at least 2)")
      ->check(CLI::Range(0, 256));
  cmd->add_option("--abandon-seconds", cfg->abandon_seconds,
                  "a player gone this long may be claimed against")
      ->check(CLI::Range(1, 86400))
      ->capture_default_str();
  cmd->add_option("--silent-socket-seconds", cfg->silent_socket_seconds,
                  "a game's socket silent this long is closed (its player shown away)")
      ->check(CLI::Range(1, 86400))
      ->capture_default_str();
  cmd->add_option("--first-move-seconds", cfg->first_move_seconds,
                  "time for each player's first move in an online game (else it is aborted)")
      ->check(CLI::Range(1, 86400))
      ->capture_default_str();
  cmd->add_option("--idle-game-seconds", cfg->idle_game_seconds,
                  "a live game whose player to move is away this long, with no move, ends")
      ->check(CLI::Range(1, 30 * 86400))
      ->capture_default_str();
  cmd->add_option("--max-connections-per-address", cfg->max_connections_per_address,
                  "WebSocket connections from one address")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("--max-spectators", cfg->max_spectators_per_room, "spectators of one game")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  cmd->add_option("--max-queued-jobs", cfg->max_queued_jobs,
                  "analyses, hints and reviews waiting for the engine")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--analyze-per-minute", cfg->analyze_per_minute, "POST /api/analyze per address")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--trusted-proxy", cfg->trusted_proxies,
                  "ADDR[,ADDR|CIDR...]: proxies whose X-Forwarded-For / X-Real-IP name the client "
                  "(default: none, the socket's peer is the client)")
      ->delimiter(',');
  cmd->add_option("--signups-per-hour", cfg->signups_per_hour, "accounts created per address")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("--hash-threads", cfg->hash_threads,
                  "threads hashing and checking passwords (apart from the engine's)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--max-queued-hashes", cfg->max_queued_hashes,
                  "password checks waiting (sign-ups take half at most)")
      ->check(CLI::Range(2, 100000))
      ->capture_default_str();
  cmd->add_option("--max-queued-bytes-per-address", cfg->max_queued_bytes_per_address,
                  "bytes waiting to be sent over one address's WebSockets")
      ->check(CLI::Range(size_t(64) << 10, size_t(1) << 40))
      ->capture_default_str();
  cmd->add_option("--online-games-per-address", cfg->online_games_per_address,
                  "online games created per address in 10 minutes")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("--tournament-min-rated-games", cfg->tournament_min_rated_games,
                  "rated games an account needs to create a tournament")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  cmd->add_option("--tournaments-per-day", cfg->tournaments_per_day,
                  "tournaments one account may create in 24 hours")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--puzzles", cfg->puzzles_path, "puzzles (toguz puzzles build); \"\": none")
      ->capture_default_str();
  cmd->add_option("--studies", cfg->studies_path, "the classic studies; \"\": none")
      ->capture_default_str();
  cmd->add_option("--explorer", cfg->explorer_path, "an opening index (toguz explorer build)");
  cmd->add_option("--mined-puzzles", cfg->mined_puzzles_path,
                  "the puzzles mined from the site's games (default: puzzles-mined.jsonl beside "
                  "a SQLite --db)");
  cmd->add_flag("!--no-mining", cfg->mine_puzzles, "do not mine the site's games for puzzles");
  cmd->add_option("--broadcast-dir", cfg->broadcast_dir,
                  "the folder whose TGK/PGN files an event's broadcast may follow");
  cmd->add_option("--ratings-events-dir", cfg->ratings_events_dir,
                  "the folder where each finished rated event of the arbiter page has its TGK "
                  "file, for toguz ratings compute");
  cmd->add_flag("--broadcast-urls", cfg->broadcast_urls,
                "let an event's broadcast follow a TGK/PGN file at an http(s) URL");
  cmd->add_option("--ratings-dir", cfg->ratings_dir,
                  "a federation's rating lists: folders written by toguz ratings compute, or "
                  "their season.json (read at start and when they change)");
  cmd->add_option("--tables", cfg->tables_dir,
                  "endgame tables for every search (built there at start when missing)");
  cmd->add_option("--tables-stones", cfg->tables_stones,
                  "stones on the board the tables built at start cover")
      ->check(CLI::Range(1, 12))
      ->capture_default_str();
  cmd->add_option("--redis", cfg->redis_url,
                  "redis://host[:port][/db]: one instance of a cluster on a shared PostgreSQL "
                  "(docs/cluster.md)")
      ->envname("TOGUZ_REDIS_URL");
  cmd->add_option("--lease-ms", cfg->lease_ms,
                  "with --redis: a game's lease; a dead instance's games move after about this")
      ->check(CLI::Range(300, 600000))
      ->capture_default_str();
  cmd->add_option("--max-messages-per-second", cfg->max_messages_per_second,
                  "per WebSocket connection; more get an error")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("--review-nodes", cfg->review_nodes, "search per position of a game review")
      ->check(CLI::Range(uint64_t(1000), uint64_t(1) << 32))
      ->capture_default_str();
  cmd->add_option("--log-level", cfg->log_level, "the log on stderr: debug, info, warn, error")
      ->check(CLI::IsMember({"debug", "info", "warn", "error"}))
      ->capture_default_str();
  cmd->add_option("--log-format", cfg->log_format,
                  "the log's lines: text, or json (one object a line)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->add_option("--metrics-listen", cfg->metrics_listen,
                  "ADDR:PORT: serve GET /metrics (Prometheus) on a listener of its own");
  cmd->add_option("--metrics-token", cfg->metrics_token,
                  "serve GET /metrics on the public port too, to \"Authorization: Bearer TOKEN\"")
      ->envname("TOGUZ_METRICS_TOKEN");
  add_mail_options(*cmd, *cfg);
  auto config_path = add_config_option(*cmd);
  cmd->callback([cfg, cmd, config_path] {
    // SIGINT / SIGTERM are taken by sigwait below.
    const sigset_t set = block_stop_signals();
    try {
      const std::vector<std::string> from_file =
          config_path->empty() ? std::vector<std::string>{} : apply_config_file(*cmd, *config_path);
      log_settings(*cmd, *cfg, *config_path, from_file);
      const std::filesystem::path db(cfg->db_path);
      if (!store::is_postgres_url(cfg->db_path) && db.has_parent_path())
        std::filesystem::create_directories(db.parent_path());
      if (cfg->mined_puzzles_path.empty() && !store::is_postgres_url(cfg->db_path))
        cfg->mined_puzzles_path = (db.parent_path() / "puzzles-mined.jsonl").string();
      server::Server srv(*cfg);
      // The operator's POST /drain (toguz admin drain) is a SIGTERM: one way to stop.
      srv.on_drain_request([] { kill(getpid(), SIGTERM); });
      srv.start();
      std::cout << "toguz serve: listening on http://" << cfg->host << ":" << srv.port() << "/"
                << std::endl;
      int sig = 0;
      sigwait(&set, &sig);
      net::log(net::LogLevel::Info, "",
               std::string(sig == SIGINT ? "SIGINT" : "SIGTERM") + ": draining, then stopping");
      srv.stop();
      net::log(net::LogLevel::Info, "", "stopped");
    } catch (const std::exception& e) {
      std::cerr << "toguz serve: " << e.what() << "\n";
      throw CLI::RuntimeError(1);
    }
  });
}

}  // namespace toguz::cli
