// GET /api/games/live: the live games between people now being played, for spectators to pick
// (docs/web-protocol.md "HTTP"). Read from the store, so every instance of a cluster answers
// the same list.
#include <algorithm>

#include "site/games/games_site.h"
#include "site/json_out.h"
#include "site/types.h"

namespace toguz::site {

namespace {

// How many playing games are read from the store (newest first) and how many are answered.
constexpr int kLiveScanned = 500;
constexpr int kLiveShown = 50;

// A game between two people with a clock (not correspondence), both seats taken.
bool listed_live(const GameRow& g) {
  return parse_mode(g.mode) == Mode::Online && g.engine_side < 0 && g.white_seated &&
         g.black_seated && g.clock_initial_ms >= 0 && g.days_per_move == 0;
}

// The order of the list: rated games first, by the higher of the two ratings; then the newest.
int rank_rating(const GameRow& g) {
  return g.rated ? std::max(g.white_rating, g.black_rating) : -1;
}

json::object live_item(const GameRow& g) {
  auto rating = [&](int r) { return g.rated ? json::value(r) : json::value(nullptr); };
  return json::object{{"id", g.id},
                      {"white", g.white_name},
                      {"black", g.black_name},
                      {"rated", g.rated},
                      {"white_rating", rating(g.white_rating)},
                      {"black_rating", rating(g.black_rating)},
                      {"initial_ms", g.clock_initial_ms},
                      {"increment_ms", g.clock_increment_ms},
                      {"speed", g.speed.empty() ? json::value(nullptr) : json::value(g.speed)},
                      {"variant", g.variant},
                      {"moves", g.moves}};
}

}  // namespace

GamesSite::Response GamesSite::api_live() {
  ListQuery q;
  q.status = "playing";
  q.limit = kLiveScanned;
  int64_t total = 0;
  std::vector<GameRow> rows = s_.store.list_games(q, &total);
  std::erase_if(rows, [](const GameRow& g) { return !listed_live(g); });
  std::stable_sort(rows.begin(), rows.end(), [](const GameRow& a, const GameRow& b) {
    return rank_rating(a) > rank_rating(b);
  });
  if (rows.size() > size_t(kLiveShown)) rows.resize(kLiveShown);
  json::array games;
  for (const GameRow& g : rows) games.push_back(live_item(g));
  Response r = json_response(http::status::ok, json::object{{"games", std::move(games)}});
  r.set(http::field::cache_control, "no-store");
  return r;
}

}  // namespace toguz::site
