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
std::mutex g_mutex;

constexpr const char* kNames[] = {"debug", "info", "warn", "error"};

}  // namespace

std::optional<LogLevel> parse_log_level(std::string_view s) {
  for (int i = 0; i < 4; ++i)
    if (s == kNames[i]) return LogLevel(i);
  return std::nullopt;
}

void set_log_level(LogLevel level) {
  g_level = level;
}

void log(LogLevel level, std::string_view game, std::string_view message) {
  if (level < g_level.load()) return;
  const auto now = std::chrono::system_clock::now();
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  const std::time_t t = std::time_t(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[40];
  const size_t n = std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(stamp + n, sizeof stamp - n, ".%03dZ", int(ms % 1000));
  std::string line = std::string(stamp) + " " + kNames[int(level)];
  if (!game.empty()) line += " [game " + std::string(game) + "]";
  line += " ";
  line += message;
  line += "\n";
  std::lock_guard<std::mutex> lock(g_mutex);
  std::fputs(line.c_str(), stderr);
}

}  // namespace toguz::net
