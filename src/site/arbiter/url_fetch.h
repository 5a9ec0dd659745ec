// The fetch of a broadcast's followed URL (docs/tournaments.md "Broadcasts") on a thread of its
// own, so that the IO thread never waits for the remote server: http and https only, no
// redirects, bounded by a timeout and a size. One fetch at a time; the IO thread starts it and
// takes its result once done. Destroying it stops a fetch under way.
#pragma once

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <thread>

namespace toguz::site {

// Whether `url` is one a broadcast may follow: http:// or https:// and a host.
bool followable_url(const std::string& url);

class UrlFetch {
 public:
  static constexpr int kTimeoutS = 10;                  // the whole transfer
  static constexpr size_t kMaxBytes = size_t{4} << 20;  // the answer read at most

  // The answer: the file, or `error` (not "") saying why there is none.
  struct Result {
    std::string body;
    std::string error;
  };

  // A fetch started and its result not yet taken.
  bool busy() const { return started_; }
  // Starts fetching `url` (followable_url) when not busy.
  void start(const std::string& url);
  // The result once the fetch is done (then not busy any more); none before.
  std::optional<Result> take();

 private:
  std::jthread thread_;
  std::atomic<bool> done_{false};
  Result result_;  // written by the thread before done_
  bool started_ = false;
};

}  // namespace toguz::site
