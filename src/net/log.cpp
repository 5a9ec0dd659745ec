#include "net/log.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <string>

namespace toguz::net {

namespace {

std::atomic<LogLevel> g_level{LogLevel::Info};
std::atomic<LogFormat> g_format{LogFormat::Text};
std::mutex g_mutex;

constexpr const char* kNames[] = {"debug", "info", "warn", "error"};

std::string stamp_of(int64_t ms) {
  const std::time_t t = std::time_t(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[40];
  const size_t n = std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(stamp + n, sizeof stamp - n, ".%03dZ", int(ms % 1000));
  return stamp;
}

// A JSON string literal of `s` (UTF-8 kept; quotes, backslashes and control characters
// escaped).
std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

}  // namespace

std::optional<LogLevel> parse_log_level(std::string_view s) {
  for (int i = 0; i < 4; ++i)
    if (s == kNames[i]) return LogLevel(i);
  return std::nullopt;
}

void set_log_level(LogLevel level) {
  g_level = level;
}

std::optional<LogFormat> parse_log_format(std::string_view s) {
  if (s == "text") return LogFormat::Text;
  if (s == "json") return LogFormat::Json;
  return std::nullopt;
}

void set_log_format(LogFormat format) {
  g_format = format;
}

std::string log_line(LogFormat format, int64_t ms, LogLevel level, std::string_view game,
                     std::string_view message) {
  if (format == LogFormat::Json) {
    std::string line =
        "{\"time\":\"" + stamp_of(ms) + "\",\"level\":\"" + kNames[int(level)] + "\"";
    if (!game.empty()) line += ",\"game\":" + json_string(game);
    return line + ",\"message\":" + json_string(message) + "}";
  }
  std::string line = stamp_of(ms) + " " + kNames[int(level)];
  if (!game.empty()) line += " [game " + std::string(game) + "]";
  line += " ";
  line += message;
  return line;
}

void log(LogLevel level, std::string_view game, std::string_view message) {
  if (level < g_level.load()) return;
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  const std::string line = log_line(g_format.load(), ms, level, game, message) + "\n";
  std::lock_guard<std::mutex> lock(g_mutex);
  std::fputs(line.c_str(), stderr);
}

}  // namespace toguz::net
