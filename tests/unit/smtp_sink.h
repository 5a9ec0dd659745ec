// A local SMTP server for the mail tests: it listens on a free loopback port, takes every mail
// (EHLO, MAIL, RCPT, DATA, QUIT; no TLS, no AUTH) and keeps it; a test waits for the n-th mail
// with a deadline. Or, made `dead`, it closes every connection at once, as a broken relay does.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "loopback_listener.h"

namespace toguz::test {

struct SinkMail {
  std::string from, to, data;  // data: the message as sent (headers, blank line, body)
};

class SmtpSink {
 public:
  explicit SmtpSink(bool dead = false) : dead_(dead) {
    fd_ = listen_on_loopback(&port_);
    thread_ = std::thread([this] { run(); });
  }
  ~SmtpSink() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  uint16_t port() const { return port_; }
  std::string url() const { return "smtp://127.0.0.1:" + std::to_string(port_); }

  // Waits up to `wait` until at least `n` mails came; all that came.
  std::vector<SinkMail> wait_for(size_t n, std::chrono::seconds wait = std::chrono::seconds(20)) {
    std::unique_lock lock(mutex_);
    cv_.wait_for(lock, wait, [&] { return mails_.size() >= n; });
    return mails_;
  }
  std::vector<SinkMail> mails() {
    std::lock_guard lock(mutex_);
    return mails_;
  }
  int connections() const { return connections_; }

 private:
  void run() {
    serve_until(fd_, stop_, [this](int c) {
      ++connections_;
      if (!dead_) serve(c);
    });
  }
  // One line (without CRLF), "" at the end of the stream or after 10 s of silence.
  static bool read_line(int c, std::string& buf, std::string& line) {
    for (;;) {
      const size_t eol = buf.find("\r\n");
      if (eol != std::string::npos) {
        line = buf.substr(0, eol);
        buf.erase(0, eol + 2);
        return true;
      }
      pollfd p{c, POLLIN, 0};
      if (::poll(&p, 1, 10000) <= 0) return false;
      char chunk[4096];
      const ssize_t n = ::recv(c, chunk, sizeof chunk, 0);
      if (n <= 0) return false;
      buf.append(chunk, size_t(n));
    }
  }
  static void say(int c, const std::string& s) {
    const std::string out = s + "\r\n";
    (void)::send(c, out.data(), out.size(), MSG_NOSIGNAL);
  }
  void serve(int c) {
    say(c, "220 sink ESMTP");
    std::string buf, line;
    SinkMail m;
    while (read_line(c, buf, line)) {
      const std::string verb = line.substr(0, 4);
      if (verb == "EHLO" || verb == "HELO") {
        say(c, "250-sink\r\n250 8BITMIME");
      } else if (verb == "MAIL") {
        m = SinkMail{line.substr(10), "", ""};
        say(c, "250 ok");
      } else if (verb == "RCPT") {
        m.to = line.substr(8);
        say(c, "250 ok");
      } else if (verb == "DATA") {
        say(c, "354 go on");
        while (read_line(c, buf, line) && line != ".") m.data += line + "\n";
        {
          std::lock_guard lock(mutex_);
          mails_.push_back(m);
        }
        cv_.notify_all();
        say(c, "250 queued");
      } else if (verb == "QUIT") {
        say(c, "221 bye");
        return;
      } else {
        say(c, "250 ok");
      }
    }
  }

  bool dead_;
  int fd_ = -1;
  uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0};
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<SinkMail> mails_;
  std::thread thread_;
};

}  // namespace toguz::test
