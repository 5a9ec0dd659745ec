// An arena: a fixed duration, players paired again as soon as they finish, points as lichess
// counts them (docs/tournaments.md). The caller passes the time in (milliseconds, any epoch); the
// arena has no clock.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "tournament/event.h"

namespace toguz::tournament {

// How long a player whose only free opponent is his last one waits for someone else while
// another game is running, before the two meet again: 15 s, about a short game's last moves.
inline constexpr int64_t kRematchWaitMs = 15000;

class Arena {
 public:
  // Pairs from `start` (ms, any epoch) for `duration` ms. `rematch_wait` (ms): see pair(); 0 is
  // the first rule exactly (a rematch at once when nobody else waits, no swaps), which the
  // arenas logged before the wait replay with.
  Arena(int64_t start, int64_t duration, int64_t rematch_wait = kRematchWaitMs);

  struct Game {
    int white = -1, black = -1;
    BoardResult result = BoardResult::Pending;
    int white_points = 0, black_points = 0;  // arena points the game gave
    bool called_off = false;                 // ended without a result (call_off)
    bool no_show = false;                    // one side never began it (no_show)
  };
  struct Entry {
    Player player;
    int points = 0;
    int streak = 0;  // wins in a row; from 2 on, the next game counts double
    int games = 0, wins = 0, whites = 0;
    bool paused = false;
    bool playing = false;
    int last_opponent = -1;
    // When pair() first saw him waiting (not playing, not paused); none once paired or paused.
    std::optional<int64_t> waiting_since = std::nullopt;
  };

  // A new player, waiting to be paired; returns his index.
  int join(const Player& player);
  // A paused player is not paired (his running game still counts); resume makes him wait again.
  void pause(int player);
  void resume(int player);

  // Pairs the waiting players (not playing, not paused) by rank: score, then rating, then entry
  // order; each takes the next waiting player below him who was not his last opponent. When the
  // only ones left are last opponents (either way), he takes the next one only if no game was
  // running or one of the two has waited `rematch_wait` since pair() first saw him; else he
  // waits for someone else to be free. A rematch a swap with another new pair, or with a player
  // left waiting, avoids is swapped away. An odd one out waits. Nothing is paired outside the
  // arena's time. Returns the indexes of the new games in games().
  std::vector<int> pair(int64_t now);

  // Ends a game: points to both (2 a win, 1 a draw, 0 a loss; doubled while the player's
  // streak is 2 or more; a forfeit counts as a win without doubling nor streak), and both
  // players wait again. A game finished after the end still counts. Throws
  // std::invalid_argument on a game that is unknown or already over, or a Pending result.
  void finish(int game, BoardResult result);
  // Ends a game without a result (it was never played): no points, no game counted, the streaks
  // kept, both players wait again. Throws std::invalid_argument as finish does.
  void call_off(int game);
  // Ends a game that one side called off before it was played (he did not make his first move,
  // or left or resigned before two moves each): `result` is the forfeit it is shown as
  // (WhiteForfeitWin: Black called it off). A game lost for him (0 points, his streak ends),
  // nothing for the other, to whom it is no game at all (his streak kept); both wait again.
  // A result is decided only by play, never by an abort. Throws std::invalid_argument as
  // finish does, and on a result that is no forfeit.
  void no_show(int game, BoardResult result);

  bool running(int64_t now) const { return now >= start_ && now < start_ + duration_; }
  const std::vector<Entry>& entries() const { return entries_; }
  const std::vector<Game>& games() const { return games_; }
  // Player indexes best first: points, then rating, then entry order.
  std::vector<int> ranking() const;

 private:
  bool ranks_above(int a, int b) const;
  bool rematch(int a, int b) const;
  using Pairs = std::vector<std::pair<int, int>>;
  // The greedy pass over `waiting` (best first); who is left is added to `left`.
  Pairs choose(const std::vector<int>& waiting, int64_t now, bool busy,
               std::vector<int>& left) const;
  void untangle(Pairs& pairs, std::vector<int>& left) const;
  int add_game(int a, int b);  // a new game, colours by share of Whites; its index
  Game& open_game(int game);   // the game, still being played; throws as finish() says
  int64_t start_, duration_, rematch_wait_;
  std::vector<Entry> entries_;
  std::vector<Game> games_;
};

}  // namespace toguz::tournament
