// The WebSockets (game and lobby) opened with a login session, so that the end of a session
// ends them too: after a logout or a password change the server asks which of the account's
// sockets were opened with a session the store no longer has, and closes those
// (docs/accounts.md "Sessions"). In a cluster the instance that ended sessions publishes the
// account and every instance does the same with its own sockets (the cluster). IO thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>

namespace toguz::site {

class SessionSockets {
 public:
  // Remembers a socket of account `user_id` opened with session `session` (its hash); `close`
  // ends it. Answers the number to forget it by.
  uint64_t add(int64_t user_id, const std::string& session, std::function<void()> close);
  // The socket went: nothing to close any more (an unknown number is ignored).
  void forget(uint64_t id);
  // Closes every socket of `user_id` whose session `ended` says has ended (asked once per
  // session); answers how many closed.
  size_t close_ended(int64_t user_id, const std::function<bool(const std::string&)>& ended);
  size_t size() const { return sockets_.size(); }

 private:
  struct Socket {
    int64_t user_id;
    std::string session;
    std::function<void()> close;
  };
  std::unordered_map<uint64_t, Socket> sockets_;
  std::unordered_multimap<int64_t, uint64_t> by_user_;
  uint64_t next_ = 1;
};

}  // namespace toguz::site
