#include "bus/lease.h"

#include <charconv>

namespace toguz::bus {

namespace {

// The lease's value is "<token>:<owner>"; the owner is everything after the first ':'.
constexpr const char* kOwnerOf = R"(
local function owner_of(v)
  local sep = string.find(v, ':', 1, true)
  return string.sub(v, sep + 1), tonumber(string.sub(v, 1, sep - 1))
end
)";

const std::string kAcquire = std::string(kOwnerOf) + R"(
local v = redis.call('GET', KEYS[1])
if v then
  local owner, token = owner_of(v)
  if owner ~= ARGV[1] then return 0 end
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return token
end
local token = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if token <= floor then
  token = floor + 1
  redis.call('SET', KEYS[2], token)
end
redis.call('SET', KEYS[1], token .. ':' .. ARGV[1], 'PX', ARGV[2])
return token
)";

const std::string kRenew = std::string(kOwnerOf) + R"(
local v = redis.call('GET', KEYS[1])
if not v or owner_of(v) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
)";

const std::string kRelease = std::string(kOwnerOf) + R"(
local v = redis.call('GET', KEYS[1])
if not v or owner_of(v) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
)";

void check(const std::string& owner, std::chrono::milliseconds ttl) {
  if (owner.empty()) throw BusError("lease: the owner id is empty");
  if (ttl.count() <= 0) throw BusError("lease: the TTL must be positive");
}

}  // namespace

std::optional<long long> acquire_lease(Connection& redis, const std::string& key,
                                       const std::string& owner, std::chrono::milliseconds ttl,
                                       long long floor) {
  check(owner, ttl);
  const long long token = redis
                              .command({"EVAL", kAcquire, "2", key, key + ":fence", owner,
                                        std::to_string(ttl.count()), std::to_string(floor)})
                              .number("lease acquire");
  if (token == 0) return std::nullopt;
  return token;
}

bool renew_lease(Connection& redis, const std::string& key, const std::string& owner,
                 std::chrono::milliseconds ttl) {
  check(owner, ttl);
  return redis.command({"EVAL", kRenew, "1", key, owner, std::to_string(ttl.count())})
             .number("lease renew") == 1;
}

std::vector<bool> renew_leases(Connection& redis, const std::vector<std::string>& keys,
                               const std::string& owner, std::chrono::milliseconds ttl) {
  check(owner, ttl);
  std::vector<std::vector<std::string>> commands;
  commands.reserve(keys.size());
  for (const std::string& key : keys)
    commands.push_back({"EVAL", kRenew, "1", key, owner, std::to_string(ttl.count())});
  std::vector<bool> held;
  held.reserve(keys.size());
  for (const Reply& r : redis.pipeline(commands))
    held.push_back(r.type == Reply::Type::Integer && r.integer == 1);
  return held;
}

bool release_lease(Connection& redis, const std::string& key, const std::string& owner) {
  check(owner, std::chrono::milliseconds(1));
  return redis.command({"EVAL", kRelease, "1", key, owner}).number("lease release") == 1;
}

std::optional<LeaseHolder> lease_holder(Connection& redis, const std::string& key) {
  const std::vector<Reply> r = redis.pipeline({{"GET", key}, {"PTTL", key}});
  if (r[0].nil() || r[0].type != Reply::Type::String) return std::nullopt;
  const std::string& v = r[0].str;
  const size_t sep = v.find(':');
  if (sep == std::string::npos) throw BusError("lease " + key + ": not a lease value");
  LeaseHolder h;
  h.owner = v.substr(sep + 1);
  auto [end, ec] = std::from_chars(v.data(), v.data() + sep, h.token);
  if (ec != std::errc() || end != v.data() + sep)
    throw BusError("lease " + key + ": not a lease value");
  h.ttl_ms = r[1].type == Reply::Type::Integer ? r[1].integer : 0;
  return h;
}

}  // namespace toguz::bus
