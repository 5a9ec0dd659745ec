// A Prometheus server of the test's own (Debian's `prometheus`): on a free loopback port, its
// data and a generated configuration in a temporary folder, scraping one target every second,
// stopped with the test. Without prometheus on PATH a test fails with a pointer to
// scripts/install-deps, unless TOGUZ_SKIP_PROMETHEUS=1 (then it is skipped).
#pragma once

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "redis_server.h"  // find_program, free_port
#include "server_client.h"

namespace toguz::test {

class PrometheusServer {
 public:
  static constexpr const char* kMissing =
      "prometheus is not on PATH: run scripts/install-deps (it installs Debian's prometheus) or "
      "set TOGUZ_SKIP_PROMETHEUS=1 to skip the test that a real Prometheus scrapes";
  bool installed() const { return !find_program("prometheus").empty(); }

  // Starts it scraping http://127.0.0.1:<target_port>/metrics every second, with
  // "Authorization: Bearer <token>" when `token` is given. "" when it answers, else why not.
  std::string start(int target_port, const std::string& token) {
    const std::string binary = find_program("prometheus");
    if (binary.empty()) return kMissing;
    char tmpl[] = "/tmp/toguz-prometheus-XXXXXX";
    if (!mkdtemp(tmpl)) return "mkdtemp failed";
    dir_ = tmpl;
    std::ofstream(dir_ + "/prometheus.yml")
        << "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
        << "scrape_configs:\n  - job_name: toguz\n"
        << (token.empty() ? "" : "    authorization:\n      credentials: " + token + "\n")
        << "    static_configs:\n      - targets: ['127.0.0.1:" << target_port << "']\n";
    std::string why;
    for (int attempt = 0; attempt < 5; ++attempt) {  // another test may take the port first
      port_ = free_port();
      why = launch(binary);
      if (why.empty()) return "";
    }
    return why;
  }

  ~PrometheusServer() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (!dir_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
    }
  }

  int port() const { return port_; }
  std::string log() const {
    std::ifstream in(dir_ + "/prometheus.log");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

 private:
  std::string launch(const std::string& binary) {
    pid_ = fork();
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // no server left behind by a crashed test
      const std::string log = dir_ + "/prometheus.log";
      if (FILE* f = std::freopen(log.c_str(), "a", stderr)) (void)f;
      const std::string config = "--config.file=" + dir_ + "/prometheus.yml";
      const std::string data = "--storage.tsdb.path=" + dir_ + "/data";
      const std::string listen = "--web.listen-address=127.0.0.1:" + std::to_string(port_);
      execl(binary.c_str(), binary.c_str(), config.c_str(), data.c_str(), listen.c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
    // Ready when its readiness endpoint says so (it replays its empty WAL first).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      if (http_get(uint16_t(port_), "/-/ready").status == 200) return "";
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return "prometheus exited at start: " + log();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return "prometheus did not become ready on port " + std::to_string(port_) + " within 30 s";
  }

  std::string dir_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace toguz::test
