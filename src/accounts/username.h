// Usernames: what a name may be, and the key that makes two names the same (docs/accounts.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace toguz::accounts {

inline constexpr std::size_t kUsernameMin = 2, kUsernameMax = 20;

enum class UsernameError { too_short, too_long, bad_character, reserved };

// The refusal as the API names it: "username_too_short", "username_too_long",
// "username_bad_character", "username_reserved".
std::string_view code(UsernameError e);

// None when `name` is acceptable: 2 to 20 characters, each an ASCII letter, digit, '_' or '-',
// and not a reserved name (admin, toguz, system, anonymous, engine, bot, ...: any case).
// Whether the name is taken is the store's question, asked with username_key.
std::optional<UsernameError> check_username(std::string_view name);

// The uniqueness key: the name in lower case ("Aigerim" and "aigerim" are one account).
std::string username_key(std::string_view name);

}  // namespace toguz::accounts
