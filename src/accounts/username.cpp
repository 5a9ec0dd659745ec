#include "accounts/username.h"

#include <algorithm>
#include <array>

namespace toguz::accounts {
namespace {

// Names that would pass for the site, its staff or its programs, or that pages use as words.
constexpr std::array<std::string_view, 24> kReserved = {
    "admin",     "administrator", "anonymous", "api",   "bot",    "engine", "guest",   "mod",
    "moderator", "null",          "official",  "root",  "server", "staff",  "support", "system",
    "toguz",     "togyz",         "undefined", "lobby", "login",  "logout", "signup",  "nobody"};

bool allowed(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

}  // namespace

std::string_view code(UsernameError e) {
  switch (e) {
    case UsernameError::too_short:
      return "username_too_short";
    case UsernameError::too_long:
      return "username_too_long";
    case UsernameError::bad_character:
      return "username_bad_character";
    case UsernameError::reserved:
      return "username_reserved";
  }
  return "username_invalid";
}

std::optional<UsernameError> check_username(std::string_view name) {
  if (!std::all_of(name.begin(), name.end(), allowed)) return UsernameError::bad_character;
  if (name.size() < kUsernameMin) return UsernameError::too_short;
  if (name.size() > kUsernameMax) return UsernameError::too_long;
  const std::string key = username_key(name);
  if (std::find(kReserved.begin(), kReserved.end(), key) != kReserved.end())
    return UsernameError::reserved;
  return std::nullopt;
}

std::string username_key(std::string_view name) {
  std::string key(name);
  for (char& c : key)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return key;
}

}  // namespace toguz::accounts
