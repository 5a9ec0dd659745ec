// Who the client is (docs/server.md "Abuse limits", src/net/client_address.h): the
// forwarding headers read alone; a peer's X-Forwarded-For counts only when the peer is a
// trusted proxy; and behind the real nginx with docs/nginx.conf (started by the test on free
// loopback ports) each client has its own failed logins, sockets and analyses. The clients
// are told apart by their own loopback addresses (127.0.0.2, 127.0.0.3...).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "net/client_address.h"
#include "redis_server.h"
#include "server_client.h"

// A namespace of its own: the unity build puts this file beside other server tests.
namespace toguz::test::proxy {
namespace {

using toguz::net::client_address;
using toguz::net::TrustedProxies;

boost::asio::ip::address addr(const std::string& s) {
  return boost::asio::ip::make_address(s);
}

TEST(ClientAddress, TrustedProxiesAddressesAndRanges) {
  const TrustedProxies p = TrustedProxies::parse({"127.0.0.1", " 10.1.0.0/16 ", "", "fd00::/8"});
  EXPECT_TRUE(p.contains(addr("127.0.0.1")));
  EXPECT_FALSE(p.contains(addr("127.0.0.2")));
  EXPECT_TRUE(p.contains(addr("10.1.255.7")));
  EXPECT_FALSE(p.contains(addr("10.2.0.1")));
  EXPECT_TRUE(p.contains(addr("fd12::1")));
  EXPECT_FALSE(p.contains(addr("fe80::1")));
  EXPECT_TRUE(p.contains(addr("::ffff:127.0.0.1")));  // IPv4-mapped: the IPv4 address
  EXPECT_TRUE(TrustedProxies::parse({"0.0.0.0/0"}).contains(addr("203.0.113.9")));
  EXPECT_TRUE(TrustedProxies::parse({"10.0.0.0/9"}).contains(addr("10.127.0.1")));
  EXPECT_FALSE(TrustedProxies::parse({"10.0.0.0/9"}).contains(addr("10.128.0.1")));
  EXPECT_TRUE(TrustedProxies::parse({}).empty());
  for (const char* bad : {"nginx", "10.0.0.1/33", "10.0.0.1/", "10.0.0.1/x", "::1/129", "1.2.3"})
    EXPECT_THROW(TrustedProxies::parse({bad}), std::invalid_argument) << bad;
}

TEST(ClientAddress, UntrustedPeerIsTheClient) {
  const TrustedProxies none;
  EXPECT_EQ(client_address(addr("198.51.100.7"), "203.0.113.1", "203.0.113.2", none),
            "198.51.100.7");
  const TrustedProxies proxy = TrustedProxies::parse({"127.0.0.1"});
  EXPECT_EQ(client_address(addr("198.51.100.7"), "203.0.113.1", "203.0.113.2", proxy),
            "198.51.100.7");
  EXPECT_EQ(client_address(addr("::ffff:198.51.100.7"), "", "", none), "198.51.100.7");
}

TEST(ClientAddress, RightMostUntrustedEntryOfATrustedPeer) {
  const TrustedProxies p = TrustedProxies::parse({"127.0.0.1", "10.0.0.0/8"});
  // What the client wrote stands left of what nginx appended: never reached.
  EXPECT_EQ(client_address(addr("127.0.0.1"), "203.0.113.66, 198.51.100.7", "", p), "198.51.100.7");
  // A chain of trusted proxies is walked through.
  EXPECT_EQ(client_address(addr("127.0.0.1"), "198.51.100.7,10.0.0.5 , 10.0.0.6", "", p),
            "198.51.100.7");
  EXPECT_EQ(client_address(addr("127.0.0.1"), "2001:db8::1", "", p), "2001:db8::1");
  // Every entry trusted: the left-most one.
  EXPECT_EQ(client_address(addr("127.0.0.1"), "10.0.0.9, 10.0.0.5", "", p), "10.0.0.9");
  // X-Real-IP when no X-Forwarded-For came; neither: the peer.
  EXPECT_EQ(client_address(addr("127.0.0.1"), "", " 198.51.100.8 ", p), "198.51.100.8");
  EXPECT_EQ(client_address(addr("127.0.0.1"), "", "", p), "127.0.0.1");
  // A malformed entry where the walk stops: the peer, never the text.
  EXPECT_EQ(client_address(addr("127.0.0.1"), "198.51.100.7, unknown", "", p), "127.0.0.1");
  EXPECT_EQ(client_address(addr("127.0.0.1"), "", "not an address", p), "127.0.0.1");
  EXPECT_EQ(client_address(addr("127.0.0.1"), "198.51.100.7:4711", "", p), "127.0.0.1");
}

using Header = std::pair<std::string, std::string>;

// An analysis board's id (a room any client may watch).
std::string board(uint16_t port) {
  HttpResult r = http_post(
      port, "/api/import",
      json::value(json::object{{"position", "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w"}}));
  EXPECT_EQ(r.status, 200) << r.body;
  return r.status == 200 ? jstr(r.json().at("id")) : "";
}

// A spectator's socket to `id` from `source` with these handshake headers.
std::unique_ptr<WsClient> watcher(uint16_t port, const std::string& id, const std::string& source,
                                  std::vector<Header> headers = {}) {
  WsOptions o;
  o.source = source;
  o.headers = std::move(headers);
  return std::make_unique<WsClient>(port, id, "", o);
}

// Without --trusted-proxy nobody's forwarding headers count: three sockets naming three
// clients in X-Forwarded-For and X-Real-IP are one address's, and its cap of 2 refuses the third.
TEST(ServerProxy, UntrustedPeerForwardedForIsIgnored) {
  TempDir dir;
  server::Config cfg;
  cfg.max_connections_per_address = 2;
  TestServer srv((dir.path / "t.db").string(), cfg);
  const std::string id = board(srv.port);
  auto one = watcher(srv.port, id, "", {{"X-Forwarded-For", "198.51.100.1"}});
  auto two = watcher(srv.port, id, "", {{"X-Real-IP", "198.51.100.2"}});
  ASSERT_TRUE(one->ok() && two->ok());
  auto three = watcher(srv.port, id, "",
                       {{"X-Forwarded-For", "198.51.100.3"}, {"X-Real-IP", "198.51.100.3"}});
  EXPECT_FALSE(three->ok());
  EXPECT_EQ(three->handshake_status(), 503);
  // Another peer is another client.
  auto other = watcher(srv.port, id, "127.0.0.2");
  EXPECT_TRUE(other->ok());
}

// A trusted peer's X-Forwarded-For names the client by its right-most untrusted entry: what a
// client wrote to the left of it changes nothing.
TEST(ServerProxy, TrustedPeerNamesTheClient) {
  TempDir dir;
  server::Config cfg;
  cfg.max_connections_per_address = 2;
  cfg.trusted_proxies = {"127.0.0.1"};
  TestServer srv((dir.path / "t.db").string(), cfg);
  const std::string id = board(srv.port);
  const Header a{"X-Forwarded-For", "198.51.100.1"};
  auto a1 = watcher(srv.port, id, "127.0.0.1", {a});
  auto a2 = watcher(srv.port, id, "127.0.0.1", {a});
  ASSERT_TRUE(a1->ok() && a2->ok());
  auto forged = watcher(srv.port, id, "127.0.0.1", {{"X-Forwarded-For", "10.9.9.9, 198.51.100.1"}});
  EXPECT_FALSE(forged->ok());
  EXPECT_EQ(forged->handshake_status(), 503);
  auto b = watcher(srv.port, id, "127.0.0.1", {{"X-Forwarded-For", "198.51.100.2"}});
  EXPECT_TRUE(b->ok());
  auto c = watcher(srv.port, id, "127.0.0.1", {{"X-Real-IP", "198.51.100.3"}});
  EXPECT_TRUE(c->ok());
  // An untrusted peer (127.0.0.2) naming 198.51.100.2 is itself, not that client.
  auto d = watcher(srv.port, id, "127.0.0.2", {{"X-Forwarded-For", "198.51.100.1"}});
  EXPECT_TRUE(d->ok());
}

std::string nginx_binary() {
  if (const char* p = std::getenv("TOGUZ_NGINX"); p && *p) return p;
  std::string found = find_program("nginx");
  if (found.empty() && access("/usr/sbin/nginx", X_OK) == 0) found = "/usr/sbin/nginx";
  return found;
}

// nginx with docs/nginx.conf, its one upstream the test's server, its port and folders the
// test's; stopped (SIGKILL) with the test.
class Nginx {
 public:
  // "" when it answers, else why not.
  std::string start(const std::string& folder, uint16_t upstream) {
    std::ifstream in(TOGUZ_NGINX_CONF);
    if (!in) return "cannot read " TOGUZ_NGINX_CONF;
    std::stringstream ss;
    ss << in.rdbuf();
    std::string conf = ss.str();
    std::string missing;
    auto replace = [&](const std::string& what, const std::string& with) {
      if (conf.find(what) == std::string::npos) missing += " '" + what + "'";
      for (size_t at = conf.find(what); at != std::string::npos;
           at = conf.find(what, at + with.size()))
        conf.replace(at, what.size(), with);
    };
    port_ = uint16_t(free_port());
    replace("listen 80;", "listen 127.0.0.1:" + std::to_string(port_) + ";");
    replace("server 127.0.0.1:8081 ", "server 127.0.0.1:" + std::to_string(upstream) + " ");
    for (const char* other : {"8082", "8083"}) {  // one instance here
      const size_t at = conf.find(std::string("server 127.0.0.1:") + other);
      if (at == std::string::npos) continue;
      conf.erase(at, conf.find('\n', at) - at);
    }
    replace("/var/lib/nginx/", folder + "/");
    replace("/var/log/nginx/", folder + "/");
    replace("/run/nginx.pid", folder + "/nginx.pid");
    if (!missing.empty()) return "docs/nginx.conf lacks" + missing;
    std::ofstream(folder + "/nginx.conf") << conf;
    log_ = folder + "/nginx.out";
    const std::vector<std::string> argv{
        nginx_binary(),         "-e", folder + "/nginx-error.log",      "-p", folder, "-c",
        folder + "/nginx.conf", "-g", "daemon off; master_process off;"};
    pid_ = fork();
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      const int fd = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(fd, 1);
      dup2(fd, 2);
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      if (http_get(port_, "/api/health").status == 200) return "";
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        return "nginx exited: " + output();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return "nginx did not answer within 30 s: " + output();
  }
  uint16_t port() const { return port_; }
  std::string output() const {
    std::ifstream in(log_);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  ~Nginx() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }

