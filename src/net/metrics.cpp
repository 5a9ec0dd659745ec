#include "net/metrics.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace toguz::net {

void LabelledCounter::inc(std::string_view label_value, uint64_t n) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = counts_.find(label_value);
  if (it == counts_.end()) it = counts_.emplace(std::string(label_value), 0).first;
  it->second += n;
}

uint64_t LabelledCounter::value(std::string_view label_value) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = counts_.find(label_value);
  return it == counts_.end() ? 0 : it->second;
}

std::vector<std::pair<std::string, uint64_t>> LabelledCounter::values() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return {counts_.begin(), counts_.end()};
}

Histogram::Histogram(std::vector<double> bounds)
    : bounds_(std::move(bounds)),
      buckets_(std::make_unique<std::atomic<uint64_t>[]>(bounds_.size() + 1)) {
  if (!std::is_sorted(bounds_.begin(), bounds_.end()) ||
      std::adjacent_find(bounds_.begin(), bounds_.end()) != bounds_.end())
    throw std::logic_error("histogram bounds must increase");
}

void Histogram::observe(double v) {
  const size_t i = size_t(std::lower_bound(bounds_.begin(), bounds_.end(), v) - bounds_.begin());
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  double sum = sum_.load(std::memory_order_relaxed);
  while (!sum_.compare_exchange_weak(sum, sum + v, std::memory_order_relaxed)) {
  }
  count_.fetch_add(1, std::memory_order_relaxed);
}

std::vector<uint64_t> Histogram::bucket_counts() const {
  std::vector<uint64_t> out(bounds_.size() + 1);
  for (size_t i = 0; i < out.size(); ++i) out[i] = buckets_[i].load(std::memory_order_relaxed);
  return out;
}

std::vector<double> latency_buckets() {
  return {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
}

Metrics::Entry& Metrics::add(Kind kind, const std::string& name, const std::string& help) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const Entry& e : entries_)
    if (e.name == name) throw std::logic_error("metric registered twice: " + name);
  Entry& e = entries_.emplace_back();
  e.kind = kind;
  e.name = name;
  e.help = help;
  return e;
}

Counter& Metrics::counter(const std::string& name, const std::string& help) {
  Entry& e = add(Kind::Counter, name, help);
  e.counter = std::make_unique<Counter>();
  return *e.counter;
}

LabelledCounter& Metrics::labelled_counter(const std::string& name, const std::string& help,
                                           const std::string& label) {
  Entry& e = add(Kind::Labelled, name, help);
  e.label = label;
  e.labelled = std::make_unique<LabelledCounter>();
  return *e.labelled;
}

Histogram& Metrics::histogram(const std::string& name, const std::string& help,
                              std::vector<double> bounds) {
  auto h = std::make_unique<Histogram>(std::move(bounds));  // checked before it is registered
  Entry& e = add(Kind::Histogram, name, help);
  e.histogram = std::move(h);
  return *e.histogram;
}

void Metrics::gauge(const std::string& name, const std::string& help,
                    std::function<double()> read) {
  add(Kind::Gauge, name, help).read = std::move(read);
}

namespace {

constexpr const char* kTypeNames[] = {"counter", "counter", "histogram", "gauge"};

void histogram_lines(std::string& out, const std::string& name, const Histogram& h) {
  const std::vector<uint64_t> counts = h.bucket_counts();
  uint64_t cumulative = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    cumulative += counts[i];
    const std::string le = i < h.bounds().size() ? format_value(h.bounds()[i]) : "+Inf";
    out += name + "_bucket{le=\"" + le + "\"} " + std::to_string(cumulative) + "\n";
  }
  // _count is the +Inf bucket, so a scrape never sees the two disagree.
  out += name + "_sum " + format_value(h.sum()) + "\n";
  out += name + "_count " + std::to_string(cumulative) + "\n";
}

}  // namespace

std::string Metrics::render() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string out;
  for (const Entry& e : entries_) {
    out += "# HELP " + e.name + " " + escape_help(e.help) + "\n";
    out += "# TYPE " + e.name + " " + kTypeNames[int(e.kind)] + "\n";
    switch (e.kind) {
      case Kind::Counter:
        out += e.name + " " + std::to_string(e.counter->value()) + "\n";
        break;
      case Kind::Labelled:
        for (const auto& [value, n] : e.labelled->values())
          out += e.name + "{" + e.label + "=\"" + escape_label_value(value) + "\"} " +
                 std::to_string(n) + "\n";
        break;
      case Kind::Histogram:
        histogram_lines(out, e.name, *e.histogram);
        break;
      case Kind::Gauge:
        out += e.name + " " + format_value(e.read()) + "\n";
        break;
    }
  }
  return out;
}

namespace {

// Backslash and newline escaped, and the double quote when `quote`.
std::string escaped(std::string_view s, bool quote) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == '\n' || (quote && c == '"')) out += '\\';
    out += c == '\n' ? 'n' : c;
  }
  return out;
}

}  // namespace

std::string escape_help(std::string_view s) {
  return escaped(s, false);
}

std::string escape_label_value(std::string_view s) {
  return escaped(s, true);
}

std::string format_value(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(int64_t(v));
  char buf[32];
  // Fixed notation where it is short (bucket bounds read 0.0005, not 5e-04).
  const bool fixed = std::fabs(v) >= 1e-6 && std::fabs(v) < 1e15;
  const auto r = std::to_chars(buf, buf + sizeof buf, v,
                               fixed ? std::chars_format::fixed : std::chars_format::general);
  return std::string(buf, r.ptr);
}

uint64_t resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  const int n = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  if (n != 2) return 0;
  return uint64_t(resident) * uint64_t(sysconf(_SC_PAGESIZE));
}

}  // namespace toguz::net
