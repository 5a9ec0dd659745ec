#include "engine_work/worker_pool.h"

#include <algorithm>

namespace toguz::engine_work {

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

WorkerPool::WorkerPool(int threads, size_t max_background) : max_background_(max_background) {
  if (threads < 1) threads = 1;
  background_slots_ = std::max(1, threads - 1);
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
    engine_tasks_.clear();
    background_.clear();
  }
  for (auto& w : workers_) w->engine.stop();
  cv_.notify_all();
}

void WorkerPool::drop_cancelled() {
  background_.erase(std::remove_if(background_.begin(), background_.end(),
                                   [](const Entry& e) { return e.job && e.job->cancelled(); }),
                    background_.end());
}

bool WorkerPool::submit(Task task, Priority priority, std::shared_ptr<Job> job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return false;
    if (priority == Priority::Engine) {
      engine_tasks_.push_back({std::move(task), std::move(job)});
    } else {
      if (background_.size() >= max_background_) drop_cancelled();
      if (background_.size() >= max_background_) return false;
      background_.push_back({std::move(task), std::move(job)});
    }
  }
  cv_.notify_all();
  return true;
}

size_t WorkerPool::queued() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return engine_tasks_.size() + background_.size();
}

void WorkerPool::loop(Worker& w) {
  for (;;) {
    Entry entry;
    bool background = false;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait(lock, [this] {
        return stopping_ || !engine_tasks_.empty() ||
               (!background_.empty() && background_running_ < background_slots_);
      });
      if (stopping_) return;
      if (!engine_tasks_.empty()) {
        entry = std::move(engine_tasks_.front());
        engine_tasks_.pop_front();
      } else {
        entry = std::move(background_.front());
        background_.pop_front();
        background = true;
        ++background_running_;
      }
    }
    if (on_wait_)
      on_wait_(background ? Priority::Background : Priority::Engine,
               std::chrono::steady_clock::now() - entry.queued_at);
    if (!(entry.job && entry.job->cancelled())) entry.task(w.engine);
    if (background) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        --background_running_;
      }
      cv_.notify_all();
    }
  }
}

}  // namespace toguz::engine_work
