// The configuration file of `toguz serve` and `toguz worker` (--config FILE, docs/operations.md
// "Configuration"): `key = value` lines, a key being an option's long name without its dashes
// (`port = 8080`, `trusted-proxy = 10.0.0.1,10.0.0.2`, `no-mining = true`), `#` or `;`
// comments, values optionally in double quotes, and sections `[serve]` and `[worker]`: a command
// takes the keys before any section and those of its own section. Every key of every section is
// checked against the options of the section's command, and an unknown key or section is
// refused with its line named.
//
// Where a value comes from, the first that has one wins: the command line, the environment
// (the secrets: TOGUZ_DATABASE_URL, TOGUZ_METRICS_TOKEN, TOGUZ_REDIS_URL; CLI11's envname), the
// file, the default.
//
// CLI11 2.1 reads a configuration file only for the main app, not for a subcommand, and names
// no line; so the file is read here and each value given to its option as CLI11 gives a
// command-line value (validators included), after the command line and environment are parsed.
#pragma once

#include <CLI/CLI.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace toguz::cli {

// A file that cannot be read, a line that is not `key = value`, an unknown key or section, or a
// value its option refuses: the message names FILE:LINE.
struct ConfigFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Adds --config FILE to `cmd` (a subcommand of the main app) and returns where its value goes.
std::shared_ptr<std::string> add_config_option(CLI::App& cmd);

// Reads `path` and gives `cmd` each value of its keys whose option the command line and the
// environment left unset. Returns the options it set (their long names). Throws
// ConfigFileError.
std::vector<std::string> apply_config_file(CLI::App& cmd, const std::string& path);

// "key = value" for every option of `cmd` (help and --config aside), secrets masked: the token
// as "***" and a URL's password as "***". The options in `from_file` are marked "(file)".
std::vector<std::string> describe_options(const CLI::App& cmd,
                                          const std::vector<std::string>& from_file);

// `url` with the password of its user part (scheme://user:PASSWORD@host) replaced by "***".
std::string mask_url_password(const std::string& url);

}  // namespace toguz::cli
