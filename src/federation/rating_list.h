// A federation's rating list as the published table: number, name, region, title, rating
// before, change, rating after; read from and written as CSV (docs/ratings-federation.md
// "The list").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "federation/profile.h"

namespace toguz::federation {

struct ListEntry {
  int number = 0;
  std::string name;
  std::string region;
  std::string title;
  std::optional<int> before;  // none: the player was not rated before
  int change = 0;
  std::optional<int> after;  // none: not rated yet
  std::string id;            // the federation's id, "" when the list has none
  std::optional<int> games;  // rated games so far, when the list says
  int line = 0;              // the line in the CSV it was read from
};

// The fields of one CSV line (RFC 4180 quoting: "a ""b""", a quoted field may hold the
// separator or a line break). `sep` is ',' or ';'.
std::vector<std::vector<std::string>> parse_csv(std::string_view text, char sep,
                                                std::vector<int>* lines = nullptr);

// Reads the list: a header line naming the columns (English or Russian, any order; name and
// after are required, number, region, title, before, change, games and id optional), then one
// player a line; ',' or ';' separated (the header decides), a UTF-8 BOM skipped. Throws
// InputError naming the line and the column on a bad value, a missing column or a short line.
std::vector<ListEntry> parse_list(std::string_view text);

// The list as CSV with the English header, comma separated, quoted where needed.
std::string list_csv(const std::vector<ListEntry>& list);

}  // namespace toguz::federation
