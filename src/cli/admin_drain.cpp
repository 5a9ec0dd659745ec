// toguz admin drain [--metrics-listen ADDR:PORT] [--metrics-token T] [--wait-seconds S]: asks a
// running `toguz serve` to drain and stop (docs/operations.md "Draining") through its operator's
// listener (`POST /drain` on --metrics-listen, with the metrics token when the server has one),
// then waits until that listener is gone (the process has stopped). Exit 0 once it stopped (or
// at once with --wait-seconds 0), 1 when the server refused or did not stop in time.
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <chrono>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include "cli/commands.h"
#include "site/ops/ops_site.h"

namespace toguz::cli {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

struct DrainArgs {
  std::string listen = "127.0.0.1:9108";
  std::string token;
  int wait_seconds = 60;
};

// POST /drain: the status and body of the answer; throws beast::system_error when the listener
// cannot be reached.
http::response<http::string_body> post_drain(const std::string& host, uint16_t port,
                                             const std::string& token) {
  asio::io_context ioc;
  beast::tcp_stream stream(ioc);
  stream.expires_after(std::chrono::seconds(10));
  stream.connect(tcp::endpoint(asio::ip::make_address(host), port));
  http::request<http::string_body> req{http::verb::post, "/drain", 11};
  req.set(http::field::host, host);
  if (!token.empty()) req.set(http::field::authorization, "Bearer " + token);
  req.prepare_payload();
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  beast::error_code ec;
  stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  return res;
}

// Whether something still listens at host:port.
bool listening(const std::string& host, uint16_t port) {
  asio::io_context ioc;
  tcp::socket socket(ioc);
  beast::error_code ec;
  socket.connect(tcp::endpoint(asio::ip::make_address(host), port), ec);
  return !ec;
}

int run_drain(const DrainArgs& a) {
  const auto [host, port] = site::parse_listen_address(a.listen);
  http::response<http::string_body> res;
  try {
    res = post_drain(host, port, a.token);
  } catch (const beast::system_error& e) {
    std::cerr << "toguz admin: drain: " << a.listen << ": " << e.code().message()
              << " (is it the server's --metrics-listen?)\n";
    return 1;
  }
  if (res.result() != http::status::accepted) {
    std::cerr << "toguz admin: drain: " << a.listen << " answered " << res.result_int() << ": "
              << res.body() << "\n";
    return 1;
  }
  std::cout << "drain: the server at " << a.listen << " is draining" << std::endl;
  if (a.wait_seconds == 0) return 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(a.wait_seconds);
  while (listening(host, port)) {
    if (std::chrono::steady_clock::now() > deadline) {
      std::cerr << "toguz admin: drain: the server still runs after " << a.wait_seconds << " s\n";
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::cout << "drain: the server has stopped" << std::endl;
  return 0;
}

}  // namespace

void add_admin_drain(CLI::App& admin) {
  auto args = std::make_shared<DrainArgs>();
  CLI::App* sub = admin.add_subcommand(
      "drain", "Ask a running server to drain and stop, as SIGTERM does (its --metrics-listen)");
  sub->add_option("--metrics-listen", args->listen, "the server's --metrics-listen ADDR:PORT")
      ->capture_default_str();
  sub->add_option("--metrics-token", args->token, "the server's metrics token, if it has one")
      ->envname("TOGUZ_METRICS_TOKEN");
  sub->add_option("--wait-seconds", args->wait_seconds,
                  "wait this long for the server to stop (0: do not wait)")
      ->check(CLI::Range(0, 3600))
      ->capture_default_str();
  sub->callback([args] {
    int code = 1;
    try {
      code = run_drain(*args);
    } catch (const std::exception& e) {
      std::cerr << "toguz admin: drain: " << e.what() << "\n";
    }
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace toguz::cli
