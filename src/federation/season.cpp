#include "federation/season.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace toguz::federation {

double expected_score(int own, int opponent, int max_difference) {
  const int d = std::clamp(own - opponent, -max_difference, max_difference);
  return 1.0 / (1.0 + std::pow(10.0, -d / 400.0));
}

double performance_adjustment(double p) {
  if (p <= 0) return -800;
  if (p >= 1) return 800;
  return std::clamp(400.0 * std::log10(p / (1 - p)), -800.0, 800.0);
}

int k_factor(const Profile& profile, int games, bool reached_high) {
  if (games < profile.k_new_games) return profile.k_new;
  return reached_high ? profile.k_high : profile.k_normal;
}

std::string_view game_use_text(GameUse u) {
  switch (u) {
    case GameUse::Rated:
      return "rated";
    case GameUse::Initial:
      return "toward a first rating";
    case GameUse::Unrated:
      return "opponent unrated";
  }
  return "";
}

namespace {

// Finds or adds the player a record names (docs/ratings-federation.md "Identity").
class Resolver {
 public:
  Resolver(std::vector<SeasonPlayer>* players, const NameMap& map, int seed_rating)
      : players_(*players), map_(map), seed_rating_(seed_rating) {
    for (size_t i = 0; i < players_.size(); ++i) index(int(i));
  }

  // The player's index, or -1 when the name fits several players and no region or id decides.
  int resolve(PlayerRef ref) {
    auto alias = map_.alias.find(identity_key(ref));
    const std::string written = ref.name;
    if (alias != map_.alias.end()) ref = alias->second;
    int p = find(ref);
    if (p == -2) return -1;
    if (p < 0) p = add(ref);
    auto& names = players_[p].names;
    if (std::find(names.begin(), names.end(), written) == names.end()) names.push_back(written);
    return p;
  }

 private:
  int find(const PlayerRef& ref) {
    if (!ref.id.empty()) {
      auto it = by_id_.find(ref.id);
      if (it != by_id_.end()) return it->second;
    }
    const std::string region = name_key(ref.region);
    std::vector<int> same_region, open_region;
    auto [lo, hi] = by_name_.equal_range(name_key(ref.name));
    for (auto it = lo; it != hi; ++it) {
      const SeasonPlayer& c = players_[it->second];
      if (!ref.id.empty() && !c.ref.id.empty()) continue;  // another id: another player
      const std::string theirs = name_key(c.ref.region);
      if (theirs == region)
        same_region.push_back(it->second);
      else if (theirs.empty() || region.empty())
        open_region.push_back(it->second);
    }
    if (same_region.size() == 1) return same_region[0];
    if (same_region.empty() && open_region.size() == 1) return open_region[0];
    if (same_region.size() + open_region.size() > 1) return -2;
    return -1;
  }
  int add(const PlayerRef& ref) {
    SeasonPlayer p;
    p.ref = ref;
    if (seed_rating_ > 0) p.after = seed_rating_;
    players_.push_back(std::move(p));
    index(int(players_.size()) - 1);
    return int(players_.size()) - 1;
  }
  void index(int i) {
    const PlayerRef& r = players_[i].ref;
    if (!r.id.empty()) by_id_[r.id] = i;
    by_name_.emplace(name_key(r.name), i);
  }

