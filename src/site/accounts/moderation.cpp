#include "site/accounts/moderation.h"

#include <span>

#include "accounts/glicko2.h"
#include "accounts/username.h"
#include "net/log.h"

namespace toguz::site::moderation {

std::optional<store::UserRow> account(store::Store& st, const std::string& username) {
  if (username.empty() || username.size() > 100) return std::nullopt;
  return st.find_user(accounts::username_key(username));
}

std::string rated_refusal(store::Store& st, int64_t a, int64_t b, int cap, int64_t now_ms) {
  if (st.standing(a).marked || st.standing(b).marked) return "account_marked";
  if (st.rated_games_between(a, b, now_ms - kPairCapWindowMs) >= cap) return "pair_cap";
  return "";
}

bool flag_feeding(store::Store& st, const store::GameRow& g, int losses, int resignations,
                  int64_t now_ms) {
  if (!g.rated || g.white_user <= 0 || g.black_user <= 0) return false;
  if (g.winner != "white" && g.winner != "black") return false;
  const bool white_won = g.winner == "white";
  const int64_t loser = white_won ? g.black_user : g.white_user;
  const int64_t winner = white_won ? g.white_user : g.black_user;
  const store::LossCounts n = st.losses_to(loser, winner, now_ms - kFeedWindowMs);
  if (n.losses < losses && n.resignations < resignations) return false;
  if (st.open_flag(loser, winner)) return false;
  store::ReportRow r;
  r.target = loser;
  r.about = winner;
  r.game_id = g.id;
  r.reason = "feeding: " + std::to_string(n.losses) + " rated losses (" +
             std::to_string(n.resignations) + " by resignation) to the same account in 7 days";
  r.created_ms = now_ms;
  st.add_report(r);
  log(net::LogLevel::Info, g.id,
      "flagged account " + std::to_string(loser) + " for feeding " + std::to_string(winner));
  return true;
}

store::RatingRow replay_step(const store::RatingRow& player, const store::ReplayGame& game) {
  const accounts::Glicko2Config config;
  const accounts::Rating before{player.rating, player.rd, player.volatility, player.games};
  const double periods =
      player.games > 0
          ? accounts::periods_between(double(game.time_ms - player.updated_ms) / 86400000.0, config)
          : 0.0;
  const accounts::Outcome outcome{game.opponent_rating, game.opponent_rd, game.score};
  const accounts::Rating after = accounts::update(before, std::span(&outcome, 1), config, periods);
  return store::RatingRow{player.category,  after.rating, after.rd,
                          after.volatility, after.games,  game.time_ms};
}

namespace {

// Changes one flag of the named account's standing.
std::string set_flag(store::Store& st, const std::string& username, bool store::Standing::*flag,
                     bool on) {
  const auto user = account(st, username);
  if (!user) return "no_user";
  store::Standing s = st.standing(user->id);
  s.*flag = on;
  st.set_standing(user->id, s);
  return "";
}

}  // namespace

std::string set_moderator(store::Store& st, const std::string& username, bool on) {
  return set_flag(st, username, &store::Standing::moderator, on);
}

std::string set_marked(store::Store& st, const std::string& username, bool on) {
  return set_flag(st, username, &store::Standing::marked, on);
}

std::string set_closed(store::Store& st, const std::string& username, bool on) {
  std::string why = set_flag(st, username, &store::Standing::closed, on);
  if (why.empty() && on) st.delete_sessions(account(st, username)->id);
  return why;
}

std::string void_ratings(store::Store& st, const std::string& game_id) {
  if (game_id.empty() || game_id.size() > 64 || !st.load_game(game_id)) return "no_game";
  return st.void_game(game_id, replay_step) ? "" : "not_rated";
}

}  // namespace toguz::site::moderation
