// Login sessions: a random token that lives only in the player's cookie, and its hash that lives
// in the database, so that a copy of the database opens no session (docs/accounts.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace toguz::accounts {

inline constexpr std::string_view kSessionCookie = "toguz_session";
inline constexpr int64_t kSessionLifetimeMs = int64_t{30} * 24 * 3600 * 1000;  // 30 days

// The hash of a token, as stored: 64 lowercase hex digits (BLAKE2b-256).
using TokenHash = std::string;

struct NewSession {
  std::string token;   // the cookie's value: 32 random bytes as base64url (43 characters)
  TokenHash hash;      // what the store keeps
  int64_t expires_ms;  // now + lifetime
};

// A fresh session from libsodium's random generator. Throws std::runtime_error when libsodium
// cannot start.
NewSession new_session(int64_t now_ms, int64_t lifetime_ms = kSessionLifetimeMs);

// The hash of a token as a cookie carries it; none when it is not one (wrong length or
// characters), so a malformed cookie is simply anonymous.
std::optional<TokenHash> token_hash(std::string_view token);

// Whether a presented token opens a stored session: its hash equals `stored` (compared in
// constant time) and the session has not expired.
bool session_matches(std::string_view token, const TokenHash& stored, int64_t expires_ms,
                     int64_t now_ms);

// The Set-Cookie value that gives the session: HttpOnly, SameSite=Lax, Path=/, Max-Age from the
// expiry, and Secure when the site is served over HTTPS.
std::string session_cookie(std::string_view token, int64_t expires_ms, int64_t now_ms, bool secure);
// The Set-Cookie value that removes it (logout).
std::string clear_session_cookie(bool secure);

// The value of the cookie `name` in a Cookie request header ("a=1; toguz_session=..."); none
// when absent.
std::optional<std::string_view> find_cookie(std::string_view cookie_header,
                                            std::string_view name = kSessionCookie);

// Whether a state-changing request may come from where it says: its Origin header names the
// same host (and port) as its Host header, over "https" when `secure` (the site is served over
// HTTPS, the same flag as the cookie's Secure), "http" otherwise. An empty `origin` (no header)
// passes: browsers send Origin on every cross-site POST and WebSocket handshake, so its absence
// means a program (curl, a bot), and SameSite=Lax keeps the cookie off cross-site POSTs anyway.
// "null" (a sandboxed frame, a privacy redirect) is refused.
bool same_origin(std::string_view origin, std::string_view host, bool secure);

}  // namespace toguz::accounts
