// A season's games as the rating calculation takes them: read from TGK and PGN records
// (docs/ratings-federation.md "Events").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "federation/identity.h"

namespace toguz::federation {

// An event's date: the year, and the month and day where the record gives them (0: not given).
struct Date {
  int year = 0;
  int month = 0;
  int day = 0;
  bool operator<(const Date& o) const;
  bool operator==(const Date& o) const = default;
};
// "2018.03.15", "2018-03-15", "2018.03.??", "2018.??.??", "2018"; false on anything else or a
// month above 12 or day above 31.
bool parse_date(std::string_view s, Date* out);
std::string date_text(const Date& d);  // "2018.03.15", "2018.03", "2018"

// Why a game of the input is not rated.
enum class SkipReason { NoResult, Forfeit, NoDate, SamePlayer, Duplicate, Unreadable, Ambiguous };
std::string_view skip_reason_text(SkipReason r);

struct SeasonGame {
  std::string event;
  std::string site;
  Date date;
  std::string round;
  PlayerRef white, black;
  std::string white_title, black_title;
  int white_half_points = 0;  // 2 a win, 1 a draw, 0 a loss (Black has 2 - this)
  std::string source;         // "FILE:LINE"
  int moves = 0;              // plies recorded
};

struct SkippedGame {
  std::string source;
  SkipReason reason;
  std::string detail;
};

// Reads every record of `text` (TGK or PGN, as rules/record.h reads them). Tags: Event, Site,
// Date, Round, White, Black, Result (else the movetext's result), WhiteFedId / BlackFedId,
// WhiteRegion / BlackRegion, WhiteTitle / BlackTitle, Termination ("forfeit" is not rated).
// A game without a result, a forfeit, a game without a date and a game of a player against
// himself go to `skipped` with the reason. `source` names the file in each game's source.
void read_season_games(std::string_view text, const std::string& source,
                       std::vector<SeasonGame>* games, std::vector<SkippedGame>* skipped);

}  // namespace toguz::federation
