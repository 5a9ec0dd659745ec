#include "net/static_files.h"

#include <zlib.h>

#include <fstream>
#include <sstream>

#include "net/static_path.h"

namespace toguz::net {

namespace fs = std::filesystem;

namespace {

// The page served when the front end has not been built.
constexpr const char* kNoFrontEnd =
    "<!doctype html><html><head><meta charset=\"utf-8\"><title>toguz</title></head><body>"
    "<h1>toguz serve</h1><p>The front end is not built. Run <code>make web</code> (or <code>make "
    "run</code>) "
    "and reload this page.</p><p>The API is up: <a "
    "href=\"/api/health\">/api/health</a>.</p></body></html>";

std::string mime_type(const std::string& path) {
  auto ext = fs::path(path).extension().string();
  for (auto& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".html" || ext == ".htm") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json" || ext == ".map") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".jpg" || ext == ".jpeg") return "image/jpeg";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".webp") return "image/webp";
  if (ext == ".woff2") return "font/woff2";
  if (ext == ".woff") return "font/woff";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  if (ext == ".webmanifest") return "application/manifest+json";
  return "application/octet-stream";
}

// Text worth compressing.
bool compressible(const std::string& type) {
  return type.rfind("text/", 0) == 0 || type.rfind("application/json", 0) == 0 ||
         type.rfind("image/svg", 0) == 0 || type.rfind("application/manifest", 0) == 0;
}

// gzip of `in` (zlib's gzip wrapper); "" on failure.
std::string gzip(const std::string& in) {
  z_stream z{};
  if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return "";
  std::string out(deflateBound(&z, uLong(in.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = uInt(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = uInt(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return rc == Z_STREAM_END ? out : "";
}

bool accepts_gzip(const http::request<http::string_body>& req) {
  std::string ae(req[http::field::accept_encoding]);
  for (auto& c : ae) c = char(std::tolower(static_cast<unsigned char>(c)));
  const auto p = ae.find("gzip");
  return p != std::string::npos && ae.compare(p, 9, "gzip;q=0") != 0 &&
         ae.compare(p, 10, "gzip; q=0") != 0;
}

bool read_file(const fs::path& p, std::string* out) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return false;
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  std::ostringstream o;
  o << in.rdbuf();
  *out = o.str();
  return true;
}

}  // namespace

StaticFile StaticFiles::load(const fs::path& file) {
  std::error_code ec;
  const auto mtime = fs::last_write_time(file, ec);
  const auto size = fs::file_size(file, ec);
  auto it = cache_.find(file.string());
  if (it != cache_.end() && it->second.mtime == mtime && it->second.size == size) return it->second;
  StaticFile f;
  if (ec || !read_file(file, &f.body)) return f;
  f.ok = true;
  f.mtime = mtime;
  f.size = size;
  f.type = mime_type(file.string());
  char tag[40];
  std::snprintf(tag, sizeof tag, "\"%016zx-%zx\"", std::hash<std::string>{}(f.body), f.body.size());
  f.etag = tag;
  if (compressible(f.type) && f.body.size() >= 512) f.gzip = gzip(f.body);
  if (cache_.size() > 512) cache_.clear();  // a bound, not an eviction policy
  cache_[file.string()] = f;
  return f;
}

void StaticFiles::serve(const http::request<http::string_body>& req, const Respond& respond) {
  std::string target(req.target());
  const std::string path = target.substr(0, target.find('?'));
  auto page = [&](http::status st, std::string body, const std::string& type) {
    http::response<http::string_body> res{st, 11};
    res.set(http::field::content_type, type);
    res.set(http::field::cache_control, "no-cache");
    res.body() = std::move(body);
    respond(std::move(res));
  };
  auto not_found = [&] { page(http::status::not_found, "not found", "text/plain; charset=utf-8"); };
  // A file: hashed assets are cached for good, everything else (index.html) revalidated by
  // its ETag; text is gzipped for clients that take it.
  auto serve = [&](const StaticFile& f, bool immutable) {
    const bool gz = !f.gzip.empty() && accepts_gzip(req);
    const std::string etag = gz ? f.etag.substr(0, f.etag.size() - 1) + "-gz\"" : f.etag;
    http::response<http::string_body> res{http::status::ok, 11};
    res.set(http::field::content_type, f.type);
    res.set(http::field::cache_control,
            immutable ? "public, max-age=31536000, immutable" : "no-cache");
    res.set(http::field::etag, etag);
    if (!f.gzip.empty()) res.set(http::field::vary, "Accept-Encoding");
    if (req[http::field::if_none_match] == etag) {
      res.result(http::status::not_modified);
    } else {
      if (gz) res.set(http::field::content_encoding, "gzip");
      res.body() = gz ? f.gzip : f.body;
    }
    respond(std::move(res));
  };
  const fs::path root = root_;
  const StaticFile index = root_.empty() ? StaticFile{} : load(root / "index.html");
  if (!index.ok) {
    page(http::status::ok, kNoFrontEnd, "text/html; charset=utf-8");
    return;
  }
  // No way out of the root: hostile segments are a 404, and a file is served only when its
  // canonical path (symlinks resolved) lies under the root's (static_path.h).
  const auto segments = path_segments(path);
  if (!segments) {
    not_found();
    return;
  }
  const bool asset = !segments->empty() && (*segments)[0] == "assets";
  if (auto file = file_under_root(root, *segments)) {
    const StaticFile f = load(*file);
    if (f.ok) {
      serve(f, asset);
      return;
    }
  }
  // Client routing: unknown paths get the app, except missing assets, which are a plain 404.
  if (asset) {
    not_found();
    return;
  }
  serve(index, false);
}

}  // namespace toguz::net
