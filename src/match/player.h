// A player in a match: an external UGI engine process or the builtin engine, behind one
// interface. The runner (the referee) keeps the clocks and checks every move; a player only
// reports what it was told and how long it took.
#pragma once

#include <memory>
#include <string>

#include "match/spec.h"
#include "rules/game.h"
#include "search/engine.h"

namespace toguz::match {

// The request for one move: the game so far and the limits; the clocks are the runner's.
struct MoveRequest {
  MoveLimits limits;
  int clock_ms[2] = {-1, -1};  // clock left for White and Black, -1 = no clock
  int inc_ms[2] = {0, 0};
  int deadline_ms = 0;  // wait at most this long for an answer (then: hang)
  uint64_t seed = 0;    // for random movers, fixed per game and ply
};

enum class ReplyStatus { Ok, Crashed, Hung };

struct MoveReply {
  ReplyStatus status = ReplyStatus::Ok;
  int move = 0;           // as answered; the runner checks it is legal
  std::string move_text;  // the raw answer, for messages
  bool have_info = false;
  search::Info info;   // the last info line (score, depth)
  int elapsed_ms = 0;  // measured by the player from sending the request to the answer
  std::string error;   // what went wrong when status != Ok
};

class Player {
 public:
  virtual ~Player() = default;
  // The display name (from name=, `id name`, or "builtin").
  virtual std::string name() const = 0;
  // Starts the player if it is not running (process, handshake, options). False + *why when
  // it could not be started.
  virtual bool start(std::string* why) = 0;
  // A new game under `rules` begins.
  virtual bool new_game(const Rules& rules, std::string* why) = 0;
  // The move for the side to move in `game` (not over).
  virtual MoveReply think(const Game& game, const MoveRequest& request) = 0;
  // Stops the player; start() starts it again.
  virtual void shutdown() = 0;
  // Callable from another thread: a think in progress returns at once as Hung, and so does
  // every later one (the owner is stopping). The builtin players finish their search instead.
  virtual void interrupt() {}
};

// The player an engine spec describes. Builtin players are created ready; external ones
// start their process in start().
std::unique_ptr<Player> make_player(const EngineSpec& spec, const Settings& settings);

// search::Limits for `request` with the side to move `stm`.
search::Limits to_search_limits(const MoveRequest& request);

}  // namespace toguz::match
