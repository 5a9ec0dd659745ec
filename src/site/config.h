// The site's settings (`toguz serve`'s options, docs/server.md "Options"): one value for
// every module of src/site, given by the server that composes them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "mail/smtp.h"

namespace toguz::site {

struct Config {
  std::string host = "127.0.0.1";
  uint16_t port = 8080;  // 0: any free port (read it back with Server::port())
  // A SQLite file or a postgresql:// URL (store::open_store).
  std::string db_path = "./data/toguz.db";
  std::string static_dir;    // the built front end; "" or no index.html: a "run make web" page
  int workers = 0;           // engine threads; 0 = hardware threads - 1 (at least 2)
  int abandon_seconds = 60;  // an opponent gone this long may be claimed against
  // A game's socket the server has heard nothing from this long is closed (the page pings
  // every 5 s, so this is about three pings missed): a network that stalled without closing
  // the socket then shows the player away to his opponent, and a move held in the stalled
  // connection is never applied later.
  int silent_socket_seconds = 15;
  // Fair play (docs/accounts.md "Fair play"): each player of an online game (not
  // correspondence) makes his first move within first_move_seconds, else the game is aborted
  // (in a tournament, his loss); a live game (online or against the engine) whose player to
  // move has been away idle_game_seconds, with no move, ends by abandonment (his loss).
  int first_move_seconds = 30;
  int idle_game_seconds = 1800;
  int engine_movetime_ms = 1000;     // engine move time when the game has no clock
  uint64_t review_nodes = 100000;    // search per position of a review
  int max_messages_per_second = 20;  // per WebSocket connection; more get an error
  int max_queued_jobs = 64;          // background engine work waiting (analysis, hints, reviews)
  // SQLite: how long a write waits for another process's lock before it is refused (and the
  // game paused, docs/server.md "Storage").
  int store_busy_ms = 250;
  int analyze_per_minute = 12;           // POST /api/analyze per address (one at a time besides)
  int max_connections_per_address = 64;  // WebSocket connections from one address
  int max_spectators_per_room = 500;     // watching one game (players always get in)
  // Who the client is (client_address.h): the proxies, addresses or CIDR ranges, whose
  // X-Forwarded-For / X-Real-IP name the client; none by default (the socket's peer is).
  std::vector<std::string> trusted_proxies;
  int signups_per_hour = 10;  // accounts created from one address in an hour (429 above)
  // Argon2id (sign-up, login, password change) runs on a pool of its own, never behind engine
  // work: this many threads, this many hashes waiting at most (503 "passwords_busy" above;
  // sign-ups may fill only half of it, and logins go first).
  int hash_threads = 2;
  int max_queued_hashes = 32;
  // Limits that protect people (docs/server.md "Limits per client"). Bytes waiting to be sent
  // over all the WebSockets of one address (game and lobby): past it the socket of that address
  // with the most queued is closed. An honest client reads what it is sent, so its queue is
  // near empty; 8 MiB is a whole state and a review for each of 40 slow sockets of one network.
  size_t max_queued_bytes_per_address = 8 << 20;
  // Online games created with POST /api/games per address: a bucket of this many, refilled
  // over 10 minutes. Lobby games (both players agree) do not count. A person starts a game a
  // minute at the most; 20 leaves room for a club behind one address.
  int online_games_per_address = 20;
  // Creating a tournament (every one is listed on the tournaments page): an account with at
  // least this many rated games, at most tournaments_per_day created in 24 hours.
  int tournament_min_rated_games = 10;
  int tournaments_per_day = 3;
  // Challenges one account may send a minute (lobby.h kChallengesPerMinute: a person challenges
  // a few friends; ten pop-ups a second are harassment).
  int challenges_per_minute = 5;
  // Expiry: games waiting for an opponent or never started (a rematch nobody played) and
  // analysis boards left alone this long are ended ("aborted", reason "expired"); a room nobody
  // is connected to leaves memory after idle_room_seconds (a game still played online or
  // against the engine stays), and is loaded again from the database when opened.
  int expire_waiting_seconds = 24 * 3600;
  int expire_analysis_seconds = 7 * 24 * 3600;
  int idle_room_seconds = 600;
  std::string log_level = "info";   // the log on stderr: debug, info, warn or error
  std::string log_format = "text";  // the log's lines: text, or json (one object a line)
  // The metrics (docs/operations.md "Metrics"): GET /metrics on a listener of its own at
  // metrics_listen ("ADDR:PORT"), and on the public port too when metrics_token is set (then
  // every GET /metrics must send "Authorization: Bearer <token>"); neither: no metrics.
  std::string metrics_listen;
  std::string metrics_token;
  // The learning pages' data (learn_api.h): a puzzles file, the studies, an explorer index;
  // "" = that part answers 404.
  std::string puzzles_path, studies_path, explorer_path;
  // The explorer's engine column: the depth of the search over every move of a position, and
  // how many positions' answers are remembered.
  int explorer_eval_depth = 12;
  int explorer_eval_cache = 4096;
  // The exact endgame (endgame_tables.h): the solver always; with tables_dir the endgame
  // tables there too, those for up to tables_stones stones built at start when missing.
  std::string tables_dir;
  // The only folder whose TGK or PGN files an event's broadcast may follow; "" none.
  std::string broadcast_dir;
  // Where a finished over-the-board event marked rated has its TGK file, for the federation's
  // `toguz ratings compute` (docs/ratings-federation.md); "" none.
  std::string ratings_events_dir;
  // Whether a broadcast may follow http(s) URLs (the server then fetches what an arbiter names).
  bool broadcast_urls = false;
  int tables_stones = 7;
  // The site's finished games mined for puzzles (puzzle_miner.h) when puzzles are served; the
  // puzzles found are appended to mined_puzzles_path ("" = kept in memory only) and read back
  // at start.
  bool mine_puzzles = true;
  std::string mined_puzzles_path;
  // A federation's published rating lists (site/ratings/ratings_site.h): a folder of
  // `toguz ratings compute` outputs (or their season.json files); "" = none.
  std::string ratings_dir;
  // Several instances (docs/cluster.md): a redis:// URL makes this one instance of a cluster
  // on a shared store ("": a single process, no Redis). A game's lease lasts lease_ms and is
  // renewed every lease_ms / 3; a dead instance's games are taken over after about lease_ms.
  std::string redis_url;
  int lease_ms = 3000;
  // Fair play (docs/accounts.md "Moderation"): rated games between the same two accounts in 24
  // hours (further ones are played unrated), and the rated losses (or resignations) to one
  // account within 7 days that flag the loser for the moderators as feeding that account.
  int rated_pair_per_day = 5;
  int feed_flag_losses = 5;
  int feed_flag_resignations = 3;
  // Mail (docs/operations.md "Mail"): the SMTP server ("" = no mail: no password resets and no
  // notices), its login, the sender's address, STARTTLS (try, require, none); the site's address
  // in the mails' links ("" = http://HOST:PORT as it listens).
  std::string smtp_url, smtp_user, smtp_password, smtp_from = "toguz@localhost";
  mail::Tls smtp_tls = mail::Tls::Try;
  std::string public_url;
  // A reset link works once, for this long; reset requests per client address in an hour (and
  // 3 mails per account); at most one "your turn" mail per game and player in this many hours.
  int reset_link_seconds = 30 * 60;
  int resets_per_hour = 5;
  int your_turn_mail_hours = 12;
  // An address gets no reset and no notice until its owner followed the link mailed to it.
  bool require_email_verification = false;
};

}  // namespace toguz::site
