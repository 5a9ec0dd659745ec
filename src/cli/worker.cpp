// toguz worker --redis URL [--threads N] [--group NAME]: serves engine jobs from the Redis
// queue (docs/cluster.md). Each thread is a consumer of the group with its own engine; the
// main thread keeps the running jobs fresh, announces the worker and waits for SIGINT/SIGTERM.
// One line per job on standard error.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <ctime>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "bus/job.h"
#include "bus/queue.h"
#include "cli/commands.h"
#include "cli/config_file.h"
#include "cli/engine_jobs.h"
#include "cli/stop_signals.h"

namespace toguz::cli {

namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

struct WorkerConfig {
  std::string redis;
  int threads = 1;
  std::string group = "workers";
  std::string stream = "toguz:jobs";
  int hash_mb = 16;
  int claim_idle_ms = 10000;
  int max_deliveries = 3;
};

std::mutex log_mutex;
void log_line(const std::string& line) {
  std::lock_guard lock(log_mutex);
  std::cerr << "toguz worker: " << line << std::endl;
}

int64_t wall_ms() {
  return std::chrono::duration_cast<milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0 || buf[0] == 0) return "worker";
  return buf;
}

// One thread's state, shared with the main thread for the heartbeats and the stop.
struct Slot {
  std::string consumer;
  std::mutex mutex;
  std::string entry;                 // the job running now ("" when none)
  std::atomic<bool> cancel{false};   // stop the running job: shutdown, or taken over
  search::Engine* engine = nullptr;  // set once the thread made it
};

class Worker {
 public:
  explicit Worker(const WorkerConfig& c)
      : cfg_(c),
        url_(bus::parse_redis_url(c.redis)),
        name_(host_name() + "-" + std::to_string(getpid())) {
    queue_config_.stream = c.stream;
    queue_config_.group = c.group;
  }

  int run(const sigset_t& signals);

 private:
  void serve(Slot& slot);
  void serve_one(bus::JobQueue& queue, bus::Connection& redis, search::Engine& engine, Slot& slot,
                 const bus::Delivery& d);
  void heartbeat(bus::JobQueue& queue);

  WorkerConfig cfg_;
  bus::RedisUrl url_;
  std::string name_;
  bus::QueueConfig queue_config_;
  std::atomic<bool> stopping_{false};
  std::vector<std::unique_ptr<Slot>> slots_;
};

int Worker::run(const sigset_t& signals) {
  bus::Connection redis(url_);  // throws with the reason when Redis cannot be reached
  bus::JobQueue queue(redis, queue_config_);
  queue.create_group();
  queue.announce_worker(name_);
  log_line(name_ + ": serving " + cfg_.stream + " (group " + cfg_.group + ") on " + url_.text() +
           " with " + std::to_string(cfg_.threads) + " thread(s)");
  std::vector<std::thread> threads;
  for (int i = 0; i < cfg_.threads; ++i) {
    slots_.push_back(std::make_unique<Slot>());
    slots_.back()->consumer = name_ + "-" + std::to_string(i);
  }
  for (auto& s : slots_) threads.emplace_back([this, slot = s.get()] { serve(*slot); });
  const milliseconds beat(std::max(100, cfg_.claim_idle_ms / 4));
  timespec wait{beat.count() / 1000, long(beat.count() % 1000) * 1000000};
  int sig = 0;
  bool failing = false;  // logs a lost connection once, not on every beat
  for (;;) {
    sig = sigtimedwait(&signals, nullptr, &wait);
    if (sig > 0) break;
    try {
      heartbeat(queue);
      failing = false;
    } catch (const bus::BusError& e) {
      if (!failing) log_line(std::string("heartbeat: ") + e.what());
      failing = true;
    }
  }
  log_line(name_ + ": " + (sig == SIGINT ? "SIGINT" : "SIGTERM") + ", stopping");
  stopping_ = true;
  for (auto& s : slots_) {
    s->cancel = true;
    std::lock_guard lock(s->mutex);
    if (s->engine) s->engine->stop();
  }
  for (std::thread& t : threads) t.join();
  try {
    queue.withdraw_worker(name_);
  } catch (const bus::BusError& e) {
    log_line(e.what());
  }
  return 0;
}

