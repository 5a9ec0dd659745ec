// The arbiter page's team events (docs/web-protocol.md "Over-the-board events", docs/tournaments.md
// "Team events"): a team event of the tournament library (tournament/team.h) kept in the
// store's `events` table beside the individual events (its state the team state file's JSON),
// changed only by whoever holds its arbiter key, read by anyone: the event as JSON with its
// standings and board prizes, its TGK file, print-friendly matches and standings pages. IO
// thread only (it uses the server's store).
#pragma once

#include <boost/beast/http.hpp>
#include <string>

#include "net/router.h"
#include "store/store.h"
#include "tournament/team.h"

namespace toguz::site {

// The site game id of board `board` of match `match` of round `round` (all 1-based) of team
// event `id`: the same for every version of the board's game, so that a corrected result
// replaces the stored game.
std::string team_board_game_id(const std::string& id, int round, int match, int board);

class TeamApi {
 public:
  // `ratings_events_dir`: the folder where every finished team event marked rated has its TGK
  // file (<id>.tgk, every board a game between its two players) for `toguz ratings compute`, as
  // the individual events have theirs ("" none); created when missing.
  explicit TeamApi(store::Store& store, std::string ratings_events_dir = "");

  // POST /api/team-events, POST /api/team-events/import (an exchange file), GET
  // /api/team-events/<id>[/tgk|pairings|standings], POST
  // /api/team-events/<id>/{trf,teams,player,withdraw,pair,unpair,lineup,result,settings} with
  // the key (trf: the exchange file, nothing changed).
  void add_routes(net::Router& router);

  // Answers one of those routes: `id` "" for a new event (with `action` "import" one read from
  // an exchange file), else the event's id and `action` ("" for the event itself). A bad
  // request throws a Refusal naming the field, and the stored event stays as it was.
  boost::beast::http::response<boost::beast::http::string_body> handle(
      const boost::beast::http::request<boost::beast::http::string_body>& req,
      const std::string& id, const std::string& action, const std::string& query);

 private:
  using Response = boost::beast::http::response<boost::beast::http::string_body>;
  using Request = boost::beast::http::request<boost::beast::http::string_body>;
  // POST /api/team-events: a new event and its arbiter key; `import`: the team event of the
  // body's TRF text ("trf"), so pairing goes on where the other program left it.
  Response create(const Request& req, bool import);
  // A POST with the arbiter key: `action` applied to `ev`, then `row` saved with the boards'
  // games and its rated TGK file; a Refusal, and nothing saved, on any refusal.
  Response change(const Request& req, store::EventRow& row, tournament::TeamEvent ev,
                  const std::string& action);

  // Stores each board of `ev` with both players whose result is a played game's (not a forfeit)
  // and whose moves or result differ from `before`'s as the site game team_board_game_id()
  // names, replacing it.
  void store_games(const std::string& id, const tournament::TeamEvent& before,
                   const tournament::TeamEvent& ev);

  store::Store& store_;
  std::string ratings_events_dir_;
};

}  // namespace toguz::site
