#include "site/sockets.h"

#include <algorithm>

#include "net/log.h"
#include "site/json_out.h"

namespace toguz::site {

std::optional<http::response<http::string_body>> SiteSockets::refusal(const std::string& peer) {
  auto it = addresses_.find(peer);
  if (it == addresses_.end() || it->second.connections < config_.max_connections_per_address)
    return std::nullopt;
  net::log(net::LogLevel::Debug, "", "socket refused: too many connections from " + peer);
  return Refusal("too_many_connections",
                 {{"n", std::to_string(config_.max_connections_per_address)}})
      .response();
}

uint64_t SiteSockets::opened(const std::string& peer, QueuedSocket& s, const Viewer& viewer,
                             std::function<void()> close) {
  AddressState& a = addresses_[peer];
  ++a.connections;
  a.sockets.push_back(&s);
  if (!viewer.signed_in() || viewer.session.empty()) return 0;
  return sessions_.add(viewer.user_id, viewer.session, std::move(close));
}

void SiteSockets::closed(const std::string& peer, QueuedSocket& s, uint64_t id) {
  sessions_.forget(id);
  auto it = addresses_.find(peer);
  if (it == addresses_.end()) return;
  --it->second.connections;
  std::erase(it->second.sockets, &s);
  queue_shrank(peer, s.queued_bytes());
}

void SiteSockets::queue_shrank(const std::string& peer, size_t bytes) {
  auto it = addresses_.find(peer);
  if (it == addresses_.end()) return;
  AddressState& a = it->second;
  a.queued_bytes -= std::min(a.queued_bytes, bytes);
  queued_total_ -= std::min(queued_total_, bytes);
}

void SiteSockets::queue_grew(const std::string& peer, size_t bytes) {
  AddressState& a = addresses_[peer];
  a.queued_bytes += bytes;
  queued_total_ += bytes;
  queued_peak_ = std::max(queued_peak_, queued_total_);
  // Over the budget: the socket that holds the most goes first (it is the one not reading),
  // so a reading socket of the same address is not closed for another's backlog.
  while (a.queued_bytes > config_.max_queued_bytes_per_address && !a.sockets.empty()) {
    QueuedSocket* worst = *std::max_element(a.sockets.begin(), a.sockets.end(),
                                            [](const QueuedSocket* x, const QueuedSocket* y) {
                                              return x->queued_bytes() < y->queued_bytes();
                                            });
    const size_t before = a.queued_bytes;
    worst->close_over_budget(std::to_string(before) + " bytes queued for the address, over its " +
                             std::to_string(config_.max_queued_bytes_per_address) +
                             "; this socket held " + std::to_string(worst->queued_bytes()));
    if (a.queued_bytes == before) break;  // nothing released: do not spin
  }
}

size_t SiteSockets::close_ended_sessions(int64_t user_id) {
  const int64_t now = now_ms();
  const size_t closed = sessions_.close_ended(user_id, [&](const std::string& session) {
    try {
      const auto row = store_.find_session(session);
      return !row || row->user_id != user_id || row->expires_ms <= now;
    } catch (const std::exception& e) {
      // Not known: the socket stays (the next end of a session asks again).
      net::log(net::LogLevel::Error, "", std::string("cannot read a session: ") + e.what());
      return false;
    }
  });
  if (closed > 0)
    net::log(net::LogLevel::Info, "",
             "account " + std::to_string(user_id) + ": " + std::to_string(closed) +
                 " socket(s) closed, their session ended");
  return closed;
}

}  // namespace toguz::site
