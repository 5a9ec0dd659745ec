// The server's security checks (docs/server.md "Security checks"), each tried as an attacker
// would over real sockets: the static root cannot be left.
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>

#include "net/static_path.h"
#include "server_client.h"

namespace toguz::test {
namespace {

namespace fs = std::filesystem;

// A built front end in dir/dist, a secret next to it, and a symlink inside pointing out.
struct StaticTree {
  TempDir dir;
  fs::path dist, secret;
  StaticTree() {
    dist = dir.path / "dist";
    fs::create_directories(dist / "assets");
    std::ofstream(dist / "index.html") << "<html>app</html>";
    std::ofstream(dist / "assets" / "app.js") << "console.log(1)";
    secret = dir.path / "secret.txt";
    std::ofstream(secret) << "SECRET-CONTENT";
    fs::create_symlink(secret, dist / "link.txt");
    fs::create_symlink(dir.path, dist / "assets" / "up");
    fs::create_directory_symlink(dist / "assets", dist / "inside");  // a link within the root
  }
};

TEST(ServerSecurity, PathSegmentsRefuseHostileSegments) {
  using Segs = std::vector<std::string>;
  EXPECT_EQ(toguz::net::path_segments("/"), Segs{});
  EXPECT_EQ(toguz::net::path_segments("/assets/app.js"), (Segs{"assets", "app.js"}));
  EXPECT_EQ(toguz::net::path_segments("/a%20b"), (Segs{"a b"}));
  EXPECT_EQ(toguz::net::path_segments("/%252e%252e"), (Segs{"%2e%2e"}));  // decoded once only
  EXPECT_EQ(toguz::net::path_segments("/a+b"), (Segs{"a+b"}));
  for (std::string bad : {"",
                          "x",
                          "//etc/passwd",
                          "/%2fetc/passwd",
                          "/%2Fetc",
                          "/%2e%2e/secret",
                          "/..%2fsecret",
                          "/../secret",
                          "/./index.html",
                          "/a//b",
                          "/a/",
                          "/%5c..%5csecret",
                          "/a\\b",
                          "/%00",
                          "/%",
                          "/%2",
                          "/%zz",
                          "/.",
                          "/..",
                          "/%2e",
                          "/assets/%2e%2e/%2e%2e/secret"})
    EXPECT_FALSE(toguz::net::path_segments(bad)) << bad;
  EXPECT_FALSE(toguz::net::path_segments(std::string("/a\0b", 4)));
}

TEST(ServerSecurity, FileUnderRootFollowsNoLinkOut) {
  StaticTree t;
  EXPECT_TRUE(toguz::net::static_file(t.dist, "/assets/app.js"));
  EXPECT_TRUE(toguz::net::static_file(t.dist, "/inside/app.js"));  // a link that stays inside
  EXPECT_FALSE(toguz::net::static_file(t.dist, "/link.txt"));      // absolute link out
  EXPECT_FALSE(toguz::net::static_file(t.dist, "/assets/up/secret.txt"));
  EXPECT_FALSE(toguz::net::static_file(t.dist, "/assets"));  // a folder is no file
  EXPECT_FALSE(toguz::net::static_file(t.dist, "/"));
  EXPECT_FALSE(toguz::net::static_file(t.dist, "/" + t.secret.string()));
}

// Over real sockets: no hostile path reaches a file outside the root.
TEST(ServerSecurity, StaticRootCannotBeLeft) {
  StaticTree t;
  server::Config cfg;
  cfg.static_dir = t.dist.string();
  TestServer srv((t.dir.path / "t.db").string(), cfg);
  const std::string abs = t.secret.string();  // "/tmp/.../secret.txt"
  const std::vector<std::string> hostile = {
      "/" + abs,               // //tmp/...: an absolute path replacing the root
      "/%2f" + abs.substr(1),  // /%2ftmp/...
      "/%2F" + abs.substr(1),
      "/%2e%2e/secret.txt",
      "/..%2fsecret.txt",
      "/%2e%2e%2fsecret.txt",
      "/%252e%252e/secret.txt",
      "/assets/..%2f..%2fsecret.txt",
      "/%5c..%5csecret.txt",
      "/..\\secret.txt",
      "/secret.txt%00.html",
      "/link.txt",
      "/assets/up/secret.txt",
      "//etc/passwd",
      "/%2fetc/passwd",
      "//proc/self/cwd/" + (t.dir.path / "t.db").string(),
  };
  for (const std::string& target : hostile) {
    HttpResult r = http_get(srv.port, target);
    EXPECT_EQ(r.body.find("SECRET-CONTENT"), std::string::npos) << target;
    EXPECT_EQ(r.body.find("root:"), std::string::npos) << target;
    EXPECT_EQ(r.body.find("SQLite"), std::string::npos) << target;
    if (!toguz::net::path_segments(target)) {
      EXPECT_EQ(r.status, 404) << target << ": " << r.body;
    } else {
      // A name that is not there (or leads out): the app, or a 404 under /assets.
      EXPECT_TRUE(r.body == "<html>app</html>" || r.status == 404) << target << ": " << r.body;
    }
  }
  // What is inside still works.
  EXPECT_EQ(http_get(srv.port, "/assets/app.js").body, "console.log(1)");
  EXPECT_EQ(http_get(srv.port, "/inside/app.js").body, "console.log(1)");
  EXPECT_EQ(http_get(srv.port, "/game/abc").body, "<html>app</html>");
}

std::string header(const HttpResult& r, http::field f) {
  return std::string(r.headers[f]);
}
std::string header(const HttpResult& r, const char* name) {
  return std::string(r.headers[name]);
}

std::string gunzip(const std::string& in) {
  z_stream z{};
  inflateInit2(&z, 15 + 16);
  std::string out(1 << 20, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = uInt(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = uInt(out.size());
  inflate(&z, Z_FINISH);
  out.resize(z.total_out);
  inflateEnd(&z);
  return out;
}

// A browser page on another site can neither open the game's socket nor change anything.
TEST(ServerSecurity, OriginMustBeThisServer) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const std::string own = "http://127.0.0.1:" + std::to_string(srv.port);
  HttpResult evil = http_call(srv.port, http::verb::post, "/api/games", R"({"mode":"local"})",
                              {{http::field::origin, "http://evil.example"}});
  EXPECT_EQ(evil.status, 403) << evil.body;
  EXPECT_EQ(http_call(srv.port, http::verb::post, "/api/games", R"({"mode":"local"})",
                      {{http::field::origin, "null"}})
                .status,
            403);
  HttpResult mine = http_call(srv.port, http::verb::post, "/api/games", R"({"mode":"local"})",
                              {{http::field::origin, own}});
  ASSERT_EQ(mine.status, 200) << mine.body;
  const std::string id = jstr(mine.json().at("id")), token = jstr(mine.json().at("token"));
  WsClient bad(srv.port, id, token, WsOptions{.origin = "http://evil.example"});
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.handshake_status(), 403);
  WsClient good(srv.port, id, token, WsOptions{.origin = own});
  ASSERT_TRUE(good.ok());
  auto g = good.read_state([](const json::object&) { return true; });
  ASSERT_TRUE(g);
  EXPECT_EQ(jstr(g->at("you")), "both");
}

// The token is not read from the URL (proxies log URLs): only the hello message seats a client.
TEST(ServerSecurity, TokenOnlyInTheHello) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  HttpResult c = http_post(srv.port, "/api/games", std::string(R"({"mode":"local"})"));
  ASSERT_EQ(c.status, 200);
  const std::string id = jstr(c.json().at("id")), token = jstr(c.json().at("token"));
  WsClient by_url(srv.port, id, "", WsOptions{.query = "?token=" + token});
  auto g = by_url.read_state([](const json::object&) { return true; });
  ASSERT_TRUE(g);
  EXPECT_EQ(jstr(g->at("you")), "spectator");
  // Before the hello nothing is answered but an error naming it.
  WsClient silent(srv.port, id, "", WsOptions{.hello = false});
  silent.send(json::object{{"type", "ping"}});
  auto e = silent.read();
  ASSERT_TRUE(e);
  EXPECT_EQ(jstr(e->at("type")), "error");
  EXPECT_NE(jstr(e->at("message")).find("hello"), std::string::npos);
  silent.send(json::object{{"type", "hello"}, {"token", token}});
  auto seated = silent.read_state([](const json::object&) { return true; });
  ASSERT_TRUE(seated);
  EXPECT_EQ(jstr(seated->at("you")), "both");
}

// Headers, caching, compression, HEAD and methods of the HTTP side.
TEST(ServerSecurity, HeadersCachingGzipHeadAndMethods) {
  StaticTree t;
  std::string big;
  for (int i = 0; i < 400; ++i) big += "console.log(" + std::to_string(i) + ");\n";
  std::ofstream(t.dist / "assets" / "index-3f2a1b.js") << big;
  server::Config cfg;
  cfg.static_dir = t.dist.string();
  TestServer srv((t.dir.path / "t.db").string(), cfg);
  for (const std::string target : {"/", "/api/health", "/assets/app.js", "/nothing/here"}) {
    HttpResult r = http_get(srv.port, target);
    EXPECT_EQ(header(r, "X-Content-Type-Options"), "nosniff") << target;
    EXPECT_EQ(header(r, "Referrer-Policy"), "no-referrer") << target;
    const std::string csp = header(r, "Content-Security-Policy");
    EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << target << ": " << csp;
    EXPECT_NE(csp.find("script-src 'self';"), std::string::npos) << target << ": " << csp;
  }
  // The app revalidates; hashed assets are kept.
  HttpResult index = http_get(srv.port, "/");
  EXPECT_EQ(header(index, http::field::cache_control), "no-cache");
  const std::string etag = header(index, http::field::etag);
  ASSERT_FALSE(etag.empty());
  HttpResult again =
      http_call(srv.port, http::verb::get, "/", "", {{http::field::if_none_match, etag}});
  EXPECT_EQ(again.status, 304);
  EXPECT_TRUE(again.body.empty());
  HttpResult asset = http_get(srv.port, "/assets/index-3f2a1b.js");
  EXPECT_NE(header(asset, http::field::cache_control).find("immutable"), std::string::npos);
  EXPECT_EQ(asset.body, big);
  // gzip for text when asked for.
  HttpResult gz = http_call(srv.port, http::verb::get, "/assets/index-3f2a1b.js", "",
                            {{http::field::accept_encoding, "gzip, br"}});
  EXPECT_EQ(header(gz, http::field::content_encoding), "gzip");
  EXPECT_LT(gz.body.size(), big.size() / 2);
  EXPECT_EQ(gunzip(gz.body), big);
  // HEAD: the GET's headers and length, no body.
  HttpResult head = http_call(srv.port, http::verb::head, "/assets/index-3f2a1b.js");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(header(head, http::field::content_length), std::to_string(big.size()));
  EXPECT_TRUE(head.body.empty());
  HttpResult head_api = http_call(srv.port, http::verb::head, "/api/health");
  EXPECT_EQ(head_api.status, 200);
  EXPECT_EQ(header(head_api, http::field::content_length),
            std::to_string(http_get(srv.port, "/api/health").body.size()));
  // Methods an endpoint does not take: 405 with Allow.
  struct M {
    http::verb verb;
    std::string target, allow;
  };
  for (const M& m : {M{http::verb::put, "/api/games", "GET, HEAD, POST"},
                     M{http::verb::delete_, "/api/health", "GET, HEAD"},
                     M{http::verb::get, "/api/import", "POST"},
                     M{http::verb::patch, "/api/games/abc/join", "POST"},
                     M{http::verb::post, "/index.html", "GET, HEAD"}}) {
    HttpResult r = http_call(srv.port, m.verb, m.target, "{}");
    EXPECT_EQ(r.status, 405) << m.target;
    EXPECT_EQ(header(r, http::field::allow), m.allow) << m.target;
  }
  EXPECT_EQ(http_get(srv.port, "/api/nothing").status, 404);
}

}  // namespace
}  // namespace toguz::test
