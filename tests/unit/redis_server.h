// A redis-server of the test's own: on a free loopback port, nothing saved, in a temporary
// folder, stopped with the test. Without redis-server on PATH a test fails with a pointer to
// scripts/install-deps, unless TOGUZ_SKIP_REDIS=1 (then it is skipped).
#pragma once

#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "bus/redis.h"

namespace toguz::test {

// The path of `program` on PATH, "" when absent.
inline std::string find_program(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    const std::filesystem::path candidate =
        std::filesystem::path(p.substr(start, end - start)) / program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  return "";
}

// A loopback port nobody listens on now (the kernel's choice for port 0).
inline int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  close(fd);
  return port;
}

class RedisServer {
 public:
  static constexpr const char* kMissing =
      "redis-server is not on PATH: run scripts/install-deps (it installs redis-server) or set "
      "TOGUZ_SKIP_REDIS=1 to skip the Redis tests";
  bool installed() const { return !find_program("redis-server").empty(); }

  // "" when started, else why not.
  std::string start() {
    binary_ = find_program("redis-server");
    if (binary_.empty()) return kMissing;
    char tmpl[] = "/tmp/toguz-redis-XXXXXX";
    if (!mkdtemp(tmpl)) return "mkdtemp failed";
    dir_ = tmpl;
    // another test may take the same free port first: then try another
    std::string why;
    for (int attempt = 0; attempt < 5; ++attempt) {
      port_ = free_port();
      why = launch();
      if (why.empty()) return "";
    }
    return why;
  }

  // Starts it again on the same port (after stop()).
  std::string launch() {
    pid_ = fork();
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // no server left behind by a crashed test
      const std::string port = std::to_string(port_);
      const std::string log = dir_ + "/redis.log";
      execl(binary_.c_str(), binary_.c_str(), "--port", port.c_str(), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--dir", dir_.c_str(), "--logfile", log.c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      try {
        bus::Connection c(url());
        if (c.command({"PING"}).str == "PONG") return "";
      } catch (const bus::BusError&) {
      }
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return "redis-server exited at start (see " + dir_ + "/redis.log)";
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return "redis-server did not answer on port " + std::to_string(port_) + " within 10 s";
  }

  void stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  ~RedisServer() {
    stop();
    if (!dir_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
    }
  }

  int port() const { return port_; }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }

 private:
  std::string binary_, dir_;
  int port_ = 0;
  pid_t pid_ = -1;
};

// Starts the test's Redis in SetUp: FAILs when it cannot, or skips when redis-server is not
// installed and TOGUZ_SKIP_REDIS=1.
#define TOGUZ_START_REDIS(server)                                    \
  do {                                                               \
    const char* skip_ = std::getenv("TOGUZ_SKIP_REDIS");             \
    if (!(server).installed() && skip_ && std::string(skip_) == "1") \
      GTEST_SKIP() << toguz::test::RedisServer::kMissing;            \
    const std::string why_ = (server).start();                       \
    if (!why_.empty()) FAIL() << why_;                               \
  } while (0)

}  // namespace toguz::test
