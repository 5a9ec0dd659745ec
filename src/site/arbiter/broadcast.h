// The live side of an over-the-board event (docs/tournaments.md "Broadcasts"): the board
// keepers' secret links, the clocks as entered, the moves entered one by one, a followed TGK or
// PGN file (a path or an http(s) URL), and the spectators' delayed evaluation. The moves and
// results go into the event itself (its TGK file has them); the keepers' tokens (hashes only),
// the clocks, the followed file and the delay are saved beside it in the stored event (saved(),
// restore()), so that they outlive a restart. IO thread only, like the arbiter's API.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "site/arbiter/live_evals.h"
#include "site/arbiter/url_fetch.h"
#include "tournament/event.h"

namespace toguz::site {

// A board of an event: round and board numbered from 1, as the pages number them.
struct BoardRef {
  int round = 0;
  int board = 0;
  auto operator<=>(const BoardRef&) const = default;
};

// Why a followed file was not taken: the line at fault (0 when not one line's) and what.
struct FollowError {
  int line = 0;
  std::string detail;
};

class Broadcasts {
 public:
  // `allowed_dir`: the only folder whose files may be followed (`toguz serve --broadcast-dir`);
  // "" refuses every path.
  // `allow_urls`: whether http(s) URLs may be followed (`toguz serve --broadcast-urls`).
  explicit Broadcasts(std::string allowed_dir, bool allow_urls = false)
      : allowed_dir_(std::move(allowed_dir)), allow_urls_(allow_urls) {}

  // The engine work that evaluates the delayed positions; none (the default) shows none.
  void set_engine(engine_work::EngineWork* work) { evals_.set_engine(work); }

  // Takes the live state of event `id` from its stored state (`state`: the event's JSON with
  // saved()'s object as "broadcast"), once: after a restart. A part that does not read, or a
  // followed source the server no longer allows, is left out.
  void restore(const std::string& id, std::string_view state);
  // What outlives a restart: the tokens' hashes and the clocks of `round` (the latest), the
  // followed source, the evaluation delay.
  boost::json::object saved(const std::string& id, int round) const;

  // A new keeper token for board `at` of event `id` (the board's other tokens stay valid: a
  // keeper's second phone). Only its hash is kept.
  std::string hand_out(const std::string& id, BoardRef at);
  // Every token of board `at` refused from now on.
  void revoke(const std::string& id, BoardRef at);
  // How many tokens open board `at`.
  int keepers(const std::string& id, BoardRef at) const;
  // The board a token opens: none when unknown or revoked. The caller also checks that the
  // board is still of the current round.
  std::optional<BoardRef> board_of(const std::string& id, std::string_view token) const;

  // A keeper's (or the arbiter's) entry on board `at` of `ev` (a board of its last round):
  // "move" {move: a token as typed} appended after the referee's check (a Refusal
  // "typed_move" names what is wrong), "undo" the last move taken back, "clock" {white, black:
  // the clock faces as shown, "1:05:00"}, "finish" {result} checked against the moves. A
  // Refusal leaves `ev` and the clocks as they were.
  void enter(const std::string& id, tournament::Event& ev, BoardRef at, const std::string& action,
             const boost::json::object& body);

  // Follows `source`: the file at a path (under the allowed folder; a Refusal otherwise) or
  // an http(s) URL (when allowed; any other scheme refused), or nothing when "". The next poll
  // reads it.
  void follow(const std::string& id, const std::string& source);
  // Reads the followed file when the last read is `kPollMs` old or more (a URL: starts its
  // fetch, taken by a later poll) and takes its games of `ev`'s last round into `ev`'s boards
  // (matched by White and Black); true when `ev` changed (the caller saves it). A malformed
  // file or a bad answer changes nothing and is kept as the report.
  bool poll(const std::string& id, tournament::Event& ev, int64_t now_ms);
  static constexpr int64_t kPollMs = 3000;

  // The spectators' evaluation: 0 none, else of the position `plies` moves (each player's
  // move one) before the board's current one.
  void set_eval_delay(const std::string& id, int plies);
  static constexpr int kMaxEvalDelay = 40;

  // The boards of `ev`'s last round as spectators see them: the moves as written, the
  // position, the clocks, how many keepers each has, the delayed evaluation when on and
  // searched; plus the follow state and the delay.
  boost::json::object live_view(const std::string& id, const tournament::Event& ev);

 private:
  struct Live {
    std::map<std::string, BoardRef> tokens;  // token hash -> board
    std::map<BoardRef, std::pair<std::string, std::string>> clocks;
    std::string follow;    // the path or URL followed, "" when none
    std::string fetching;  // the URL of the fetch under way
    int64_t read_ms = 0;   // the last read of the followed file
    std::optional<FollowError> follow_error;
    int eval_delay = 0;
    UrlFetch fetch;
  };
  // The path `path` leads to under the allowed folder; a Refusal when outside or none.
  std::string allowed_path(const std::string& path) const;
  // A followed URL's poll: takes a finished fetch's file, or starts one when due.
  bool poll_url(Live& live, tournament::Event& ev, int64_t now_ms);
  // The evaluation of board `b` as spectators may see it: of the position `delay` moves back.
  boost::json::value delayed_eval(const tournament::Board& b, int delay);

  std::string allowed_dir_;
  bool allow_urls_ = false;
  std::map<std::string, Live> events_;
  LiveEvals evals_;
};

// The moves of a board as written (PlayOK's notation: "65", "99(12)", "27X").
std::vector<std::string> written_moves(const tournament::Board& b);

// Applies the games of a TGK or PGN text to `ev`'s last round: each record whose Round tag is
// that round (or absent) sets the moves and result of the board with its White and Black.
// Throws FollowError (the line at fault) on a record that does not read or replay, or names a
// pairing not on the round's boards; `ev` is then unchanged. True when a board changed.
bool apply_followed(std::string_view text, tournament::Event& ev);

}  // namespace toguz::site
