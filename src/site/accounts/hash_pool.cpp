#include "site/accounts/hash_pool.h"

#include <algorithm>

namespace toguz::site {

HashPool::HashPool(int threads, size_t max_queued) : max_queued_(std::max<size_t>(2, max_queued)) {
  for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this] { loop(); });
}

HashPool::~HashPool() {
  shutdown();
  for (std::thread& t : threads_)
    if (t.joinable()) t.join();
}

void HashPool::shutdown() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    logins_.clear();
    signups_.clear();
  }
  cv_.notify_all();
}

bool HashPool::submit(std::function<void()> task, HashLane lane) {
  {
    std::lock_guard lock(mutex_);
    const size_t waiting = logins_.size() + signups_.size();
    const size_t bound = lane == HashLane::Login ? max_queued_ : max_queued_ / 2;
    if (stopping_ || waiting >= bound) return false;
    (lane == HashLane::Login ? logins_ : signups_).push_back(std::move(task));
  }
  cv_.notify_one();
  return true;
}

size_t HashPool::queued() const {
  std::lock_guard lock(mutex_);
  return logins_.size() + signups_.size();
}

void HashPool::loop() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [this] { return stopping_ || !logins_.empty() || !signups_.empty(); });
      if (stopping_) return;
      auto& lane = logins_.empty() ? signups_ : logins_;
      task = std::move(lane.front());
      lane.pop_front();
    }
    task();
  }
}

}  // namespace toguz::site
