// A fixed pool of threads, each owning one search engine: every engine search of the server
// (engine moves, hints, analysis, reviews) runs here, never on the IO thread.
// Scheduling: engine moves in games go ahead of everything else, background work (analysis,
// hints, reviews) runs on at most threads - 1 workers at once (all of them with one thread), so
// with two or more threads an engine move never waits for background work; the background
// queue is bounded and refuses work past its bound.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "search/engine.h"

namespace toguz::engine_work {

// A cancellable job: cancel() stops its search soon (or skips it if it has not started).
class Job {
 public:
  void cancel();
  bool cancelled() const { return cancelled_.load(); }
  // Called by the worker around its search: attaches the engine so cancel() can stop it.
  // attach() returns false when the job was already cancelled.
  bool attach(search::Engine* engine);
  void detach();

 private:
  std::atomic<bool> cancelled_{false};
  std::mutex mutex_;
  search::Engine* engine_ = nullptr;
};

enum class Priority { Engine, Background };

class WorkerPool {
 public:
  using Task = std::function<void(search::Engine&)>;
  // Starts `threads` workers (at least 1); at most `max_background` background tasks may wait.
  explicit WorkerPool(int threads, size_t max_background = 64);
  // Stops the running searches, drops the queued tasks and joins the workers.
  ~WorkerPool();
  // Queues a task. A background task is refused (false, the task dropped) when the background
  // queue is full; queued tasks whose `job` was cancelled do not count and are dropped unrun.
  bool submit(Task task, Priority priority = Priority::Background,
              std::shared_ptr<Job> job = nullptr);
  // Stops every running search and drops the queue; submit() is ignored afterwards.
  void shutdown();
  size_t queued() const;  // both queues, cancelled tasks included
  size_t max_background() const { return max_background_; }
  // Told when a worker takes a task, on that worker's thread: its priority and how long it
  // waited in the queue. Set before the first submit().
  using WaitObserver = std::function<void(Priority, std::chrono::steady_clock::duration)>;
  void set_wait_observer(WaitObserver observer) { on_wait_ = std::move(observer); }
  // True once shutdown() began: long tasks check it between steps and in search callbacks.
  bool stopping() const { return stopping_.load(); }

 private:
  struct Worker {
    search::Engine engine;
    std::thread thread;
  };
  struct Entry {
    Task task;
    std::shared_ptr<Job> job;
    std::chrono::steady_clock::time_point queued_at = std::chrono::steady_clock::now();
  };
  void loop(Worker& w);
  void drop_cancelled();  // from the background queue; mutex_ held
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Entry> engine_tasks_, background_;
  size_t max_background_;
  int background_slots_;  // how many workers may run background tasks at once
  int background_running_ = 0;
  std::atomic<bool> stopping_{false};
  std::vector<std::unique_ptr<Worker>> workers_;
  WaitObserver on_wait_;
};

}  // namespace toguz::engine_work
