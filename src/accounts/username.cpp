#include "accounts/username.h"

#include <algorithm>
#include <string>
#include <vector>

extern const unsigned char kReservedNames[];  // generated from reserved_names.txt
extern const unsigned long kReservedNamesSize;

namespace toguz::accounts {
namespace {

// Names that would pass for the site, its staff or its programs, or that pages use as words:
// src/accounts/reserved_names.txt, one a line, compiled in (the web front end's tests read the
// same file).
bool reserved(std::string_view key) {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    std::string_view text(reinterpret_cast<const char*>(kReservedNames), kReservedNamesSize);
    while (!text.empty()) {
      const size_t end = std::min(text.find('\n'), text.size());
      if (end > 0) v.emplace_back(text.substr(0, end));
      text.remove_prefix(std::min(end + 1, text.size()));
    }
    return v;
  }();
  return std::find(names.begin(), names.end(), key) != names.end();
}

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
  if (reserved(key)) return UsernameError::reserved;
  return std::nullopt;
}

std::string username_key(std::string_view name) {
  std::string key(name);
  for (char& c : key)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return key;
}

}  // namespace toguz::accounts
