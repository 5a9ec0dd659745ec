// A local HTTP server for the tests of a followed URL: it listens on a free loopback port and
// answers every request with the body and status the test set last (Connection: close), so a
// test rewrites "the file" while the server polls it, and counts the requests it answered.
#pragma once

#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "loopback_listener.h"

namespace toguz::test {

class FileHttpServer {
 public:
  FileHttpServer() {
    fd_ = listen_on_loopback(&port_);
    thread_ = std::thread([this] { serve_until(fd_, stop_, [this](int c) { serve(c); }); });
  }
  ~FileHttpServer() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  // What every later request gets.
  void set(std::string body, int status = 200) {
    std::lock_guard lock(mutex_);
    body_ = std::move(body);
    status_ = status;
  }
  int requests() const { return requests_; }

 private:
  // Reads the request's head (up to its blank line) and answers it.
  void serve(int c) {
    std::string head;
    while (head.find("\r\n\r\n") == std::string::npos && head.size() < 65536) {
      pollfd p{c, POLLIN, 0};
      if (::poll(&p, 1, 5000) <= 0) return;
      char chunk[4096];
      const ssize_t n = ::recv(c, chunk, sizeof chunk, 0);
      if (n <= 0) return;
      head.append(chunk, size_t(n));
    }
    std::string out;
    {
      std::lock_guard lock(mutex_);
      out = "HTTP/1.1 " + std::to_string(status_) + " X\r\nContent-Type: text/plain\r\n" +
            "Content-Length: " + std::to_string(body_.size()) + "\r\nConnection: close\r\n\r\n" +
            body_;
    }
    for (size_t at = 0; at < out.size();) {
      const ssize_t n = ::send(c, out.data() + at, out.size() - at, MSG_NOSIGNAL);
      if (n <= 0) return;
      at += size_t(n);
    }
    ++requests_;
  }

  int fd_ = -1;
  uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  std::mutex mutex_;
  std::string body_;
  int status_ = 200;
  std::thread thread_;
};

}  // namespace toguz::test
