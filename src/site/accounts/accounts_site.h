// Accounts on the site (docs/accounts.md, docs/web-protocol.md "Accounts, ratings and the
// lobby"): sign-up, login, logout, the password, who is asking (the session cookie), who is
// online, the player pages' data and the leaderboard, with their routes. Passwords are hashed
// and verified on the password pool (hash_pool.h), never on the IO thread; a password is never
// logged, stored or answered. Threading: the IO thread.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "accounts/glicko2.h"
#include "accounts/limiter.h"
#include "net/router.h"
#include "site/accounts/hash_pool.h"
#include "site/config.h"
#include "site/rate_bucket.h"
#include "site/viewer.h"
#include "store/store.h"

namespace toguz::site {

// What the accounts need of the rest of the site.
struct AccountsServices {
  const Config& config;
  store::Store& store;
  HashPool& hashes;
  boost::asio::io_context& ioc;  // a password's verdict comes back here
  // The sessions of an account ended (a logout, a password change): the sockets opened with
  // them close, here and on every other instance of a cluster.
  std::function<void(int64_t user_id)> sessions_ended;
  // A stored game's record as PGN with its exported tags (the games module).
  std::function<std::string(const store::GameRow&)> pgn_of;
};

// A stored rating as the rating system reads it (the store's row, without its category).
inline accounts::Rating rating_of(const store::RatingRow& r) {
  return {r.rating, r.rd, r.volatility, r.games};
}

// Whether the site is served over HTTPS for this request (the proxy in front says so with
// X-Forwarded-Proto): the session cookie is then Secure.
bool served_over_https(const net::Request& req);

class AccountsSite {
 public:
  explicit AccountsSite(AccountsServices services);

  // POST /api/signup, /api/login, /api/logout, /api/password; GET /api/me,
  // /api/users/<name>[/history|/pgn], /api/leaderboard/<category>; GET and PUT
  // /api/me/settings.
  void add_routes(net::Router& router);

  // Who sent the request: the account of its session cookie when the session exists and has
  // not expired, else anonymous (a malformed, unknown or expired cookie is no error).
  Viewer viewer_of(const net::Request& req);
  // Connections (game and lobby sockets) per account: whoever has one is online.
  void user_connected(const Viewer& v);
  void user_disconnected(const Viewer& v);
  bool online(int64_t user_id) const;
  std::vector<int64_t> online_ids() const;
  // The rating of `user_id` in `category` now (the start rating when never rated there).
  store::RatingRow rating_now(int64_t user_id, const std::string& category);
  // Forgets login failures and sign-ups that left their windows (the site's sweep).
  void sweep(int64_t now_ms);

 private:
  void signup(const boost::json::object& body, const std::string& peer, bool secure,
              net::Respond respond);
  void login(const boost::json::object& body, const std::string& peer, bool secure,
             net::Respond respond);
  net::Response logout(const net::Request& req);
  net::Response me(const Viewer& v);
  // GET (body null) or PUT /api/me/settings (settings.h): the account's settings.
  net::Response settings(const Viewer& v, const std::string* body);
  void password(const net::Request& req, const Viewer& v, const std::string& peer,
                const boost::json::object& body, net::Respond respond);
  net::Response user(const std::string& name, const std::string& part);
  net::Response leaderboard(const std::string& category, const std::string& query);

  AccountsServices s_;
  accounts::LoginLimiter login_limiter_;
  accounts::SignupLimiter signup_limiter_;
  std::unordered_map<int64_t, int> online_users_;
  std::unordered_map<int64_t, RateBucket> settings_writes_;  // by account
};

}  // namespace toguz::site
