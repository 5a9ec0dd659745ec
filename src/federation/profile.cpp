#include "federation/profile.h"

#include <charconv>
#include <vector>

#include "rules/text.h"

namespace toguz::federation {

std::string_view period_name(Period p) {
  switch (p) {
    case Period::Month:
      return "month";
    case Period::Quarter:
      return "quarter";
    case Period::Year:
      return "year";
  }
  return "month";
}

namespace {

struct IntKey {
  const char* key;
  int Profile::*field;
  int min;
  int max;
  const char* meaning;
};

const std::vector<IntKey>& int_keys() {
  static const std::vector<IntKey> keys = {
      {"k_new", &Profile::k_new, 1, 1000, "K for a new player"},
      {"k_new_games", &Profile::k_new_games, 0, 100000,
       "rated games after which a player is no longer new"},
      {"k_normal", &Profile::k_normal, 1, 1000, "K after that"},
      {"k_high", &Profile::k_high, 1, 1000, "K once the rating has reached k_high_rating"},
      {"k_high_rating", &Profile::k_high_rating, 0, 10000, "the rating that brings k_high"},
      {"max_difference", &Profile::max_difference, 1, 10000,
       "a larger rating difference counts as this much"},
      {"initial_games", &Profile::initial_games, 1, 1000,
       "games against rated opponents before a first rating"},
      {"floor", &Profile::floor, 0, 10000, "no rating is below this"},
      {"list_games", &Profile::list_games, 0, 100000,
       "games of a listed player when the list has no games column"},
      {"seed_rating", &Profile::seed_rating, 0, 10000,
       "0, or the rating a player not on the list starts at"},
  };
  return keys;
}

int parse_int(std::string_view v, const IntKey& k, int line) {
  int out = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (v.empty() || ec != std::errc() || p != v.data() + v.size())
    throw InputError(line, k.key, "expected a whole number, got '" + std::string(v) + "'");
  if (out < k.min || out > k.max)
    throw InputError(line, k.key,
                     "expected " + std::to_string(k.min) + " to " + std::to_string(k.max) +
                         ", got " + std::string(v));
  return out;
}

Period parse_period(std::string_view v, int line) {
  for (Period p : {Period::Month, Period::Quarter, Period::Year})
    if (v == period_name(p)) return p;
  throw InputError(line, "period", "expected month, quarter or year, got '" + std::string(v) + "'");
}

}  // namespace

std::vector<std::pair<int, std::string_view>> content_lines(std::string_view text) {
  std::vector<std::pair<int, std::string_view>> out;
  int line_no = 0;
  for (std::string_view line : split(text, '\n')) {
    ++line_no;
    if (size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim(line);
    if (!line.empty()) out.emplace_back(line_no, line);
  }
  return out;
}

Profile parse_profile(std::string_view text) {
  Profile p;
  for (auto [line_no, line] : content_lines(text)) {
    size_t eq = line.find('=');
    if (eq == std::string_view::npos)
      throw InputError(line_no, "", "expected 'key = value', got '" + std::string(line) + "'");
    std::string key(trim(line.substr(0, eq)));
    std::string_view value = trim(line.substr(eq + 1));
    if (key == "name") {
      p.name = clean_display_text(value, 200);
      continue;
    }
    if (key == "period") {
      p.period = parse_period(value, line_no);
      continue;
    }
    bool known = false;
    for (const IntKey& k : int_keys())
      if (key == k.key) {
        p.*k.field = parse_int(value, k, line_no);
        known = true;
      }
    if (!known) throw InputError(line_no, key, "unknown key");
  }
  return p;
}

std::string profile_text(const Profile& p) {
  std::string out = "# A federation's rating profile (docs/ratings-federation.md).\n";
  out += "name = " + p.name + "\n";
  for (const IntKey& k : int_keys())
    out += std::string(k.key) + " = " + std::to_string(p.*k.field) + "  # " + k.meaning + "\n";
  out += "period = " + std::string(period_name(p.period)) +
         "  # month, quarter or year: when changes are applied\n";
  return out;
}

}  // namespace toguz::federation
