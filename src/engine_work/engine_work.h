// Cancellable engine work, the one way the IO thread uses the engine: a task runs on a worker
// with that worker's own search::Engine (worker_pool.h) over copies of what it needs (the Game),
// and its result comes back to the IO thread by asio::post, where it is dropped when its Job was
// cancelled meanwhile (stale: a takeback, a new analyze, a closed socket). Engine moves, hints,
// the analyze stream, POST /api/analyze and reviews all go through here. In a cluster with a
// live engine worker they go to the job queue instead (RemoteEngine, engine_queue.h), with the
// same callbacks on the IO thread.
#pragma once

#include <boost/asio.hpp>
#include <functional>
#include <memory>
#include <mutex>

#include "engine_work/worker_pool.h"
#include "rules/game.h"
#include "search/engine.h"

namespace toguz::engine_work {

class RemoteEngine;

class EngineWork {
 public:
  EngineWork(boost::asio::io_context& ioc, WorkerPool& pool) : ioc_(ioc), pool_(pool) {}

  // One search of a copied game with the given options and limits. `on_info`, when set, runs on
  // the worker for each finished iteration or line (post partial results with post()).
  struct Search {
    Game game;
    search::Options options;
    search::Limits limits;
    std::function<void(const search::Info&)> on_info;
  };

  // Runs `s` on a worker and `done(result)` on the IO thread, unless `job` (not null, one per
  // task) was cancelled first; `s.options.tables`, when not set, is tables(); the search stops
  // early when the job is cancelled or the pool shuts down. False when the pool refused it (the
  // background queue is full): nothing runs.
  bool search(Search s, Priority priority, std::shared_ptr<Job> job,
              std::function<void(search::SearchResult)> done);

  // The review of `game` (review.h: the JSON object, "" when it did not complete) with `nodes`
  // per position; `progress(0..1)` and `done(review)` run on the IO thread unless `job` was
  // cancelled. False when refused (the background queue is full).
  bool review(const Game& game, uint64_t nodes, std::shared_ptr<Job> job,
              std::function<void(double)> progress, std::function<void(std::string)> done);

  // search() and review() on this process's pool, whatever the remote says.
  bool search_here(Search s, Priority priority, std::shared_ptr<Job> job,
                   std::function<void(search::SearchResult)> done);
  bool review_here(const Game& game, uint64_t nodes, std::shared_ptr<Job> job,
                   std::function<void(double)> progress, std::function<void(std::string)> done);

  // Work elsewhere, used while it says it is available (set before the first search).
  void set_remote(RemoteEngine* remote) { remote_ = remote; }

  // Any work with a worker's engine, on this process's pool: `work(engine)` on the worker (the job
  // attached to the engine, so cancel() stops its search), then `done(result)` on the IO thread
  // unless cancelled.
  template <class R>
  bool run(Priority priority, std::shared_ptr<Job> job, std::function<R(search::Engine&)> work,
           std::function<void(R)> done) {
    auto task = [this, job, work = std::move(work), done = std::move(done)](search::Engine& e) {
      if (!job->attach(&e)) return;
      R result = work(e);
      job->detach();
      if (job->cancelled()) return;
      post(job, [done, result = std::move(result)]() mutable { done(std::move(result)); });
    };
    return pool_.submit(std::move(task), priority, job);
  }

  // Posts `f` to the IO thread, where it runs only if `job` is still not cancelled.
  void post(std::shared_ptr<Job> job, std::function<void()> f);
  // True once the pool shuts down: long work checks it between steps.
  bool stopping() const { return pool_.stopping(); }
  const WorkerPool& pool() const { return pool_; }

  // The exact endgame every search gets (endgame_tables.h): set from any thread, taken by the
  // searches that start after.
  void set_tables(std::shared_ptr<const search::TableProbe> tables);
  std::shared_ptr<const search::TableProbe> tables() const;

 private:
  boost::asio::io_context& ioc_;
  WorkerPool& pool_;
  mutable std::mutex tables_mutex_;
  std::shared_ptr<const search::TableProbe> tables_;
  RemoteEngine* remote_ = nullptr;
};

// Engine work done by other processes (the job queue): the same contracts as EngineWork's, the
// callbacks run on the IO thread and not after `job` was cancelled. A submission it cannot make
// returns false and EngineWork runs the work itself.
class RemoteEngine {
 public:
  virtual ~RemoteEngine() = default;
  virtual bool available() const = 0;
  virtual bool search(const EngineWork::Search& s, Priority priority, std::shared_ptr<Job> job,
                      std::function<void(search::SearchResult)> done) = 0;
  virtual bool review(const Game& game, uint64_t nodes, std::shared_ptr<Job> job,
                      std::function<void(double)> progress,
                      std::function<void(std::string)> done) = 0;
};

}  // namespace toguz::engine_work
