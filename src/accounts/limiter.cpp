#include "accounts/limiter.h"

namespace toguz::accounts {

namespace {

// The times still in the window ending at `now_ms`.
void prune_window(std::deque<int64_t>& f, int64_t window_ms, int64_t now_ms) {
  while (!f.empty() && f.front() <= now_ms - window_ms) f.pop_front();
}

// The key of the failures on one account from one address (a username key has no NUL).
std::string pair_key(std::string_view account, std::string_view address) {
  std::string key(account);
  key += '\0';
  key += address;
  return key;
}

// Drops the keys of `map` with no time left in the window.
void sweep_map(std::unordered_map<std::string, std::deque<int64_t>>& map, int64_t window_ms,
               int64_t now_ms) {
  for (auto it = map.begin(); it != map.end();) {
    prune_window(it->second, window_ms, now_ms);
    it = it->second.empty() ? map.erase(it) : std::next(it);
  }
}

}  // namespace

void LoginLimiter::prune(Failures& f, int64_t now_ms) const {
  prune_window(f, limits_.window_ms, now_ms);
}

LoginVerdict LoginLimiter::check(std::string_view account, std::string_view address,
                                 int64_t now_ms) {
  std::lock_guard lock(mutex_);
  auto refused = [&](std::unordered_map<std::string, Failures>& map, const std::string& key,
                     int limit) -> int64_t {
    auto it = map.find(key);
    if (it == map.end()) return 0;
    prune(it->second, now_ms);
    if (static_cast<int>(it->second.size()) < limit) return 0;
    return it->second.front() + limits_.window_ms - now_ms;
  };
  if (int64_t wait = refused(accounts_, pair_key(account, address), limits_.per_account))
    return {false, "login_locked_account", wait};
  if (int64_t wait = refused(addresses_, std::string(address), limits_.per_address))
    return {false, "login_locked_address", wait};
  return {};
}

void LoginLimiter::failure(std::string_view account, std::string_view address, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  for (auto* f : {&accounts_[pair_key(account, address)], &addresses_[std::string(address)]}) {
    prune(*f, now_ms);
    f->push_back(now_ms);
  }
}

void LoginLimiter::success(std::string_view account, std::string_view address) {
  std::lock_guard lock(mutex_);
  accounts_.erase(pair_key(account, address));
}

std::size_t LoginLimiter::sweep(int64_t now_ms) {
  std::lock_guard lock(mutex_);
  for (auto* map : {&accounts_, &addresses_}) sweep_map(*map, limits_.window_ms, now_ms);
  return accounts_.size() + addresses_.size();
}

LoginVerdict SignupLimiter::admit(std::string_view address, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  std::deque<int64_t>& times = addresses_[std::string(address)];
  prune_window(times, limits_.window_ms, now_ms);
  if (static_cast<int>(times.size()) >= limits_.per_window)
    return {false, "signup_rate",
            (times.empty() ? now_ms : times.front()) + limits_.window_ms - now_ms};
  times.push_back(now_ms);
  return {};
}

std::size_t SignupLimiter::sweep(int64_t now_ms) {
  std::lock_guard lock(mutex_);
  sweep_map(addresses_, limits_.window_ms, now_ms);
  return addresses_.size();
}

}  // namespace toguz::accounts
