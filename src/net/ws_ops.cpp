#include "net/ws_ops.h"

namespace toguz::net {

namespace http = boost::beast::http;
namespace websocket = boost::beast::websocket;

void set_server_options(websocket::stream<boost::beast::tcp_stream>& ws, size_t read_max) {
  boost::beast::error_code ignored;
  boost::beast::get_lowest_layer(ws).socket().set_option(
      boost::asio::socket_base::send_buffer_size(kWsSendBuffer), ignored);
  ws.set_option(websocket::stream_base::timeout::suggested(boost::beast::role_type::server));
  ws.read_message_max(read_max);
  ws.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, "toguz"); }));
}

}  // namespace toguz::net
