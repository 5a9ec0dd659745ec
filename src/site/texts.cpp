#include "site/texts.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "site/types.h"

namespace toguz::site {

namespace {

struct Pattern {
  const char* text;  // the message with {name} where a parameter stands
  const char* code;
};

// Every error message of src/server, most specific first; the client has a text for each code
// (web/src/i18n.ts, "e_<code>") with the same {names}.
// One message a line: web/test/unit/i18n.test.mjs reads the table.
// clang-format off
constexpr Pattern kErrors[] = {
    // WebSocket messages
    {"rate limit: more than {n} messages per second", "rate_limit"},
    {"message over 4 KiB", "too_long"},
    {"request body over 64 KiB", "too_long"},
    {"invalid JSON: {detail}", "bad_message"},
    {"expected a JSON object", "bad_message"},
    {"body: expected a JSON object", "bad_message"},
    {"type: expected a string", "bad_message"},
    {"type: unknown message type '{detail}'", "bad_message"},
    {"{action}: spectators may only send ping, analyze and review", "spectator"},
    {"move: waiting for the opponent to join", "waiting"},
    {"{action}: the game is over", "game_over"},
    {"{action}: not your turn", "not_your_turn"},
    {"move: stale (ply {ply}, the game is at ply {now})", "stale"},
    {"{action}: not in online games", "not_in_online"},
    {"takeback: no move of yours to take back", "no_takeback"},
    {"takeback: no move to take back", "no_takeback"},
    {"{action}: not in analysis", "not_in_analysis"},
    {"{action}: the game is not being played", "not_playing"},
    {"{action}: only in online and engine games", "not_in_mode"},
    {"{action}: only in online games", "not_in_mode"},
    {"offer_draw: already offered", "draw_already"},
    {"offer_draw: declined; again after {n} more moves", "draw_wait"},
    {"{action}: no draw offer from the opponent", "no_draw_offer"},
    {"abort: only before each side has made two moves", "abort_late"},
    {"rematch: the game is not over", "not_over"},
    {"rematch: the rematch game is gone", "rematch_gone"},
    {"claim_win: it is your move", "claim_own_move"},
    {"claim_win: the opponent's time is not up", "claim_not_yet"},
    {"claim_win: the opponent is connected", "opponent_connected"},
    {"claim_win: the opponent has been gone less than {n} s", "claim_early"},
    {"move: time is up", "time_up"},
    {"{action}: no engine help in an online game until it is over", "no_engine_help"},
    {"hint: the last hint is still being searched", "hint_pending"},
    {"the engine is busy ({n} analyses, hints and reviews already waiting); try again in a moment", "engine_busy"},
    {"this game has {n} spectators, the most it takes", "spectators_full"},
    {"hello: the first message must be {detail}", "bad_message"},
    // The store refusing writes (before "move: {detail}")
    {"{action}: the database is busy: nothing can be saved now; try again soon", "store_busy"},
    {"the database is busy: nothing can be saved now; try again soon", "store_busy"},
    {"{action}: the database is read-only: nothing can be saved now", "store_read_only"},
    {"the database is read-only: nothing can be saved now", "store_read_only"},
    {"{action}: the database's disk is full: nothing can be saved now", "store_full"},
    {"the database's disk is full: nothing can be saved now", "store_full"},
    {"{action}: the database cannot be reached: nothing can be saved now", "store_unavailable"},
    {"the database cannot be reached: nothing can be saved now", "store_unavailable"},
    {"move: {detail}", "illegal_move"},
    // HTTP
    {"no such game: {id}", "no_game"},
    {"Origin: not this server's", "origin"},
    {"too many connections from this address ({n})", "too_many_connections"},
    {"analyze: one analysis at a time per address", "analyze_pending"},
    {"analyze: more than {n} analyses a minute from this address", "analyze_rate"},
    {"only GET and HEAD outside /api", "bad_method"},
    {"no such game", "no_game"},
    {"only online games can be joined", "not_joinable"},
    {"invite: wrong invite code", "wrong_invite"},
    {"the seat is taken", "seat_taken"},
    {"the game is {status}", "join_closed"},
    {"{field}: a name may not end in a rating like (2500)", "name_rating"},
    {"{field}: the name of an account; log in to play as it", "name_account"},
    {"record: no game found", "no_record"},
    {"record: line {line}, ply {ply} '{token}': {detail}", "record_move"},
    {"record: line {line}: {detail}", "record_line"},
    {"record: {detail}", "record"},
    {"position: {detail}", "position"},
    {"expected \"record\" or \"position\"", "no_record"},
    {"no such event: {id}", "no_event"},
    {"key: wrong arbiter key", "wrong_key"},
    {"moves: move {n} ({side}), '{token}': {detail}", "typed_move"},
    {"server error: {detail}", "server_error"},
    // Online tournaments (docs/web-protocol.md "Online tournaments")
    {"name: expected the tournament's name", "tournament_name"},
    {"system: expected arena, swiss, round-robin or double-round-robin", "tournament_system"},
    {"initial_ms: expected 15000..10800000 (15 seconds to 3 hours)", "tournament_clock"},
    {"increment_ms: expected 0..180000", "tournament_increment"},
    {"starts_at: expected a time from now to 30 days ahead (ms since 1970)", "tournament_start"},
    {"rounds: a Swiss needs 1..{n} rounds", "tournament_rounds"},
    {"rounds: only a Swiss has a number of rounds", "tournament_rounds_swiss"},
    {"duration_minutes: an arena lasts 1..720 minutes", "tournament_duration"},
    {"duration_minutes: only an arena has one", "tournament_duration_arena"},
    {"max_players: expected 2..{n}", "tournament_players"},
    {"entry_code: at most 40 characters", "tournament_code_long"},
    {"sign in to join a tournament", "tournament_join_login"},
    {"sign in to create a tournament", "tournament_create_login"},
    {"no such tournament: {id}", "no_tournament"},
    {"the tournament is over", "tournament_over"},
    {"this tournament takes no players after round 1 is paired", "tournament_closed"},
    {"code: wrong entry code", "wrong_entry_code"},
    {"the tournament is full", "tournament_full"},
    {"you withdrew from this tournament", "tournament_withdrew"},
    {"you have already joined this tournament", "tournament_joined"},
    {"you have not joined this tournament", "tournament_not_joined"},
    {"only the tournament's creator may start it", "tournament_not_creator"},
    {"the tournament has started already", "tournament_started"},
    {"an account may have at most {n} tournaments not finished", "tournaments_open"},
    {"tournaments: no server coordinates them just now; try again soon", "tournaments_unavailable"},
    // Over-the-board events, the arbiter page (docs/web-protocol.md "Over-the-board events")
    {"date: expected YYYY.MM.DD, e.g. 2026.12.01", "event_date"},
    {"system: expected swiss, round-robin or double-round-robin", "event_system"},
    {"rounds: a Swiss needs its number of rounds", "event_rounds"},
    {"rounds: a round robin has the rounds of its Berger table", "event_rounds_berger"},
    {"tie_breaks: expected an array of names", "event_tie_breaks"},
    {"tie_breaks: expected buchholz-cut1, buchholz, sonneborn-berger, wins or direct-encounter", "event_tie_breaks"},
    {"players are entered before round 1 is paired", "event_players_closed"},
    {"an event has at most {n} players", "event_full"},
    {"name: expected the player's name", "event_player_name"},
    {"name: '{name}' is already entered", "event_player_entered"},
    {"no round has been paired yet", "event_no_round"},
    {"board: missing", "event_board"},
    {"result: expected 1-0, 0-1, 1/2-1/2, +-, -+ or *", "event_result"},
    {"round: expected 1..{n}", "event_round"},
    // Limits per client (docs/server.md "Limits per client")
    {"review: already sent on this connection", "review_sent"},
    {"review: one review at a time per player; wait for the one running", "review_pending"},
    {"more than {n} online games in {minutes} minutes from this address", "games_rate"},
    {"seek: {n} seeks open from this address already, the most allowed", "too_many_seeks_address"},
    {"challenge: more than {n} challenges a minute; wait a little", "challenge_rate"},
    {"an account needs {n} rated games to create a tournament (it has {games})", "tournament_needs_games"},
    {"an account may create at most {n} tournaments a day", "tournaments_per_day"},
    {"code: too many wrong entry codes; try again in {n} minutes", "entry_code_attempts"},
    // The lobby
    {"seek: {n} seeks open already, the most allowed", "too_many_seeks"},
    {"challenge: {n} challenges open already, the most allowed", "too_many_challenges"},
    {"{action}: rated games need an account", "rated_needs_account"},
    {"{action}: rated games need a clock", "rated_needs_clock"},
    {"accept: your rating is outside the seek's range", "out_of_range"},
    {"accept: your own seek", "own_seek"},
    {"{action}: no such seek (accepted or gone)", "no_seek"},
    {"challenge: no such player: {name}", "no_user"},
    {"challenge: you cannot challenge yourself", "challenge_self"},
    {"{action}: log in first", "not_logged_in"},
    {"{action}: no such challenge", "no_challenge"},
    {"pool_join: no pool '{pool}'", "no_pool"},
    // Moderation (docs/accounts.md "Moderation")
    {"{action}: rated games are closed to your account", "account_marked"},
    {"{action}: you cannot play this player", "blocked"},
    {"login: this account is closed", "account_closed"},
    {"moderators only", "not_moderator"},
    {"not your own account", "own_account"},
    {"block: too many accounts blocked", "too_many_blocks"},
    {"no such report", "no_report"},
    {"void: the game changed no rating", "not_rated"},
    {"{action}.{field}: {detail}", "bad_field"},
};
// clang-format on

// Matches text against pattern from the given offsets, filling params; a parameter takes the
// shortest text that lets the rest match (the last one takes what is left).
bool match(std::string_view pattern, std::string_view text, json::object& params) {
  if (pattern.empty()) return text.empty();
  if (pattern.front() != '{') {
    const size_t lit = std::min(pattern.find('{'), pattern.size());
    if (text.substr(0, lit) != pattern.substr(0, lit)) return false;
    return match(pattern.substr(lit), text.substr(lit), params);
  }
  const size_t close = pattern.find('}');
  const std::string name(pattern.substr(1, close - 1));
  const std::string_view rest = pattern.substr(close + 1);
  for (size_t n = 1; n <= text.size(); ++n) {
    if (rest.empty() && n != text.size()) continue;
    if (match(rest, text.substr(n), params)) {
      params[name] = std::string(text.substr(0, n));
      return true;
    }
  }
  return false;
}

}  // namespace

json::object error_code(std::string_view message) {
  for (const Pattern& p : kErrors) {
    json::object params;
    if (match(p.text, message, params))
      return json::object{{"code", p.code}, {"params", std::move(params)}};
  }
  return json::object{{"code", nullptr}, {"params", json::object()}};
}

std::string fault_text(store::StoreFault fault) {
  switch (fault) {
    case store::StoreFault::Busy:
      return "the database is busy: nothing can be saved now; try again soon";
    case store::StoreFault::ReadOnly:
      return "the database is read-only: nothing can be saved now";
    case store::StoreFault::Full:
      return "the database's disk is full: nothing can be saved now";
    case store::StoreFault::Unavailable:
      break;
  }
  return "the database cannot be reached: nothing can be saved now";
}

std::string engine_name(int level) {
  return "toguz (level " + std::to_string(level) + ")";
}

json::value default_name_code(const GameRow& row, int side) {
  return default_name_code(side == 0 ? row.white_name : row.black_name, row.engine_side == side,
                           row.level);
}

json::value default_name_code(const std::string& name, bool engine, int level) {
  if (engine) return name == engine_name(level) ? json::value("engine") : nullptr;
  if (name == kNamePlayer) return "player";
  if (name == kNameGuest) return "guest";
  if (name == kNameWhite) return "white";
  if (name == kNameBlack) return "black";
  return nullptr;
}

bool generated_tag(const std::string& name) {
  for (const char* t : {"White", "Black", "Result", "Variant", "Rules", "FEN", "SetUp"})
    if (name == t) return true;
  return false;
}

std::vector<std::pair<std::string, std::string>> export_tags(const GameRow& row) {
  char date[16] = "????.??.??";
  const std::time_t t = std::time_t(row.created_ms / 1000);
  std::tm tm{};
  if (row.created_ms > 0 && gmtime_r(&t, &tm)) std::strftime(date, sizeof date, "%Y.%m.%d", &tm);
  std::string tc = "-";
  if (row.clock_initial_ms >= 0) {
    auto seconds = [](int64_t ms) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g", double(ms) / 1000.0);
      return std::string(buf);
    };
    tc = seconds(row.clock_initial_ms) + "+" + seconds(row.clock_increment_ms);
  }
  std::string termination = "normal";
  const auto status = parse_status(row.status);
  const auto reason = parse_ending(row.reason);
  if (status && !finished(*status))
    termination = "unterminated";
  else if (reason == Ending::Timeout)
    termination = "time forfeit";
  else if (reason == Ending::Abandon || reason == Ending::Aborted)
    termination = "abandoned";
  std::vector<std::pair<std::string, std::string>> tags = {
      {"Event", "toguz serve"},    {"Site", "toguz"},         {"Date", date},
      {"White", row.white_name},   {"Black", row.black_name}, {"TimeControl", tc},
      {"Termination", termination}};
  // An imported game's own tags come back: they replace the server's value of the same name
  // and the others follow; the players, the result and the rules are the game's (generated).
  for (const auto& [name, value] : row.tags) {
    if (generated_tag(name)) continue;
    auto same =
        std::find_if(tags.begin(), tags.end(), [&](const auto& t) { return t.first == name; });
    if (same != tags.end())
      same->second = value;
    else
      tags.emplace_back(name, value);
  }
  return tags;
}

}  // namespace toguz::site
