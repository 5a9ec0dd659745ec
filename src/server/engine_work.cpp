#include "server/engine_work.h"

namespace toguz::server {

bool EngineWork::search(Search s, Priority priority, std::shared_ptr<Job> job,
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

}  // namespace toguz::server
