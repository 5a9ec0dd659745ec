#include "accounts/session.h"

#include <sodium.h>

#include <algorithm>
#include <cctype>

#include "accounts/sodium_init.h"

namespace toguz::accounts {
namespace {

constexpr std::size_t kTokenBytes = 32;
constexpr int kVariant = sodium_base64_VARIANT_URLSAFE_NO_PADDING;

std::string hex(const unsigned char* data, std::size_t n) {
  std::string out(n * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), data, n);
  out.pop_back();
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

NewSession new_session(int64_t now_ms, int64_t lifetime_ms) {
  ensure_sodium();
  unsigned char bytes[kTokenBytes];
  randombytes_buf(bytes, sizeof bytes);
  std::string token(sodium_base64_ENCODED_LEN(kTokenBytes, kVariant), '\0');
  sodium_bin2base64(token.data(), token.size(), bytes, sizeof bytes, kVariant);
  token.pop_back();  // the terminating NUL
  sodium_memzero(bytes, sizeof bytes);
  return {token, *token_hash(token), now_ms + lifetime_ms};
}

std::optional<TokenHash> token_hash(std::string_view token) {
  ensure_sodium();
  unsigned char bytes[kTokenBytes];
  std::size_t len = 0;
  if (token.size() != sodium_base64_ENCODED_LEN(kTokenBytes, kVariant) - 1 ||
      sodium_base642bin(bytes, sizeof bytes, token.data(), token.size(), nullptr, &len, nullptr,
                        kVariant) != 0 ||
      len != kTokenBytes)
    return std::nullopt;
  unsigned char digest[crypto_generichash_BYTES];
  crypto_generichash(digest, sizeof digest, bytes, sizeof bytes, nullptr, 0);
  sodium_memzero(bytes, sizeof bytes);
  return hex(digest, sizeof digest);
}

bool session_matches(std::string_view token, const TokenHash& stored, int64_t expires_ms,
                     int64_t now_ms) {
  const auto h = token_hash(token);
  if (!h || h->size() != stored.size()) return false;
  const bool same = sodium_memcmp(h->data(), stored.data(), h->size()) == 0;
  return same && now_ms < expires_ms;
}

std::string session_cookie(std::string_view token, int64_t expires_ms, int64_t now_ms,
                           bool secure) {
  const int64_t max_age = std::max<int64_t>(0, (expires_ms - now_ms) / 1000);
  return std::string(kSessionCookie) + "=" + std::string(token) +
         "; Path=/; Max-Age=" + std::to_string(max_age) + "; HttpOnly; SameSite=Lax" +
         (secure ? "; Secure" : "");
}

std::string clear_session_cookie(bool secure) {
  return std::string(kSessionCookie) + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax" +
         (secure ? "; Secure" : "");
}

std::optional<std::string_view> find_cookie(std::string_view header, std::string_view name) {
  while (!header.empty()) {
    const std::size_t semi = header.find(';');
    const std::string_view part = header.substr(0, semi);
    header = semi == std::string_view::npos ? std::string_view{} : header.substr(semi + 1);
    const std::size_t eq = part.find('=');
    if (eq == std::string_view::npos) continue;
    if (trim(part.substr(0, eq)) == name) return trim(part.substr(eq + 1));
  }
  return std::nullopt;
}

bool same_origin(std::string_view origin, std::string_view host, bool secure) {
  const std::string o(trim(origin));
  if (o.empty()) return true;
  std::string h(trim(host));
  if (h.empty()) return false;
  const std::string scheme = secure ? "https://" : "http://";
  // Browsers leave the scheme's default port out of Origin; some clients put it in Host.
  const std::string default_port = secure ? ":443" : ":80";
  if (h.size() > default_port.size() && h.ends_with(default_port))
    h.resize(h.size() - default_port.size());
  auto lower = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
  };
  return lower(o) == lower(scheme + h);
}

}  // namespace toguz::accounts
