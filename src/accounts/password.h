// Passwords: stored only as Argon2id hashes in libsodium's self-describing string form
// ("$argon2id$v=19$m=...,t=...,p=1$salt$hash"), so the cost can rise later without losing old
// accounts (docs/accounts.md). Nothing here logs or keeps a password.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace toguz::accounts {

// A new password: at least kPasswordMinChars characters (UTF-8 code points), at most
// kPasswordMax bytes.
inline constexpr std::size_t kPasswordMinChars = 10, kPasswordMax = 256;

// The cost of one hash. The site's default is libsodium's "interactive" level: 2 passes over
// 64 MiB, about 80 ms of one core (toguz_bench BM_PasswordVerify). A 2-core server then checks
// about two dozen logins a second with 128 MiB at most in use, leaves the games their time, and
// an attacker holding the database pays as much for every guess. ("moderate", 3 passes over
// 256 MiB, takes over a second a login here: too slow for a small server.)
struct PasswordCost {
  unsigned long long ops = 2;
  std::size_t mem_bytes = std::size_t{64} << 20;
};

enum class PasswordError { too_short, too_long, blank, common };
// "password_too_short", "password_too_long", "password_blank", "password_common"
std::string_view code(PasswordError e);

// None when `password` may be chosen as a new password (sign-up, a change): its length within
// the limits above, not only white space, and not one of the most common passwords shipped in
// common_passwords.inc (compared in lower case with white space removed, so "Password 123"
// is "password123"). Any other bytes are allowed. Logging in checks none of this: a password
// chosen under older rules still opens its account.
std::optional<PasswordError> check_password(std::string_view password);
// Whether `password` is on the shipped list of common passwords (compared as above).
bool common_password(std::string_view password);

// The Argon2id hash string of `password` with a fresh random salt. Throws std::invalid_argument
// for an empty password or one over kPasswordMax bytes (not for a weak one: a login rehashes
// whatever password the account has), std::runtime_error when out of memory.
std::string hash_password(std::string_view password, const PasswordCost& cost = {});

// Whether `password` matches `hash` (a string from hash_password); false for a malformed hash.
// Constant time in the password, as libsodium's verification is.
bool verify_password(std::string_view password, const std::string& hash);

// Whether `hash` was made with another cost than `cost` (or is not a valid hash): the caller then
// stores a new hash of the password just verified.
bool needs_rehash(const std::string& hash, const PasswordCost& cost = {});

}  // namespace toguz::accounts
