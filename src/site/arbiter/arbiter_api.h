// The arbiter page's API (docs/web-protocol.md "Over-the-board events"): an event of the
// tournament library (src/tournament) kept in the store, changed only by whoever holds its
// arbiter key, read by anyone: the event as JSON, its TGK file, and print-friendly pairings and
// standings pages. IO thread only (it uses the server's store).
#pragma once

#include <boost/beast/http.hpp>
#include <optional>
#include <string>

#include "net/router.h"
#include "site/arbiter/broadcast.h"
#include "store/store.h"
#include "tournament/event.h"

namespace toguz::site {

// The site game id of board `board` of round `round` of event `id`: the same for every
// version of the board's game, so that a corrected result replaces the stored game.
std::string board_game_id(const std::string& id, int round, int board);

class ArbiterApi {
 public:
  // `broadcast_dir`: the folder whose files a broadcast may follow ("" none); `broadcast_urls`:
  // whether it may follow http(s) URLs. `ratings_events_dir`: the folder where every finished
  // event marked rated has its TGK file (<id>.tgk) for `toguz ratings compute` ("" none);
  // created when missing.
  explicit ArbiterApi(store::Store& store, std::string broadcast_dir = "",
                      bool broadcast_urls = false, std::string ratings_events_dir = "");

  // The engine work that evaluates the spectators' delayed positions (none: no evaluation).
  void set_engine(engine_work::EngineWork* work) { broadcasts_.set_engine(work); }

  // The arbiter's routes: POST /api/events, POST /api/events/import (an exchange file), GET
  // /api/events/<id>[/tgk|pairings|standings|live], POST
  // /api/events/<id>/{trf,players,player,withdraw,pair,unpair,result,bye,forbid,settings}, and the
  // broadcast's (docs/tournaments.md "Broadcasts"): POST /api/events/<id>/{keeper,revoke, follow}
  // with the key, {move,undo,clock,finish} with the key or a board keeper's token, keeper_board.
  void add_routes(net::Router& router);

  // Answers a request of one of those routes: `id` "" for POST /api/events (a new event; with
  // `action` "import" one read from an exchange file), else
  // the event's id and `action` ("" for the event itself, tgk, pairings, standings; players,
  // player, withdraw, pair, unpair, result for a POST with the key). A bad request throws a Refusal
  // naming the field (its route answers it), and the stored event stays as it was.
  boost::beast::http::response<boost::beast::http::string_body> handle(
      const boost::beast::http::request<boost::beast::http::string_body>& req,
      const std::string& id, const std::string& action, const std::string& query);

 private:
  using Response = boost::beast::http::response<boost::beast::http::string_body>;
  using Request = boost::beast::http::request<boost::beast::http::string_body>;
  // POST /api/events: a new event and its arbiter key; `import`: the event of the body's TRF
  // text ("trf"), so pairing goes on where the other program left it.
  Response create(const Request& req, bool import);
  // A POST with the arbiter key to an event: `action` (trf: the exchange file, nothing
  // changed; players: a new player; player: one
  // corrected; withdraw; pair; unpair: the last round taken back; result, a forfeit withdrawing
  // the absent player unless "keep"; bye: a requested bye; forbid: a pair kept apart;
  // settings: tie-breaks, acceleration, bye limits) applied to `ev`,
  // then `row` saved; a Refusal, and nothing saved, on any refusal.
  Response change(const Request& req, store::EventRow& row, tournament::Event ev,
                  const std::string& action);
  // The broadcast's changes (a keeper's entry, a keeper's link handed out or revoked, a file
  // followed) to `ev`, answered into `out`; `keeper` is the board a keeper's token opens, none
  // for the arbiter.
  void live_change(const boost::json::object& body, const std::string& id, tournament::Event& ev,
                   const std::string& action, std::optional<BoardRef> keeper,
                   boost::json::object& out);
  // Reads the followed file when due and saves the event it changed.
  void poll(store::EventRow& row, tournament::Event& ev);
  // Saves `ev` (changed from `before`) into `row` with its broadcast's state, the games of its
  // boards that ended or were corrected as site games, and its rated TGK file.
  void save(store::EventRow& row, const tournament::Event& before, const tournament::Event& ev);
  // Stores each board of `ev` whose result is a played game's (not a forfeit) and whose moves
  // or result differ from `before`'s as the site game board_game_id() names, replacing it.
  void store_games(const std::string& id, const tournament::Event& before,
                   const tournament::Event& ev);

  store::Store& store_;
  Broadcasts broadcasts_;
  std::string ratings_events_dir_;
};

}  // namespace toguz::site
