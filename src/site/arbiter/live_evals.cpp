#include "site/arbiter/live_evals.h"

#include <memory>

#include "protocol/analysis_json.h"
#include "rules/notation.h"

namespace toguz::site {

std::optional<boost::json::object> LiveEvals::score(const Position& pos) {
  const std::string key = format_position(pos);
  if (auto it = answers_.find(key); it != answers_.end()) return it->second;
  if (!work_ || searching_.count(key)) return std::nullopt;
  engine_work::EngineWork::Search s{Game(pos), {}, {}, nullptr};
  s.limits.nodes = kNodes;
  const Side to_move = pos.side_to_move();
  auto done = [this, key, to_move](search::SearchResult r) {
    searching_.erase(key);
    if (!r.lines.empty()) remember(key, protocol::score_json(r.lines.front().score, to_move));
  };
  if (work_->search(std::move(s), engine_work::Priority::Background,
                    std::make_shared<engine_work::Job>(), done))
    searching_.insert(key);
  return std::nullopt;
}

void LiveEvals::remember(const std::string& key, boost::json::object score) {
  if (answers_.emplace(key, std::move(score)).second) order_.push_back(key);
  while (answers_.size() > kCapacity) {
    answers_.erase(order_.front());
    order_.pop_front();
  }
}

}  // namespace toguz::site
