// Helpers shared by the unit tests: test data paths, file reading, one-off searches.
#pragma once

#include <unistd.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "rules/game.h"
#include "search/engine.h"

namespace toguz::test {

inline std::string data_path(const std::string& name) {
  return std::string(TOGUZ_TEST_DATA) + "/" + name;
}
inline std::string shared_path(const std::string& name) {
  return std::string(TOGUZ_SHARED_DIR) + "/" + name;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline boost::json::value read_json(const std::string& name) {
  return boost::json::parse(read_file(data_path(name)));
}

inline std::vector<boost::json::value> read_jsonl(const std::string& name) {
  std::vector<boost::json::value> out;
  std::istringstream in(read_file(data_path(name)));
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(boost::json::parse(line));
  return out;
}

inline std::vector<int> holes_of(const std::string& moves) {
  std::vector<int> out;
  std::istringstream in(moves);
  int h;
  while (in >> h) out.push_back(h);
  return out;
}

// One search of `game` by a fresh engine with `options`.
inline search::SearchResult run(const Game& game, search::Limits limits,
                                search::Options options = {}) {
  search::Engine engine;
  engine.set_options(options);
  engine.set_position(game);
  return engine.search(limits);
}

inline search::Limits depth(int d) {
  search::Limits l;
  l.depth = d;
  return l;
}

// A file in the temporary folder, named after the process, removed at the end of the scope;
// written with text when text is given.
struct TempFile {
  std::filesystem::path path;
  explicit TempFile(const std::string& name, const std::string& text = "")
      : path(std::filesystem::temp_directory_path() /
             ("toguz-" + std::to_string(::getpid()) + "-" + name)) {
    if (!text.empty()) std::ofstream(path) << text;
  }
  ~TempFile() { std::filesystem::remove(path); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
};

}  // namespace toguz::test
