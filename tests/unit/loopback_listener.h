// The listening side of the tests' local servers (smtp_sink.h, file_http_server.h): a socket on
// a free loopback port, and the loop that serves its connections one at a time until stopped.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <functional>

namespace toguz::test {

// A listening socket on 127.0.0.1 at a port the kernel chose, written to `port`.
inline int listen_on_loopback(uint16_t* port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  ::listen(fd, 16);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  *port = ntohs(a.sin_port);
  return fd;
}

// Accepts the connections of `fd` and runs `serve` on each (then closes it), until `stop`.
inline void serve_until(int fd, const std::atomic<bool>& stop,
                        const std::function<void(int)>& serve) {
  while (!stop) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    const int c = ::accept(fd, nullptr, nullptr);
    if (c < 0) continue;
    serve(c);
    ::close(c);
  }
}

}  // namespace toguz::test
