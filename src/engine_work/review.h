// The review of a game for the web (docs/web-protocol.md <Review>), computed in a worker.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "rules/game.h"
#include "search/engine.h"

namespace toguz::engine_work {

// The review object {"moves":[<Review>...],"players":{"white":<summary>,"black":..}} of every
// move of `game` (search::review_game with `engine`, each position searched with `nodes` nodes).
// `progress(done, total)` is called after each search. Returns "" when `cancel` was set
// before the end. `options` are the engine's (its table probe: the exact endgame).
std::string review_json(search::Engine& engine, const Game& game, uint64_t nodes,
                        const std::function<void(int, int)>& progress,
                        const std::atomic<bool>* cancel, const search::Options& options = {});

}  // namespace toguz::engine_work
