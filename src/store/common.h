// Internal to src/store: what both backends share. The game row's columns in one order, written
// and read through a backend's own binder, the tags as JSON, the LIKE pattern of the games
// search, and the schema version check.
#pragma once

#include <cstdint>
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
    "updated_ms, review, tags";
inline constexpr int kColumnCount = 28;

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
  return g;
}

// The LIKE pattern (ESCAPE '\') that finds `player` folded as a substring: %, _ and \ literal.
std::string like_pattern(std::string_view player);

// One step of a backend's schema: applied once, in version order, inside the migration's
// transaction; the versions run 1..kSchemaVersion.
struct Migration {
  int version;
  const char* sql;
};

// Throws when a database at schema version `have` is newer than this program (kSchemaVersion).
void check_schema_version(const std::string& db_name, int have);

int64_t now_ms();

}  // namespace toguz::store::detail
