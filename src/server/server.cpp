// The network side: the listener, HTTP sessions (API routing, static files) and WebSocket
// sessions. All handlers run on the one IO thread.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "rules/record.h"
#include "server/server_impl.h"
#include "server/texts.h"

namespace toguz::server {

namespace fs = std::filesystem;

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string side_name(int s) { return s == 0 ? "white" : "black"; }

http::response<http::string_body> json_response(http::status status, const json::value& body, unsigned version) {
  http::response<http::string_body> res{status, version};
  res.set(http::field::content_type, "application/json; charset=utf-8");
  res.set(http::field::cache_control, "no-store");
  res.body() = json::serialize(body);
  res.prepare_payload();
  return res;
}

http::response<http::string_body> error_response(http::status status, const std::string& message) {
  json::object o = error_code(message);  // the code and parameters a client translates
  o["error"] = message;
  return json_response(status, o);
}

namespace {

// The page served when the front end has not been built.
constexpr const char* kNoFrontEnd =
    "<!doctype html><html><head><meta charset=\"utf-8\"><title>toguz</title></head><body>"
    "<h1>toguz serve</h1><p>The front end is not built. Run <code>make web</code> (or <code>make run</code>) "
    "and reload this page.</p><p>The API is up: <a href=\"/api/health\">/api/health</a>.</p></body></html>";

std::string mime_type(const std::string& path) {
  auto ext = fs::path(path).extension().string();
  for (auto& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".html" || ext == ".htm") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json" || ext == ".map") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".jpg" || ext == ".jpeg") return "image/jpeg";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".webp") return "image/webp";
  if (ext == ".woff2") return "font/woff2";
  if (ext == ".woff") return "font/woff";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  if (ext == ".webmanifest") return "application/manifest+json";
  return "application/octet-stream";
}

bool read_file(const fs::path& p, std::string* out) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return false;
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  std::ostringstream o;
  o << in.rdbuf();
  *out = o.str();
  return true;
}

// One HTTP connection: reads requests (keep-alive) until it closes or upgrades to a WebSocket.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(Server::Impl& server, tcp::socket&& socket) : server_(server), stream_(std::move(socket)) {}

  void run() { do_read(); }

 private:
  void do_read() {
    parser_.emplace();
    parser_->body_limit(kMaxBody);
    parser_->header_limit(16 * 1024);
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == net::error::operation_aborted) {
      close();
      return;
    }
    if (ec == http::error::body_limit) {
      write(error_response(http::status::payload_too_large, "request body over 64 KiB"), false);
      return;
    }
    if (ec) {
      if (ec == http::error::header_limit)
        write(error_response(http::status::request_header_fields_too_large, "request headers too large"), false);
      else
        write(error_response(http::status::bad_request, std::string("bad HTTP request: ") + ec.message()), false);
      return;
    }
    http::request<http::string_body> req = parser_->release();
    if (websocket::is_upgrade(req)) {
      upgrade(std::move(req));
      return;
    }
    const bool keep = req.keep_alive();
    const unsigned version = req.version();
    auto self = shared_from_this();
    server_.handle_http(req, [self, keep, version](http::response<http::string_body> res) {
      res.version(version);
      res.set(http::field::server, "toguz");
      self->write(std::move(res), keep);
    });
  }

  void upgrade(http::request<http::string_body> req) {
    // /ws/<id>?token=<secret>
    std::string target(req.target());
    std::string path = target.substr(0, target.find('?'));
    std::string token;
    if (auto q = target.find('?'); q != std::string::npos) {
      std::string query = target.substr(q + 1);
      std::istringstream in(query);
      std::string kv;
      while (std::getline(in, kv, '&'))
        if (kv.rfind("token=", 0) == 0) token = kv.substr(6);
    }
    std::shared_ptr<Room> room;
    if (path.rfind("/ws/", 0) == 0) room = server_.find_room(path.substr(4));
    if (!room) {
      write(error_response(http::status::not_found, "no such game"), false);
      return;
    }
    stream_.expires_never();
    auto ws = std::make_shared<WsSession>(server_, stream_.release_socket());
    ws->start(std::move(req), room, server_.side_for_token(*room, token));
  }

  void write(http::response<http::string_body> res, bool keep) {
    res.keep_alive(keep);
    res.prepare_payload();
    auto sp = std::make_shared<http::response<http::string_body>>(std::move(res));
    stream_.expires_after(std::chrono::seconds(30));
    http::async_write(stream_, *sp, [self = shared_from_this(), sp, keep](beast::error_code ec, size_t) {
      if (ec || !keep) {
        self->close();
        return;
      }
      self->do_read();
    });
  }

  void close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.socket().close(ec);
  }

  Server::Impl& server_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};


}  // namespace

// ---- WebSocket session ----

WsSession::WsSession(Server::Impl& server, tcp::socket&& socket) : server_(server), ws_(std::move(socket)) {}

// A session is detached from its room when its connection fails or closes (on_gone); one
// still attached at shutdown dies with the io_context and must not call back into the server.
WsSession::~WsSession() = default;

