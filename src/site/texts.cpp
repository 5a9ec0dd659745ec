#include "site/texts.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <unordered_map>
#include <vector>

#include "site/types.h"

namespace toguz::site {

Refusal fault_refusal(store::StoreFault fault, const std::string& action) {
  if (action.empty()) return Refusal(store::fault_code(fault));
  return Refusal(store::fault_code(fault), {{"action", action}});
}

std::string engine_name(int level) {
  return "toguz (level " + std::to_string(level) + ")";
}

json::value default_name_code(const GameRow& row, int side) {
  return default_name_code(side == 0 ? row.white_name : row.black_name, row.engine_side == side,
                           row.level);
}

json::value default_name_code(const std::string& name, bool engine, int level) {
  if (engine) return name == engine_name(level) ? json::value("engine") : nullptr;
  if (name == kNamePlayer) return "player";
  if (name == kNameGuest) return "guest";
  if (name == kNameWhite) return "white";
  if (name == kNameBlack) return "black";
  return nullptr;
}

bool generated_tag(const std::string& name) {
  for (const char* t : {"White", "Black", "Result", "Variant", "Rules", "FEN", "SetUp"})
    if (name == t) return true;
  return false;
}

namespace {

// A rated game's ratings before it (WhiteElo, BlackElo) and, once it is over, each side's
// change (WhiteRatingDiff, BlackRatingDiff, signed), as rating sites write them.
void add_rating_tags(const GameRow& row, bool over,
                     std::vector<std::pair<std::string, std::string>>& tags) {
  if (!row.rated) return;
  tags.emplace_back("WhiteElo", std::to_string(row.white_rating));
  tags.emplace_back("BlackElo", std::to_string(row.black_rating));
  if (!over) return;
  auto signed_text = [](int d) { return (d > 0 ? "+" : "") + std::to_string(d); };
  tags.emplace_back("WhiteRatingDiff", signed_text(row.white_diff));
  tags.emplace_back("BlackRatingDiff", signed_text(row.black_diff));
}

}  // namespace

std::vector<std::pair<std::string, std::string>> export_tags(const GameRow& row) {
  char date[16] = "????.??.??";
  const std::time_t t = std::time_t(row.created_ms / 1000);
  std::tm tm{};
  if (row.created_ms > 0 && gmtime_r(&t, &tm)) std::strftime(date, sizeof date, "%Y.%m.%d", &tm);
  std::string tc = "-";
  if (row.clock_initial_ms >= 0) {
    auto seconds = [](int64_t ms) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g", double(ms) / 1000.0);
      return std::string(buf);
    };
    tc = seconds(row.clock_initial_ms) + "+" + seconds(row.clock_increment_ms);
  }
  std::string termination = "normal";
  const auto status = parse_status(row.status);
  const auto reason = parse_ending(row.reason);
  if (status && !finished(*status))
    termination = "unterminated";
  else if (reason == Ending::Timeout)
    termination = "time forfeit";
  else if (reason == Ending::Abandon || reason == Ending::Aborted)
    termination = "abandoned";
  std::vector<std::pair<std::string, std::string>> tags = {
      {"Event", "toguz serve"},    {"Site", "toguz"},         {"Date", date},
      {"White", row.white_name},   {"Black", row.black_name}, {"TimeControl", tc},
      {"Termination", termination}};
  add_rating_tags(row, status && finished(*status), tags);
  // An imported game's own tags come back: they replace the server's value of the same name
  // and the others follow; the players, the result and the rules are the game's (generated).
  for (const auto& [name, value] : row.tags) {
    if (generated_tag(name)) continue;
    auto same =
        std::find_if(tags.begin(), tags.end(), [&](const auto& t) { return t.first == name; });
    if (same != tags.end())
      same->second = value;
    else
      tags.emplace_back(name, value);
  }
  return tags;
}

}  // namespace toguz::site
