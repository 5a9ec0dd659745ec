// The site's WebSockets (a game's and the lobby's) as the limits see them: how many each client
// address holds (Config::max_connections_per_address), the bytes their send queues hold per
// address (Config::max_queued_bytes_per_address: past it the address's socket with the most
// queued closes) and the sockets opened with a login session, which close when that session
// ends (docs/accounts.md "Sessions"). IO thread only.
#pragma once

#include <boost/beast/http.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "site/addresses.h"
#include "site/config.h"
#include "site/session_sockets.h"
#include "site/viewer.h"
#include "store/store.h"

namespace toguz::site {

class SiteSockets {
 public:
  SiteSockets(const Config& config, Addresses& addresses, store::Store& store)
      : config_(config), addresses_(addresses), store_(store) {}

  // The refusal of another socket from `peer` when it holds as many as it may (a 503).
  std::optional<boost::beast::http::response<boost::beast::http::string_body>> refusal(
      const std::string& peer);
  // Socket `s` of `viewer` opened from `peer`: counted, its queue in the address's budget, and
  // with a login session remembered so that the session's end closes it with `close`. Answers
  // the number closed() takes.
  uint64_t opened(const std::string& peer, QueuedSocket& s, const Viewer& viewer,
                  std::function<void()> close);
  // The socket went (`id` from opened()).
  void closed(const std::string& peer, QueuedSocket& s, uint64_t id);
  // A socket's queue of `peer` grew (after which, while the address is over its budget, its
  // socket with the most queued is closed) or shrank by `bytes`.
  void queue_grew(const std::string& peer, size_t bytes);
  void queue_shrank(const std::string& peer, size_t bytes);
  // Over every address (GET /api/health).
  size_t queued_total() const { return queued_total_; }
  size_t queued_peak() const { return queued_peak_; }

  // Closes this instance's sockets of `user_id` whose session the store no longer has (or has
  // expired); answers how many.
  size_t close_ended_sessions(int64_t user_id);

 private:
  const Config& config_;
  Addresses& addresses_;
  store::Store& store_;
  SessionSockets sessions_;
  size_t queued_total_ = 0, queued_peak_ = 0;
};

}  // namespace toguz::site
