// A federation's rating lists on the site (docs/ratings-federation.md "On the site"): the
// seasons `toguz ratings compute` wrote, published by putting their folders (or their
// season.json) into --ratings-dir, served as JSON (the list, each player's history, each
// event's calculation), the list's CSV and its print page, and the names the rating officer
// must settle to moderators only. IO thread only.
#pragma once

#include <boost/json.hpp>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "federation/rating_list.h"
#include "federation/report.h"
#include "net/router.h"

namespace toguz::site {

// A season.json checked for what the site reads: `players` (objects with name, region, id,
// title, before, after, games, history), `list` (player indices), `events` (objects with
// lines), every index in range. Throws std::runtime_error saying what is wrong.
boost::json::object read_season_json(const std::string& text);

struct RatingsServices {
  std::string dir;  // --ratings-dir; "": no lists
  // Whether the request comes from a moderator: he sees the names the officer must settle.
  std::function<bool(const net::Request&)> officer;
};

class RatingsSite {
 public:
  // Reads every list of the folder. Throws std::runtime_error naming the file of a list that
  // cannot be read (the server refuses to start).
  explicit RatingsSite(RatingsServices services);

  // GET /api/ratings, /api/ratings/<list>[/list.csv|/print|/names],
  // /api/ratings/<list>/players/<n>, /api/ratings/<list>/events/<n>.
  void add_routes(net::Router& router);

  // Looks at the folder again when the last look is a second old: a list whose file changed is
  // read again (one that fails keeps its previous version, and the failure is logged), a new
  // one added, a removed one dropped.
  void refresh();

 private:
  struct List {
    std::string id, path;
    std::filesystem::file_time_type mtime;
    uintmax_t size = 0;
    boost::json::object doc;
    std::vector<federation::ListEntry> entries;  // the list as the CSV writes it
    std::vector<int> rank;                       // per player: the number on the list, 0: none
    // The list's answer per language, made at its first request: a list of thousands of
    // players is most of a megabyte of JSON, made once rather than on every request.
    mutable std::map<std::string, std::string> bodies;
  };
  // Reads `path` into `out`; throws std::runtime_error naming the file.
  static void load(const std::string& id, const std::filesystem::path& path, List* out);
  void scan(bool at_start);
  const List& find(const std::string& id) const;  // a Refusal when there is none

  boost::json::object list_view(const List& l, federation::Language lang) const;
  boost::json::object player_view(const List& l, const std::string& n) const;
  boost::json::object event_view(const List& l, const std::string& n) const;
  boost::json::object names_view(const List& l, const net::Request& req) const;

  RatingsServices s_;
  std::map<std::string, List> lists_;
  std::chrono::steady_clock::time_point looked_;
};

}  // namespace toguz::site
