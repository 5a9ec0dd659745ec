// Reading the fields of a request's JSON body: each getter returns the fallback for a field
// that is absent or null, and throws a Refusal naming the field for one of the wrong type or
// out of range.
#pragma once

#include <algorithm>
#include <boost/beast/http.hpp>
#include <boost/json.hpp>
#include <cstdint>
#include <functional>
#include <string>

#include "net/router.h"
#include "site/json_out.h"
#include "site/refusal.h"

namespace toguz::site {

// A route's handler whose thrown Refusal is its answer (net/router.h).
inline std::function<void(const net::Call&)> refusals_answered(
    std::function<void(const net::Call&)> handler) {
  return [h = std::move(handler)](const net::Call& c) {
    try {
      h(c);
    } catch (const Refusal& r) {
      c.respond(r.response());
    }
  };
}

// A request's body as a JSON object; a Refusal when it is not one.
inline boost::json::object json_body(
    const boost::beast::http::request<boost::beast::http::string_body>& req) {
  boost::json::error_code ec;
  boost::json::value v = boost::json::parse(req.body(), ec);
  if (ec || !v.is_object()) throw Refusal("bad_message", {}, "body");
  return std::move(v.as_object());
}

inline const boost::json::value* field(const boost::json::object& o, const char* name) {
  const boost::json::value* v = o.if_contains(name);
  return v && !v->is_null() ? v : nullptr;
}

inline std::string get_string(const boost::json::object& o, const char* name,
                              const std::string& fallback, size_t max_len) {
  const boost::json::value* v = field(o, name);
  if (!v) return fallback;
  if (!v->is_string()) throw Refusal("field_type", {{"field", name}}, "string");
  std::string s(v->as_string());
  if (s.size() > max_len)
    throw Refusal("field_long", {{"field", name}, {"n", std::to_string(max_len)}});
  return s;
}

inline int64_t get_int(const boost::json::object& o, const char* name, int64_t fallback, int64_t lo,
                       int64_t hi) {
  const boost::json::value* v = field(o, name);
  if (!v) return fallback;
  if (!v->is_int64() && !v->is_uint64()) throw Refusal("field_type", {{"field", name}}, "integer");
  const int64_t x =
      v->is_int64() ? v->as_int64() : int64_t(std::min<uint64_t>(v->as_uint64(), INT64_MAX));
  if (x < lo || x > hi)
    throw Refusal("field_range",
                  {{"field", name}, {"lo", std::to_string(lo)}, {"hi", std::to_string(hi)}});
  return x;
}

inline bool get_bool(const boost::json::object& o, const char* name, bool fallback) {
  const boost::json::value* v = field(o, name);
  if (!v) return fallback;
  if (!v->is_bool()) throw Refusal("field_type", {{"field", name}}, "bool");
  return v->as_bool();
}

}  // namespace toguz::site
