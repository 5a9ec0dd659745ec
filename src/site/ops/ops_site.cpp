#include "site/ops/ops_site.h"

#include <boost/json.hpp>
#include <stdexcept>

#include "site/json_out.h"
#include "site/refusal.h"

namespace toguz::site {

namespace http = boost::beast::http;

SiteMetrics::SiteMetrics(net::Metrics& r)
    : moves(r.counter("toguz_moves_total", "Moves made and stored, in every game")),
      move_state(r.histogram("toguz_move_state_seconds",
                             "From a move played to its state sent, its store commit included",
                             net::latency_buckets())),
      engine_wait(r.histogram("toguz_engine_wait_seconds",
                              "Time an engine task (move, hint, analysis, review) waited in "
                              "the queue for a worker",
                              net::latency_buckets())),
      store_commit(r.histogram("toguz_store_commit_seconds",
                               "One group commit of the store's writer (many writes at once)",
                               net::latency_buckets())),
      store_failures(
          r.counter("toguz_store_write_failures_total", "Store writes that failed (refused)")),
      logins(
          r.labelled_counter("toguz_logins_total", "POST /api/login answers by result", "result")),
      refusals(r.labelled_counter(
          "toguz_refusals_total",
          "Requests refused (HTTP answers and WebSocket upgrades) by refusal code", "code")) {}

namespace {

// Compares in time that does not depend on where the two differ.
bool same_secret(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < a.size(); ++i) diff |= uint8_t(a[i]) ^ uint8_t(i < b.size() ? b[i] : 0);
  return diff == 0;
}

bool token_given(const net::Request& req, const std::string& token) {
  if (token.empty()) return true;
  const std::string_view auth = req[http::field::authorization];
  constexpr std::string_view kBearer = "Bearer ";
  return auth.substr(0, kBearer.size()) == kBearer &&
         same_secret(auth.substr(kBearer.size()), token);
}

}  // namespace

// The --metrics-listen listener's site: /metrics only, no WebSocket, the peer as the client.
class OpsSite::Listener final : public net::HttpSite {
 public:
  explicit Listener(OpsSite& ops) : ops_(ops) {}
  std::string client_of(const boost::asio::ip::address& peer, const net::Request&) const override {
    return peer.to_string();
  }
  void handle_http(const net::Request& req, const std::string&, net::Respond respond) override {
    const std::string_view target = req.target();
    const std::string_view path = target.substr(0, target.find('?'));
    if (path == "/drain") return ops_.drain(req, respond);
    if (path != "/metrics")
      return respond(Refusal("no_endpoint", {{"request", std::string(path)}}).response());
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
      auto res = Refusal("method_not_allowed", {{"request", "/metrics"}, {"allow", "GET, HEAD"}})
                     .response();
      res.set(http::field::allow, "GET, HEAD");
      return respond(std::move(res));
    }
    ops_.metrics(req, respond);
  }
  std::optional<net::Response> upgrade(net::Request req, const std::string&,
                                       boost::beast::tcp_stream&) override {
    return Refusal("no_endpoint", {{"request", std::string(req.target())}}).response();
  }
  net::Response refusal(Refused why, const std::string& detail) const override {
    if (why == Refused::BodyTooLarge) return Refusal("too_long", {}, "body").response();
    if (why == Refused::HeadersTooLarge) return Refusal("headers_too_large").response();
    return Refusal("bad_http", {{"detail", detail}}).response();
  }

 private:
  OpsSite& ops_;
};

OpsSite::OpsSite(OpsServices services)
    : s_(std::move(services)), listener_(std::make_unique<Listener>(*this)) {}

OpsSite::~OpsSite() = default;

net::HttpSite& OpsSite::listener_site() {
  return *listener_;
}

void OpsSite::add_routes(net::Router& router) {
  router.add(net::Method::Get, "/api/ready", [this](const net::Call& c) {
    const std::string why = s_.not_ready();
    if (!why.empty()) return c.respond(Refusal("not_ready", {{"detail", why}}).response());
    c.respond(json_response(http::status::ok, boost::json::object{{"ready", true}}));
  });
}

void OpsSite::metrics(const net::Request& req, const net::Respond& respond) const {
  if (!token_given(req, s_.config.metrics_token)) {
    auto res = Refusal("metrics_token").response();
    res.set(http::field::www_authenticate, "Bearer");
    return respond(std::move(res));
  }
  net::Response res{http::status::ok, req.version()};
  res.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
  res.set(http::field::cache_control, "no-store");
  res.body() = s_.metrics.render();
  res.prepare_payload();
  respond(std::move(res));
}

void OpsSite::drain(const net::Request& req, const net::Respond& respond) const {
  if (req.method() != http::verb::post) {
    auto res = Refusal("method_not_allowed", {{"request", "/drain"}, {"allow", "POST"}}).response();
    res.set(http::field::allow, "POST");
    return respond(std::move(res));
  }
  if (!token_given(req, s_.config.metrics_token)) {
    auto res = Refusal("metrics_token").response();
    res.set(http::field::www_authenticate, "Bearer");
    return respond(std::move(res));
  }
  respond(json_response(http::status::accepted, boost::json::object{{"draining", true}}));
  if (s_.drain) s_.drain();
}

void OpsSite::count(const std::string& path, const net::Response& res) {
  const bool refused = res.result_int() >= 400;
  if (path == "/api/login") s_.site_metrics.logins.inc(refused ? "refused" : "ok");
  if (!refused) return;
  boost::json::error_code ec;
  const boost::json::value v = boost::json::parse(res.body(), ec);
  const boost::json::object* o = ec ? nullptr : v.if_object();
  const boost::json::value* code = o ? o->if_contains("code") : nullptr;
  s_.site_metrics.refusals.inc(code && code->is_string() ? std::string(code->as_string())
                                                         : std::to_string(res.result_int()));
}

std::pair<std::string, uint16_t> parse_listen_address(const std::string& text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
    throw std::invalid_argument("'" + text + "': expected ADDR:PORT");
  std::string host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  const std::string port = text.substr(colon + 1);
  if (port.find_first_not_of("0123456789") != std::string::npos || port.size() > 5 ||
      std::stoi(port) > 65535)
    throw std::invalid_argument("'" + text + "': the port must be 0..65535");
  return {host, uint16_t(std::stoi(port))};
}

}  // namespace toguz::site
