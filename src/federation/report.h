// What a season's calculation publishes (docs/ratings-federation.md "Output"): the list as a
// print page in four languages, the calculation per event, each player's history, the names
// for the officer to settle, and all of it as JSON for the site.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "federation/season.h"

namespace toguz::federation {

// The languages of the print page.
enum class Language { Kk, Ky, Ru, En };
// "kk", "ky", "ru", "en"; false on anything else.
bool parse_language(std::string_view s, Language* out);
std::string_view language_code(Language l);
inline constexpr Language kLanguages[] = {Language::Kk, Language::Ky, Language::Ru, Language::En};

// The list's column names in `lang` (the print page's header; the site's list shows them too):
// number, name, region, title, rating before, change, rating after, games.
std::vector<std::string> list_columns(Language lang);

// A static HTML page of the list to print: `heading` (escaped) over the table with the
// published columns, the column names in `lang`.
std::string list_html(const std::vector<ListEntry>& list, Language lang, std::string_view heading);

// Every event's calculation: for each player the rating at the period's start, games, score,
// expected score, K and the change (as the federation's rating reports show it).
std::string events_text(const SeasonResult& season);
// Every player's games in the season: period, event, date, opponent, the opponent's rating,
// score, expected score, K and change, or how the game counted when it did not move a rating.
std::string history_text(const SeasonResult& season);
// The summary, the skipped games and the groups of names for the officer to settle.
std::string names_text(const SeasonResult& season);
std::string summary_text(const SeasonResult& season);

// Everything above as one JSON document (the heading, the list as player indices in its order,
// players with history, events, periods, skipped games, ambiguous names, the profile).
std::string season_json(const SeasonResult& season, const Profile& profile,
                        std::string_view heading = "");

}  // namespace toguz::federation
