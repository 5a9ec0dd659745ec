#include "pg_cluster.h"

#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <pqxx/pqxx>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace fs = std::filesystem;

namespace toguz::test {

namespace {

bool has_server(const fs::path& dir) {
  std::error_code ec;  // a folder we may not read (on PATH) has none
  return fs::exists(dir / "initdb", ec) && fs::exists(dir / "pg_ctl", ec) &&
         fs::exists(dir / "postgres", ec);
}

std::string sh_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string tail_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  if (text.size() > 2000) text = "..." + text.substr(text.size() - 2000);
  return text;
}

// A port that was free a moment ago on 127.0.0.1.
int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  int port = 0;
  if (fd >= 0 && bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  if (fd >= 0) close(fd);
  if (port == 0) throw std::runtime_error("PostgreSQL test server: no free loopback port");
  return port;
}

}  // namespace

std::string find_pg_bin() {
  if (const char* env = std::getenv("TOGUZ_PG_BIN"); env && *env) return has_server(env) ? env : "";
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':'))
      if (!dir.empty() && has_server(dir)) return dir;
  }
  std::vector<std::pair<int, std::string>> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    const std::string name = e.path().filename().string();
    if (!name.empty() && std::all_of(name.begin(), name.end(), ::isdigit) &&
        has_server(e.path() / "bin"))
      found.emplace_back(std::stoi(name), (e.path() / "bin").string());
  }
  if (found.empty()) return "";
  return std::max_element(found.begin(), found.end())->second;
}

bool skip_pg() {
  const char* v = std::getenv("TOGUZ_SKIP_PG");
  return v && *v && std::string(v) != "0";
}

int PgCluster::shell(const std::string& command) const {
  const int st = std::system(("cd " + sh_quote(dir_) + " && " + command).c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

PgCluster::PgCluster() : bin_(find_pg_bin()) {
  if (bin_.empty())
    throw std::runtime_error(
        "PostgreSQL's server (initdb, pg_ctl, postgres) is not installed: run scripts/install-deps "
        "(Debian: postgresql-15), set TOGUZ_PG_BIN to its bin folder, or TOGUZ_SKIP_PG=1 to skip "
        "the PostgreSQL tests");
  const auto t0 = std::chrono::steady_clock::now();
  // As root the folder must be reachable by `nobody`: under /tmp, owned by it.
  const bool root = geteuid() == 0;
  std::string base = "/tmp";
  if (!root)
    if (const char* t = std::getenv("TMPDIR"); t && *t) base = t;
  std::string templ = base + "/toguz-pg-XXXXXX";
  if (!mkdtemp(templ.data())) throw std::runtime_error("PostgreSQL test server: mkdtemp failed");
  dir_ = templ;
  if (root) {
    const passwd* pw = getpwnam("nobody");
    if (!pw || chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
      fs::remove_all(dir_);
      throw std::runtime_error("PostgreSQL test server: cannot give " + dir_ + " to nobody");
    }
    // By its full path: a root shell's PATH may lack /usr/sbin.
    std::string runuser = "runuser";
    for (const char* p : {"/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"})
      if (access(p, X_OK) == 0) {
        runuser = p;
        break;
      }
    run_as_ = runuser + " -u nobody -- ";
  }
  const std::string data = dir_ + "/data";
  if (shell(run_as_ + sh_quote(bin_ + "/initdb") + " -D " + sh_quote(data) +
            " -U toguz --auth=trust -E UTF8 --no-locale --no-sync > initdb.log 2>&1") != 0) {
    const std::string log = tail_of(dir_ + "/initdb.log");
    fs::remove_all(dir_);
    throw std::runtime_error("PostgreSQL test server: initdb failed:\n" + log);
  }
  // A port can be taken between free_port and the start: try a few.
  bool started = false;
  for (int attempt = 0; attempt < 3 && !started; ++attempt) {
    port_ = free_port();
    const std::string opts = "-p " + std::to_string(port_) + " -k " + dir_ +
                             " -c listen_addresses=127.0.0.1 -c fsync=off"
                             " -c synchronous_commit=off -c full_page_writes=off";
    started =
        shell(run_as_ + sh_quote(bin_ + "/pg_ctl") + " -D " + sh_quote(data) +
              " -l server.log -w -t 60 -o " + sh_quote(opts) + " start > pg_ctl.log 2>&1") == 0;
  }
  if (!started) {
    const std::string log = tail_of(dir_ + "/server.log");
    fs::remove_all(dir_);
    throw std::runtime_error("PostgreSQL test server: pg_ctl start failed:\n" + log);
  }
  // Stops the server and removes the folder once this process is gone, however it ends.
  shell("(while kill -0 " + std::to_string(getpid()) + " 2>/dev/null; do sleep 1; done; " +
        run_as_ + sh_quote(bin_ + "/pg_ctl") + " -D " + sh_quote(data) +
        " -m immediate stop; rm -rf " + sh_quote(dir_) + ") </dev/null >/dev/null 2>&1 &");
  start_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

PgCluster::~PgCluster() {
  shell(run_as_ + sh_quote(bin_ + "/pg_ctl") + " -D " + sh_quote(dir_ + "/data") +
        " -m immediate -w stop >/dev/null 2>&1");
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::string PgCluster::url(const std::string& database) const {
  return "postgresql://toguz@127.0.0.1:" + std::to_string(port_) + "/" + database;
}

std::string PgCluster::create_database() {
  std::string name = "t";  // appended, not "t" + ...: GCC 12 warns falsely (-Wrestrict)
  name += std::to_string(++databases_);
  pqxx::connection c(url("postgres"));
  pqxx::nontransaction n(c);
  n.exec("CREATE DATABASE " + name + " ENCODING 'UTF8'");
  return url(name);
}

PgCluster* shared_pg_cluster(std::string* error) {
  static std::unique_ptr<PgCluster> cluster;
  static std::string why;
  static bool tried = false;
  if (!tried) {
    tried = true;
    try {
      cluster = std::make_unique<PgCluster>();
      std::cout << "PostgreSQL test server: initdb and start took " << cluster->start_seconds()
                << " s" << std::endl;
    } catch (const std::exception& e) {
      why = e.what();
    }
  }
  *error = why;
  return cluster.get();
}

}  // namespace toguz::test
