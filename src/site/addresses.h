// What the site counts per client address (HTTP and WebSocket alike), the key of every
// per-address limit: the address is the client's as net::client_of finds it, behind a trusted
// proxy the one the proxy names. IO thread only.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "site/rate_bucket.h"

namespace toguz::site {

// A WebSocket's send queue as its address's budget sees it (game and lobby sockets).
class QueuedSocket {
 public:
  virtual ~QueuedSocket() = default;
  virtual size_t queued_bytes() const = 0;
  // Closes the socket because its address is over its budget; `why` is logged.
  virtual void close_over_budget(const std::string& why) = 0;
};

struct AddressState {
  using Clock = std::chrono::steady_clock;
  int connections = 0;  // WebSocket sessions
  int analyses = 0;     // POST /api/analyze running or queued
  double tokens = -1;   // the analyze rate's bucket (-1: full, not yet used)
  Clock::time_point refilled;
  // The send queues of its WebSockets and their bytes (Config::max_queued_bytes_per_address).
  std::vector<QueuedSocket*> sockets;
  size_t queued_bytes = 0;
  RateBucket games;        // online games created (Config::online_games_per_address)
  RateBucket entry_codes;  // wrong tournament entry codes (tournaments_site.h)
  Clock::time_point used;  // a limit last counted: the sweep keeps the entry an hour
};

// Every client address with something counted, by address.
using Addresses = std::unordered_map<std::string, AddressState>;

// The window over which Config::online_games_per_address refills.
inline constexpr int kGameWindowMinutes = 10;
// An AddressState whose counts are at rest leaves memory this long after its last use.
inline constexpr auto kAddressIdle = std::chrono::hours(1);

}  // namespace toguz::site
