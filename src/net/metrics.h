// The site's metrics for Prometheus (docs/operations.md "Metrics"): a registry of counters,
// labelled counters, histograms and gauges read when scraped, written in the Prometheus text
// exposition format (version 0.0.4). A feature is handed the one counter or histogram it
// feeds (or a function that feeds it) and knows nothing of the others or of the format.
// Counting is lock-free (atomics) and safe from every thread; a labelled counter takes a lock
// to find its label's counter. Gauges are functions called by render(), on the thread that
// renders (the server renders on its IO thread, so a gauge may read the rooms).
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace toguz::net {

// A count that only goes up.
class Counter {
 public:
  void inc(uint64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  uint64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> value_{0};
};

// Counters told apart by the value of one label (a refusal's code, a login's outcome).
class LabelledCounter {
 public:
  void inc(std::string_view label_value, uint64_t n = 1);
  uint64_t value(std::string_view label_value) const;
  // Every label value seen, in order, with its count.
  std::vector<std::pair<std::string, uint64_t>> values() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, uint64_t, std::less<>> counts_;
};

// Observations counted into buckets by upper bound (`le`), with their sum and count.
class Histogram {
 public:
  // `bounds`: the buckets' upper bounds, increasing; +Inf is added.
  explicit Histogram(std::vector<double> bounds);
  void observe(double v);
  const std::vector<double>& bounds() const { return bounds_; }
  // The count of each bucket by itself (not cumulative), +Inf last.
  std::vector<uint64_t> bucket_counts() const;
  double sum() const { return sum_.load(std::memory_order_relaxed); }
  uint64_t count() const { return count_.load(std::memory_order_relaxed); }

 private:
  std::vector<double> bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> buckets_;
  std::atomic<double> sum_{0};
  std::atomic<uint64_t> count_{0};
};

// Bucket bounds in seconds from 0.5 ms to 10 s, for latencies.
std::vector<double> latency_buckets();

class Metrics {
 public:
  // Each name once (std::logic_error for a second registration: a bug). The references stay
  // valid while the registry lives. `name` is the full metric name (counters end in _total).
  Counter& counter(const std::string& name, const std::string& help);
  LabelledCounter& labelled_counter(const std::string& name, const std::string& help,
                                    const std::string& label);
  Histogram& histogram(const std::string& name, const std::string& help,
                       std::vector<double> bounds);
  void gauge(const std::string& name, const std::string& help, std::function<double()> read);

  // Every metric in the text format, in the order registered.
  std::string render() const;

 private:
  enum class Kind { Counter, Labelled, Histogram, Gauge };
  struct Entry {
    Kind kind;
    std::string name, help, label;
    std::unique_ptr<Counter> counter;
    std::unique_ptr<LabelledCounter> labelled;
    std::unique_ptr<Histogram> histogram;
    std::function<double()> read;
  };
  Entry& add(Kind kind, const std::string& name, const std::string& help);
  mutable std::mutex mutex_;
  std::deque<Entry> entries_;
};

// The text format's escapes: a HELP text (backslash, newline) and a label value (backslash,
// double quote, newline).
std::string escape_help(std::string_view s);
std::string escape_label_value(std::string_view s);
// A sample value: integers without a fraction, +Inf, -Inf, NaN, else the shortest form.
std::string format_value(double v);

// The process's resident memory in bytes (/proc/self/statm; 0 where unreadable).
uint64_t resident_bytes();

}  // namespace toguz::net
