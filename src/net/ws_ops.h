// What every WebSocket session of the site does alike, whatever it serves: the server's options
// on an accepted stream, the read loop and the close.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <cstddef>
#include <memory>
#include <string>

namespace toguz::net {

// The kernel's send buffer of an upgraded socket, fixed rather than autotuned (on loopback and
// fast links Linux grows it to 4 MiB): a socket that does not read then holds at most this in
// the kernel, and what waits beyond it is in its queue, counted by its address's budget.
constexpr int kWsSendBuffer = 128 << 10;

// The server's options on an accepted WebSocket stream: the suggested timeouts, messages up to
// `read_max` bytes (above it the connection closes), its name, the kernel's send buffer
// (kWsSendBuffer).
void set_server_options(boost::beast::websocket::stream<boost::beast::tcp_stream>& ws,
                        size_t read_max);

// The read loop and the close of a session class S with ws_, buffer_, gone_, on_text(text) and
// on_gone() (S befriends it).
struct WsSessionOps {
  // Reads the messages one after another, each to on_text while the session is not gone; a
  // read error is on_gone. `self` is held while a read waits.
  template <class S>
  static void read(std::shared_ptr<S> self) {
    S& s = *self;
    s.ws_.async_read(
        s.buffer_, [self = std::move(self)](boost::beast::error_code ec, size_t) mutable {
          if (ec) {
            self->on_gone();
            return;
          }
          const std::string text = boost::beast::buffers_to_string(self->buffer_.data());
          self->buffer_.consume(self->buffer_.size());
          self->on_text(text);
          if (!self->gone_) read(std::move(self));
        });
  }
  // Gone now (on_gone), and the socket closed.
  template <class S>
  static void close(S& s) {
    if (s.gone_) return;
    s.on_gone();
    boost::beast::error_code ec;
    boost::beast::get_lowest_layer(s.ws_).socket().close(ec);
  }
};

}  // namespace toguz::net
