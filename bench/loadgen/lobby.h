// The lobby mode of toguz_load (bench/load --lobby N): accounts paired by a pool, then playing.
#pragma once

#include <cstdint>
#include <string>

namespace toguz::load {

// N users (even) sign up or log in, join `pool` at once and play their games to the end with
// random moves at `pace_ms`; prints one line of figures. 0 when every game ended without error.
int run_lobby(const std::string& host, uint16_t port, int users, int pace_ms,
              const std::string& pool);

}  // namespace toguz::load
