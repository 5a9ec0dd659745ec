// GET /api/account/games: the games an account is playing (docs/web-protocol.md "Correspondence
// games"), the ones where it is the account's move first, for the home page's "your turn" list.
// Read from the store, so a game is listed whether or not it is in memory, across restarts and
// cluster instances.
#include <algorithm>
#include <boost/json.hpp>

#include "net/url.h"
#include "rules/notation.h"
#include "site/games/games_site.h"
#include "site/json_out.h"
#include "site/refusal.h"
#include "site/text_input.h"

namespace toguz::site {

namespace {

// The side to move in a stored game: the start position's, turned once per move played (a
// move always passes the turn).
std::optional<Side> to_move_of(const GameRow& g) {
  try {
    const Side start = parse_position(g.start_position).side_to_move();
    return g.moves % 2 == 0 ? start : opposite(start);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

struct Listed {
  json::object game;
  bool your_turn;
  int64_t deadline_ms;  // 0: none
  int64_t updated_ms;
};

}  // namespace

http::response<http::string_body> GamesSite::api_account_games(const Viewer& v,
                                                               const std::string& query) {
  if (!v.signed_in()) return Refusal("not_logged_in").response();
  const auto q = net::query_pairs(query);
  const std::string turn = net::query_value(q, "turn").value_or("");
  if (!turn.empty() && turn != "mine" && turn != "any")
    return Refusal("bad_query", {{"field", "turn"}}, "turn").response();
  store::ListQuery lq;
  lq.account = v.user_id;
  lq.status = status_name(Status::Playing);
  lq.limit = 500;  // the most an account plays at once that the list shows
  int64_t total = 0;
  std::vector<Listed> listed;
  int mine = 0;
  for (const GameRow& g : s_.store.list_games(lq, &total)) {
    if (parse_mode(g.mode) != Mode::Online) continue;
    const auto side = to_move_of(g);
    if (!side) continue;
    // Both seats one account (a casual game with oneself): listed as White's.
    const Side me = g.white_user == v.user_id ? Side::White : Side::Black;
    const bool your_turn = *side == me;
    mine += your_turn;
    if (turn == "mine" && !your_turn) continue;
    const bool white = me == Side::White;
    json::object o{{"id", g.id},
                   {"token", white ? g.white_token : g.black_token},
                   {"side", white ? "white" : "black"},
                   {"opponent", white ? g.black_name : g.white_name},
                   {"your_turn", your_turn},
                   {"moves", g.moves},
                   {"variant", g.variant},
                   {"rated", g.rated},
                   {"speed", g.speed.empty() ? json::value(nullptr) : json::value(g.speed)},
                   {"days_per_move",
                    g.days_per_move > 0 ? json::value(g.days_per_move) : json::value(nullptr)},
                   {"deadline_ms", g.days_per_move > 0 && g.move_deadline_ms > 0
                                       ? json::value(g.move_deadline_ms)
                                       : json::value(nullptr)}};
    listed.push_back(
        {std::move(o), your_turn, g.days_per_move > 0 ? g.move_deadline_ms : 0, g.updated_ms});
  }
  // Your move first; among those the nearest deadline first (games without one after), then the
  // latest changed.
  std::stable_sort(listed.begin(), listed.end(), [](const Listed& a, const Listed& b) {
    if (a.your_turn != b.your_turn) return a.your_turn;
    const bool da = a.deadline_ms > 0, db = b.deadline_ms > 0;
    if (da != db) return da;
    if (da && a.deadline_ms != b.deadline_ms) return a.deadline_ms < b.deadline_ms;
    return a.updated_ms > b.updated_ms;
  });
  json::array games;
  for (Listed& l : listed) games.push_back(std::move(l.game));
  return json_response(http::status::ok,
                       json::object{{"games", std::move(games)}, {"your_turn", mine}});
}

}  // namespace toguz::site
