#include "engine_work/move_evals.h"

#include <bit>
#include <boost/json.hpp>
#include <memory>

#include "protocol/analysis_json.h"
#include "rules/notation.h"

namespace toguz::engine_work {

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

}  // namespace toguz::engine_work
