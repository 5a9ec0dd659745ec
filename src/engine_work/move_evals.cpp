#include "server/move_evals.h"

#include <bit>
#include <boost/json.hpp>
#include <memory>

#include "net/url.h"
#include "protocol/analysis_json.h"
#include "rules/notation.h"
#include "server/json_out.h"
#include "server/server_impl.h"
#include "server/text_input.h"

namespace toguz::server {

namespace json = boost::json;

std::string move_evals_json(const Position& pos, int depth, const search::SearchResult& r) {
  json::array moves;
  for (const search::Info& line : r.lines) {
    if (line.pv.empty() || !pos.is_legal(line.pv[0])) continue;
    json::object l = protocol::line_json(line, pos);
    Position after = pos;
    const std::string move = format_move(after.play(line.pv[0]));
    moves.push_back(json::object{{"hole", line.pv[0]},
                                 {"move", move},
                                 {"after", format_position(after)},
                                 {"score", std::move(l["score"])},
                                 {"pv_notation", std::move(l["pv_notation"])}});
  }
  return json::serialize(
      json::object{{"position", format_position(pos)}, {"depth", depth}, {"moves", moves}});
}

bool MoveEvals::evaluate(const Position& pos, std::function<void(const std::string&)> done) {
  // answers searched before the endgame tables came are searched again
  if (const search::TableProbe* t = work_.tables().get(); t != searched_with_) {
    answers_.clear();
    order_.clear();
    searched_with_ = t;
  }
  const std::string key = format_position(pos);
  if (auto it = answers_.find(key); it != answers_.end()) {
    done(it->second);
    return true;
  }
  if (auto it = waiting_.find(key); it != waiting_.end()) {
    it->second.push_back(std::move(done));
    return true;
  }
  if (pos.outcome() != Outcome::Ongoing) {
    const std::string body = move_evals_json(pos, 0, {});
    remember(key, body);
    done(body);
    return true;
  }
  EngineWork::Search s{Game(pos), {}, {}, nullptr};
  s.options.multipv = std::popcount(pos.legal_mask());
  s.limits.depth = depth_;
  auto on_done = [this, key, pos](search::SearchResult r) {
    std::string body = move_evals_json(pos, depth_, r);
    auto waiters = std::move(waiting_[key]);
    waiting_.erase(key);
    remember(key, body);
    for (auto& w : waiters) w(body);
  };
  if (!work_.search(std::move(s), Priority::Background, std::make_shared<Job>(), on_done))
    return false;
  waiting_[key].push_back(std::move(done));
  return true;
}

void MoveEvals::remember(const std::string& key, std::string body) {
  if (capacity_ == 0) return;
  if (answers_.emplace(key, std::move(body)).second) order_.push_back(key);
  while (answers_.size() > capacity_) {
    answers_.erase(order_.front());
    order_.pop_front();
  }
}

void Server::Impl::api_explorer_eval(const std::string& query, Respond respond) {
  Position pos = Position::start();
  std::string why;
  const std::string text = net::query_value(net::query_pairs(query), "position").value_or("");
  if (!explorer_position(text, learn ? learn->explorer() : nullptr, &pos, &why)) {
    respond(error_response(http::status::bad_request, "position: " + why));
    return;
  }
  auto answer = [respond](const std::string& body) {
    http::response<http::string_body> res{http::status::ok, 11};
    res.set(http::field::content_type, "application/json; charset=utf-8");
    res.set(http::field::cache_control, "no-store");
    res.body() = body;
    res.prepare_payload();
    respond(std::move(res));
  };
  if (!move_evals->evaluate(pos, answer))
    respond(error_response(http::status::service_unavailable, busy_message(*pool)));
}

}  // namespace toguz::server
