// The bot's decisions, with no networking (docs/bot.md): which challenges to accept, and when
// to ask the engine for a move and what to send with its answer. The lobby and game sockets
// (client.h) feed these classes the server's messages as text and send what they return, so
// every decision is tested without sockets.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "match/player.h"
#include "rules/game.h"

namespace toguz::bot {

// A game clock as the server writes it.
struct ClockSpec {
  int initial_ms = 0;
  int increment_ms = 0;
  bool operator==(const ClockSpec&) const = default;
};

// Parses "3+2" (minutes + seconds, as the lobby's pools are named) or "0.5+0"; false when the
// text is not such a time control.
bool parse_time_control(std::string_view text, ClockSpec* out);

// A challenge of the lobby socket (docs/web-protocol.md, `<Challenge>`).
struct Challenge {
  std::string id;
  std::string from;
  std::string variant = "standard";
  std::optional<ClockSpec> clock;
  std::optional<int> days_per_move;
  std::string speed;  // "" without a clock
  bool rated = false;
};

// Reads a `<Challenge>`; nullopt and *why when a field is missing or of the wrong type.
std::optional<Challenge> parse_challenge(std::string_view json_text, std::string* why);

enum class RatedFilter { Any, Rated, Casual };

// Which challenges the bot accepts. An empty list accepts every value.
struct Filters {
  std::vector<ClockSpec> time_controls;  // exact clocks; a game without a clock never matches
  std::vector<std::string> speeds;       // "bullet", "blitz", ...; "none" = without a clock
  std::vector<std::string> variants{"standard"};
  RatedFilter rated = RatedFilter::Any;
  int max_games = 1;  // games at once, counting accepted challenges not yet started
};

// "" when `c` is to be accepted with `busy` games in progress or starting, else why not (for
// the log; the server is told only "decline").
std::string decline_reason(const Challenge& c, const Filters& f, int busy);

// What to do after a message of the lobby socket.
struct LobbyReaction {
  std::vector<std::string> send;  // messages to send back, in order
  struct Start {
    std::string game, token, side;
  };
  std::optional<Start> start;  // a game to play (open its socket)
  std::string log;             // a line for the log, "" for none
};

// The lobby socket's side of the bot: accepts or declines each challenge and counts the games
// it plays, so that it never takes more than Filters::max_games at once.
class LobbyBrain {
 public:
  explicit LobbyBrain(Filters filters) : filters_(std::move(filters)) {}
  LobbyReaction on_message(std::string_view text);
  // A game the bot played ended (or its socket gave up): one place is free again.
  void game_ended(const std::string& game);
  int busy() const { return int(games_.size() + accepted_.size()); }
  // No new challenge is accepted any more (the bot is stopping).
  void close() { closed_ = true; }

 private:
  Filters filters_;
  std::set<std::string> games_;     // started, not yet ended
  std::set<std::string> accepted_;  // challenges accepted, their game not yet started
  bool closed_ = false;
};

// How the bot gives the engine its time.
struct Timing {
  int movetime_ms = 1000;  // a game without a clock: this long a move
  int overhead_ms = 300;   // taken off the bot's clock for the network, so it does not flag
};

// A move to think about: the game so far and the engine's limits.
struct Think {
  Game game;
  match::MoveRequest request;
  int ply = 0;  // the ply the move is for (sent back with it)
};

struct GameReaction {
  std::optional<Think> think;
  std::optional<std::string> resend;  // the last answer, refused for the rate: send it again
  bool over = false;                  // the game is over or aborted: close the socket
  std::string log;
};

// The game socket's side of the bot: rebuilds the game from each full `state`, asks for one
// think per ply where it is the bot's turn, and turns the engine's answer into a move.
class GameBrain {
 public:
  explicit GameBrain(Timing timing = {}) : timing_(timing) {}
  GameReaction on_message(std::string_view text);
  // The message for the engine's reply to `think`: a move, or a resignation when the engine
  // failed (crashed, hung, or answered an illegal move), with the reason in *log.
  std::string answer(const Think& think, const match::MoveReply& reply, std::string* log);
  // The socket was lost: the next state (after the reconnect's hello) is thought about afresh.
  void reconnected() { thought_ply_ = -1; }

 private:
  Timing timing_;
  int thought_ply_ = -1;     // the ply a think was asked for, so a repeated state asks no more
  std::string last_answer_;  // the answer to that think, until a state shows another ply
};

}  // namespace toguz::bot
