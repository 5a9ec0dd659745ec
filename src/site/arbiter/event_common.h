// What the arbiter page's two APIs share (arbiter_api.h: individual events, team_api.h: team
// events): one `events` store table, the arbiter key (random, given once, only its hash kept),
// the text answers (TGK, print pages), the date's form, the round of a print page's query and
// the referee's check of a board's typed moves. IO thread only (it uses the server's store).
#pragma once

#include <boost/beast/http.hpp>
#include <boost/json.hpp>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "store/store.h"
#include "tournament/event.h"
#include "tournament/report.h"

namespace toguz::site {

// Limits every event shares: a Swiss's rounds, the name and site of an event, a title.
constexpr int kMaxSwissRounds = 50;
constexpr size_t kMaxTextChars = 120;
constexpr size_t kMaxTitleChars = 10;
// An imported exchange file: under the server's 64 KiB request body with the JSON around it
// (a Swiss of 250 players and 11 rounds is about 50 KB).
constexpr size_t kMaxTrfBytes = 60000;

// The head of a new event's form (individual or team): name and site (cleaned), date, system
// and, for a Swiss, its rounds (a round robin's come from its Berger table). A Refusal
// event_date, event_system, event_rounds or event_rounds_berger when one is wrong.
struct EventHead {
  std::string name, site, date;
  tournament::System system = tournament::System::Swiss;
  int rounds = 0;
};
EventHead event_head(const boost::json::object& body);
// The head's fields into an Event or a TeamEvent.
template <typename E>
void set_head(EventHead h, E& ev) {
  ev.name = std::move(h.name), ev.site = std::move(h.site), ev.date = std::move(h.date);
  ev.system = h.system, ev.rounds = h.rounds;
}

// A player's name, rating and title in `o`, cleaned and checked (a Refusal event_player_name
// when the name is empty); whether the name is taken is the caller's to check.
tournament::Player player_fields(const boost::json::object& o);

// Tie-break values as every page writes them (tournament::tie_break_value).
boost::json::array tie_break_texts(const std::vector<double>& values);

// What every event's JSON view starts with: id, name, site, date, system and the rounds in total.
boost::json::object event_view_head(const std::string& id, const std::string& name,
                                    const std::string& site, const std::string& date,
                                    tournament::System system, int rounds);

// Runs `pair` (the next round paired into an event); the reason it cannot, a
// std::runtime_error's, answered as a Refusal event_pairing.
void pair_or_refuse(const std::function<void()>& pair);

// The exchange file of an import's body: its "trf" text (a Refusal field_type when there is
// none, event_trf_size when it is over kMaxTrfBytes).
std::string trf_of_body(const boost::json::object& body);

// Runs `read` (an exchange file read into an event); the reader's std::runtime_error, which
// names the line and the field, answered as a Refusal event_trf.
void read_trf_or_refuse(const std::function<void()>& read);

// The head of an event read from an exchange file, held to the typed form's limits: name and
// site cleaned as typed ones are, a date in another form than the records' left out, a Swiss's
// rounds at most kMaxSwissRounds (a Refusal field_range).
void clean_imported_head(std::string& name, std::string& site, std::string& date,
                         tournament::System system, int rounds);

// A player read from an exchange file with his name and title cleaned as typed ones are (a
// Refusal event_player_name when no name is left); whether the name is taken is the caller's.
void clean_imported_player(tournament::Player& p);

// A board that ended (a played game's result, not a forfeit) as the finished site game
// `game_id`: over the board, unrated, the players by name and no seats (nobody plays it on the
// site), the `tags` that have a value. Replaces the game of that id (a corrected result or
// moves), keeping its creation time.
void save_board_game(store::Store& store, const std::string& game_id, const tournament::Board& b,
                     const std::string& white, const std::string& black,
                     const std::vector<std::pair<std::string, std::string>>& tags);

// Throws Refusal event_rated_date when an event marked `rated` has no year in its `date`: its
// games count in the rating period of their date.
void check_rated_date(bool rated, const std::string& date);

// The rating officer's copy of an event in the folder `dir` ("" none): `dir/<id>.tgk` holding
// `tgk()` when `finished_rated` (a finished event marked rated), written aside and renamed so
// that `toguz ratings compute` never reads half a file; removed otherwise. A failure is logged,
// not answered: the event itself is saved already.
void write_rated_tgk(const std::string& dir, const std::string& id, bool finished_rated,
                     const std::function<std::string()>& tgk);

// A new event's row saved with `state` under a fresh random id, and the arbiter key that
// changes it: the key is answered once and only its hash is stored.
struct NewEvent {
  store::EventRow row;
  std::string key;
};
NewEvent create_event_row(store::Store& store, std::string state);

// The stored event `id` (a Refusal no_event when there is none or the id is too long).
store::EventRow load_event_row(store::Store& store, const std::string& id);

// Throws Refusal wrong_key unless the body's "key" is the event's arbiter key.
void check_arbiter_key(const boost::json::object& body, const store::EventRow& row);

// Whether a stored state is a team event's (team_json.h) rather than an individual one's.
bool is_team_state(const std::string& state);

// A text answer (a TGK file, a print page), not cached; `filename` set: a download.
boost::beast::http::response<boost::beast::http::string_body> text_response(
    const std::string& content_type, std::string body, const std::string& filename = "");

// "2026.12.01", "2026.12.??" or "": the Date tag's form.
bool valid_date(const std::string& d);

// The "round" of a print page's query (1-based; none: the latest of `played`); a Refusal
// event_no_round or event_round when there is no such round.
int round_of_query(int played, const std::string& query);

// The print pages' words in the query's "lang" (English by default).
const tournament::ReportWords& words_of_query(const std::string& query);

// The holes of the moves typed for a board (`typed`: as written on the scoresheet), checked by
// the referee against `result`; nothing typed: the board's moves already entered, checked
// again. A Refusal typed_move names the first wrong move, event_moves any other refusal.
std::vector<int> checked_moves(const std::string& typed, const tournament::Board& board,
                               tournament::BoardResult result);

}  // namespace toguz::site
