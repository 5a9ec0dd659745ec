#include "site/json_out.h"

#include <chrono>
#include <ctime>

#include "protocol/analysis_json.h"
#include "site/texts.h"

namespace toguz::site {

std::string analysis_message(const Position& pos, int ply, int depth,
                             const std::vector<search::Info>& lines, bool done) {
  json::array out;
  for (const search::Info& l : lines) out.push_back(protocol::line_json(l, pos));
  return json::serialize(json::object{{"type", "analysis"},
                                      {"ply", ply},
                                      {"depth", depth},
                                      {"lines", std::move(out)},
                                      {"done", done}});
}

std::string hint_message(const search::SearchResult& r, int ply, Side to_move) {
  json::array pv;
  for (int h : r.lines[0].pv) pv.push_back(h);
  return json::serialize(json::object{{"type", "hint"},
                                      {"hole", r.best_move},
                                      {"ply", ply},
                                      {"pv", std::move(pv)},
                                      {"score", protocol::score_json(r.lines[0].score, to_move)}});
}

// The refusal with its code and parameters for the client's own words (texts.h).
std::string error_message(const std::string& why) {
  json::object o = error_code(why);
  o["type"] = "error";
  o["message"] = why;
  return json::serialize(o);
}

std::string busy_message(const engine_work::WorkerPool& pool) {
  return "the engine is busy (" + std::to_string(pool.max_background()) +
         " analyses, hints and reviews already waiting); try again in a moment";
}

Refusal busy_refusal(const engine_work::WorkerPool& pool, const std::string& action) {
  const std::string n = std::to_string(pool.max_background());
  if (action.empty()) return Refusal("engine_busy", {{"n", n}});
  return Refusal("engine_busy", {{"action", action}, {"n", n}});
}

http::response<http::string_body> json_response(http::status status, const json::value& body,
                                                unsigned version) {
  return json_text_response(status, json::serialize(body), version);
}

http::response<http::string_body> json_text_response(http::status status, std::string body,
                                                     unsigned version) {
  http::response<http::string_body> res{status, version};
  res.set(http::field::content_type, "application/json; charset=utf-8");
  res.set(http::field::cache_control, "no-store");
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

http::response<http::string_body> error_response(http::status status, const std::string& message) {
  json::object o = error_code(message);  // the code and parameters a client translates
  o["error"] = message;
  return json_response(status, o);
}

http::response<http::string_body> coded_error(http::status status, const std::string& message,
                                              const std::string& code, json::object params) {
  return json_response(
      status, json::object{{"error", message}, {"code", code}, {"params", std::move(params)}});
}

std::string iso_time(int64_t ms) {
  std::time_t t = std::time_t(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace toguz::site
