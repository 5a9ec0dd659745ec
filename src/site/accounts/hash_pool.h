// The password pool: every Argon2id hash and verification of the server (sign-up, login,
// password change) runs on these few threads, apart from the engine's worker pool, so a login
// never waits behind analyses, hints or reviews. Logins and password changes go ahead of
// sign-ups; the queue is bounded, and sign-ups may fill only half of it, so a flood of
// sign-ups leaves room for the logins.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace toguz::site {

enum class HashLane { Login, Signup };

class HashPool {
 public:
  // Starts `threads` threads (at least 1); at most `max_queued` tasks wait (at least 2).
  HashPool(int threads, size_t max_queued);
  ~HashPool();  // drops what waits, joins the threads after their running task
  HashPool(const HashPool&) = delete;
  HashPool& operator=(const HashPool&) = delete;

  // Queues `task` in its lane: false (dropped) when the queue holds max_queued tasks, or for a
  // sign-up max_queued / 2 of them, or after shutdown().
  bool submit(std::function<void()> task, HashLane lane);
  // Drops the waiting tasks; submit() refuses afterwards. The running ones finish.
  void shutdown();
  size_t queued() const;

 private:
  void loop();
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> logins_, signups_;
  size_t max_queued_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace toguz::site