  std::vector<SeasonPlayer>& players_;
  const NameMap& map_;
  int seed_rating_ = 0;
  std::map<std::string, int> by_id_;
  std::multimap<std::string, int> by_name_;
};

struct RatedGame {
  int white = 0;
  int black = 0;
  int event = 0;
  int period = 0;  // the period's sort key
  const SeasonGame* game = nullptr;
};

int period_key(const Date& d, Period p) {
  const int month = d.month > 0 ? d.month : 1;
  switch (p) {
    case Period::Month:
      return d.year * 12 + month - 1;
    case Period::Quarter:
      return d.year * 4 + (month - 1) / 3;
    case Period::Year:
      return d.year;
  }
  return d.year;
}

std::string period_label(int key, Period p) {
  switch (p) {
    case Period::Month: {
      const int m = key % 12 + 1;
      return std::to_string(key / 12) + "-" + (m < 10 ? "0" : "") + std::to_string(m);
    }
    case Period::Quarter:
      return std::to_string(key / 4) + "-Q" + std::to_string(key % 4 + 1);
    case Period::Year:
      return std::to_string(key);
  }
  return "";
}

std::vector<SeasonPlayer> players_of(const std::vector<ListEntry>& list, const Profile& profile) {
  std::vector<SeasonPlayer> out;
  for (const ListEntry& e : list) {
    SeasonPlayer p;
    p.ref = {e.id, e.name, e.region};
    p.title = e.title;
    p.on_list = true;
    p.before = p.after = e.after;
    p.games_before = p.games = e.games.value_or(e.after ? profile.list_games : 0);
    p.reached_high = e.after && *e.after >= profile.k_high_rating;
    out.push_back(std::move(p));
  }
  return out;
}

std::string game_key(const SeasonGame& g, int white, int black) {
  return g.event + "|" + date_text(g.date) + "|" + g.round + "|" + std::to_string(white) + "|" +
         std::to_string(black) + "|" + std::to_string(g.white_half_points) + "|" +
         std::to_string(g.moves);
}

// The games in rating order, each with its players, event and period; the rest skipped.
std::vector<RatedGame> resolve_games(const std::vector<SeasonGame>& games, const Profile& profile,
                                     const NameMap& map, SeasonResult* out) {
  Resolver resolver(&out->players, map, profile.seed_rating);
  std::map<std::string, int> events;
  std::set<std::string> seen;
  std::vector<RatedGame> rated;
  for (const SeasonGame& g : games) {
    RatedGame r{resolver.resolve(g.white), resolver.resolve(g.black), 0,
                period_key(g.date, profile.period), &g};
    if (r.white < 0 || r.black < 0) {
      out->skipped.push_back(
          {g.source, SkipReason::Ambiguous, (r.white < 0 ? g.white.name : g.black.name)});
      continue;
    }
    if (r.white == r.black) {
      out->skipped.push_back({g.source, SkipReason::SamePlayer, g.white.name});
      continue;
    }
    if (!seen.insert(game_key(g, r.white, r.black)).second) {
      out->skipped.push_back(
          {g.source, SkipReason::Duplicate, g.white.name + " - " + g.black.name});
      continue;
    }
    const std::string label = period_label(r.period, profile.period);
    auto [it, added] = events.emplace(g.event + "|" + label, int(out->events.size()));
    if (added) out->events.push_back({g.event, g.site, g.date, label, 0, {}});
    r.event = it->second;
    EventReport& ev = out->events[r.event];
    ev.date = std::min(ev.date, g.date);
    ++ev.games;
    if (g.date.month == 0) ++out->year_only_dates;
    if (!g.white_title.empty() && out->players[r.white].title.empty())
      out->players[r.white].title = g.white_title;
    if (!g.black_title.empty() && out->players[r.black].title.empty())
      out->players[r.black].title = g.black_title;
    rated.push_back(r);
  }
  std::stable_sort(rated.begin(), rated.end(), [](const RatedGame& a, const RatedGame& b) {
    return std::tie(a.period, a.game->date, a.event) < std::tie(b.period, b.game->date, b.event);
  });
  return rated;
}

EventLine& line_of(EventReport& ev, int player) {
  for (EventLine& l : ev.lines)
    if (l.player == player) return l;
  ev.lines.push_back({});
  ev.lines.back().player = player;
  return ev.lines.back();
}

// One side of one game, at the ratings of the period's start.
struct SideTotals {
  double change = 0;
  int games = 0;
};

void rate_side(const RatedGame& r, bool white, const Profile& profile, SeasonResult* out,
               std::map<int, SideTotals>* totals) {
  const int p = white ? r.white : r.black, o = white ? r.black : r.white;
  SeasonPlayer& me = out->players[p];
  const SeasonPlayer& them = out->players[o];
  const int half = white ? r.game->white_half_points : 2 - r.game->white_half_points;
  HistoryEntry h{period_label(r.period, profile.period),
                 r.game->event,
                 r.game->date,
                 r.game->round,
                 o,
                 them.after,
                 half / 2.0};
  EventReport& ev = out->events[r.event];
  EventLine& line = line_of(ev, p);
  line.rating = me.after;
  if (me.after && them.after) {
    h.use = GameUse::Rated;
    h.expected = expected_score(*me.after, *them.after, profile.max_difference);
    h.k = k_factor(profile, me.games, me.reached_high);
    h.change = h.k * (h.score - h.expected);
    (*totals)[p].change += h.change;
    ++(*totals)[p].games;
    const double sum = line.opponents_average.value_or(0) * line.games + *them.after;
    ++line.games;
    line.opponents_average = sum / line.games;
    line.score += h.score;
    line.expected += h.expected;
    line.k = h.k;
    line.change += h.change;
  } else if (them.after) {
    h.use = GameUse::Initial;
    me.initial_opponents.push_back(*them.after);
    me.initial_score += h.score;
    ++line.initial_games;
    line.initial_score += h.score;
  }
  me.history.push_back(h);
}

// The period's end: the changes applied, first ratings given.
void close_period(const std::map<int, SideTotals>& totals, const Profile& profile,
                  PeriodReport* report, SeasonResult* out) {
  for (const auto& [p, t] : totals) {
    SeasonPlayer& me = out->players[p];
    const int change = int(std::floor(t.change + 0.5));
    me.after = std::max(profile.floor, *me.after + change);
    me.games += t.games;
    me.reached_high = me.reached_high || *me.after >= profile.k_high_rating;
    ++report->rated_changes;
  }
  for (SeasonPlayer& me : out->players) {
    const int n = int(me.initial_opponents.size());
    if (me.after || n < profile.initial_games || me.initial_score <= 0) continue;
    double sum = 0;
    for (int r : me.initial_opponents) sum += r;
    const double ra = sum / n;
    me.after = std::max(profile.floor,
                        int(std::floor(ra + performance_adjustment(me.initial_score / n) + 0.5)));
    me.games += n;
    me.reached_high = *me.after >= profile.k_high_rating;
    ++report->new_ratings;
  }
}

std::vector<NameUse> name_uses(const SeasonResult& season) {
  std::vector<NameUse> uses;
  for (const SeasonPlayer& p : season.players) {
    NameUse u{p.ref, int(p.history.size()), {}};
    for (const HistoryEntry& h : p.history)
      if (std::find(u.events.begin(), u.events.end(), h.event) == u.events.end())
        u.events.push_back(h.event);
    if (p.on_list) u.events.insert(u.events.begin(), "(list)");
    uses.push_back(std::move(u));
  }
  return uses;
}

}  // namespace

