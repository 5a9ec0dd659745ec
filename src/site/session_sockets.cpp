#include "site/session_sockets.h"

#include <vector>

namespace toguz::site {

uint64_t SessionSockets::add(int64_t user_id, const std::string& session,
                             std::function<void()> close) {
  const uint64_t id = next_++;
  sockets_.emplace(id, Socket{user_id, session, std::move(close)});
  by_user_.emplace(user_id, id);
  return id;
}

void SessionSockets::forget(uint64_t id) {
  auto it = sockets_.find(id);
  if (it == sockets_.end()) return;
  auto [b, e] = by_user_.equal_range(it->second.user_id);
  for (; b != e; ++b)
    if (b->second == id) {
      by_user_.erase(b);
      break;
    }
  sockets_.erase(it);
}

size_t SessionSockets::close_ended(int64_t user_id,
                                   const std::function<bool(const std::string&)>& ended) {
  std::unordered_map<std::string, bool> verdicts;
  std::vector<uint64_t> ids;
  auto [b, e] = by_user_.equal_range(user_id);
  for (; b != e; ++b) {
    const std::string& session = sockets_.at(b->second).session;
    auto v = verdicts.find(session);
    if (v == verdicts.end()) v = verdicts.emplace(session, ended(session)).first;
    if (v->second) ids.push_back(b->second);
  }
  // Forgotten first, closed after: a socket's close may forget it, which changes the maps.
  std::vector<std::function<void()>> closing;
  for (uint64_t id : ids) {
    closing.push_back(std::move(sockets_.at(id).close));
    forget(id);
  }
  for (auto& close : closing) close();
  return closing.size();
}

}  // namespace toguz::site
