// Internal to src/store: what both backends share. The game row's columns in one order, written
// and read through a backend's own binder, the tags as JSON, the LIKE pattern of the games
// search, and the schema version check.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "store/store.h"

namespace toguz::store::detail {

// The games columns in the order put_row writes and get_row reads them.
inline constexpr const char* kColumns =
    "id, mode, variant, tuz, play_out, start_position, white_name, black_name, white_token, "
    "black_token, invite, white_seated, black_seated, engine_side, level, clock_initial_ms, "
    "clock_increment_ms, white_ms, black_ms, status, winner, reason, score, moves, created_ms, "
    "updated_ms, review, tags, white_user, black_user, rated, speed, days_per_move, white_rating, "
    "black_rating, white_provisional, black_provisional, white_diff, black_diff, move_deadline_ms, "
    "aborted_by";
inline constexpr int kColumnCount = 41;

// `[["Event","..."],...]`, or "" for none; tags_of reads it back (unreadable text: no tags).
std::string tags_json(const std::vector<std::pair<std::string, std::string>>& tags);
std::vector<std::pair<std::string, std::string>> tags_of(const std::string& text);

// The game row into `out`, column by column: out.text(string), out.flag(bool), out.i64(int64).
template <class Out>
void put_row(const GameRow& g, Out& out) {
  out.text(g.id);
  out.text(g.mode);
  out.text(g.variant);
  out.flag(g.tuz);
  out.flag(g.play_out);
  out.text(g.start_position);
  out.text(g.white_name);
  out.text(g.black_name);
  out.text(g.white_token);
  out.text(g.black_token);
  out.text(g.invite);
  out.flag(g.white_seated);
  out.flag(g.black_seated);
  out.i64(g.engine_side);
  out.i64(g.level);
  out.i64(g.clock_initial_ms);
  out.i64(g.clock_increment_ms);
  out.i64(g.white_ms);
  out.i64(g.black_ms);
  out.text(g.status);
  out.text(g.winner);
  out.text(g.reason);
  out.text(g.score);
  out.i64(g.moves);
  out.i64(g.created_ms);
  out.i64(g.updated_ms);
  out.text(g.review);
  out.text(tags_json(g.tags));
  out.i64(g.white_user);
  out.i64(g.black_user);
  out.flag(g.rated);
  out.text(g.speed);
  out.i64(g.days_per_move);
  out.i64(g.white_rating);
  out.i64(g.black_rating);
  out.flag(g.white_provisional);
  out.flag(g.black_provisional);
  out.i64(g.white_diff);
  out.i64(g.black_diff);
  out.i64(g.move_deadline_ms);
  out.i64(g.aborted_by);
}

// What a move changes in the games row (Store::add_move), by id; put_move_update binds it.
inline constexpr const char* kMoveUpdateSql =
    "UPDATE games SET white_ms = $2, black_ms = $3, status = $4, winner = $5, reason = $6,"
    " score = $7, moves = $8, updated_ms = $9, move_deadline_ms = $10 WHERE id = $1";

template <class Out>
void put_move_update(const GameRow& g, Out& out) {
  out.text(g.id);
  out.i64(g.white_ms);
  out.i64(g.black_ms);
  out.text(g.status);
  out.text(g.winner);
  out.text(g.reason);
  out.text(g.score);
  out.i64(g.moves);
  out.i64(g.updated_ms);
  out.i64(g.move_deadline_ms);
}

// A game row from `in`, which yields kColumns in order: in.text(), in.flag(), in.i64().
template <class In>
GameRow get_row(In& in) {
  GameRow g;
  g.id = in.text();
  g.mode = in.text();
  g.variant = in.text();
  g.tuz = in.flag();
  g.play_out = in.flag();
  g.start_position = in.text();
  g.white_name = in.text();
  g.black_name = in.text();
  g.white_token = in.text();
  g.black_token = in.text();
  g.invite = in.text();
  g.white_seated = in.flag();
  g.black_seated = in.flag();
  g.engine_side = int(in.i64());
  g.level = int(in.i64());
  g.clock_initial_ms = in.i64();
  g.clock_increment_ms = in.i64();
  g.white_ms = in.i64();
  g.black_ms = in.i64();
  g.status = in.text();
  g.winner = in.text();
  g.reason = in.text();
  g.score = in.text();
  g.moves = int(in.i64());
  g.created_ms = in.i64();
  g.updated_ms = in.i64();
  g.review = in.text();
  g.tags = tags_of(in.text());
  g.white_user = in.i64();
  g.black_user = in.i64();
  g.rated = in.flag();
  g.speed = in.text();
  g.days_per_move = int(in.i64());
  g.white_rating = int(in.i64());
  g.black_rating = int(in.i64());
  g.white_provisional = in.flag();
  g.black_provisional = in.flag();
  g.white_diff = int(in.i64());
  g.black_diff = int(in.i64());
  g.move_deadline_ms = in.i64();
  g.aborted_by = int(in.i64());
  return g;
}

// A rating's values after its key (category, rating, rd, volatility, games, updated_ms read;
// rating .. updated_ms written), through a binder with real(double) besides.
template <class In>
RatingRow get_rating(In& in) {
  RatingRow r;
  r.category = in.text();
  r.rating = in.real();
  r.rd = in.real();
  r.volatility = in.real();
  r.games = int(in.i64());
  r.updated_ms = in.i64();
  return r;
}
template <class Out>
void put_rating(const RatingRow& r, Out& out) {
  out.real(r.rating);
  out.real(r.rd);
  out.real(r.volatility);
  out.i64(r.games);
  out.i64(r.updated_ms);
}

// The ratings of account $1 (get_rating's columns); a backend appends its conditions.
inline constexpr const char* kRatingSelect =
    "SELECT category, rating, rd, volatility, games, updated_ms FROM ratings WHERE user_id = $1";

// rating_changes' columns in order: game_id, user_id, category, rating_before, rating_after,
// rd_before, rd_after, time_ms.
template <class Out>
void put_change(const RatingChange& c, Out& out) {
  out.text(c.game_id);
  out.i64(c.user_id);
  out.text(c.category);
  out.real(c.rating_before);
  out.real(c.rating_after);
  out.real(c.rd_before);
  out.real(c.rd_after);
  out.i64(c.time_ms);
}
template <class In>
RatingChange get_change(In& in) {
  RatingChange c;
  c.game_id = in.text();
  c.user_id = in.i64();
  c.category = in.text();
  c.rating_before = in.real();
  c.rating_after = in.real();
  c.rd_before = in.real();
  c.rd_after = in.real();
  c.time_ms = in.i64();
  return c;
}

// users' columns in order (kUserColumns): id, username, username_key, password_hash,
// created_ms, bot, email, email_verified_ms, notices, lang.
inline constexpr const char* kUserColumns =
    "SELECT id, username, username_key, password_hash, created_ms, bot, email, email_verified_ms,"
    " notices, lang FROM users WHERE ";
template <class In>
UserRow get_user(In& in) {
  UserRow u;
  u.id = in.i64();
  u.username = in.text();
  u.username_key = in.text();
  u.password_hash = in.text();
  u.created_ms = in.i64();
  u.bot = in.flag();
  u.email = in.text();
  u.email_verified = in.i64() > 0;
  u.notices = int(in.i64());
  u.lang = in.text();
  return u;
}

// The mail statements of both backends ($n parameters).
inline constexpr const char* kSetEmailSql =
    "UPDATE users SET email = $2, email_verified_ms = $3, lang = $4 WHERE id = $1";
inline constexpr const char* kSetNoticesSql = "UPDATE users SET notices = $2 WHERE id = $1";
inline constexpr const char* kAddMailTokenSql =
    "INSERT INTO mail_tokens (token_hash, user_id, purpose, email, expires_ms) VALUES"
    " ($1,$2,$3,$4,$5)";
inline constexpr const char* kFindMailTokenSql =
    "SELECT token_hash, user_id, purpose, email, expires_ms FROM mail_tokens WHERE token_hash = $1"
    " AND purpose = $2";
inline constexpr const char* kDropMailTokensSql =
    "DELETE FROM mail_tokens WHERE (user_id = $1 AND purpose = $2) OR expires_ms <= $3";
inline constexpr const char* kExpireMailTokensSql =
    "DELETE FROM mail_tokens WHERE expires_ms <= $1";
template <class In>
MailToken get_mail_token(In& in) {
  MailToken t;
  t.token_hash = in.text();
  t.user_id = in.i64();
  t.purpose = in.text();
  t.email = in.text();
  t.expires_ms = in.i64();
  return t;
}

// The finished games of account $1 by colour and winner: rows (side 0/1, winner, count).
inline constexpr const char* kResultCountsSql =
    "SELECT CASE WHEN white_user = $1 THEN 0 ELSE 1 END AS side, winner, COUNT(*) FROM games"
    " WHERE (white_user = $1 OR black_user = $1) AND status = 'over' GROUP BY side, winner";
// Adds `n` games of `side` (0 White) that `winner` ("white", "black", "draw") won to `c`.
void count_result(ResultCounts& c, int side, const std::string& winner, int64_t n);

// The events columns, written by put_event_row and read by get_event_row in this order.
inline constexpr const char* kEventColumns = "id, key_hash, state, created_ms, updated_ms";

template <class Out>
void put_event_row(const EventRow& e, Out& out) {
  out.text(e.id);
  out.text(e.key_hash);
  out.text(e.state);
  out.i64(e.created_ms);
  out.i64(e.updated_ms);
}

template <class In>
EventRow get_event_row(In& in) {
  EventRow e;
  e.id = in.text();
  e.key_hash = in.text();
  e.state = in.text();
  e.created_ms = in.i64();
  e.updated_ms = in.i64();
  return e;
}

// The tournaments columns, written by put_tournament_row and read by get_tournament_row.
inline constexpr const char* kTournamentColumns =
    "id, status, state, starts_ms, created_ms, updated_ms";

template <class Out>
void put_tournament_row(const TournamentRow& t, Out& out) {
  out.text(t.id);
  out.text(t.status);
  out.text(t.state);
  out.i64(t.starts_ms);
  out.i64(t.created_ms);
  out.i64(t.updated_ms);
}

template <class In>
TournamentRow get_tournament_row(In& in) {
  TournamentRow t;
  t.id = in.text();
  t.status = in.text();
  t.state = in.text();
  t.starts_ms = in.i64();
  t.created_ms = in.i64();
  t.updated_ms = in.i64();
  return t;
}

// list_tournaments' two queries (the second's limit is $1 / ?1).
inline constexpr const char* kOpenTournamentsWhere =
    " FROM tournaments WHERE status NOT IN ('finished', 'cancelled') ORDER BY starts_ms, id";
inline constexpr const char* kDoneTournamentsWhere =
    " FROM tournaments WHERE status IN ('finished', 'cancelled') ORDER BY updated_ms DESC, id";

// The LIKE pattern (ESCAPE '\') that finds `player` folded as a substring: %, _ and \ literal.
std::string like_pattern(std::string_view player);

// One step of a backend's schema: applied once, in version order, inside the migration's
// transaction; the versions run 1..kSchemaVersion.
struct Migration {
  int version;
  const char* sql;
};

// Schema version 5, the same in both backends: the arbiter page's events (EventRow) and the
// correspondence games' deadline (their days per move came with version 3).
inline constexpr const char* kEventsMigration =
    "CREATE TABLE events (id TEXT PRIMARY KEY, key_hash TEXT NOT NULL, state TEXT NOT NULL,"
    " created_ms BIGINT NOT NULL, updated_ms BIGINT NOT NULL);"
    "ALTER TABLE games ADD COLUMN move_deadline_ms BIGINT NOT NULL DEFAULT 0";

// Schema version 6, the same in both backends: the online tournaments (TournamentRow).
inline constexpr const char* kTournamentsMigration =
    "CREATE TABLE tournaments (id TEXT PRIMARY KEY, status TEXT NOT NULL, state TEXT NOT NULL,"
    " starts_ms BIGINT NOT NULL, created_ms BIGINT NOT NULL, updated_ms BIGINT NOT NULL);"
    "CREATE INDEX tournaments_status ON tournaments(status, starts_ms)";
// Schema version 8, the same in both backends (docs/accounts.md "Fair play"): who called an
// aborted game off, and the puzzles served to each account for a rated attempt.
inline constexpr const char* kFairPlayMigration =
    "ALTER TABLE games ADD COLUMN aborted_by INTEGER NOT NULL DEFAULT -1;"
    "CREATE TABLE puzzle_served (user_id BIGINT NOT NULL, puzzle_id TEXT NOT NULL,"
    " served_ms BIGINT NOT NULL, PRIMARY KEY (user_id, puzzle_id))";
// Schema version 10, the same in both backends (docs/accounts.md "E-mail"): an account's
// address, its verification, the notices asked for, the language of its mails; the mail
// links' token hashes.
inline constexpr const char* kMailMigration =
    "ALTER TABLE users ADD COLUMN email TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE users ADD COLUMN email_verified_ms BIGINT NOT NULL DEFAULT 0;"
    "ALTER TABLE users ADD COLUMN notices INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE users ADD COLUMN lang TEXT NOT NULL DEFAULT 'en';"
    "CREATE INDEX users_email ON users(email);"
    "CREATE TABLE mail_tokens (token_hash TEXT PRIMARY KEY, user_id BIGINT NOT NULL,"
    " purpose TEXT NOT NULL, email TEXT NOT NULL, expires_ms BIGINT NOT NULL);"
    "CREATE INDEX mail_tokens_user ON mail_tokens(user_id, purpose)";
// Schema version 12, the same in both backends (docs/accounts.md "Settings"): an account's
// page settings, one JSON object per account.
inline constexpr const char* kSettingsMigration =
    "CREATE TABLE user_settings (user_id BIGINT PRIMARY KEY, settings TEXT NOT NULL,"
    " updated_ms BIGINT NOT NULL)";
inline constexpr const char* kSettingsSql = "SELECT settings FROM user_settings WHERE user_id = $1";
inline constexpr const char* kSetSettingsSql =
    "INSERT INTO user_settings (user_id, settings, updated_ms) VALUES ($1, $2, $3) ON CONFLICT"
    " (user_id) DO UPDATE SET settings = excluded.settings, updated_ms = excluded.updated_ms";
// Schema version 7 in a backend's dialect (`real` the floating type, the flag type with its
// false default): the puzzle ratings of the accounts and of the puzzles, and the rated attempts.
std::string puzzle_ratings_migration(const char* real, const char* flag_type,
                                     const char* flag_false);

// Schema version 9 in a backend's dialect (`id_column` the reports' id column definition, the
// flag type with its false default): the accounts' standing, the reports and flags, the blocks.
std::string moderation_migration(const char* id_column, const char* flag_type,
                                 const char* flag_false);

// Schema version 11 in a backend's dialect (`id_column` the messages' id column definition):
// the games' chat, and the text of a reported chat message kept with its report.
std::string chat_migration(const char* id_column);
// The chat's columns after the id, in order (put_chat writes them, get_chat reads the id and
// them); the statements of both backends ($n parameters).
inline constexpr const char* kChatColumns = "game_id, side, user_id, name, text, created_ms";
inline constexpr const char* kGameChatSql =
    "SELECT id, game_id, side, user_id, name, text, created_ms FROM chat WHERE game_id = $1"
    " ORDER BY id";
inline constexpr const char* kChatMessageSql =
    "SELECT id, game_id, side, user_id, name, text, created_ms FROM chat WHERE id = $1";
template <class Out>
void put_chat(const ChatRow& m, Out& out) {
  out.text(m.game_id);
  out.i64(m.side);
  out.i64(m.user_id);
  out.text(m.name);
  out.text(m.text);
  out.i64(m.created_ms);
}
template <class In>
ChatRow get_chat(In& in) {
  ChatRow m;
  m.id = in.i64();
  m.game_id = in.text();
  m.side = int(in.i64());
  m.user_id = in.i64();
  m.name = in.text();
  m.text = in.text();
  m.created_ms = in.i64();
  return m;
}

// The reports' columns after the id, in order (put_report writes them, get_report reads the id
// and them).
inline constexpr const char* kReportColumns =
    "target, reporter, about, game_id, reason, created_ms, resolved, chat";
template <class Out>
void put_report(const ReportRow& r, Out& out) {
  out.i64(r.target);
  out.i64(r.reporter);
  out.i64(r.about);
  out.text(r.game_id);
  out.text(r.reason);
  out.i64(r.created_ms);
  out.flag(r.resolved);
  out.text(r.chat);
}
// list_reports' query ($1 / ?1: whether resolved ones are listed too, as 0/1; $2: the limit):
// the id, kReportColumns, then the three names ("" for none).
inline constexpr const char* kListReportsSql =
    "SELECT r.id, r.target, r.reporter, r.about, r.game_id, r.reason, r.created_ms, r.resolved,"
    " r.chat, COALESCE(t.username, ''), COALESCE(p.username, ''), COALESCE(a.username, '') FROM "
    "reports"
    " r LEFT JOIN users t ON t.id = r.target LEFT JOIN users p ON p.id = r.reporter LEFT JOIN"
    " users a ON a.id = r.about WHERE ($1 = 1 OR NOT r.resolved) ORDER BY r.created_ms DESC,"
    " r.id DESC LIMIT $2";
template <class In>
ReportRow get_report(In& in) {
  ReportRow r;
  r.id = in.i64();
  r.target = in.i64();
  r.reporter = in.i64();
  r.about = in.i64();
  r.game_id = in.text();
  r.reason = in.text();
  r.created_ms = in.i64();
  r.resolved = in.flag();
  r.chat = in.text();
  r.target_name = in.text();
  r.reporter_name = in.text();
  r.about_name = in.text();
  return r;
}

// The parameters of the shared statements first appear in number order: SQLite numbers "$n"
// parameters in order of appearance.
// The rated games between accounts $1 and $2 created since $3 (the pair cap).
inline constexpr const char* kRatedBetweenSql =
    "SELECT COUNT(*) FROM games WHERE rated AND status != 'aborted' AND ((white_user = $1 AND"
    " black_user = $2) OR (white_user = $2 AND black_user = $1)) AND created_ms >= $3";
// The rated games account $1 lost to account $2 that ended since $3, and those resigned.
inline constexpr const char* kLossesToSql =
    "SELECT COUNT(*), COALESCE(SUM(CASE WHEN reason = 'resign' THEN 1 ELSE 0 END), 0) FROM games"
    " WHERE rated AND status = 'over' AND ((white_user = $1 AND black_user = $2 AND winner ="
    " 'black') OR (black_user = $1 AND white_user = $2 AND winner = 'white')) AND updated_ms >= $3";
// The leaderboard leaves out marked and closed accounts.
inline constexpr const char* kNotMarked =
    " AND NOT EXISTS (SELECT 1 FROM account_standing s WHERE s.user_id = r.user_id AND (s.marked"
    " OR s.closed))";
// One player's ($1) rated games in category $2 for the replay, in time order: game id, time,
// the opponent's rating and deviation before it, the winner, the player's side (0 White).
inline constexpr const char* kReplaySql =
    "SELECT c.game_id, c.time_ms, o.rating_before, o.rd_before, g.winner, CASE WHEN"
    " g.white_user = $1 THEN 0 ELSE 1 END FROM rating_changes c JOIN rating_changes o ON"
    " o.game_id = c.game_id AND o.user_id != c.user_id JOIN games g ON g.id = c.game_id WHERE"
    " c.user_id = $1 AND c.category = $2 ORDER BY c.time_ms, c.game_id";
// A row of kReplaySql.
template <class In>
ReplayGame get_replay_game(In& in) {
  ReplayGame g;
  g.game_id = in.text();
  g.time_ms = in.i64();
  g.opponent_rating = in.real();
  g.opponent_rd = in.real();
  const std::string winner = in.text();
  const int side = int(in.i64());
  g.score = winner == "draw" ? 0.5 : winner == (side == 0 ? "white" : "black") ? 1.0 : 0.0;
  return g;
}
// One player's replay (Store::void_game): his changes in `games` rewritten by `rate` from a
// new rating, and his rating after the last (nullopt when there is none).
struct Replayed {
  std::vector<RatingChange> changes;
  std::optional<RatingRow> rating;
};
Replayed replay_ratings(int64_t user, const std::string& category,
                        const std::vector<ReplayGame>& games, const RateOne& rate);

// The migrations' versions run up from 1 to kSchemaVersion (a number may be skipped).
constexpr bool versions_ascend(const Migration* m, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (m[i].version < 1 || (i > 0 && m[i].version <= m[i - 1].version)) return false;
  return n > 0 && m[n - 1].version == kSchemaVersion;
}

// puzzle_attempts' columns in order: user_id, puzzle_id, solved, player_before, player_after,
// puzzle_before, puzzle_after, time_ms.
inline constexpr const char* kAttemptColumns =
    "user_id, puzzle_id, solved, player_before, player_after, puzzle_before, puzzle_after, "
    "time_ms";
template <class Out>
void put_attempt(const PuzzleAttempt& a, Out& out) {
  out.i64(a.user_id);
  out.text(a.puzzle_id);
  out.flag(a.solved);
  out.real(a.player_before);
  out.real(a.player_after);
  out.real(a.puzzle_before);
  out.real(a.puzzle_after);
  out.i64(a.time_ms);
}
template <class In>
PuzzleAttempt get_attempt(In& in) {
  PuzzleAttempt a;
  a.user_id = in.i64();
  a.puzzle_id = in.text();
  a.solved = in.flag();
  a.player_before = in.real();
  a.player_after = in.real();
  a.puzzle_before = in.real();
  a.puzzle_after = in.real();
  a.time_ms = in.i64();
  return a;
}
// The ratings' selects (get_rating's columns) of an account ($1) and of a puzzle ($1).
inline constexpr const char* kPuzzlePlayerSelect =
    "SELECT 'puzzle', rating, rd, volatility, games, updated_ms FROM puzzle_player_ratings WHERE"
    " user_id = $1";
inline constexpr const char* kPuzzleSelect =
    "SELECT puzzle_id, rating, rd, volatility, games, updated_ms FROM puzzle_ratings";
// The attempt as rated: its ratings before and after from both rows.
PuzzleAttempt rated_attempt(PuzzleAttempt a, const RatingRow& player, const RatingRow& puzzle,
                            const RatingRow& player_after, const RatingRow& puzzle_after);

// Throws when a database at schema version `have` is newer than this program (kSchemaVersion).
void check_schema_version(const std::string& db_name, int have);

int64_t now_ms();

// The schema 3 additions (accounts, sessions, ratings, rating changes, the games' accounts and
// ratings) in a backend's dialect: `id_column` is the users' id column definition, `real` the
// floating type, `boolean` the flag type with its false default.
std::string accounts_migration(const char* id_column, const char* real, const char* flag_type,
                               const char* flag_false);

// The rating change of one side of a finished rated game.
RatingChange change_of(const GameRow& g, int64_t user, const std::optional<RatingRow>& before,
                       const RatingRow& after);
// The row's rounded ratings before and diffs from both sides' ratings before and after (the
// provisional flags stay as the game's start set them).
void set_rating_fields(GameRow& g, const std::optional<RatingRow> before[2],
                       const RatingRow after[2]);

}  // namespace toguz::store::detail
