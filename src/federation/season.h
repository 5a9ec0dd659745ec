// The rating calculation of a season (docs/ratings-federation.md "The calculation"): the
// current list, the events' games and the officer's name map in; the new list, every player's
// history and every event's calculation out.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "federation/games.h"
#include "federation/identity.h"
#include "federation/profile.h"
#include "federation/rating_list.h"

namespace toguz::federation {

// The expected score of a player rated `own` against `opponent`: 1 / (1 + 10^(-D / 400)), D
// the difference capped at +-max_difference.
double expected_score(int own, int opponent, int max_difference);
// The performance adjustment of a score fraction p: 400 log10(p / (1 - p)), capped at +-800.
double performance_adjustment(double p);
// The K of a player with `games` rated games who has (or has not) reached k_high_rating.
int k_factor(const Profile& profile, int games, bool reached_high);

// How a game counted for one of its players.
enum class GameUse {
  Rated,    // both rated: the rating moved by K (S - E)
  Initial,  // the player was unrated, the opponent rated: toward a first rating
  Unrated,  // the opponent was unrated: not counted
};
std::string_view game_use_text(GameUse u);

struct HistoryEntry {
  std::string period;
  std::string event;
  Date date;
  std::string round;
  int opponent = 0;  // index into SeasonResult::players
  std::optional<int> opponent_rating;
  double score = 0;
  GameUse use = GameUse::Unrated;
  double expected = 0;  // Rated only
  int k = 0;            // Rated only
  double change = 0;    // K (score - expected), unrounded; Rated only
};

struct SeasonPlayer {
  PlayerRef ref;
  std::string title;
  bool on_list = false;
  std::optional<int> before;  // the rating on the list read in
  std::optional<int> after;   // the rating now
  int games_before = 0;
  int games = 0;  // rated games now (games toward a first rating count once it is given)
  bool reached_high = false;
  std::vector<std::string> names;  // every spelling the records used
  std::vector<HistoryEntry> history;
  // Toward a first rating: opponents' ratings and the score so far.
  std::vector<int> initial_opponents;
  double initial_score = 0;
};

// One player's line of an event's calculation.
struct EventLine {
  int player = 0;
  std::optional<int> rating;  // at the start of the period
  int games = 0;              // games that moved the rating
  double score = 0;
  double expected = 0;
  int k = 0;
  double change = 0;  // unrounded
  int initial_games = 0;
  double initial_score = 0;
  std::optional<double> opponents_average;  // of the rated opponents in the rated games
};

struct EventReport {
  std::string name;
  std::string site;
  Date date;  // the earliest game's
  std::string period;
  int games = 0;
  std::vector<EventLine> lines;  // in order of first appearance
};

struct PeriodReport {
  std::string period;
  int games = 0;
  int rated_changes = 0;  // players whose rating moved
  int new_ratings = 0;    // players who got a first rating
};

struct SeasonResult {
  std::vector<SeasonPlayer> players;
  std::vector<EventReport> events;  // in the order rated
  std::vector<PeriodReport> periods;
  std::vector<SkippedGame> skipped;
  std::vector<AmbiguousGroup> ambiguous;
  int games_rated = 0;      // games taken into the calculation (skipped ones not)
  int year_only_dates = 0;  // games whose date had no month: rated in the year's first period
};

// Rates `games` (in input order within a period, after sorting by period and date) from
// `list`. The skipped games of the reader are not rated; the result adds its own (duplicates,
// names the officer must settle).
SeasonResult compute_season(const std::vector<ListEntry>& list,
                            const std::vector<SeasonGame>& games, const Profile& profile,
                            const NameMap& map);

// The players of the new list (indices into season.players) in its order: every player with a
// rating and every player of the list read in, by rating (highest first), then by name.
std::vector<int> list_order(const SeasonResult& season);
// The new list: the players of list_order, numbered from 1.
std::vector<ListEntry> new_list(const SeasonResult& season);

}  // namespace toguz::federation
