#include "site/accounts/settings.h"

#include <array>
#include <optional>

#include "site/refusal.h"

namespace toguz::site {

namespace {

// One setting: its key and the texts it may take, or none for true/false.
struct SettingKind {
  std::string_view key;
  std::array<std::string_view, 3> choices;  // empty for a flag
  bool flag() const { return choices[0].empty(); }
};

constexpr std::array<SettingKind, 6> kSettings = {{
    {"theme", {"auto", "light", "dark"}},
    {"sound", {}},
    {"blind", {}},
    {"eval_view", {"chance", "margin"}},
    {"confirm_touch", {}},
    {"chat_rated", {}},
}};

const SettingKind* kind_of(std::string_view key) {
  for (const SettingKind& k : kSettings)
    if (k.key == key) return &k;
  return nullptr;
}

// The choices as the refusal names them: "auto, light, dark".
std::string choices_text(const SettingKind& k) {
  std::string out;
  for (std::string_view c : k.choices)
    if (!c.empty()) out += (out.empty() ? "" : ", ") + std::string(c);
  return out;
}

// Whether `v` is a value the setting may take.
bool value_ok(const SettingKind& k, const boost::json::value& v) {
  if (k.flag()) return v.is_bool();
  if (!v.is_string()) return false;
  for (std::string_view c : k.choices)
    if (!c.empty() && v.as_string() == c) return true;
  return false;
}

// The known settings of `in` with good values, in the catalogue's order.
boost::json::object in_order(const boost::json::object& in) {
  boost::json::object out;
  for (const SettingKind& k : kSettings) {
    const boost::json::value* v = in.if_contains(k.key);
    if (v && value_ok(k, *v)) out[k.key] = *v;
  }
  return out;
}

std::optional<boost::json::object> parse_object(std::string_view text) {
  boost::json::error_code ec;
  boost::json::value v = boost::json::parse(text, ec);
  if (ec || !v.is_object()) return std::nullopt;
  return std::move(v.as_object());
}

}  // namespace

boost::json::object checked_settings(std::string_view body) {
  if (body.size() > kSettingsMaxBytes)
    throw Refusal("settings_too_large", {{"n", std::to_string(kSettingsMaxBytes)}});
  const auto in = parse_object(body);
  if (!in) throw Refusal("bad_message", {}, "body");
  for (const auto& [key, value] : *in) {
    const SettingKind* k = kind_of(key);
    if (!k) throw Refusal("settings_key", {{"key", std::string(key)}});
    if (value_ok(*k, value)) continue;
    if (k->flag()) throw Refusal("settings_value", {{"key", std::string(key)}}, "flag");
    throw Refusal("settings_value", {{"key", std::string(key)}, {"choices", choices_text(*k)}},
                  "choice");
  }
  return in_order(*in);
}

boost::json::object stored_settings(const std::string& text) {
  if (text.empty()) return {};
  const auto in = parse_object(text);
  return in ? in_order(*in) : boost::json::object{};
}

}  // namespace toguz::site
