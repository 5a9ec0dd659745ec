// The site's log: one line per event on stderr, "2026-12-02T00:31:05.120Z warn [game k3x9]
// what happened", or as JSON (LogFormat::Json) one object a line,
// {"time":"2026-12-02T00:31:05.120Z","level":"warn","game":"k3x9","message":"what happened"}
// ("game" only when there is one). Safe from every thread (one lock around each line); lines below
// the level set are dropped. Nothing the server catches goes unsaid: exceptions on the IO thread,
// failed store writes, refused engine moves.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace toguz::net {

enum class LogLevel { Debug, Info, Warn, Error };
enum class LogFormat { Text, Json };

// "debug", "info", "warn", "error"; nullopt for another word.
std::optional<LogLevel> parse_log_level(std::string_view s);
void set_log_level(LogLevel level);  // Info until set
// "text", "json"; nullopt for another word.
std::optional<LogFormat> parse_log_format(std::string_view s);
void set_log_format(LogFormat format);  // Text until set
// The line `log` writes (without its newline) at `ms` since the epoch.
std::string log_line(LogFormat format, int64_t ms, LogLevel level, std::string_view game,
                     std::string_view message);
// One line; `game` names the game it is about ("" for none).
void log(LogLevel level, std::string_view game, std::string_view message);

}  // namespace toguz::net
