// The stop signals of the long-running subcommands (serve, worker).
#pragma once

#include <pthread.h>

#include <csignal>

namespace toguz::cli {

// Blocks SIGINT and SIGTERM in the calling thread, and so in every thread it starts afterwards,
// so that one thread takes them with sigwait or sigtimedwait. Call before any thread starts.
inline sigset_t block_stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return set;
}

}  // namespace toguz::cli