 private:
  pid_t pid_ = -1;
  uint16_t port_ = 0;
  std::string log_;
};

HttpResult post_from(uint16_t port, const std::string& target, const json::object& body,
                     const std::string& source) {
  return http_call(port, http::verb::post, target, json::serialize(body), {}, source);
}

json::object credentials(const std::string& name, const std::string& password) {
  return json::object{{"username", name}, {"password", password}};
}

// Two clients behind nginx, 127.0.0.2 (the attacker) and 127.0.0.3: the attacker's failed
// logins lock only his own address out of the account; his sockets (even one that forges
// X-Forwarded-For) and analyses reach their caps while the other client's pass.
TEST(ServerProxy, BehindNginxEachClientHasItsOwnLimits) {
  if (nginx_binary().empty())
    GTEST_SKIP() << "nginx is not installed: run scripts/install-deps (nginx-light), or set "
                    "TOGUZ_NGINX to an nginx binary";
  TempDir dir;
  server::Config cfg;
  cfg.trusted_proxies = {"127.0.0.1"};
  cfg.max_connections_per_address = 2;
  cfg.analyze_per_minute = 1;  // the bucket of 4 does not refill during the test
  TestServer srv((dir.path / "t.db").string(), cfg);
  Nginx nginx;
  const std::string why = nginx.start(dir.path.string(), srv.port);
  ASSERT_EQ(why, "");
  const uint16_t port = nginx.port();
  const std::string a = "127.0.0.2", b = "127.0.0.3";

  ASSERT_EQ(post_from(port, "/api/signup", credentials("Aigerim", "password-of-Aigerim"), b).status,
            201);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(post_from(port, "/api/login", credentials("Aigerim", "wrong guess"), a).status, 401);
  HttpResult locked =
      post_from(port, "/api/login", credentials("Aigerim", "password-of-Aigerim"), a);
  EXPECT_EQ(locked.status, 429) << locked.body;
  EXPECT_EQ(code_of(locked), "login_locked_account");
  HttpResult owner =
      post_from(port, "/api/login", credentials("Aigerim", "password-of-Aigerim"), b);
  EXPECT_EQ(owner.status, 200) << owner.body;

  const std::string id = board(port);
  auto a1 = watcher(port, id, a), a2 = watcher(port, id, a);
  ASSERT_TRUE(a1->ok() && a2->ok());
  auto a3 = watcher(port, id, a, {{"X-Forwarded-For", b}});
  EXPECT_FALSE(a3->ok());
  EXPECT_EQ(a3->handshake_status(), 503);
  auto b1 = watcher(port, id, b);
  EXPECT_TRUE(b1->ok());
  ASSERT_TRUE(b1->read_type("state"));

  const json::object quick{{"time_ms", 10}};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(post_from(port, "/api/analyze", quick, a).status, 200);
  HttpResult limited = post_from(port, "/api/analyze", quick, a);
  EXPECT_EQ(limited.status, 429) << limited.body;
  EXPECT_NE(limited.body.find("a minute"), std::string::npos) << limited.body;
  HttpResult other = post_from(port, "/api/analyze", quick, b);
  EXPECT_EQ(other.status, 200) << other.body;
}

}  // namespace
}  // namespace toguz::test::proxy
