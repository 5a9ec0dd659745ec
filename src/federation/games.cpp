#include "federation/games.h"

#include <charconv>
#include <cstdio>
#include <tuple>

#include "rules/record.h"
#include "rules/text.h"

namespace toguz::federation {

bool Date::operator<(const Date& o) const {
  return std::tie(year, month, day) < std::tie(o.year, o.month, o.day);
}

namespace {

// A part of a date: digits in [lo, hi], or all '?' (0).
bool date_part(std::string_view s, int lo, int hi, int* out) {
  if (!s.empty() && s.find_first_not_of('?') == std::string_view::npos) {
    *out = 0;
    return true;
  }
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi) return false;
  *out = v;
  return true;
}

int half_points(std::string_view result) {
  if (result == "1-0") return 2;
  if (result == "0-1") return 0;
  if (result == "1/2-1/2" || result == "½-½") return 1;
  return -1;
}

PlayerRef side_ref(const Record& rec, const std::string& side) {
  PlayerRef p;
  p.name = clean_display_text(rec.tag(side).value_or(""), 200);
  p.id = clean_display_text(rec.tag(side + "FedId").value_or(""), 100);
  p.region = clean_display_text(rec.tag(side + "Region").value_or(""), 200);
  return p;
}

}  // namespace

bool parse_date(std::string_view s, Date* out) {
  s = trim(s);
  std::vector<std::string_view> parts = split(s, s.find('-') != std::string_view::npos ? '-' : '.');
  if (parts.empty() || parts.size() > 3 || parts[0].size() != 4) return false;
  Date d;
  if (!date_part(parts[0], 1000, 9999, &d.year) || d.year == 0) return false;
  if (parts.size() > 1 && !date_part(parts[1], 1, 12, &d.month)) return false;
  if (parts.size() > 2 && !date_part(parts[2], 1, 31, &d.day)) return false;
  if (d.month == 0) d.day = 0;
  *out = d;
  return true;
}

std::string date_text(const Date& d) {
  char buf[32];
  if (d.month > 0 && d.day > 0)
    std::snprintf(buf, sizeof buf, "%04d.%02d.%02d", d.year, d.month, d.day);
  else if (d.month > 0)
    std::snprintf(buf, sizeof buf, "%04d.%02d", d.year, d.month);
  else
    std::snprintf(buf, sizeof buf, "%04d", d.year);
  return buf;
}

std::string_view skip_reason_text(SkipReason r) {
  switch (r) {
    case SkipReason::NoResult:
      return "no result";
    case SkipReason::Forfeit:
      return "forfeit";
    case SkipReason::NoDate:
      return "no date";
    case SkipReason::SamePlayer:
      return "a player against himself";
    case SkipReason::Duplicate:
      return "the same game twice";
    case SkipReason::Unreadable:
      return "unreadable record";
    case SkipReason::Ambiguous:
      return "a name the officer must settle";
  }
  return "";
}

void read_season_games(std::string_view text, const std::string& source,
                       std::vector<SeasonGame>* games, std::vector<SkippedGame>* skipped) {
  RecordFile file = read_record_file(text);
  for (const Record& rec : file.games) {
    const std::string where = source + ":" + std::to_string(rec.first_line);
    if (rec.read_error) {
      skipped->push_back({where, SkipReason::Unreadable, describe(*rec.read_error)});
      continue;
    }
    SeasonGame g;
    g.source = where;
    g.event = clean_display_text(rec.tag("Event").value_or(""), 200);
    g.site = clean_display_text(rec.tag("Site").value_or(""), 200);
    g.round = clean_display_text(rec.tag("Round").value_or(""), 20);
    g.white = side_ref(rec, "White");
    g.black = side_ref(rec, "Black");
    g.white_title = clean_display_text(rec.tag("WhiteTitle").value_or(""), 50);
    g.black_title = clean_display_text(rec.tag("BlackTitle").value_or(""), 50);
    g.moves = int(rec.plies.size());
    const std::string result = rec.tag("Result").value_or(rec.result_token);
    g.white_half_points = half_points(trim(result));
    const std::string date = rec.tag("Date").value_or("");
    if (rec.tag("Termination").value_or("") == "forfeit")
      skipped->push_back({where, SkipReason::Forfeit, ""});
    else if (g.white_half_points < 0)
      skipped->push_back({where, SkipReason::NoResult, "Result '" + result + "'"});
    else if (!parse_date(date, &g.date))
      skipped->push_back({where, SkipReason::NoDate, "Date '" + date + "'"});
    else if (g.white.name.empty() || g.black.name.empty())
      skipped->push_back({where, SkipReason::NoResult, "a player's name is missing"});
    else if (identity_key(g.white) == identity_key(g.black))
      skipped->push_back({where, SkipReason::SamePlayer, g.white.name});
    else
      games->push_back(std::move(g));
  }
}

}  // namespace toguz::federation
