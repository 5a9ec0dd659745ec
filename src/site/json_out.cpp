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