// Keeps each running job fresh; a job another worker took over meanwhile is cancelled here.
void Worker::heartbeat(bus::JobQueue& queue) {
  queue.announce_worker(name_);
  for (auto& s : slots_) {
    std::string entry;
    {
      std::lock_guard lock(s->mutex);
      entry = s->entry;
    }
    if (entry.empty()) continue;
    if (!queue.touch(s->consumer, entry)) {
      std::lock_guard lock(s->mutex);
      if (s->entry == entry) {
        log_line(s->consumer + ": job " + entry + " was taken over by another worker; stopping it");
        s->cancel = true;
        if (s->engine) s->engine->stop();
      }
    }
  }
}

void Worker::serve(Slot& slot) {
  search::Engine engine;
  search::Options options;
  options.hash_mb = cfg_.hash_mb;
  engine.set_options(options);
  {
    std::lock_guard lock(slot.mutex);
    slot.engine = &engine;
  }
  std::unique_ptr<bus::Connection> redis;
  bool failing = false;  // logs a lost connection once, not on every retry
  while (!stopping_) {
    try {
      if (!redis) redis = std::make_unique<bus::Connection>(url_);
      bus::JobQueue queue(*redis, queue_config_);
      std::vector<bus::Delivery> claimed =
          queue.claim_idle(slot.consumer, milliseconds(cfg_.claim_idle_ms), 1);
      std::optional<bus::Delivery> d;
      if (!claimed.empty())
        d = claimed.front();
      else
        d = queue.next(slot.consumer, milliseconds(500));
      if (failing) log_line(slot.consumer + ": connected again");
      failing = false;
      if (d) serve_one(queue, *redis, engine, slot, *d);
    } catch (const bus::BusError& e) {
      // a Redis that restarted without its data has no group: make it again
      if (dynamic_cast<const bus::ReplyError*>(&e) &&
          std::string_view(e.what()).find("NOGROUP") != std::string_view::npos) {
        log_line(slot.consumer + ": the group is gone (Redis restarted?); creating it again");
        try {
          bus::JobQueue(*redis, queue_config_).create_group();
          continue;
        } catch (const bus::BusError&) {
        }
      }
      if (!failing) log_line(slot.consumer + ": " + e.what() + " (retrying)");
      failing = true;
      for (int i = 0; i < 10 && !stopping_; ++i) std::this_thread::sleep_for(milliseconds(100));
    }
  }
  std::lock_guard lock(slot.mutex);
  slot.engine = nullptr;
}

