// The live side of an over-the-board event (docs/tournaments.md "Broadcasts"): the board
// keepers' secret links, the clocks as entered, the moves entered one by one, and a followed
// TGK or PGN file. The moves and results go into the event itself (its TGK file has them); the
// keepers' tokens (hashes only), the clocks and the followed file are kept in memory: after a
// restart the arbiter hands out new links. IO thread only, like the arbiter's API.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
  explicit Broadcasts(std::string allowed_dir) : allowed_dir_(std::move(allowed_dir)) {}

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

  // Follows the file at `path` (under the allowed folder; a Refusal otherwise), or nothing
  // when `path` is "". The next poll reads it.
  void follow(const std::string& id, const std::string& path);
  // Reads the followed file when the last read is `kPollMs` old or more and takes its games
  // of `ev`'s last round into `ev`'s boards (matched by White and Black); true when `ev`
  // changed (the caller saves it). A malformed file changes nothing and is kept as the report.
  bool poll(const std::string& id, tournament::Event& ev, int64_t now_ms);
  static constexpr int64_t kPollMs = 3000;

  // The boards of `ev`'s last round as spectators see them: the moves as written, the
  // position, the clocks, and how many keepers each has; plus the follow state.
  boost::json::object live_view(const std::string& id, const tournament::Event& ev) const;

 private:
  struct Live {
    std::map<std::string, BoardRef> tokens;  // token hash -> board
    std::map<BoardRef, std::pair<std::string, std::string>> clocks;
    std::string follow_path;  // "" when not following
    int64_t read_ms = 0;      // the last read of the followed file
    std::optional<FollowError> follow_error;
  };
  std::string allowed_dir_;
  std::map<std::string, Live> events_;
};

// The moves of a board as written (PlayOK's notation: "65", "99(12)", "27X").
std::vector<std::string> written_moves(const tournament::Board& b);

// Applies the games of a TGK or PGN text to `ev`'s last round: each record whose Round tag is
// that round (or absent) sets the moves and result of the board with its White and Black.
// Throws FollowError (the line at fault) on a record that does not read or replay, or names a
// pairing not on the round's boards; `ev` is then unchanged. True when a board changed.
bool apply_followed(std::string_view text, tournament::Event& ev);

}  // namespace toguz::site
