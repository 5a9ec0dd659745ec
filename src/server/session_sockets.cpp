#include "server/session_sockets.h"

#include <vector>

#include "net/log.h"
#include "server/server_impl.h"
#include "site/json_out.h"

namespace toguz::server {

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

// ---- the server's side ----

uint64_t Server::Impl::add_session_socket(const Viewer& v, std::function<void()> close) {
  if (!v.signed_in() || v.session.empty()) return 0;
  return session_sockets.add(v.user_id, v.session, std::move(close));
}

size_t Server::Impl::close_ended_sessions(int64_t user_id) {
  const int64_t now = now_ms();
  const size_t closed = session_sockets.close_ended(user_id, [&](const std::string& session) {
    try {
      const auto row = store->find_session(session);
      return !row || row->user_id != user_id || row->expires_ms <= now;
    } catch (const std::exception& e) {
      // Not known: the socket stays (the next end of a session asks again).
      log(net::LogLevel::Error, "", std::string("cannot read a session: ") + e.what());
      return false;
    }
  });
  if (closed > 0)
    log(net::LogLevel::Info, "",
        "account " + std::to_string(user_id) + ": " + std::to_string(closed) +
            " socket(s) closed, their session ended");
  return closed;
}

void Server::Impl::sessions_ended(int64_t user_id) {
  close_ended_sessions(user_id);
  if (cluster) cluster->publish_sessions_ended(user_id);
}

}  // namespace toguz::server
