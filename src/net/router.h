// The route table of an HTTP API, in the manner of a routes file: each module adds its routes
// (a method and a path pattern to a handler) and the table is readable as one list. What no
// route takes is answered here, once for every route: 404 when no pattern matches the path,
// 405 with an Allow header when patterns match but none with the request's method, and an
// exception a handler throws becomes the answer of the `on_exception` function.
#pragma once

#include <boost/beast/http.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace toguz::net {

namespace http = boost::beast::http;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;
using Respond = std::function<void(Response)>;

// The methods of a route. Get also takes HEAD (the answer is sent without its body).
enum class Method : uint8_t { Get, Post, Put };

// One request as a handler sees it: the request, its path and query string (after '?', not
// decoded), the values of the pattern's parameters in their order (decoded from %XX), the
// client's address, and `respond`, to be called once, now or later.
struct Call {
  const Request& req;
  std::string path, query;
  std::vector<std::string> params;
  std::string peer;
  Respond respond;

  const std::string& param(size_t i) const { return params.at(i); }
  bool post() const { return req.method() == http::verb::post; }
};

class Router {
 public:
  using Handler = std::function<void(const Call&)>;
  // A refusal's answer: 404 (no route has the path) or 405 (routes of other methods have it,
  // listed in `allow` for the Allow header; empty with 404), for `request` ("GET /api/x").
  using Refuse =
      std::function<Response(http::status status, const std::string& request, std::string allow)>;
  using OnException = std::function<Response(const Call& call, const std::exception& e)>;

  Router(Refuse refuse, OnException on_exception);

  // `pattern` is a path whose segments are literal words, `:name` (one non-empty segment, a
  // parameter) or, last, `*name` (the rest of the path, at least one segment, a parameter). A
  // path is taken by the first route, in the order added, whose pattern and method match.
  void add(Method method, std::string_view pattern, Handler handler);

  // Whether some route's pattern matches `path` (whatever its method).
  bool knows(std::string_view path) const;
  // Answers `call` (see above). Call::params is filled here.
  void dispatch(Call call) const;
  // Every route as "GET /api/games/:id", in the order added.
  std::vector<std::string> list() const;

 private:
  struct Route {
    Method method;
    std::string pattern;
    std::vector<std::string> segments;
    Handler handler;
  };
  // The parameters when `r` matches `path`'s segments; false when it does not.
  static bool match(const Route& r, const std::vector<std::string_view>& path,
                    std::vector<std::string>* params);

  std::vector<Route> routes_;
  Refuse refuse_;
  OnException on_exception_;
};

}  // namespace toguz::net
