// A throwaway PostgreSQL server for tests: initdb and pg_ctl in a temporary folder, on a free
// loopback port, its socket in that folder. PostgreSQL refuses to run as root, so as root the
// server runs as `nobody` (runuser). The destructor stops it and removes the folder; a watcher
// process does the same if the test process dies first.
#pragma once

#include <string>

namespace toguz::test {

// The folder of initdb and pg_ctl: $TOGUZ_PG_BIN, else PATH, else the newest
// /usr/lib/postgresql/*/bin; "" when PostgreSQL's server is not installed.
std::string find_pg_bin();

// True when TOGUZ_SKIP_PG is set to something other than "" or "0".
bool skip_pg();

class PgCluster {
 public:
  // Starts the server; throws std::runtime_error saying why (the binaries missing: run
  // scripts/install-deps; initdb or the start failing: the end of its log).
  PgCluster();
  ~PgCluster();
  PgCluster(const PgCluster&) = delete;
  PgCluster& operator=(const PgCluster&) = delete;

  // The URL of `database` (superuser toguz, no password).
  std::string url(const std::string& database) const;
  // Creates a new empty database (UTF8) and returns its URL.
  std::string create_database();
  // Seconds initdb and the start took.
  double start_seconds() const { return start_seconds_; }

 private:
  std::string bin_, dir_, run_as_;
  int port_ = 0;
  int databases_ = 0;
  double start_seconds_ = 0;
  int shell(const std::string& command) const;
};

// The process's server, started by the first test that asks (it prints the start time); or
// nullptr with the reason it cannot start in `error`.
PgCluster* shared_pg_cluster(std::string* error);

}  // namespace toguz::test

// In a PostgreSQL test: skips it when TOGUZ_SKIP_PG is set, fails it with the reason when the
// server cannot start, else sets `pg` to the process's server.
#define NEED_PG(pg)                                                       \
  if (toguz::test::skip_pg()) GTEST_SKIP() << "TOGUZ_SKIP_PG is set";     \
  std::string pg##_why;                                                   \
  toguz::test::PgCluster* pg = toguz::test::shared_pg_cluster(&pg##_why); \
  if (!pg) GTEST_FAIL() << pg##_why
