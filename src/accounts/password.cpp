#include "accounts/password.h"

#include <sodium.h>

#include <stdexcept>

#include "accounts/sodium_init.h"

namespace toguz::accounts {

std::string_view code(PasswordError e) {
  return e == PasswordError::too_short ? "password_too_short" : "password_too_long";
}

std::optional<PasswordError> check_password(std::string_view password) {
  if (password.size() < kPasswordMin) return PasswordError::too_short;
  if (password.size() > kPasswordMax) return PasswordError::too_long;
  return std::nullopt;
}

std::string hash_password(std::string_view password, const PasswordCost& cost) {
  if (auto e = check_password(password)) throw std::invalid_argument(std::string(code(*e)));
  ensure_sodium();
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), cost.ops, cost.mem_bytes,
                            crypto_pwhash_ALG_ARGON2ID13) != 0)
    throw std::runtime_error("password hashing ran out of memory");
  return out;
}

bool verify_password(std::string_view password, const std::string& hash) {
  // Longer than any accepted password: refused without the cost of a hash.
  if (password.size() > kPasswordMax || hash.size() >= crypto_pwhash_STRBYTES) return false;
  ensure_sodium();
  return crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size()) == 0;
}

bool needs_rehash(const std::string& hash, const PasswordCost& cost) {
  ensure_sodium();
  if (hash.size() >= crypto_pwhash_STRBYTES) return true;
  return crypto_pwhash_argon2id_str_needs_rehash(hash.c_str(), cost.ops, cost.mem_bytes) != 0;
}

}  // namespace toguz::accounts