SeasonResult compute_season(const std::vector<ListEntry>& list,
                            const std::vector<SeasonGame>& games, const Profile& profile,
                            const NameMap& map) {
  SeasonResult out;
  out.players = players_of(list, profile);
  const std::vector<RatedGame> rated = resolve_games(games, profile, map, &out);
  out.games_rated = int(rated.size());
  for (size_t i = 0; i < rated.size();) {
    size_t end = i;
    while (end < rated.size() && rated[end].period == rated[i].period) ++end;
    PeriodReport report{period_label(rated[i].period, profile.period), int(end - i), 0, 0};
    std::map<int, SideTotals> totals;
    for (size_t g = i; g < end; ++g) {
      rate_side(rated[g], true, profile, &out, &totals);
      rate_side(rated[g], false, profile, &out, &totals);
    }
    close_period(totals, profile, &report, &out);
    out.periods.push_back(report);
    i = end;
  }
  out.ambiguous = ambiguous_names(name_uses(out), map);
  return out;
}

std::vector<int> list_order(const SeasonResult& season) {
  std::vector<int> order;
  for (size_t i = 0; i < season.players.size(); ++i)
    if (season.players[i].after || season.players[i].on_list) order.push_back(int(i));
  std::stable_sort(order.begin(), order.end(), [&season](int ia, int ib) {
    const SeasonPlayer* a = &season.players[ia];
    const SeasonPlayer* b = &season.players[ib];
    if (a->after.has_value() != b->after.has_value()) return a->after.has_value();
    if (a->after != b->after) return *a->after > *b->after;
    return name_key(a->ref.name) < name_key(b->ref.name);
  });
  return order;
}

std::vector<ListEntry> new_list(const SeasonResult& season) {
  std::vector<ListEntry> out;
  for (int i : list_order(season)) {
    const SeasonPlayer* p = &season.players[i];
    ListEntry e;
    e.number = int(out.size()) + 1;
    e.name = p->ref.name;
    e.region = p->ref.region;
    e.title = p->title;
    e.id = p->ref.id;
    e.before = p->before;
    e.after = p->after;
    e.change = p->before && p->after ? *p->after - *p->before : 0;
    e.games = p->games;
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace toguz::federation
