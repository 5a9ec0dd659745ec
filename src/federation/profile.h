// A federation's rating rules (docs/ratings-federation.md "The profile"): every figure of the
// calculation as a parameter, read from a key = value file; the defaults are the chess
// federation's rules.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toguz::federation {

// A fault in an input file: the line (1-based, 0 when not one line's) and the field or key.
class InputError : public std::runtime_error {
 public:
  InputError(int line, std::string field, const std::string& what)
      : std::runtime_error(describe(line, field, what)), line(line), field(std::move(field)) {}
  int line = 0;
  std::string field;

 private:
  static std::string describe(int line, const std::string& field, const std::string& what) {
    std::string out = line > 0 ? "line " + std::to_string(line) : "";
    if (!field.empty()) out += std::string(out.empty() ? "" : ", ") + field;
    return out.empty() ? what : out + ": " + what;
  }
};

// The lines of a text file with '#' comments: each non-blank line's number (1-based) and text
// without the comment and the white space at its ends.
std::vector<std::pair<int, std::string_view>> content_lines(std::string_view text);

// How long a rating period is: games are rated in the period of their event's date, and the
// changes are applied at the period's end.
enum class Period { Month, Quarter, Year };
std::string_view period_name(Period p);  // "month", "quarter", "year"

struct Profile {
  std::string name = "chess federation (FIDE 2022)";
  int k_new = 40;  // K until the player has `k_new_games` rated games
  int k_new_games = 30;
  int k_normal = 20;  // K after that
  int k_high = 10;    // K once the player's rating has reached `k_high_rating`
  int k_high_rating = 2400;
  int max_difference = 400;  // a larger rating difference counts as this much
  int initial_games = 5;     // games against rated opponents before a first rating
  int floor = 1000;          // no rating is below this
  Period period = Period::Month;
  // Games a player on the current list is taken to have played when the list has no games
  // column: by default enough to be past the new player's K.
  int list_games = 30;
  // 0: a player not on the list is unrated until `initial_games`. Above 0: such a player starts
  // at this rating with no games (a federation's first list, when there is no list to start
  // from).
  int seed_rating = 0;
};

// Reads a profile: "key = value" lines, '#' comments, blank lines; keys not given keep the
// default. Throws InputError naming the line and key on an unknown key or a bad value.
Profile parse_profile(std::string_view text);
// The profile as parse_profile reads it, every key with its meaning in a comment.
std::string profile_text(const Profile& p);

}  // namespace toguz::federation
