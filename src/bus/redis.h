// A Redis connection (hiredis, RESP2) for the message bus between server instances and the
// engine job queue (docs/cluster.md). One Connection belongs to one thread at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct redisContext;

namespace toguz::bus {

// Every failure of the bus: a bad URL, a refused or lost connection, an error reply.
class BusError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An error reply from Redis ("ERR ...", "WRONGTYPE ...", "NOSCRIPT ..."): the connection is
// still good.
class ReplyError : public BusError {
 public:
  using BusError::BusError;
};

// Where Redis is: redis://[[user]:password@]host[:port][/db]; the port defaults to 6379, the db
// to 0; an IPv6 host is written in brackets ([::1]).
struct RedisUrl {
  std::string host;
  int port = 6379;
  int db = 0;
  std::string user, password;  // empty password: no AUTH
  std::string text() const;    // "host:port/db", for messages (no password)
};

// Throws BusError naming what is wrong and what was expected.
RedisUrl parse_redis_url(std::string_view url);

// A reply as plain data (hiredis' reply tree copied out). Error replies only appear here from
// Connection::command_reply; command() throws them as ReplyError.
struct Reply {
  enum class Type { Nil, String, Status, Integer, Array, Error };
  Type type = Type::Nil;
  std::string str;  // String, Status, Error
  long long integer = 0;
  std::vector<Reply> elements;  // Array

  bool nil() const { return type == Type::Nil; }
  bool is_array() const { return type == Type::Array; }
  // The text of a String or Status reply; throws BusError naming `what` otherwise.
  const std::string& text(std::string_view what) const;
  // An Integer reply; throws BusError naming `what` otherwise.
  long long number(std::string_view what) const;
};

struct Timeouts {
  std::chrono::milliseconds connect{2000};
  // How long a reply may take. A blocking command (XREADGROUP BLOCK n) needs more than n:
  // command_blocking adds its block time to this.
  std::chrono::milliseconds reply{5000};
};

// A connection that connects at construction (throws BusError: "redis at host:port: Connection
// refused") and sends one command at a time. After an I/O error the command throws BusError
// and the connection is marked broken; the next command reconnects first (AUTH and SELECT
// again). A command is never sent twice on its own: whether a lost command took effect is the
// caller's question.
class Connection {
 public:
  explicit Connection(RedisUrl url, Timeouts timeouts = {});
  explicit Connection(std::string_view url) : Connection(parse_redis_url(url)) {}
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // The reply; an error reply throws ReplyError ("redis: XADD: ERR ..."), I/O BusError.
  Reply command(const std::vector<std::string>& args);
  Reply command(std::initializer_list<std::string_view> args);
  // As command() but an error reply is returned, not thrown.
  Reply command_reply(const std::vector<std::string>& args);
  // A command that blocks in Redis up to `block` (XREADGROUP/XREAD BLOCK): the reply timeout is
  // raised by `block` for this command only.
  Reply command_blocking(const std::vector<std::string>& args, std::chrono::milliseconds block);

  // Several commands written at once, their replies read in order (error replies returned).
  std::vector<Reply> pipeline(const std::vector<std::vector<std::string>>& commands);

  bool connected() const { return ctx_ != nullptr; }
  void reconnect();  // drops the connection (if any) and connects again; throws BusError
  const RedisUrl& url() const { return url_; }
  const Timeouts& timeouts() const { return timeouts_; }

 private:
  void connect();
  void drop();
  [[noreturn]] void fail_io(std::string_view command);
  Reply read_reply(std::string_view command);
  RedisUrl url_;
  Timeouts timeouts_;
  redisContext* ctx_ = nullptr;
};

// Opens the socket only (no AUTH or SELECT); used by Connection and the Subscriber.
// Throws BusError.
redisContext* open_context(const RedisUrl& url, const Timeouts& timeouts);
// Copies hiredis' reply tree (and frees it).
Reply take_reply(void* hiredis_reply);
// Queues a command on the context's output buffer (redisAppendCommandArgv); false on failure.
bool append_command(redisContext* c, const std::vector<std::string>& args);
// The commands that make a fresh socket usable: AUTH when a password is set, SELECT when db != 0.
std::vector<std::vector<std::string>> session_commands(const RedisUrl& url);

}  // namespace toguz::bus
