#include "engine_work/engine_work.h"

#include "engine_work/review.h"

namespace toguz::engine_work {

bool EngineWork::search(Search s, Priority priority, std::shared_ptr<Job> job,
                        std::function<void(search::SearchResult)> done) {
  if (remote_ && remote_->available() && remote_->search(s, priority, job, done)) return true;
  return search_here(std::move(s), priority, std::move(job), std::move(done));
}

bool EngineWork::search_here(Search s, Priority priority, std::shared_ptr<Job> job,
                             std::function<void(search::SearchResult)> done) {
  if (!s.options.tables) s.options.tables = tables();
  auto work = [this, s = std::move(s), job](search::Engine& engine) {
    engine.set_options(s.options);
    engine.set_position(s.game);
    return engine.search(s.limits, [&](const search::Info& info) {
      if (job->cancelled() || pool_.stopping()) engine.stop();
      if (s.on_info) s.on_info(info);
    });
  };
  return run<search::SearchResult>(priority, std::move(job), std::move(work), std::move(done));
}

bool EngineWork::review(const Game& game, uint64_t nodes, std::shared_ptr<Job> job,
                        std::function<void(double)> progress,
                        std::function<void(std::string)> done) {
  if (remote_ && remote_->available() && remote_->review(game, nodes, job, progress, done))
    return true;
  return review_here(game, nodes, std::move(job), std::move(progress), std::move(done));
}

bool EngineWork::review_here(const Game& game, uint64_t nodes, std::shared_ptr<Job> job,
                             std::function<void(double)> progress,
                             std::function<void(std::string)> done) {
  // On the worker, with its engine: progress goes to the IO thread as it comes.
  auto task = [this, job, nodes, game, progress, tables = tables()](search::Engine& engine) {
    std::atomic<bool> cancel{false};
    auto step = [&](int n, int total) {
      if (job->cancelled() || stopping()) cancel = true;
      const double p = double(n) / double(total);
      post(job, [progress, p] { progress(p); });
    };
    search::Options options;
    options.tables = tables;
    return review_json(engine, game, nodes, step, &cancel, options);
  };
  return run<std::string>(Priority::Background, std::move(job), std::move(task), std::move(done));
}

void EngineWork::set_tables(std::shared_ptr<const search::TableProbe> tables) {
  std::lock_guard<std::mutex> lock(tables_mutex_);
  tables_ = std::move(tables);
}

std::shared_ptr<const search::TableProbe> EngineWork::tables() const {
  std::lock_guard<std::mutex> lock(tables_mutex_);
  return tables_;
}

void EngineWork::post(std::shared_ptr<Job> job, std::function<void()> f) {
  boost::asio::post(ioc_, [job = std::move(job), f = std::move(f)] {
    if (!job->cancelled()) f();
  });
}

}  // namespace toguz::engine_work
