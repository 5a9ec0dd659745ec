// Moderation and fair play over the store (docs/accounts.md "Moderation"): the rated pair cap,
// the feeding flag, and the moderators' actions (moderator role, mark, close, void a game's
// rating changes). The site's HTTP API (moderation_site.h) and `toguz admin` (src/cli) both
// act through these, so an action means the same wherever it is taken.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "store/store.h"

namespace toguz::site {

namespace moderation {

inline constexpr int64_t kPairCapWindowMs = 24LL * 3600 * 1000;   // the pair cap's day
inline constexpr int64_t kFeedWindowMs = 7LL * 24 * 3600 * 1000;  // the feeding flag's week

// Why a game between accounts a and b cannot be rated now: "account_marked" when either is
// marked, "pair_cap" when they have played `cap` rated games in the last 24 hours; "" when it
// can.
std::string rated_refusal(store::Store& st, int64_t a, int64_t b, int cap, int64_t now_ms);

// After a rated game's end is stored: when its loser has now lost `losses` rated games (or
// resigned `resignations`) to its winner within 7 days, and no open flag of the pair exists,
// a flag (a report by the server) is raised on the loser. True when one was raised.
bool flag_feeding(store::Store& st, const store::GameRow& g, int losses, int resignations,
                  int64_t now_ms);

// The rating of a replay step (Store::void_game): Glicko-2 for one game as a finished game is
// rated (Room::rate_end), the deviation grown by the days since the player's previous game.
store::RatingRow replay_step(const store::RatingRow& player, const store::ReplayGame& game);

// The actions; each answers "" when done, else why not (an unknown account: "no_user").
std::string set_moderator(store::Store& st, const std::string& username, bool on);
std::string set_marked(store::Store& st, const std::string& username, bool on);
// Closing also ends every session of the account.
std::string set_closed(store::Store& st, const std::string& username, bool on);
// Voids the game's rating changes ("not_rated" when it has none, "no_game" when unknown).
std::string void_ratings(store::Store& st, const std::string& game_id);

// The account of a name in any case, or nullopt.
std::optional<store::UserRow> account(store::Store& st, const std::string& username);

}  // namespace moderation
}  // namespace toguz::site
