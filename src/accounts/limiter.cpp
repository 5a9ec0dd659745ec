#include "accounts/limiter.h"

namespace toguz::accounts {

void LoginLimiter::prune(Failures& f, int64_t now_ms) const {
  while (!f.empty() && f.front() <= now_ms - limits_.window_ms) f.pop_front();
}

LoginVerdict LoginLimiter::check(std::string_view account, std::string_view address,
                                 int64_t now_ms) {
  std::lock_guard lock(mutex_);
  auto refused = [&](std::unordered_map<std::string, Failures>& map, std::string_view key,
                     int limit) -> int64_t {
    auto it = map.find(std::string(key));
    if (it == map.end()) return 0;
    prune(it->second, now_ms);
    if (static_cast<int>(it->second.size()) < limit) return 0;
    return it->second.front() + limits_.window_ms - now_ms;
  };
  if (int64_t wait = refused(accounts_, account, limits_.per_account))
    return {false, "login_locked_account", wait};
  if (int64_t wait = refused(addresses_, address, limits_.per_address))
    return {false, "login_locked_address", wait};
  return {};
}

void LoginLimiter::failure(std::string_view account, std::string_view address, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  for (auto* f : {&accounts_[std::string(account)], &addresses_[std::string(address)]}) {
    prune(*f, now_ms);
    f->push_back(now_ms);
  }
}

void LoginLimiter::success(std::string_view account) {
  std::lock_guard lock(mutex_);
  accounts_.erase(std::string(account));
}

std::size_t LoginLimiter::sweep(int64_t now_ms) {
  std::lock_guard lock(mutex_);
  for (auto* map : {&accounts_, &addresses_}) {
    for (auto it = map->begin(); it != map->end();) {
      prune(it->second, now_ms);
      it = it->second.empty() ? map->erase(it) : std::next(it);
    }
  }
  return accounts_.size() + addresses_.size();
}

}  // namespace toguz::accounts
