#include "server/worker_pool.h"

namespace toguz::server {

void Job::cancel() {
  cancelled_ = true;
  std::lock_guard<std::mutex> lock(mutex_);
  if (engine_) engine_->stop();
}

bool Job::attach(search::Engine* engine) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (cancelled_) return false;
  engine_ = engine;
  return true;
}

void Job::detach() {
  std::lock_guard<std::mutex> lock(mutex_);
  engine_ = nullptr;
}

WorkerPool::WorkerPool(int threads) {
  if (threads < 1) threads = 1;
  for (int i = 0; i < threads; ++i) workers_.push_back(std::make_unique<Worker>());
  for (auto& w : workers_) w->thread = std::thread([this, wp = w.get()] { loop(*wp); });
}

WorkerPool::~WorkerPool() {
  shutdown();
  for (auto& w : workers_)
    if (w->thread.joinable()) w->thread.join();
}

void WorkerPool::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    tasks_.clear();
  }
  for (auto& w : workers_) w->engine.stop();
  cv_.notify_all();
}

void WorkerPool::submit(Task task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    tasks_.push_back(std::move(task));
  }
  cv_.notify_one();
}

size_t WorkerPool::queued() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return tasks_.size();
}

void WorkerPool::loop(Worker& w) {
  for (;;) {
    Task task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
      if (stopping_) return;
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    task(w.engine);
  }
}

}  // namespace toguz::server
