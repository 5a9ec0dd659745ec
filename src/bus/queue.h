// The engine job queue on a Redis stream with a consumer group (docs/cluster.md "Jobs").
//
// A submitter XADDs a job; each worker thread is a consumer of the group and reads with
// XREADGROUP BLOCK. A job stays pending for its consumer until acknowledged (XACK, then XDEL:
// nothing done stays in the stream). A worker keeps its running jobs fresh (touch) while it
// searches; a job whose consumer stopped touching it for `claim idle` is taken over by another
// (XAUTOCLAIM). Results go to the stream the job names (one per submitting instance), read with
// XREAD by that instance alone.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bus/redis.h"

namespace toguz::bus {

struct QueueConfig {
  std::string stream = "toguz:jobs";
  std::string group = "workers";
  long long max_len = 100000;  // XADD MAXLEN ~: a bound if nothing serves the jobs
};

// One job as delivered to a consumer.
struct Delivery {
  std::string id;            // the stream entry id ("1700000000000-0")
  std::string job;           // the job text (the entry's "job" field; "" when the entry has none)
  long long deliveries = 1;  // how often it was handed out (2+ after a takeover)
};

// One thread's view of the queue, on that thread's Connection.
class JobQueue {
 public:
  explicit JobQueue(Connection& redis, QueueConfig config = {});
  const QueueConfig& config() const { return config_; }

  // Creates the stream and the group when missing (XGROUP CREATE ... 0 MKSTREAM), so that jobs
  // submitted before the first worker came are served too. Idempotent.
  void create_group();
  // XADD; the entry id.
  std::string submit(const std::string& job);
  // The next new job for `consumer`, waiting up to `block`; nothing on timeout.
  std::optional<Delivery> next(const std::string& consumer, std::chrono::milliseconds block);
  // Takes over up to `count` jobs that have been pending (with any consumer) for at least
  // `min_idle` without a touch (XAUTOCLAIM); their delivery counts are filled in.
  std::vector<Delivery> claim_idle(const std::string& consumer, std::chrono::milliseconds min_idle,
                                   int count = 1);
  // Resets the idle time of `id` if `consumer` still holds it (atomically: a job already taken
  // over stays with its new consumer). False when `consumer` does not hold it.
  bool touch(const std::string& consumer, const std::string& id);
  // Makes `id` (held by `consumer`) claimable at once: for a worker that stops mid-job.
  void hand_back(const std::string& consumer, const std::string& id);
  // Done: XACK and XDEL.
  void ack(const std::string& id);
  // Jobs delivered and not yet acknowledged, and jobs not yet delivered to anyone.
  long long pending();
  long long waiting();

  // Live workers: each worker announces itself every few seconds; `live_workers` counts those
  // heard from within `window` (a server serves jobs itself when there are none).
  void announce_worker(const std::string& name);
  void withdraw_worker(const std::string& name);
  long long live_workers(std::chrono::milliseconds window);

 private:
  long long delivery_count(const std::string& id);
  Connection& redis_;
  QueueConfig config_;
};

// Posts a result to a submitter's result stream (XADD MAXLEN ~ 10000, field "result"); the
// stream expires an hour after its last result, so a dead instance's results do not stay.
void post_result(Connection& redis, const std::string& stream, const std::string& result);

// Reads one result stream from the start (its key is unique to its reader).
class ResultReader {
 public:
  // Reads the entries after `after` ("0-0": all of them).
  ResultReader(Connection& redis, std::string stream, std::string after = "0-0")
      : redis_(redis), stream_(std::move(stream)), last_id_(std::move(after)) {}
  const std::string& stream() const { return stream_; }
  const std::string& last_id() const { return last_id_; }  // of the last result read
  // The results posted since the last call (up to 100), waiting up to `block` for the first.
  std::vector<std::string> read(std::chrono::milliseconds block);

 private:
  Connection& redis_;
  std::string stream_;
  std::string last_id_;
};

// Reads a result stream on a thread of its own and hands each result to `on_result` there (an
// asio server posts it to its IO thread). A lost connection is retried every 500 ms and
// reported to `on_error`; results posted meanwhile are read afterwards (the stream keeps them).
// The callbacks must not throw.
class ResultListener {
 public:
  using OnResult = std::function<void(const std::string& result)>;
  using OnError = std::function<void(const std::string& error)>;
  ResultListener(RedisUrl url, std::string stream, OnResult on_result, OnError on_error = nullptr);
  ~ResultListener();  // stop()
  ResultListener(const ResultListener&) = delete;
  ResultListener& operator=(const ResultListener&) = delete;
  // Stops and joins the thread (within about 200 ms); not from a callback.
  void stop();

 private:
  void run();
  RedisUrl url_;
  std::string stream_;
  OnResult on_result_;
  OnError on_error_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace toguz::bus