void Worker::serve_one(bus::JobQueue& queue, bus::Connection& redis, search::Engine& engine,
                       Slot& slot, const bus::Delivery& d) {
  const Clock::time_point t0 = Clock::now();
  const std::string who = slot.consumer + ": job " + d.id;
  bus::Job job;
  std::string refused;
  try {
    job = bus::parse_job(d.job);
    if (d.deliveries > cfg_.max_deliveries)
      refused =
          "given up after " + std::to_string(d.deliveries - 1) + " deliveries that did not finish";
    else if (job.expires_ms > 0 && wall_ms() > job.expires_ms)
      refused = "expired before it was started";
  } catch (const bus::JobError& e) {
    refused = e.what();
    if (!bus::parse_job_envelope(d.job, &job)) {
      log_line(who + ": dropped, no reply possible: " + refused);
      queue.ack(d.id);
      return;
    }
  }
  if (!refused.empty()) {
    bus::post_result(redis, job.reply, error_result(job, slot.consumer, refused));
    queue.ack(d.id);
    log_line(who + " " + job.id + ": refused: " + refused);
    return;
  }
  {
    std::lock_guard lock(slot.mutex);
    slot.entry = d.id;
    slot.cancel = stopping_.load();
  }
  // Results may be posted from the search thread: a failure there stops the job (it stays
  // pending, for a takeover) instead of escaping the search.
  std::string post_error;
  auto post = [&](const std::string& r) {
    if (!post_error.empty()) return;
    try {
      bus::post_result(redis, job.reply, r);
    } catch (const bus::BusError& e) {
      post_error = e.what();
      slot.cancel = true;
    }
  };
  std::string error;
  const JobOutcome outcome = run_job(engine, job, slot.consumer, post, slot.cancel, &error);
  {
    std::lock_guard lock(slot.mutex);
    slot.entry.clear();
  }
  const auto ms = std::chrono::duration_cast<milliseconds>(Clock::now() - t0).count();
  const std::string what = who + " " + job.id + " (" + bus::job_kind_name(job.kind) + ", game " +
                           job.game + " generation " + std::to_string(job.generation) +
                           (d.deliveries > 1 ? ", delivery " + std::to_string(d.deliveries) : "") +
                           ")";
  if (!post_error.empty()) {
    log_line(what + ": its result could not be posted (" + post_error +
             "); left pending for a takeover");
  } else if (outcome != JobOutcome::Cancelled) {
    queue.ack(d.id);
    log_line(what + (outcome == JobOutcome::Done ? ": done in " + std::to_string(ms) + " ms"
                                                 : ": failed: " + error));
  } else if (stopping_) {
    queue.hand_back(slot.consumer, d.id);
    log_line(what + ": stopped after " + std::to_string(ms) + " ms, handed back");
  } else {
    log_line(what + ": taken over by another worker after " + std::to_string(ms) + " ms");
  }
}

}  // namespace

void add_worker(CLI::App& app) {
  auto cfg = std::make_shared<WorkerConfig>();
  auto* cmd =
      app.add_subcommand("worker", "serve engine jobs from a Redis queue (docs/cluster.md)");
  cmd->add_option("--redis", cfg->redis, "redis://host:port[/db] (required)")
      ->envname("TOGUZ_REDIS_URL");
  cmd->add_option("--threads", cfg->threads, "jobs at once, one engine each")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--group", cfg->group, "the consumer group")->capture_default_str();
  cmd->add_option("--stream", cfg->stream, "the job stream's key")->capture_default_str();
  cmd->add_option("--hash", cfg->hash_mb, "hash table per engine, MB")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  cmd->add_option("--claim-idle-ms", cfg->claim_idle_ms,
                  "take over a job whose worker has not touched it for this long")
      ->check(CLI::Range(200, 3600 * 1000))
      ->capture_default_str();
  cmd->add_option("--max-deliveries", cfg->max_deliveries,
                  "a job handed out more often than this is answered with an error")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  auto config_path = add_config_option(*cmd);
  cmd->callback([cfg, cmd, config_path] {
    std::vector<std::string> from_file;
    try {
      if (!config_path->empty()) from_file = apply_config_file(*cmd, *config_path);
    } catch (const ConfigFileError& e) {
      log_line(std::string("configuration: ") + e.what());
      throw CLI::RuntimeError(1);
    }
    if (cfg->redis.empty()) throw CLI::RequiredError("--redis");
    log_line("configuration: " +
             (config_path->empty() ? std::string("no file (--config)") : *config_path));
    for (const std::string& line : describe_options(*cmd, from_file)) log_line("setting " + line);
    // SIGINT / SIGTERM are taken by sigtimedwait.
    const sigset_t set = block_stop_signals();
    try {
      Worker w(*cfg);
      if (w.run(set) != 0) throw CLI::RuntimeError(1);
    } catch (const bus::BusError& e) {
      log_line(e.what());
      throw CLI::RuntimeError(1);
    }
  });
}

}  // namespace toguz::cli
