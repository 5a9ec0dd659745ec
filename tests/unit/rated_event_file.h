// The rating officer's side of the site's rated events (docs/ratings-federation.md "Events from
// the site"): a TGK file from `--ratings-events-dir` read and rated as `toguz ratings compute`
// does, so that the arbiter API tests check what reaches the list.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "federation/games.h"
#include "federation/rating_list.h"
#include "federation/season.h"

namespace toguz::test {

// What the rating officer gets from one event file: its games read and skipped, the games rated
// and each listed player's change, by federation id (by name when the list has no ids).
struct RatedEventFile {
  size_t games = 0, skipped = 0;
  int games_rated = 0;
  std::map<std::string, int> change;
};

// Reads `file` with the officer's reader and rates its games against the list `list_csv` with
// the default profile and no names settled.
inline RatedEventFile rate_event_file(const std::filesystem::path& file,
                                      const std::string& list_csv) {
  std::ifstream in(file, std::ios::binary);
  const std::string tgk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<federation::SeasonGame> games;
  std::vector<federation::SkippedGame> skipped;
  federation::read_season_games(tgk, file.string(), &games, &skipped);
  const federation::SeasonResult season = federation::compute_season(
      federation::parse_list(list_csv), games, federation::Profile{}, federation::NameMap{});
  RatedEventFile out{games.size(), skipped.size(), season.games_rated, {}};
  for (const federation::ListEntry& p : federation::new_list(season))
    out.change[p.id.empty() ? p.name : p.id] = p.change;
  return out;
}

}  // namespace toguz::test
