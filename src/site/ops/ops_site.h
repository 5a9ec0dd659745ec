// The operator's side of the site (docs/operations.md): the site's metrics (`SiteMetrics`, fed
// by the features through the hooks the server wires), `GET /metrics` in the Prometheus text
// format (on the public port behind a bearer token, --metrics-token, or on a listener of its own,
// --metrics-listen; off when neither is set), the readiness `GET /api/ready` (apart from the
// liveness `GET /api/health`), the operator's drain request (`POST /drain` on that listener),
// and the counting of every answer's refusal by its code and of
// the logins by outcome. IO thread only, except the counters, which are atomic.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "net/http_listener.h"
#include "net/metrics.h"
#include "net/router.h"
#include "site/config.h"

namespace toguz::site {

// The counters and histograms of the site's own events, registered in `registry`.
struct SiteMetrics {
  explicit SiteMetrics(net::Metrics& registry);
  net::Counter& moves;             // moves made and stored
  net::Histogram& move_state;      // a move played to its state sent, seconds
  net::Histogram& engine_wait;     // an engine task's wait in the queue, seconds
  net::Histogram& store_commit;    // one group commit of the store's writer, seconds
  net::Counter& store_failures;    // writes that failed
  net::LabelledCounter& logins;    // by result: ok, refused
  net::LabelledCounter& refusals;  // by code (src/site/texts.json)
};

struct OpsServices {
  const Config& config;
  net::Metrics& metrics;
  SiteMetrics& site_metrics;
  // Why this instance should get no traffic now ("": ready).
  std::function<std::string()> not_ready;
  // The operator asked the server to drain (POST /drain on the listener).
  std::function<void()> drain;
};

class OpsSite {
 public:
  explicit OpsSite(OpsServices services);
  ~OpsSite();

  void add_routes(net::Router& router);  // GET /api/ready
  // Whether GET /metrics is answered on the public port (a token is set).
  bool public_metrics() const { return !s_.config.metrics_token.empty(); }
  // GET /metrics: the text format, or 401 without the token when one is set.
  void metrics(const net::Request& req, const net::Respond& respond) const;
  // POST /drain on the listener: 202, then the drain hook (405 for another method, 401
  // without the token when one is set).
  void drain(const net::Request& req, const net::Respond& respond) const;
  // Counts the answer `res` to a request for `path`: its refusal's code, a login's outcome.
  void count(const std::string& path, const net::Response& res);
  // The site of the --metrics-listen listener (the operator's): GET /metrics, and POST /drain
  // (202; the server drains and stops: docs/operations.md "Draining"), both with the metrics
  // token when one is set; every other request 404.
  net::HttpSite& listener_site();

 private:
  class Listener;
  OpsServices s_;
  std::unique_ptr<Listener> listener_;
};

// --metrics-listen's "ADDR:PORT" ("[ADDR]:PORT" for IPv6) as {address, port}; throws
// std::invalid_argument naming what is wrong.
std::pair<std::string, uint16_t> parse_listen_address(const std::string& text);

}  // namespace toguz::site
