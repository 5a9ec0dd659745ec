// A scratch folder for the tests that need files of their own (a database, logs): fresh and
// unique per use, so tests running side by side never share one, and removed at the end.
#pragma once

#include <filesystem>
#include <random>
#include <string>
#include <system_error>

namespace toguz::test {

// A fresh folder under the system temp dir, removed with everything in it at the end.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() /
           ("toguz-test-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

}  // namespace toguz::test