void WsSession::start(http::request<http::string_body> req, std::shared_ptr<Room> r, int s) {
  room = std::move(r);
  side = s;
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  ws_.read_message_max(kMaxBody);  // above this the connection closes; above kMaxMessage: an error
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, "toguz"); }));
  auto self = shared_from_this();
  ws_.async_accept(req, [self](beast::error_code ec) {
    if (ec) return;
    self->window_start = SteadyClock::now();
    self->attached_ = true;
    self->server_.attach(*self);
    self->do_read();
  });
}

void WsSession::do_read() {
  ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, size_t) {
    if (ec) {
      self->on_gone();
      return;
    }
    std::string text = beast::buffers_to_string(self->buffer_.data());
    self->buffer_.consume(self->buffer_.size());
    if (!self->gone_) self->server_.on_message(*self, text);
    if (!self->gone_) self->do_read();
  });
}

void WsSession::send(std::string message) {
  if (gone_) return;
  if (queue_.size() >= kMaxQueuedWrites) {
    close();
    return;
  }
  queue_.push_back(std::move(message));
  if (!writing_) do_write();
}

void WsSession::do_write() {
  writing_ = true;
  ws_.text(true);
  ws_.async_write(net::buffer(queue_.front()), [self = shared_from_this()](beast::error_code ec, size_t) {
    self->queue_.pop_front();
    if (ec) {
      self->writing_ = false;
      self->on_gone();
      return;
    }
    if (!self->queue_.empty()) self->do_write();
    else self->writing_ = false;
  });
}

void WsSession::close() {
  if (gone_) return;
  on_gone();
  beast::error_code ec;
  beast::get_lowest_layer(ws_).socket().close(ec);
}

void WsSession::on_gone() {
  if (gone_) return;
  gone_ = true;
  if (analysis) analysis->cancel();
  if (attached_) server_.detach(*this);
}

// ---- HTTP routing ----

void Server::Impl::handle_http(const http::request<http::string_body>& req, Respond respond) {
  std::string target(req.target());
  const std::string path = target.substr(0, target.find('?'));
  const std::string query = target.find('?') == std::string::npos ? "" : target.substr(target.find('?') + 1);
  const auto method = req.method();
  if (path.rfind("/api/", 0) != 0 && path != "/api") {
    if (method != http::verb::get && method != http::verb::head) {
      respond(error_response(http::status::method_not_allowed, "only GET outside /api"));
      return;
    }
    serve_static(req, respond);
    return;
  }
  try {
    // The JSON body of a POST: an object, else 400.
    auto body_object = [&](json::object* out) -> bool {
      json::error_code ec;
      json::value v = json::parse(req.body(), ec);
      if (ec || !v.is_object()) {
        respond(error_response(http::status::bad_request, "body: expected a JSON object"));
        return false;
      }
      *out = std::move(v.as_object());
      return true;
    };
    std::vector<std::string> parts;  // path segments after /api/
    {
      std::istringstream in(path.substr(5));
      std::string seg;
      while (std::getline(in, seg, '/'))
        if (!seg.empty()) parts.push_back(seg);
    }
    json::object body;
    if (parts.size() == 1 && parts[0] == "health" && method == http::verb::get) {
      respond(json_response(http::status::ok, json::object{{"ok", true}, {"version", TOGUZ_VERSION}}));
    } else if (parts.size() == 1 && parts[0] == "games" && method == http::verb::post) {
      if (body_object(&body)) respond(api_create(body));
    } else if (parts.size() == 1 && parts[0] == "games" && method == http::verb::get) {
      respond(api_list(query));
    } else if (parts.size() == 1 && parts[0] == "import" && method == http::verb::post) {
      if (body_object(&body)) respond(api_import(body));
    } else if (parts.size() == 1 && parts[0] == "analyze" && method == http::verb::post) {
      if (body_object(&body)) api_analyze(body, respond);
    } else if (parts.size() == 3 && parts[0] == "games" && parts[2] == "join" && method == http::verb::post) {
      if (body_object(&body)) respond(api_join(parts[1], body));
    } else if (parts.size() == 2 && parts[0] == "games" && method == http::verb::get) {
      auto room = find_room(parts[1]);
      if (!room) respond(error_response(http::status::not_found, "no such game: " + parts[1]));
      else respond(json_response(http::status::ok, json::object{{"game", state_json(*room, kSpectator)}}));
    } else if (parts.size() == 3 && parts[0] == "games" && parts[2] == "pgn" && method == http::verb::get) {
      auto room = find_room(parts[1]);
      if (!room) {
        respond(error_response(http::status::not_found, "no such game: " + parts[1]));
      } else {
        const auto tags = export_tags(room->row);
        http::response<http::string_body> res{http::status::ok, 11};
        res.set(http::field::content_type, "text/plain; charset=utf-8");
        res.set(http::field::content_disposition, "attachment; filename=\"toguz-" + room->row.id + ".pgn\"");
        res.body() = write_record(room->game, tags, RecordStyle::Pgn);
        respond(std::move(res));
      }
    } else {
      respond(error_response(http::status::not_found, "no such endpoint: " + std::string(req.method_string()) + " " + path));
    }
  } catch (const std::exception& e) {
    respond(error_response(http::status::internal_server_error, std::string("server error: ") + e.what()));
  }
}

