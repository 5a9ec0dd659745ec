// The static-file side of `toguz serve`, kept free of the network code so a fuzz target and the
// unit tests can call it: a request path becomes a file under the --static root, or nothing.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toguz::net {

// The segments of a request path (the target before any '?'): split on '/', then each segment
// percent-decoded once. nullopt when the path does not start with '/', an escape is malformed,
// or a decoded segment is empty, "." or "..", or holds '/', '\' or NUL. "/" is no segments.
std::optional<std::vector<std::string>> path_segments(std::string_view path);

// The canonical file `segments` names under `root` (canonical itself, symlinks resolved), or
// nullopt when it is missing, not a regular file, or resolves to somewhere outside the root.
std::optional<std::filesystem::path> file_under_root(const std::filesystem::path& root,
                                                     const std::vector<std::string>& segments);

// Both steps: the file a request path may serve, or nullopt (the server then answers 404).
std::optional<std::filesystem::path> static_file(const std::filesystem::path& root,
                                                 std::string_view path);

}  // namespace toguz::net
