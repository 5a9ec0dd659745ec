// The engine API: set a position, go/stop/wait, results through callbacks. The search never
// prints; each front end (UGI, CLI, server, match runner, Python) formats what it receives.
#pragma once

#include <memory>

#include "rules/game.h"
#include "search/types.h"

namespace toguz::search {

class Engine {
 public:
  using InfoCallback = search::InfoCallback;
  using DoneCallback = search::DoneCallback;

  Engine();
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // set_options, new_game, set_position and go wait for a running search to finish first
  // (call stop() to cut it short; an infinite search only finishes after stop()).
  void set_options(const Options& options);  // not while searching
  const Options& options() const;
  void new_game();                      // clears the hash table and history tables
  void set_position(const Game& game);  // the game's history counts for repetition

  // Starts a search in the background; `on_info` is called per completed iteration / line,
  // `on_done` once at the end (after stop() too). Both run on the search thread.
  void go(const Limits& limits, InfoCallback on_info, DoneCallback on_done);
  void stop();  // asks the search to finish soon
  void wait();  // blocks until the current search has finished
  bool searching() const;

  // go + wait, for tools and tests.
  SearchResult search(const Limits& limits, InfoCallback on_info = nullptr);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace toguz::search
