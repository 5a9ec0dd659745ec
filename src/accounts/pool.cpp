#include "accounts/pool.h"

#include <algorithm>
#include <cmath>

namespace toguz::accounts {

void PairingPool::join(const std::string& player, double rating, bool provisional, int64_t now_ms) {
  for (const Entry& e : waiting_)
    if (e.player == player) return;
  waiting_.push_back({player, rating, provisional, now_ms});
}

bool PairingPool::leave(const std::string& player) {
  const auto it = std::find_if(waiting_.begin(), waiting_.end(),
                               [&](const Entry& e) { return e.player == player; });
  if (it == waiting_.end()) return false;
  waiting_.erase(it);
  return true;
}

double PairingPool::range(int64_t since_ms, int64_t now_ms) const {
  const double waited_s = std::max<int64_t>(0, now_ms - since_ms) / 1000.0;
  return std::min(rule_.widest, rule_.base + rule_.per_second * waited_s);
}

std::vector<std::pair<std::string, std::string>> PairingPool::pair(int64_t now_ms,
                                                                   const MayMeet& may_meet) {
  std::vector<std::pair<std::string, std::string>> out;
  std::vector<bool> taken(waiting_.size(), false);
  // waiting_ is in order of joining, so index order is longest waiter first.
  for (std::size_t i = 0; i < waiting_.size(); ++i) {
    if (taken[i]) continue;
    const Entry& a = waiting_[i];
    std::size_t best = waiting_.size();
    double best_gap = 0;
    for (std::size_t j = i + 1; j < waiting_.size(); ++j) {
      if (taken[j]) continue;
      const Entry& b = waiting_[j];
      const double gap = std::abs(a.rating - b.rating);
      const bool fits = (a.provisional || b.provisional || gap <= range(a.since_ms, now_ms)) &&
                        (!may_meet || may_meet(a.player, b.player));
      if (fits && (best == waiting_.size() || gap < best_gap)) {
        best = j;
        best_gap = gap;
      }
    }
    if (best == waiting_.size()) continue;
    taken[i] = taken[best] = true;
    out.emplace_back(a.player, waiting_[best].player);
  }
  std::vector<Entry> rest;
  for (std::size_t i = 0; i < waiting_.size(); ++i)
    if (!taken[i]) rest.push_back(std::move(waiting_[i]));
  waiting_ = std::move(rest);
  return out;
}

}  // namespace toguz::accounts
