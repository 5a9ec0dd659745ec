// Engine work on the Redis job queue (docs/cluster.md "Jobs"): with --redis and at least one
// `toguz worker` alive (heard from within the last 10 s), EngineWork hands its engine moves,
// hints, analyses and reviews here; each is one job whose results come back on this instance's
// result stream and reach the same callbacks on the IO thread. A result whose local Job was
// cancelled meanwhile (the game moved on: a move, a takeback, the connection gone) or that is
// not this instance's is dropped. When no worker is alive any more, the jobs still waiting are
// run on this instance's own pool, and so is a job a worker answered with an error.
#pragma once

#include <boost/asio.hpp>
#include <boost/json.hpp>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>

#include "bus/queue.h"
#include "bus/redis.h"
#include "engine_work/engine_work.h"

namespace toguz::engine_work {

class EngineQueue : public RemoteEngine {
 public:
  // `instance` names the result stream (toguz:results:<instance>); throws bus::BusError when
  // Redis cannot be reached.
  EngineQueue(boost::asio::io_context& ioc, EngineWork& local, const std::string& redis_url,
              const std::string& instance);
  ~EngineQueue() override;  // stop()
  void stop();

  // Counts the live workers again (the cluster's tick); with none left, the jobs waiting for
  // one run here.
  void refresh();
  bool available() const override { return workers_ > 0 && !stopped_; }
  bool search(const EngineWork::Search& s, Priority priority, std::shared_ptr<Job> job,
              std::function<void(search::SearchResult)> done) override;
  bool review(const Game& game, uint64_t nodes, std::shared_ptr<Job> job,
              std::function<void(double)> progress, std::function<void(std::string)> done) override;

 private:
  struct Pending {
    std::shared_ptr<Job> job;
    uint64_t generation = 0;  // the game's ply count at submission (bus::is_stale)
    // A result of this job (partial or final), parsed once.
    std::function<void(const boost::json::object& result, bool done)> on_result;
    std::function<void()> run_locally;  // the same work on this instance's pool
  };
  bool submit(const std::string& id, const std::string& text, Pending pending);
  void on_result(const std::string& text);  // IO thread

  boost::asio::io_context& ioc_;
  EngineWork& local_;
  bus::Connection redis_;
  bus::JobQueue queue_;
  std::string results_;
  std::unique_ptr<bus::ResultListener> listener_;
  long long workers_ = 0;
  bool stopped_ = false;
  uint64_t next_id_ = 1;
  std::unordered_map<std::string, Pending> pending_;
};

// A search's result from the analysis object of a job result (protocol::analysis_json).
search::SearchResult search_result_of(const boost::json::object& analysis);

}  // namespace toguz::engine_work
