// An account's page settings (docs/accounts.md "Settings"): the catalogue of keys the page
// keeps (web/src/shell/prefs_state.ts has the same), each with the values it may take, and
// the checks of GET and PUT /api/me/settings. Pure: the routes are accounts_site.cpp's.
#pragma once

#include <boost/json.hpp>
#include <cstddef>
#include <string>
#include <string_view>

namespace toguz::site {

// The longest body PUT /api/me/settings accepts, in bytes.
inline constexpr size_t kSettingsMaxBytes = 1024;

// The settings of a PUT body (its text `body`): a JSON object whose every key is a known
// setting with a value it may take, written back in the catalogue's order. Throws a Refusal:
// settings_too_large, bad_message (not a JSON object), settings_key, settings_value.
boost::json::object checked_settings(std::string_view body);

// The stored settings' text ("" none) as an object, keeping only the known keys with values
// they may take now: a setting dropped or narrowed since it was stored is no error.
boost::json::object stored_settings(const std::string& text);

}  // namespace toguz::site
