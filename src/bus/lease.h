// A lease in Redis: "this key is held by this owner until it expires". The server uses one per
// live game so that exactly one instance drives it; the holder renews well within the TTL, and
// when it dies the lease expires and another instance acquires it.
//
// Each fresh acquisition gets a fencing token, larger than every token given for the same key
// before (a counter kept at `<key>:fence`, which does not expire). A holder that stalled past
// its TTL may still believe it holds the lease: writes to the store that carry the token and
// are refused for a token lower than the last one seen keep such a holder from doing harm.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "bus/redis.h"

namespace toguz::bus {

// Acquires `key` for `owner` for `ttl` (SET NX PX in one script with the token). When `owner`
// holds it already the TTL is renewed and the same token returned. Nothing when another owner
// holds it. `owner` must not be empty. A fresh token is above `floor` too (the counter is
// raised past it): the newest token the store has seen for the key, so that a Redis that lost
// its counter (restarted empty) never hands out a token the store would refuse.
std::optional<long long> acquire_lease(Connection& redis, const std::string& key,
                                       const std::string& owner, std::chrono::milliseconds ttl,
                                       long long floor = 0);
// Extends the TTL to `ttl` from now; false (and nothing changed) unless `owner` holds it.
bool renew_lease(Connection& redis, const std::string& key, const std::string& owner,
                 std::chrono::milliseconds ttl);
// renew_lease for many keys in one round trip: per key, whether `owner` still holds it.
std::vector<bool> renew_leases(Connection& redis, const std::vector<std::string>& keys,
                               const std::string& owner, std::chrono::milliseconds ttl);
// Deletes the lease; false (and nothing changed) unless `owner` holds it.
bool release_lease(Connection& redis, const std::string& key, const std::string& owner);

struct LeaseHolder {
  std::string owner;
  long long token = 0;
  long long ttl_ms = 0;  // left
};
// Who holds `key` now, if anyone.
std::optional<LeaseHolder> lease_holder(Connection& redis, const std::string& key);

}  // namespace toguz::bus
