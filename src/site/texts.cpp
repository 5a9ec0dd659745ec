#include "site/texts.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <unordered_map>
#include <vector>

#include "site/types.h"

extern const unsigned char kRefusalCatalogue[];  // generated from texts.json
extern const unsigned long kRefusalCatalogueSize;

namespace toguz::site {

namespace {

// One English message of a refusal, with {name} where a parameter stands, and its code.
struct Pattern {
  std::string text;
  std::string code;
};

// The refusal catalogue (texts.json, compiled in): every refusal's code, its HTTP status and
// its English messages, most specific first; the client has a text for each code
// (web/src/i18n, "e_<code>") with the same {names}, which web/test/unit/i18n.test.mjs checks
// against the same file.
struct Catalogue {
  std::vector<Pattern> messages;
  std::unordered_map<std::string, int> status;
};

const Catalogue& catalogue() {
  static const Catalogue c = [] {
    Catalogue out;
    const std::string_view text(reinterpret_cast<const char*>(kRefusalCatalogue),
                                kRefusalCatalogueSize);
    const json::value data = json::parse(text);
    for (const json::value& r : data.at("refusals").as_array()) {
      const std::string code(r.at("code").as_string());
      out.status[code] = int(r.at("status").to_number<int64_t>());
      for (const json::value& en : r.at("en").as_array())
        out.messages.push_back({std::string(en.as_string()), code});
    }
    return out;
  }();
  return c;
}

// Matches text against pattern from the given offsets, filling params; a parameter takes the
// shortest text that lets the rest match (the last one takes what is left).
bool match(std::string_view pattern, std::string_view text, json::object& params) {
  if (pattern.empty()) return text.empty();
  if (pattern.front() != '{') {
    const size_t lit = std::min(pattern.find('{'), pattern.size());
    if (text.substr(0, lit) != pattern.substr(0, lit)) return false;
    return match(pattern.substr(lit), text.substr(lit), params);
  }
  const size_t close = pattern.find('}');
  const std::string name(pattern.substr(1, close - 1));
  const std::string_view rest = pattern.substr(close + 1);
  for (size_t n = 1; n <= text.size(); ++n) {
    if (rest.empty() && n != text.size()) continue;
    if (match(rest, text.substr(n), params)) {
      params[name] = std::string(text.substr(0, n));
      return true;
    }
  }
  return false;
}

}  // namespace

json::object error_code(std::string_view message) {
  for (const Pattern& p : catalogue().messages) {
    json::object params;
    if (match(p.text, message, params))
      return json::object{{"code", p.code}, {"params", std::move(params)}};
  }
  return json::object{{"code", nullptr}, {"params", json::object()}};
}

int refusal_status(std::string_view code) {
  const auto& status = catalogue().status;
  const auto it = status.find(std::string(code));
  return it == status.end() ? 400 : it->second;
}

std::string fault_text(store::StoreFault fault) {
  switch (fault) {
    case store::StoreFault::Busy:
      return "the database is busy: nothing can be saved now; try again soon";
    case store::StoreFault::ReadOnly:
      return "the database is read-only: nothing can be saved now";
    case store::StoreFault::Full:
      return "the database's disk is full: nothing can be saved now";
    case store::StoreFault::Unavailable:
      break;
  }
  return "the database cannot be reached: nothing can be saved now";
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
