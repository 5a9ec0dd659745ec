// The site's log: one line per event on stderr, "2026-12-02T00:31:05.120Z warn [game k3x9]
// what happened". Safe from every thread (one lock around each line); lines below the level set
// are dropped. Nothing the server catches goes unsaid: exceptions on the IO thread, failed store
// writes, refused engine moves.
#pragma once

#include <optional>
#include <string_view>

namespace toguz::net {

enum class LogLevel { Debug, Info, Warn, Error };

// "debug", "info", "warn", "error"; nullopt for another word.
std::optional<LogLevel> parse_log_level(std::string_view s);
void set_log_level(LogLevel level);  // Info until set
// One line; `game` names the game it is about ("" for none).
void log(LogLevel level, std::string_view game, std::string_view message);

}  // namespace toguz::net
