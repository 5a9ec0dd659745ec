#include "net/router.h"

#include <stdexcept>

#include "net/url.h"

namespace toguz::net {

namespace {

// The non-empty segments of a path ("/api//games/" has two).
std::vector<std::string_view> segments_of(std::string_view path) {
  std::vector<std::string_view> out;
  while (!path.empty()) {
    const size_t slash = path.find('/');
    if (slash != 0) out.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return out;
}

const char* method_name(Method m) {
  return m == Method::Get ? "GET" : m == Method::Post ? "POST" : "PUT";
}

// Whether a request of `verb` is one a route of `m` answers (Get also takes HEAD).
bool answers(Method m, http::verb verb) {
  switch (m) {
    case Method::Get:
      return verb == http::verb::get || verb == http::verb::head;
    case Method::Post:
      return verb == http::verb::post;
    case Method::Put:
      return verb == http::verb::put;
  }
  return false;
}

}  // namespace

Router::Router(Refuse refuse, OnException on_exception)
    : refuse_(std::move(refuse)), on_exception_(std::move(on_exception)) {}

void Router::add(Method method, std::string_view pattern, Handler handler) {
  Route r{method, std::string(pattern), {}, std::move(handler)};
  for (std::string_view s : segments_of(pattern)) r.segments.emplace_back(s);
  for (size_t i = 0; i + 1 < r.segments.size(); ++i)
    if (r.segments[i][0] == '*') throw std::logic_error("route " + r.pattern + ": '*' not last");
  routes_.push_back(std::move(r));
}

bool Router::match(const Route& r, const std::vector<std::string_view>& path,
                   std::vector<std::string>* params) {
  params->clear();
  const size_t n = r.segments.size();
  const bool rest = n > 0 && r.segments.back()[0] == '*';
  if (rest ? path.size() < n : path.size() != n) return false;
  for (size_t i = 0; i < n; ++i) {
    const std::string& s = r.segments[i];
    if (s[0] == '*') {
      std::string tail;
      for (size_t j = i; j < path.size(); ++j) {
        if (j > i) tail += '/';
        tail += path[j];
      }
      params->push_back(url_decode(tail));
    } else if (s[0] == ':') {
      params->push_back(url_decode(path[i]));
    } else if (s != path[i]) {
      return false;
    }
  }
  return true;
}

bool Router::knows(std::string_view path) const {
  const auto segs = segments_of(path);
  std::vector<std::string> params;
  for (const Route& r : routes_)
    if (match(r, segs, &params)) return true;
  return false;
}

void Router::dispatch(Call call) const {
  const auto segs = segments_of(call.path);
  std::string allow;
  std::vector<std::string> params;
  for (const Route& r : routes_) {
    if (!match(r, segs, &params)) continue;
    if (answers(r.method, call.req.method())) {
      call.params = std::move(params);
      try {
        r.handler(call);
      } catch (const std::exception& e) {
        call.respond(on_exception_(call, e));
      }
      return;
    }
    const std::string m = r.method == Method::Get ? "GET, HEAD" : method_name(r.method);
    if (allow.find(m) == std::string::npos) allow += (allow.empty() ? "" : ", ") + m;
  }
  const std::string request = std::string(call.req.method_string()) + " " + call.path;
  if (allow.empty())
    call.respond(refuse_(http::status::not_found, request, ""));
  else
    call.respond(refuse_(http::status::method_not_allowed, request, allow));
}

std::vector<std::string> Router::list() const {
  std::vector<std::string> out;
  for (const Route& r : routes_)
    out.push_back(std::string(method_name(r.method)) + " " + r.pattern);
  return out;
}

}  // namespace toguz::net
