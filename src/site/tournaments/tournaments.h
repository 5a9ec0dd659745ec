// Online tournaments (docs/tournaments.md "Online tournaments"): created by an account, joined
// and left by accounts, started at their start time, paired automatically with the tournament
// library (round robin and Swiss by rounds, an arena re-pairing players as they finish), their
// games started and their results taken in, their state kept in the store. No networking: the
// clock, who is connected, the games, the ratings and the store come through TournamentHooks,
// so tests drive it with a fake clock.
// Threading: one thread (the server's IO thread).
// In a cluster only the coordinator's Tournaments runs (docs/cluster.md "The coordinator"): the
// other instances forward the API to it and publish the ends of the games they drive.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "site/lobby/lobby.h"
#include "site/refusal.h"
#include "site/viewer.h"
#include "store/store.h"
#include "tournament/arena.h"
#include "tournament/event.h"

namespace toguz::site {

// How a tournament is paired: an arena re-pairs players as they finish, the others play rounds.
enum class TournamentSystem { Arena, Swiss, RoundRobin, DoubleRoundRobin };
// "arena", "swiss", "round-robin", "double-round-robin": the words of the API and the store.
std::string_view system_name(TournamentSystem s);
// nullopt for a word that names no system (refused as "tournament_system").
std::optional<TournamentSystem> parse_tournament_system(std::string_view s);

// What a tournament is, as its creator asks for it.
struct TournamentSpec {
  std::string name;
  TournamentSystem system = TournamentSystem::Arena;
  int64_t initial_ms = 180000, increment_ms = 2000;
  bool rated = false;
  int64_t starts_ms = 0;    // wall clock (ms since 1970)
  int rounds = 0;           // a Swiss's; a round robin has its Berger table's
  int64_t duration_ms = 0;  // an arena's
  std::string entry_code;   // "" : any account may join, else only with this code
  int max_players = 100;
  // Each player's first move is due within this many seconds (the first-move rule,
  // docs/accounts.md "Fair play"; no clock runs before both have moved); 0: the server's
  // --first-move-seconds.
  int first_move_seconds = 0;
};

struct TournamentHooks {
  std::function<int64_t()> now_ms;              // wall clock, ms since 1970
  std::function<bool(int64_t user_id)> online;  // has a game or lobby socket open
  std::function<PairedSeats(const PairedGame&)> start_game;
  std::function<LobbyRating(const Viewer&, accounts::Speed)> rating;
  std::function<void(const store::TournamentRow&)> save;  // throws on a failed write
  std::function<std::string()> new_id;
  // The result of a stored game that is over (after a restart, a game whose end the tournament
  // missed), nullopt while it goes on or when unknown.
  // Pending: it ended without a result.
  std::function<std::optional<tournament::BoardResult>(const std::string& game_id)> game_result;
  // At an arena's end: ends the game without a result when no move was made in it (true), false
  // when it is being played (or over: its result is on its way).
  std::function<bool(const std::string& game_id)> call_off;
  // A tournament started: called for each of its entrants (the mail's notice); may be null.
  std::function<void(int64_t user_id, const std::string& id, const std::string& name)> started;
};

// How long a tournament page's request counts as its player being connected.
inline constexpr int64_t kTournamentPresenceMs = 15000;
// Limits of one tournament.
inline constexpr int kTournamentMaxPlayers = 256;
inline constexpr int kRoundRobinMaxPlayers = 20;
inline constexpr int kTournamentMaxRounds = 30;
inline constexpr int64_t kArenaMaxMs = 12 * 3600 * 1000;
inline constexpr int kMaxOpenTournamentsPerAccount = 5;
inline constexpr int kFirstMoveMinSeconds = 10, kFirstMoveMaxSeconds = 120;

class Tournaments {
 public:
  explicit Tournaments(TournamentHooks hooks);

  // A tournament from its stored row (at start, or a finished one read on demand). Throws
  // std::runtime_error naming the tournament and the field on a row it cannot read.
  void restore(const store::TournamentRow& row);
  // The spec's refusal (its code names the field), or nothing when it can be created now.
  Refused check(const TournamentSpec& spec) const;
  // Creates it (check() passed) for `creator` (signed in): its id. Throws on a failed write.
  std::string create(const TournamentSpec& spec, const Viewer& creator);

  // Each returns nothing when done, else the refusal; a refusal changes nothing. join also
  // resumes a paused arena player; withdraw before the start removes the player, in an arena
  // pauses him, in a round event forfeits his later games.
  Refused join(const std::string& id, const Viewer& viewer, const std::string& code);
  Refused withdraw(const std::string& id, const Viewer& viewer);
  // The creator starts an upcoming tournament now instead of at its start time.
  Refused start_now(const std::string& id, const Viewer& viewer);
  // The creator changes an upcoming tournament's name, clock, start, duration or rounds and
  // first-move time to `spec`'s (the rest stays as it was), which must pass check(); the
  // players' seeds follow a new clock's category.
  Refused edit(const std::string& id, const Viewer& viewer, const TournamentSpec& spec);
  // The creator cancels an upcoming tournament (it stays listed as cancelled).
  Refused cancel(const std::string& id, const Viewer& viewer);
  // What tournament `id` is (nullopt when unknown): the base of an edit.
  std::optional<TournamentSpec> spec(const std::string& id) const;
  // How many tournaments `user_id` created that are not over yet (the API limits them).
  int open_created_by(int64_t user_id) const;
  // How many tournaments in memory `user_id` created at or after `since_ms` (wall clock).
  int created_since(int64_t user_id, int64_t since_ms) const;
  // Whether tournament `id` takes only players with its entry code, and whether `code` is it.
  bool needs_code(const std::string& id) const;
  bool code_matches(const std::string& id, const std::string& code) const;

