#include "accounts/password.h"

#include <sodium.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "accounts/sodium_init.h"

namespace toguz::accounts {

namespace {

bool white_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

// The form the list is kept in: ASCII and Cyrillic letters in lower case, white space removed.
std::string list_form(std::string_view password) {
  std::string out;
  for (size_t i = 0; i < password.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(password[i]);
    const unsigned char next = i + 1 < password.size() ? password[i + 1] : 0;
    if (white_space(char(c))) continue;
    if (c >= 'A' && c <= 'Z') {
      out += char(c - 'A' + 'a');
    } else if (c == 0xd0 && next >= 0x90 && next <= 0x9f) {  // А..П -> а..п
      out += char(0xd0), out += char(next + 0x20), ++i;
    } else if (c == 0xd0 && next >= 0xa0 && next <= 0xaf) {  // Р..Я -> р..я
      out += char(0xd1), out += char(next - 0x20), ++i;
    } else if (c == 0xd0 && next == 0x81) {  // Ё -> ё
      out += char(0xd1), out += char(0x91), ++i;
    } else {
      out += char(c);
    }
  }
  return out;
}

// The shipped list, one password a line after the comment lines.
const std::unordered_set<std::string_view>& common_list() {
  static const std::string_view text =
#include "accounts/common_passwords.inc"
      ;
  static const std::unordered_set<std::string_view> list = [] {
    std::unordered_set<std::string_view> out;
    for (size_t at = 0; at < text.size();) {
      size_t end = text.find('\n', at);
      if (end == std::string_view::npos) end = text.size();
      if (end > at) out.insert(text.substr(at, end - at));
      at = end + 1;
    }
    return out;
  }();
  return list;
}

}  // namespace

std::string_view code(PasswordError e) {
  static constexpr std::string_view kCodes[] = {"password_too_short", "password_too_long",
                                                "password_blank", "password_common"};
  return kCodes[static_cast<int>(e)];
}

bool common_password(std::string_view password) {
  return common_list().count(list_form(password)) > 0;
}

std::optional<PasswordError> check_password(std::string_view password) {
  if (password.size() > kPasswordMax) return PasswordError::too_long;
  // Characters: every byte that does not continue a UTF-8 sequence starts one.
  const size_t chars = size_t(std::count_if(password.begin(), password.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  }));
  if (chars < kPasswordMinChars) return PasswordError::too_short;
  if (std::all_of(password.begin(), password.end(), white_space)) return PasswordError::blank;
  if (common_password(password)) return PasswordError::common;
  return std::nullopt;
}

std::string hash_password(std::string_view password, const PasswordCost& cost) {
  if (password.empty() || password.size() > kPasswordMax)
    throw std::invalid_argument(password.empty() ? "password_too_short" : "password_too_long");
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
