// The mails waiting to be sent, and the one thread that sends them (docs/operations.md "Mail"):
// whoever posts a mail never waits for the SMTP server, and a server that is slow, down or
// refusing only delays or fails mails (each counted, the failure reported), never the poster.
// Thread-safe.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "mail/smtp.h"

namespace toguz::mail {

class Outbox {
 public:
  // Sends one mail: "" when sent, else the error (send_mail in production, a fake in tests).
  using Sender = std::function<std::string(const Mail&)>;
  // Told of each failed mail, on the outbox's thread (the log).
  using Failed = std::function<void(const Mail&, const std::string& error)>;

  Outbox(Sender send, Failed failed, size_t max_queued = 1000);
  // Stops the thread after the mail being sent; the mails still queued are dropped.
  ~Outbox();
  Outbox(const Outbox&) = delete;
  Outbox& operator=(const Outbox&) = delete;

  // Queues `mail`; false (counted as dropped) when max_queued are waiting already.
  bool post(Mail mail);

  uint64_t sent() const { return sent_; }
  uint64_t failed() const { return failed_; }
  uint64_t dropped() const { return dropped_; }
  size_t queued() const;

 private:
  void run();

  Sender send_;
  Failed on_failed_;
  size_t max_queued_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Mail> queue_;
  bool stopping_ = false;
  std::atomic<uint64_t> sent_{0}, failed_{0}, dropped_{0};
  std::thread thread_;
};

}  // namespace toguz::mail