  // A tournament page's request from `viewer`: he counts as connected for a while.
  void seen(const Viewer& viewer);
  // A game ended (Room::end through the server's game_ended): when it is a tournament's, its
  // result goes in, and the next pairing follows at once where it may. Pending: it ended
  // without a result (an arena does not count it; a round event scores it drawn).
  // An arena ends at its end time: its games without a move are called off then (call_off),
  // the games being played are waited for. In an arena a forfeit (the game called off by one
  // side before it was played) is that side's lost game and no game for the other
  // (Arena::no_show); `no_start` (he never made his first move) also pauses him.
  void game_ended(const std::string& game_id, tournament::BoardResult result,
                  bool no_start = false);
  // Called about every second: starts tournaments whose time has come, pairs what can be
  // paired, finishes what is over.
  void tick();

  bool has(const std::string& id) const { return all_.count(id) > 0; }
  // The tournament as its page shows it, for `viewer` ("me": his entry and current game);
  // nullopt when unknown.
  std::optional<boost::json::object> view(const std::string& id, const Viewer& viewer) const;
  // The tournaments in memory not finished (by start time), then finished (newest first).
  boost::json::array list() const;
  // Every game of a tournament in order of pairing, for the exports: its id ("" for a forfeit),
  // round (1-based; an arena's games are all round 1) and board, the players' names, the result.
  struct GameRef {
    std::string id;
    int round = 1, board = 1;
    std::string white, black;
    tournament::BoardResult result = tournament::BoardResult::Pending;
  };
  std::vector<GameRef> games(const std::string& id) const;
  std::string name_of(const std::string& id) const;
  bool arena(const std::string& id) const;

 private:
  struct Entrant {
    int64_t user_id = 0;
    std::string name;
    int rating = 0;
    bool withdrawn = false;  // round events after the start: the later games are forfeits
  };
  struct TGame {
    std::string id;              // "" : a forfeit (nobody played)
    int round = 0, board = 0;    // 0-based
    int white = -1, black = -1;  // entrant indexes
    tournament::BoardResult result = tournament::BoardResult::Pending;
    bool called_off = false;  // an arena's game ended without a result: not counted
    bool open() const { return result == tournament::BoardResult::Pending && !called_off; }
  };
  enum class State { Upcoming, Running, Finished, Cancelled };
  struct T {
    std::string id;
    TournamentSpec spec;
    int64_t creator = 0;
    std::string creator_name;
    State state = State::Upcoming;
    int64_t created_ms = 0, updated_ms = 0, finished_ms = 0;
    std::vector<Entrant> entrants;
    std::vector<TGame> games;  // in order of pairing
    // Round events: the library's event (players = entrants, once started).
    tournament::Event event;
    // An arena: the library's arena and what was done to it, replayed on restore.
    std::unique_ptr<tournament::Arena> arena;
    boost::json::array arena_log;
    // The arena's rematch wait (Arena::pair); a state saved before it had none replays with 0.
    int64_t arena_rematch_wait_ms = tournament::kRematchWaitMs;
    bool is_arena() const { return spec.system == TournamentSystem::Arena; }
  };

  T* find(const std::string& id);
  const T* find(const std::string& id) const;
  int entrant_of(const T& t, int64_t user_id) const;
  // The creator's tournament not started yet, else the refusal.
  Refused creator_before_start(const T* t, const std::string& id, const Viewer& viewer) const;
  int seed_of(const TournamentSpec& spec, const Viewer& viewer) const;  // his rating there
  bool connected(int64_t user_id) const;
  void start(T& t);
  void pair_round(T& t);  // round events: the next round's boards and games
  void pair_arena(T& t);
  void advance(T& t);  // after a change: next round, arena pairing, the end
  // The game between entrants w and b (both connected): its id, "" when it could not start.
  std::string start_game(T& t, int w, int b);
  void finish_game(T& t, size_t game, tournament::BoardResult result);
  // At an arena's end: its games not started are called off.
  void call_off_unstarted(T& t);
  // Applies one arena step (["join",name,rating], ["pause",i], ["resume",i], ["pair",now],
  // ["finish",game,result], ["no_show",game,result], ["call_off",game]) and, when `record`,
  // logs it; the new games of a "pair".
  static std::vector<int> arena_do(T& t, boost::json::array step, bool record = true);
  void save(T& t);
  boost::json::object state_json(const T& t) const;
  boost::json::array standings_json(const T& t) const;
  boost::json::object summary_json(const T& t) const;
  static const char* state_name(State s);
  // A stored state's name back as the state; nullopt for a word that names none.
  static std::optional<State> parse_state(std::string_view s);
  // The parts of restore: the spec, the entrants and games, the event or the arena replayed.
  static TournamentSpec spec_of(const boost::json::object& o, const std::string& where);
  static void read_players_and_games(T& t, const boost::json::object& o, const std::string& where);
  static void read_event_or_arena(T& t, const boost::json::object& o, const std::string& where);

  TournamentHooks hooks_;
  std::map<std::string, std::unique_ptr<T>> all_;
  std::map<std::string, std::pair<std::string, size_t>> by_game_;  // game id: tournament, index
  std::map<int64_t, int64_t> seen_ms_;                             // account: last page request
  static constexpr int kReconcileTicks = 30;
  int64_t ticks_ = 0;
};

}  // namespace toguz::site
