// The metrics registry (net/metrics.h) and its Prometheus text format: HELP and TYPE lines,
// escaping of help texts and label values, histogram buckets cumulative with +Inf, _sum and
// _count, labelled counters, gauges read at render time; and the log's JSON lines (net/log.h).
#include "net/metrics.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <stdexcept>
#include <thread>

#include "net/log.h"

// A namespace of its own: the unit tests are compiled as unity files.
namespace toguz::test::metrics {
namespace {

using toguz::net::Metrics;

TEST(Metrics, CounterHasHelpTypeAndValue) {
  Metrics m;
  auto& c = m.counter("toguz_moves_total", "Moves made");
  c.inc();
  c.inc(2);
  EXPECT_EQ(m.render(),
            "# HELP toguz_moves_total Moves made\n"
            "# TYPE toguz_moves_total counter\n"
            "toguz_moves_total 3\n");
}

TEST(Metrics, HelpAndLabelValuesAreEscaped) {
  Metrics m;
  auto& r = m.labelled_counter("t_total", "a \\ back\nslash", "code");
  r.inc("say \"hi\"\\\n");
  r.inc("ok");
  r.inc("ok");
  EXPECT_EQ(r.value("ok"), 2u);
  EXPECT_EQ(m.render(),
            "# HELP t_total a \\\\ back\\nslash\n"
            "# TYPE t_total counter\n"
            "t_total{code=\"ok\"} 2\n"
            "t_total{code=\"say \\\"hi\\\"\\\\\\n\"} 1\n");
  EXPECT_EQ(toguz::net::escape_label_value("a\"b"), "a\\\"b");
  EXPECT_EQ(toguz::net::escape_help("a\"b"), "a\"b");  // quotes stay in HELP
}

TEST(Metrics, HistogramBucketsAreCumulativeWithSumAndCount) {
  Metrics m;
  auto& h = m.histogram("lat_seconds", "Latency", {0.1, 0.5, 1});
  for (double v : {0.05, 0.1, 0.3, 0.7, 3.0}) h.observe(v);
  EXPECT_EQ(m.render(),
            "# HELP lat_seconds Latency\n"
            "# TYPE lat_seconds histogram\n"
            "lat_seconds_bucket{le=\"0.1\"} 2\n"  // le is inclusive: 0.1 counts here
            "lat_seconds_bucket{le=\"0.5\"} 3\n"
            "lat_seconds_bucket{le=\"1\"} 4\n"
            "lat_seconds_bucket{le=\"+Inf\"} 5\n"
            "lat_seconds_sum 4.15\n"
            "lat_seconds_count 5\n");
  EXPECT_THROW(toguz::net::Histogram({1, 0.5}), std::logic_error);
}

TEST(Metrics, EmptyHistogramHasEveryBucket) {
  Metrics m;
  m.histogram("h", "x", toguz::net::latency_buckets());
  const std::string text = m.render();
  EXPECT_NE(text.find("h_bucket{le=\"0.0005\"} 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("h_bucket{le=\"+Inf\"} 0\nh_sum 0\nh_count 0\n"), std::string::npos) << text;
}

TEST(Metrics, GaugesAreReadWhenRendered) {
  Metrics m;
  double v = 1;
  m.gauge("g", "a gauge", [&v] { return v; });
  v = 2.5;
  EXPECT_EQ(m.render(), "# HELP g a gauge\n# TYPE g gauge\ng 2.5\n");
  EXPECT_THROW(m.gauge("g", "again", [] { return 0.0; }), std::logic_error);
}

TEST(Metrics, ValuesInTheTextFormat) {
  EXPECT_EQ(toguz::net::format_value(3), "3");
  EXPECT_EQ(toguz::net::format_value(-2), "-2");
  EXPECT_EQ(toguz::net::format_value(0.25), "0.25");
  EXPECT_EQ(toguz::net::format_value(0.0005), "0.0005");
  EXPECT_EQ(toguz::net::format_value(1e-9), "1e-09");
  EXPECT_EQ(toguz::net::format_value(1.0 / 0.0), "+Inf");
  EXPECT_EQ(toguz::net::format_value(-1.0 / 0.0), "-Inf");
  EXPECT_EQ(toguz::net::format_value(0.0 / 0.0), "NaN");
}

TEST(Metrics, CountsFromManyThreads) {
  Metrics m;
  auto& c = m.counter("c_total", "x");
  auto& h = m.histogram("h", "x", {1});
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) {
        c.inc();
        h.observe(0.5);
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(c.value(), 40000u);
  EXPECT_EQ(h.count(), 40000u);
  EXPECT_DOUBLE_EQ(h.sum(), 20000);
}

TEST(Metrics, ResidentMemoryIsRead) {
  EXPECT_GT(toguz::net::resident_bytes(), 1u << 20);
}

TEST(Log, JsonLinesAreOneObjectEach) {
  const std::string line =
      toguz::net::log_line(toguz::net::LogFormat::Json, 1764892800123, toguz::net::LogLevel::Warn,
                           "k3x9", "said \"no\"\n\tthen \x01");
  const boost::json::value v = boost::json::parse(line);
  EXPECT_EQ(v.at("time").as_string(), "2025-12-05T00:00:00.123Z");
  EXPECT_EQ(v.at("level").as_string(), "warn");
  EXPECT_EQ(v.at("game").as_string(), "k3x9");
  EXPECT_EQ(v.at("message").as_string(), "said \"no\"\n\tthen \x01");
  EXPECT_EQ(line.find('\n'), std::string::npos);
  const boost::json::value none = boost::json::parse(
      toguz::net::log_line(toguz::net::LogFormat::Json, 0, toguz::net::LogLevel::Info, "", "x"));
  EXPECT_FALSE(none.as_object().contains("game"));
  EXPECT_EQ(
      toguz::net::log_line(toguz::net::LogFormat::Text, 0, toguz::net::LogLevel::Info, "g", "m"),
      "1970-01-01T00:00:00.000Z info [game g] m");
  EXPECT_EQ(toguz::net::parse_log_format("json"), toguz::net::LogFormat::Json);
  EXPECT_FALSE(toguz::net::parse_log_format("xml"));
}

}  // namespace
}  // namespace toguz::test::metrics
