#include "bus/redis.h"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <charconv>

namespace toguz::bus {

namespace {

timeval to_timeval(std::chrono::milliseconds ms) {
  timeval tv{};
  tv.tv_sec = long(ms.count() / 1000);
  tv.tv_usec = long(ms.count() % 1000) * 1000;
  return tv;
}

bool parse_int(std::string_view s, int lo, int hi, int* out) {
  int v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi) return false;
  *out = v;
  return true;
}

std::string command_name(const std::vector<std::string>& args) {
  return args.empty() ? std::string("(empty)") : args[0];
}

}  // namespace

std::string RedisUrl::text() const {
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port) + "/" + std::to_string(db);
}

RedisUrl parse_redis_url(std::string_view url) {
  const std::string shown(url.substr(0, 200));
  auto bad = [&](const std::string& why) {
    return BusError("redis URL '" + shown + "': " + why +
                    " (expected redis://[[user]:password@]host[:port][/db])");
  };
  constexpr std::string_view scheme = "redis://";
  if (url.substr(0, scheme.size()) != scheme) throw bad("it must start with redis://");
  std::string_view rest = url.substr(scheme.size());
  RedisUrl out;
  if (const size_t at = rest.rfind('@'); at != std::string_view::npos) {
    std::string_view auth = rest.substr(0, at);
    rest = rest.substr(at + 1);
    const size_t colon = auth.find(':');
    if (colon == std::string_view::npos) throw bad("the part before '@' must be user:password");
    out.user = std::string(auth.substr(0, colon));
    out.password = std::string(auth.substr(colon + 1));
    if (out.password.empty()) throw bad("empty password");
  }
  std::string_view hostport = rest, db;
  if (const size_t slash = rest.find('/'); slash != std::string_view::npos) {
    hostport = rest.substr(0, slash);
    db = rest.substr(slash + 1);
    if (!db.empty() && !parse_int(db, 0, 1 << 20, &out.db))
      throw bad("the database '" + std::string(db) + "' is not a number");
  }
  std::string_view port;
  if (!hostport.empty() && hostport[0] == '[') {
    const size_t close = hostport.find(']');
    if (close == std::string_view::npos) throw bad("'[' without ']'");
    out.host = std::string(hostport.substr(1, close - 1));
    std::string_view after = hostport.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') throw bad("expected ':' after ']'");
      port = after.substr(1);
      if (port.empty()) throw bad("empty port");
    }
  } else {
    const size_t colon = hostport.find(':');
    out.host = std::string(hostport.substr(0, colon));
    if (colon != std::string_view::npos) {
      port = hostport.substr(colon + 1);
      if (port.empty()) throw bad("empty port");
    }
  }
  if (out.host.empty()) throw bad("no host");
  if (!port.empty() && !parse_int(port, 1, 65535, &out.port))
    throw bad("the port '" + std::string(port) + "' is not a number in 1..65535");
  return out;
}

const std::string& Reply::text(std::string_view what) const {
  if (type != Type::String && type != Type::Status)
    throw BusError("redis: " + std::string(what) + ": expected a string reply");
  return str;
}

long long Reply::number(std::string_view what) const {
  if (type != Type::Integer)
    throw BusError("redis: " + std::string(what) + ": expected an integer reply");
  return integer;
}

namespace {

Reply copy_reply(const redisReply* r) {
  Reply out;
  switch (r->type) {
    case REDIS_REPLY_STRING:
      out.type = Reply::Type::String;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_STATUS:
      out.type = Reply::Type::Status;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ERROR:
      out.type = Reply::Type::Error;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_INTEGER:
      out.type = Reply::Type::Integer;
      out.integer = r->integer;
      break;
    case REDIS_REPLY_ARRAY:
      out.type = Reply::Type::Array;
      out.elements.reserve(r->elements);
      for (size_t i = 0; i < r->elements; ++i) out.elements.push_back(copy_reply(r->element[i]));
      break;
    default:
      break;
  }
  return out;
}

}  // namespace

Reply take_reply(void* hiredis_reply) {
  Reply r = copy_reply(static_cast<const redisReply*>(hiredis_reply));
  freeReplyObject(hiredis_reply);
  return r;
}

