// The limit on failed logins, per account and address together and per address, over a sliding
// window, and the limit on sign-ups per address (docs/accounts.md). The caller passes the time
// in; the limiters have no clock. Thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace toguz::accounts {

struct LoginLimits {
  // failures on one account from one address within the window: an attacker's failures lock
  // his own address out of that account, never the owner logging in from elsewhere
  int per_account = 5;
  int per_address = 20;  // failures from one address within the window (any accounts)
  int64_t window_ms = 5 * 60 * 1000;
};

struct LoginVerdict {
  bool allowed = true;
  // When refused: "login_locked_account" or "login_locked_address", and the milliseconds until
  // the oldest failure in the window leaves it.
  std::string_view code;
  int64_t retry_after_ms = 0;
};

class LoginLimiter {
 public:
  explicit LoginLimiter(LoginLimits limits = {}) : limits_(limits) {}

  // Whether a login attempt may be checked at all: asked before the password is verified, so a
  // locked account costs no hash. `account` is the username key, `address` the client's.
  LoginVerdict check(std::string_view account, std::string_view address, int64_t now_ms);
  // A wrong password (or an unknown account) for this attempt.
  void failure(std::string_view account, std::string_view address, int64_t now_ms);
  // A right password: the failures on the account from this address are forgotten (the
  // address's own count, across accounts, is not).
  void success(std::string_view account, std::string_view address);

  // Drops the keys whose failures have all left the window; returns how many keys remain.
  std::size_t sweep(int64_t now_ms);

 private:
  using Failures = std::deque<int64_t>;
  void prune(Failures& f, int64_t now_ms) const;
  LoginLimits limits_;
  std::mutex mutex_;
  std::unordered_map<std::string, Failures> accounts_, addresses_;  // accounts_: account+address
};

// Sign-ups per address: at most `per_window` within a sliding window.
struct SignupLimits {
  int per_window = 10;
  int64_t window_ms = 60 * 60 * 1000;
};

class SignupLimiter {
 public:
  explicit SignupLimiter(SignupLimits limits = {}) : limits_(limits) {}
  // Whether `address` may sign up now; when it may, the sign-up is counted. When refused, the
  // code "signup_rate" and the milliseconds until the oldest sign-up leaves the window.
  LoginVerdict admit(std::string_view address, int64_t now_ms);
  // Drops the addresses with no sign-up left in the window; returns how many remain.
  std::size_t sweep(int64_t now_ms);

 private:
  SignupLimits limits_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::deque<int64_t>> addresses_;
};

}  // namespace toguz::accounts
