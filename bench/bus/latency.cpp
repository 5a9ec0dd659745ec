// toguz_bus_latency --redis URL [--jobs N] [--depth D]: submits N engine-move jobs one at a time
// (each the next only after the last one's result came back) and prints the round trip from
// XADD to the result read: p50, p99, max, and jobs/s. bench/bus-latency starts Redis and a
// worker for it.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bus/job.h"
#include "bus/queue.h"

int main(int argc, char** argv) {
  std::string url;
  int jobs = 1000, depth = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--redis")
      url = argv[i + 1];
    else if (a == "--jobs")
      jobs = std::atoi(argv[i + 1]);
    else if (a == "--depth")
      depth = std::atoi(argv[i + 1]);
  }
  if (url.empty() || jobs < 1) {
    std::fprintf(stderr, "usage: toguz_bus_latency --redis URL [--jobs N] [--depth D]\n");
    return 2;
  }
  using Clock = std::chrono::steady_clock;
  try {
    toguz::bus::Connection redis(url);
    toguz::bus::JobQueue queue(redis);
    queue.create_group();
    const std::string reply = "toguz:results:latency-" + std::to_string(getpid());
    toguz::bus::ResultReader reader(redis, reply);
    toguz::bus::Job job;
    job.kind = toguz::bus::JobKind::Move;
    job.game = "bench";
    job.reply = reply;
    job.limits.depth = depth;
    std::vector<double> ms;
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < jobs; ++i) {
      job.id = "l" + std::to_string(i);
      job.generation = uint64_t(i);
      const Clock::time_point t0 = Clock::now();
      queue.submit(toguz::bus::job_json(job));
      bool got = false;
      while (!got) {
        for (const std::string& r : reader.read(std::chrono::milliseconds(10000))) {
          const toguz::bus::ResultHeader h = toguz::bus::parse_result_header(r);
          if (!h.error.empty()) throw toguz::bus::JobError(h.error);
          if (h.job == job.id && h.done) got = true;
        }
        if (!got && Clock::now() - t0 > std::chrono::seconds(30)) {
          std::fprintf(stderr, "toguz_bus_latency: no result for job %d in 30 s\n", i);
          return 1;
        }
      }
      ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    const double total = std::chrono::duration<double>(Clock::now() - start).count();
    redis.command({"DEL", reply});
    std::sort(ms.begin(), ms.end());
    auto pct = [&](double p) { return ms[std::min(ms.size() - 1, size_t(p * double(ms.size())))]; };
    std::printf(
        "jobs %d (move, depth %d), one at a time: round trip p50 %.3f ms, p99 %.3f ms, "
        "max %.3f ms; %.0f jobs/s\n",
        jobs, depth, pct(0.50), pct(0.99), ms.back(), double(jobs) / total);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "toguz_bus_latency: %s\n", e.what());
    return 1;
  }
  return 0;
}