void Server::Impl::serve_static(const http::request<http::string_body>& req, Respond& respond) {
  std::string path(req.target());
  path = url_decode(path.substr(0, path.find('?')));
  auto page = [&](http::status st, std::string body, const std::string& type) {
    http::response<http::string_body> res{st, 11};
    res.set(http::field::content_type, type);
    if (req.method() == http::verb::head) {
      res.content_length(body.size());
    } else {
      res.body() = std::move(body);
    }
    respond(std::move(res));
  };
  std::string index;
  const fs::path root = config.static_dir;
  if (config.static_dir.empty() || !read_file(root / "index.html", &index)) {
    page(http::status::ok, kNoFrontEnd, "text/html; charset=utf-8");
    return;
  }
  // No way out of the folder: no "..", no backslash, no NUL.
  const bool safe = path.find("..") == std::string::npos && path.find('\\') == std::string::npos &&
                    path.find('\0') == std::string::npos && !path.empty() && path[0] == '/';
  std::string body;
  if (safe && path != "/" && read_file(root / path.substr(1), &body)) {
    page(http::status::ok, std::move(body), mime_type(path));
    return;
  }
  // Client routing: unknown paths get the app, except missing assets (a file name with an
  // extension under /assets), which are a plain 404.
  if (path.rfind("/assets/", 0) == 0) {
    page(http::status::not_found, "not found", "text/plain; charset=utf-8");
    return;
  }
  page(http::status::ok, std::move(index), "text/html; charset=utf-8");
}

void Server::Impl::do_accept() {
  acceptor.async_accept(net::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted || !acceptor.is_open()) return;
    if (!ec) {
      beast::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);  // small WebSocket frames: no Nagle delay
      std::make_shared<HttpSession>(*this, std::move(socket))->run();
    }
    do_accept();
  });
}

// ---- Server ----

Server::Impl::Impl(const Config& c) : config(c), rng(std::random_device{}()) {
  store = std::make_unique<Store>(config.db_path);
  int workers = config.workers;
  if (workers <= 0) workers = std::max(1, int(std::thread::hardware_concurrency()) - 1);
  pool = std::make_unique<WorkerPool>(workers);
  load_unfinished();
}

Server::Impl::~Impl() {
  pool.reset();  // joins the workers before the rooms and sessions go
  rooms.clear();
}

void Server::Impl::shutdown_on_io() {
  beast::error_code ec;
  acceptor.close(ec);
  stopped_io = true;
  pool->shutdown();
  for (auto& [id, room] : rooms) {
    room->flag_timer.cancel();
    room->abandon_timer[0].cancel();
    room->abandon_timer[1].cancel();
    if (room->row.status == "playing" && room->has_clock) {
      // Save the clocks as they stand: they stay paused until the server is back.
      room->left[0] = room->clock_left(0);
      room->left[1] = room->clock_left(1);
      room->clock_running = false;
      persist(*room);
    }
    for (WsSession* s : std::vector<WsSession*>(room->sessions)) s->close();
  }
  ioc.stop();
}

Server::Server(const Config& config) : impl_(std::make_unique<Impl>(config)) {}

Server::~Server() { stop(); }

void Server::start() {
  Impl& im = *impl_;
  beast::error_code ec;
  auto addr = net::ip::make_address(im.config.host, ec);
  if (ec) throw std::runtime_error("bad --host '" + im.config.host + "': " + ec.message());
  tcp::endpoint ep(addr, im.config.port);
  im.acceptor.open(ep.protocol(), ec);
  if (!ec) im.acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) im.acceptor.bind(ep, ec);
  if (!ec) im.acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec)
    throw std::runtime_error("cannot listen on " + im.config.host + ":" + std::to_string(im.config.port) + ": " +
                             ec.message());
  im.do_accept();
  // Rooms loaded at start may need the engine or a flag timer: start them on the IO thread.
  net::post(im.ioc, [&im] {
    for (auto& [id, room] : im.rooms) {
      im.maybe_start_engine(room);
      im.arm_flag_timer(room);
    }
  });
  im.io_thread = std::thread([&im] {
    for (;;) {
      try {
        im.ioc.run();
        return;
      } catch (const std::exception&) {
        // A handler threw: keep serving (the error was the request's, not the server's).
      }
    }
  });
}

uint16_t Server::port() const {
  beast::error_code ec;
  auto ep = impl_->acceptor.local_endpoint(ec);
  return ec ? 0 : ep.port();
}

void Server::stop() {
  Impl& im = *impl_;
  std::lock_guard<std::mutex> lock(im.stop_mutex);
  if (im.stopped) return;
  im.stopped = true;
  if (im.io_thread.joinable()) {
    net::post(im.ioc, [&im] { im.shutdown_on_io(); });
    im.io_thread.join();
  }
  im.pool->shutdown();
}

}  // namespace toguz::server