bool append_command(redisContext* c, const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  argv.reserve(args.size());
  lens.reserve(args.size());
  for (const std::string& a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  return redisAppendCommandArgv(c, int(argv.size()), argv.data(), lens.data()) == REDIS_OK;
}

redisContext* open_context(const RedisUrl& url, const Timeouts& timeouts) {
  redisContext* c =
      redisConnectWithTimeout(url.host.c_str(), url.port, to_timeval(timeouts.connect));
  if (c == nullptr) throw BusError("redis at " + url.text() + ": out of memory");
  if (c->err) {
    const std::string why = c->errstr;
    redisFree(c);
    throw BusError("redis at " + url.text() + ": " + why);
  }
  redisSetTimeout(c, to_timeval(timeouts.reply));
  redisEnableKeepAlive(c);
  return c;
}

std::vector<std::vector<std::string>> session_commands(const RedisUrl& url) {
  std::vector<std::vector<std::string>> out;
  if (!url.password.empty()) {
    if (url.user.empty())
      out.push_back({"AUTH", url.password});
    else
      out.push_back({"AUTH", url.user, url.password});
  }
  if (url.db != 0) out.push_back({"SELECT", std::to_string(url.db)});
  return out;
}

Connection::Connection(RedisUrl url, Timeouts timeouts)
    : url_(std::move(url)), timeouts_(timeouts) {
  connect();
}

Connection::~Connection() {
  drop();
}

void Connection::drop() {
  if (ctx_) redisFree(ctx_);
  ctx_ = nullptr;
}

void Connection::connect() {
  drop();
  ctx_ = open_context(url_, timeouts_);
  for (const auto& cmd : session_commands(url_)) {
    Reply r = command_reply(cmd);
    if (r.type == Reply::Type::Error) {
      drop();
      throw BusError("redis at " + url_.text() + ": " + cmd[0] + ": " + r.str);
    }
  }
}

void Connection::reconnect() {
  connect();
}

void Connection::fail_io(std::string_view command) {
  std::string why = ctx_ ? ctx_->errstr : "not connected";
  if (ctx_ && (ctx_->err == REDIS_ERR_IO) && why.find("Resource temporarily") != std::string::npos)
    why = "no reply in time";
  drop();
  throw BusError("redis at " + url_.text() + ": " + std::string(command) + ": " + why);
}

Reply Connection::read_reply(std::string_view command) {
  void* raw = nullptr;
  if (redisGetReply(ctx_, &raw) != REDIS_OK || raw == nullptr) fail_io(command);
  return take_reply(raw);
}

Reply Connection::command_reply(const std::vector<std::string>& args) {
  if (!ctx_) connect();
  if (!append_command(ctx_, args)) fail_io(command_name(args));
  return read_reply(command_name(args));
}

Reply Connection::command(const std::vector<std::string>& args) {
  Reply r = command_reply(args);
  if (r.type == Reply::Type::Error) throw ReplyError("redis: " + command_name(args) + ": " + r.str);
  return r;
}

Reply Connection::command(std::initializer_list<std::string_view> args) {
  std::vector<std::string> v;
  v.reserve(args.size());
  for (std::string_view a : args) v.emplace_back(a);
  return command(v);
}

Reply Connection::command_blocking(const std::vector<std::string>& args,
                                   std::chrono::milliseconds block) {
  if (!ctx_) connect();
  redisSetTimeout(ctx_, to_timeval(timeouts_.reply + block));
  Reply r = command_reply(args);  // may throw: then the context is gone anyway
  redisSetTimeout(ctx_, to_timeval(timeouts_.reply));
  if (r.type == Reply::Type::Error) throw ReplyError("redis: " + command_name(args) + ": " + r.str);
  return r;
}

std::vector<Reply> Connection::pipeline(const std::vector<std::vector<std::string>>& commands) {
  if (!ctx_) connect();
  for (const auto& args : commands)
    if (!append_command(ctx_, args)) fail_io(command_name(args));
  std::vector<Reply> out;
  out.reserve(commands.size());
  for (const auto& args : commands) out.push_back(read_reply(command_name(args)));
  return out;
}

}  // namespace toguz::bus
