// The built front end as served (docs/server.md "Security checks"): files under one root only
// (static_path.h), hashed assets cached for good, everything else revalidated by its ETag, text
// gzipped for clients that take it, unknown paths answered with the app (client routing).
// Files are read once and kept while their size and time stay the same. IO thread only.
#pragma once

#include <boost/beast/http.hpp>
#include <filesystem>
#include <functional>
#include <string>
#include <unordered_map>

namespace toguz::net {

namespace http = boost::beast::http;

// A static file as served.
struct StaticFile {
  bool ok = false;
  std::filesystem::file_time_type mtime;
  uintmax_t size = 0;
  std::string type, body, gzip, etag;  // gzip: "" when not compressed
};

class StaticFiles {
 public:
  using Respond = std::function<void(http::response<http::string_body>)>;
  // `root`: the built front end; "" or no index.html there: a page that says to run make web.
  explicit StaticFiles(std::string root) : root_(std::move(root)) {}
  // Answers a GET or HEAD outside /api.
  void serve(const http::request<http::string_body>& req, const Respond& respond);

 private:
  StaticFile load(const std::filesystem::path& file);
  std::string root_;
  std::unordered_map<std::string, StaticFile> cache_;
};

}  // namespace toguz::net
