// The network side: the listener, HTTP sessions (API routing, static files) and WebSocket
// sessions. All handlers run on the one IO thread.
#include <zlib.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "rules/record.h"
#include "server/server_impl.h"
#include "server/static_path.h"
#include "server/texts.h"

namespace toguz::server {

namespace fs = std::filesystem;

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string side_name(int s) {
  return s == 0 ? "white" : "black";
}

http::response<http::string_body> json_response(http::status status, const json::value& body,
                                                unsigned version) {
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
    "<h1>toguz serve</h1><p>The front end is not built. Run <code>make web</code> (or <code>make "
    "run</code>) "
    "and reload this page.</p><p>The API is up: <a "
    "href=\"/api/health\">/api/health</a>.</p></body></html>";

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

// On every answer: no MIME sniffing, no framing, no referrer, and a policy that allows only this
// server's own scripts (none inline), styles, images and sockets.
void add_security_headers(http::response<http::string_body>& res, const std::string& host) {
  res.set("X-Content-Type-Options", "nosniff");
  res.set("X-Frame-Options", "DENY");
  res.set("Referrer-Policy", "no-referrer");
  std::string connect = "'self'";
  if (!host.empty() && host.find_first_of(" ;,'\"") == std::string::npos)
    connect += " ws://" + host + " wss://" + host;
  res.set("Content-Security-Policy",
          "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' "
          "data:; "
          "connect-src " +
              connect +
              "; object-src 'none'; base-uri 'none'; form-action 'self'; "
              "frame-ancestors 'none'");
}

// Text worth compressing.
bool compressible(const std::string& type) {
  return type.rfind("text/", 0) == 0 || type.rfind("application/json", 0) == 0 ||
         type.rfind("image/svg", 0) == 0 || type.rfind("application/manifest", 0) == 0;
}

// gzip of `in` (zlib's gzip wrapper); "" on failure.
std::string gzip(const std::string& in) {
  z_stream z{};
  if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return "";
  std::string out(deflateBound(&z, uLong(in.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = uInt(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = uInt(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return rc == Z_STREAM_END ? out : "";
}

bool accepts_gzip(const http::request<http::string_body>& req) {
  std::string ae(req[http::field::accept_encoding]);
  for (auto& c : ae) c = char(std::tolower(static_cast<unsigned char>(c)));
  const auto p = ae.find("gzip");
  return p != std::string::npos && ae.compare(p, 9, "gzip;q=0") != 0 &&
         ae.compare(p, 10, "gzip; q=0") != 0;
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
  HttpSession(Server::Impl& server, tcp::socket&& socket)
      : server_(server), stream_(std::move(socket)) {}

  void run() { do_read(); }

 private:
  void do_read() {
    parser_.emplace();
    parser_->body_limit(kMaxBody);
    parser_->header_limit(16 * 1024);
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == net::error::operation_aborted) {
      close();
      return;
    }
    if (ec == http::error::body_limit) {
      write(error_response(http::status::payload_too_large, "request body over 64 KiB"), false);
      return;
    }
    if (ec) {
      if (ec == http::error::header_limit)
        write(error_response(http::status::request_header_fields_too_large,
                             "request headers too large"),
              false);
      else
        write(error_response(http::status::bad_request,
                             std::string("bad HTTP request: ") + ec.message()),
              false);
      return;
    }
    http::request<http::string_body> req = parser_->release();
    if (websocket::is_upgrade(req)) {
      upgrade(std::move(req));
      return;
    }
    const bool keep = req.keep_alive();
    const unsigned version = req.version();
    const bool head = req.method() == http::verb::head;
    auto self = shared_from_this();
    beast::error_code pec;
    const auto remote = stream_.socket().remote_endpoint(pec);
    const std::string peer = pec ? std::string("?") : remote.address().to_string();
    const std::string host(req[http::field::host]);
    server_.handle_http(req, peer,
                        [self, keep, version, head, host](http::response<http::string_body> res) {
                          res.version(version);
                          res.set(http::field::server, "toguz");
                          add_security_headers(res, host);
                          self->write(std::move(res), keep, head);
                        });
  }

  void upgrade(http::request<http::string_body> req) {
    // /ws/<id>: the token comes in the first message ("hello"), never in the URL.
    std::string target(req.target());
    std::string path = target.substr(0, target.find('?'));
    if (!server_.origin_allowed(req)) {
      write(error_response(http::status::forbidden, "Origin: not this server's"), false);
      return;
    }
    std::shared_ptr<Room> room;
    if (path.rfind("/ws/", 0) == 0) room = server_.find_room(path.substr(4));
    if (!room) {
      write(error_response(http::status::not_found, "no such game"), false);
      return;
    }
    beast::error_code pec;
    const auto remote = stream_.socket().remote_endpoint(pec);
    const std::string peer = pec ? std::string("?") : remote.address().to_string();
    AddressState& a = server_.addresses[peer];
    if (a.connections >= server_.config.max_connections_per_address) {
      write(error_response(http::status::service_unavailable,
                           "too many connections from this address (" +
                               std::to_string(server_.config.max_connections_per_address) + ")"),
            false);
      return;
    }
    stream_.expires_never();
    auto ws = std::make_shared<WsSession>(server_, stream_.release_socket());
    ws->start(std::move(req), room, peer);
  }

  // Sends `res`; for a HEAD request only its header, whose Content-Length is the body's.
  void write(http::response<http::string_body> res, bool keep, bool head = false) {
    res.keep_alive(keep);
    res.prepare_payload();
    auto sp = std::make_shared<http::response<http::string_body>>(std::move(res));
    stream_.expires_after(std::chrono::seconds(30));
    auto done = [self = shared_from_this(), sp, keep](beast::error_code ec, size_t) {
      if (ec || !keep) {
        self->close();
        return;
      }
      self->do_read();
    };
    if (head) {
      auto sr = std::make_shared<http::response_serializer<http::string_body>>(*sp);
      http::async_write_header(stream_, *sr,
                               [sr, done](beast::error_code ec, size_t n) { done(ec, n); });
    } else {
      http::async_write(stream_, *sp, std::move(done));
    }
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

WsSession::WsSession(Server::Impl& server, tcp::socket&& socket)
    : server_(server), ws_(std::move(socket)), hello_timer_(ws_.get_executor()) {}

// A session is detached from its room when its connection fails or closes (on_gone); one
// still attached at shutdown dies with the io_context and must not call back into the server.
WsSession::~WsSession() = default;

void WsSession::start(http::request<http::string_body> req, std::shared_ptr<Room> r,
                      std::string peer) {
  room = std::move(r);
  peer_ = std::move(peer);
  ++server_.addresses[peer_].connections;
  counted_ = true;
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  ws_.read_message_max(kMaxBody);  // above this the connection closes; above kMaxMessage: an error
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, "toguz"); }));
  auto self = shared_from_this();
  ws_.async_accept(req, [self](beast::error_code ec) {
    if (ec) {
      self->on_gone();
      return;
    }
    self->window_start = SteadyClock::now();
    // The hello must come soon: a socket that never says who it is does not stay.
    self->hello_timer_.expires_after(std::chrono::seconds(10));
    self->hello_timer_.async_wait([weak = std::weak_ptr<WsSession>(self)](beast::error_code ec) {
      auto s = weak.lock();
      if (!ec && s && !s->attached_) s->close();
    });
    self->do_read();
  });
}

// The first message: {"type":"hello","token":<secret>|null}. It seats the session (a wrong or
// missing token makes a spectator) and attaches it to its room, which answers with the state.
void WsSession::on_hello(std::string_view text) {
  json::error_code ec;
  json::value v = json::parse(text, ec);
  const json::object* o = !ec && v.is_object() ? &v.as_object() : nullptr;
  const json::value* type = o ? o->if_contains("type") : nullptr;
  if (!type || !type->is_string() || type->as_string() != "hello") {
    send(error_message(R"(hello: the first message must be {"type":"hello","token":...})"));
    return;
  }
  const json::value* token = o->if_contains("token");
  if (token && !token->is_null() && !token->is_string()) {
    send(error_message("token: expected a string or null"));
    return;
  }
  // The room may have left memory since the upgrade (sweep): take the one in the map now.
  if (auto current = server_.find_room(room->row.id)) room = std::move(current);
  side = token && token->is_string()
             ? server_.side_for_token(*room, std::string(token->as_string()))
             : kSpectator;
  if (side == kSpectator && room->spectators >= server_.config.max_spectators_per_room) {
    send(error_message("this game has " + std::to_string(room->spectators) +
                       " spectators, the most it takes"));
    close();
    return;
  }
  hello_timer_.cancel();
  attached_ = true;
  server_.attach(*this);
}

void WsSession::do_read() {
  ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, size_t) {
    if (ec) {
      self->on_gone();
      return;
    }
    std::string text = beast::buffers_to_string(self->buffer_.data());
    self->buffer_.consume(self->buffer_.size());
    if (!self->gone_ && !self->attached_)
      self->on_hello(text);
    else if (!self->gone_)
      self->server_.on_message(*self, text);
    if (!self->gone_) self->do_read();
  });
}

void WsSession::send(std::string message) {
  push(std::move(message), false);
}

void WsSession::send_state(std::string message) {
  push(std::move(message), true);
}

void WsSession::push(std::string message, bool state) {
  if (gone_) return;
  if (state) {
    // The front entry may be on the wire: only later ones can be replaced.
    for (auto it = queue_.begin() + (writing_ ? 1 : 0); it != queue_.end(); ++it) {
      if (!it->state) continue;
      queued_bytes_ -= it->text.size();
      queue_.erase(it);
      break;
    }
  }
  const bool watcher = side == kSpectator;
  if (queue_.size() >= (watcher ? kMaxQueuedSpectator : kMaxQueuedPlayer) ||
      queued_bytes_ + message.size() >
          (watcher ? kMaxQueuedBytesSpectator : kMaxQueuedBytesPlayer)) {
    close();
    return;
  }
  queued_bytes_ += message.size();
  queue_.push_back({std::move(message), state});
  if (!writing_) do_write();
}

void WsSession::do_write() {
  writing_ = true;
  ws_.text(true);
  ws_.async_write(net::buffer(queue_.front().text),
                  [self = shared_from_this()](beast::error_code ec, size_t) {
                    self->queued_bytes_ -= self->queue_.front().text.size();
                    self->queue_.pop_front();
                    if (ec) {
                      self->writing_ = false;
                      self->on_gone();
                      return;
                    }
                    if (!self->queue_.empty())
                      self->do_write();
                    else
                      self->writing_ = false;
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
  hello_timer_.cancel();
  if (counted_) {
    counted_ = false;
    if (auto it = server_.addresses.find(peer_); it != server_.addresses.end())
      --it->second.connections;
  }
  if (analysis) analysis->cancel();
  if (attached_) server_.detach(*this);
}

// ---- HTTP routing ----

bool Server::Impl::origin_allowed(const http::request<http::string_body>& req) const {
  auto it = req.find(http::field::origin);
  if (it == req.end()) return true;  // not sent: no browser's cross-site request
  const std::string origin(it->value()), host(req[http::field::host]);
  return !host.empty() && (origin == "http://" + host || origin == "https://" + host);
}

void Server::Impl::handle_http(const http::request<http::string_body>& req, const std::string& peer,
                               Respond respond) {
  std::string target(req.target());
  const std::string path = target.substr(0, target.find('?'));
  const std::string query =
      target.find('?') == std::string::npos ? "" : target.substr(target.find('?') + 1);
  const auto method = req.method();
  if (method != http::verb::get && method != http::verb::head && !origin_allowed(req)) {
    respond(error_response(http::status::forbidden, "Origin: not this server's"));
    return;
  }
  if (path.rfind("/api/", 0) != 0 && path != "/api") {
    if (method != http::verb::get && method != http::verb::head) {
      auto res = error_response(http::status::method_not_allowed, "only GET and HEAD outside /api");
      res.set(http::field::allow, "GET, HEAD");
      respond(std::move(res));
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
    // The methods of each endpoint: another method on it is a 405 naming them.
    std::string allow;
    if (parts.size() == 1 && parts[0] == "health")
      allow = "GET, HEAD";
    else if (parts.size() == 1 && parts[0] == "games")
      allow = "GET, HEAD, POST";
    else if (parts.size() == 1 && (parts[0] == "import" || parts[0] == "analyze"))
      allow = "POST";
    else if (parts.size() == 2 && parts[0] == "games")
      allow = "GET, HEAD";
    else if (parts.size() == 3 && parts[0] == "games" && parts[2] == "join")
      allow = "POST";
    else if (parts.size() == 3 && parts[0] == "games" && parts[2] == "pgn")
      allow = "GET, HEAD";
    const bool get = method == http::verb::get || method == http::verb::head;
    const bool post = method == http::verb::post;
    if (!allow.empty() && !(get && allow.find("GET") != std::string::npos) &&
        !(post && allow.find("POST") != std::string::npos)) {
      auto res =
          error_response(http::status::method_not_allowed,
                         std::string(req.method_string()) + " " + path + ": allowed " + allow);
      res.set(http::field::allow, allow);
      respond(std::move(res));
      return;
    }
    if (parts.size() == 1 && parts[0] == "health" && get) {
      size_t connections = 0;
      for (const auto& [id, room] : rooms) connections += room->sessions.size();
      respond(json_response(http::status::ok, json::object{{"ok", true},
                                                           {"version", TOGUZ_VERSION},
                                                           {"rooms", rooms.size()},
                                                           {"connections", connections}}));
    } else if (parts.size() == 1 && parts[0] == "games" && post) {
      if (body_object(&body)) respond(api_create(body));
    } else if (parts.size() == 1 && parts[0] == "games" && get) {
      respond(api_list(query));
    } else if (parts.size() == 1 && parts[0] == "import" && post) {
      if (body_object(&body)) respond(api_import(body));
    } else if (parts.size() == 1 && parts[0] == "analyze" && post) {
      if (body_object(&body)) api_analyze(body, peer, respond);
    } else if (parts.size() == 3 && parts[0] == "games" && parts[2] == "join" && post) {
      if (body_object(&body)) respond(api_join(parts[1], body));
    } else if (parts.size() == 2 && parts[0] == "games" && get) {
      auto room = find_room(parts[1]);
      if (!room)
        respond(error_response(http::status::not_found, "no such game: " + parts[1]));
      else
        respond(
            json_response(http::status::ok, json::object{{"game", state_json(*room, kSpectator)}}));
    } else if (parts.size() == 3 && parts[0] == "games" && parts[2] == "pgn" && get) {
      auto room = find_room(parts[1]);
      if (!room) {
        respond(error_response(http::status::not_found, "no such game: " + parts[1]));
      } else {
        const auto tags = export_tags(room->row);
        http::response<http::string_body> res{http::status::ok, 11};
        res.set(http::field::content_type, "text/plain; charset=utf-8");
        res.set(http::field::content_disposition,
                "attachment; filename=\"toguz-" + room->row.id + ".pgn\"");
        res.body() = write_record(room->game, tags, RecordStyle::Pgn);
        respond(std::move(res));
      }
    } else {
      respond(error_response(http::status::not_found,
                             "no such endpoint: " + std::string(req.method_string()) + " " + path));
    }
  } catch (const std::exception& e) {
    respond(error_response(http::status::internal_server_error,
                           std::string("server error: ") + e.what()));
  }
}

StaticFile Server::Impl::load_static(const fs::path& file) {
  std::error_code ec;
  const auto mtime = fs::last_write_time(file, ec);
  const auto size = fs::file_size(file, ec);
  auto it = static_cache.find(file.string());
  if (it != static_cache.end() && it->second.mtime == mtime && it->second.size == size)
    return it->second;
  StaticFile f;
  if (ec || !read_file(file, &f.body)) return f;
  f.ok = true;
  f.mtime = mtime;
  f.size = size;
  f.type = mime_type(file.string());
  char tag[40];
  std::snprintf(tag, sizeof tag, "\"%016zx-%zx\"", std::hash<std::string>{}(f.body), f.body.size());
  f.etag = tag;
  if (compressible(f.type) && f.body.size() >= 512) f.gzip = gzip(f.body);
  if (static_cache.size() > 512) static_cache.clear();  // a bound, not an eviction policy
  static_cache[file.string()] = f;
  return f;
}

void Server::Impl::serve_static(const http::request<http::string_body>& req, Respond& respond) {
  std::string target(req.target());
  const std::string path = target.substr(0, target.find('?'));
  auto page = [&](http::status st, std::string body, const std::string& type) {
    http::response<http::string_body> res{st, 11};
    res.set(http::field::content_type, type);
    res.set(http::field::cache_control, "no-cache");
    res.body() = std::move(body);
    respond(std::move(res));
  };
  auto not_found = [&] { page(http::status::not_found, "not found", "text/plain; charset=utf-8"); };
  // A file: hashed assets are cached for good, everything else (index.html) revalidated by
  // its ETag; text is gzipped for clients that take it.
  auto serve = [&](const StaticFile& f, bool immutable) {
    const bool gz = !f.gzip.empty() && accepts_gzip(req);
    const std::string etag = gz ? f.etag.substr(0, f.etag.size() - 1) + "-gz\"" : f.etag;
    http::response<http::string_body> res{http::status::ok, 11};
    res.set(http::field::content_type, f.type);
    res.set(http::field::cache_control,
            immutable ? "public, max-age=31536000, immutable" : "no-cache");
    res.set(http::field::etag, etag);
    if (!f.gzip.empty()) res.set(http::field::vary, "Accept-Encoding");
    if (req[http::field::if_none_match] == etag) {
      res.result(http::status::not_modified);
    } else {
      if (gz) res.set(http::field::content_encoding, "gzip");
      res.body() = gz ? f.gzip : f.body;
    }
    respond(std::move(res));
  };
  const fs::path root = config.static_dir;
  const StaticFile index =
      config.static_dir.empty() ? StaticFile{} : load_static(root / "index.html");
  if (!index.ok) {
    page(http::status::ok, kNoFrontEnd, "text/html; charset=utf-8");
    return;
  }
  // No way out of the root: hostile segments are a 404, and a file is served only when its
  // canonical path (symlinks resolved) lies under the root's (static_path.h).
  const auto segments = path_segments(path);
  if (!segments) {
    not_found();
    return;
  }
  const bool asset = !segments->empty() && (*segments)[0] == "assets";
  if (auto file = file_under_root(root, *segments)) {
    const StaticFile f = load_static(*file);
    if (f.ok) {
      serve(f, asset);
      return;
    }
  }
  // Client routing: unknown paths get the app, except missing assets, which are a plain 404.
  if (asset) {
    not_found();
    return;
  }
  serve(index, false);
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
  store = toguz::store::open_store(config.db_path);
  int workers = config.workers;
  // Two at least by default: background work never takes the last worker from engine moves.
  if (workers <= 0) workers = std::max(2, int(std::thread::hardware_concurrency()) - 1);
  pool = std::make_unique<WorkerPool>(workers, size_t(std::max(1, config.max_queued_jobs)));
  store->expire_stale(now_ms() - int64_t(config.expire_waiting_seconds) * 1000,
                      now_ms() - int64_t(config.expire_analysis_seconds) * 1000);
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
  sweep_timer.cancel();
  trim_timer.cancel();
  pool->shutdown();
  for (auto& [id, room] : rooms) {
    room->flag_timer.cancel();
    room->presence_timer.cancel();
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

Server::~Server() {
  stop();
}

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
    throw std::runtime_error("cannot listen on " + im.config.host + ":" +
                             std::to_string(im.config.port) + ": " + ec.message());
  im.do_accept();
  // Rooms loaded at start may need the engine or a flag timer: start them on the IO thread.
  net::post(im.ioc, [&im] {
    for (auto& [id, room] : im.rooms) {
      im.maybe_start_engine(room);
      im.arm_flag_timer(room);
    }
    im.arm_sweep();
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
