// Who a request or a connection comes from: a signed-in account (from the session cookie,
// docs/accounts.md) or anonymous. A wrong, malformed or expired session is simply anonymous.
// Every part of the server that acts for a player (rooms, the lobby, tournaments) takes a
// Viewer, never a name the client sent.
#pragma once

#include <cstdint>
#include <string>

namespace toguz::site {

struct Viewer {
  int64_t user_id = 0;   // 0: anonymous
  std::string username;  // as the account spells it; "" when anonymous
  bool bot = false;      // a bot account (toguz bot)
  // The hash of the session it came with (accounts/session.h), "" when anonymous: a socket
  // keeps it, and closes when that session ends (logout, a password change).
  std::string session;
  bool signed_in() const { return user_id > 0; }
};

}  // namespace toguz::site
