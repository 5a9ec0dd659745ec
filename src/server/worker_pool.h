// A fixed pool of threads, each owning one search engine: every engine search of the server
// (engine moves, hints, analysis, reviews) runs here, never on the IO thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "search/engine.h"

namespace toguz::server {

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

class WorkerPool {
 public:
  using Task = std::function<void(search::Engine&)>;
  // Starts `threads` workers (at least 1).
  explicit WorkerPool(int threads);
  // Stops the running searches, drops the queued tasks and joins the workers.
  ~WorkerPool();
  void submit(Task task);
  // Stops every running search and drops the queue; submit() is ignored afterwards.
  void shutdown();
  size_t queued() const;
  // True once shutdown() began: long tasks check it between steps and in search callbacks.
  bool stopping() const { return stopping_.load(); }

 private:
  struct Worker {
    search::Engine engine;
    std::thread thread;
  };
  void loop(Worker& w);
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Task> tasks_;
  std::atomic<bool> stopping_{false};
  std::vector<std::unique_ptr<Worker>> workers_;
};

}  // namespace toguz::server
