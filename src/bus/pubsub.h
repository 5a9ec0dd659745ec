// Redis pub/sub: publish on any Connection; a Subscriber receives on its own thread.
//
// Why a thread of its own: a subscribed Redis connection can do nothing else, and a server's
// IO thread must never block on it. The Subscriber's callback runs on the subscriber thread;
// an asio server hands each message to its IO thread there (asio::post(ioc, ...)) and keeps
// the callback short. Messages are delivered in the order Redis sent them.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "bus/redis.h"

namespace toguz::bus {

// PUBLISH: the number of subscribers that received it (on this Redis).
long long publish(Connection& redis, const std::string& channel, const std::string& message);

struct Message {
  std::string channel;
  std::string pattern;  // the PSUBSCRIBE pattern that matched; empty for a plain channel
  std::string payload;
};

class Subscriber {
 public:
  using OnMessage = std::function<void(const Message&)>;
  // Called on the subscriber thread with true once a (re)connection has subscribed to
  // everything asked for, and with false (and the error) when the connection was lost or could
  // not be made. Pub/sub keeps nothing: what was published while disconnected is gone, so a
  // server reloads what it needs from the store on `true` after a `false`.
  using OnState = std::function<void(bool connected, const std::string& error)>;

  // Starts the thread, which connects (and reconnects after a loss, every `retry`). The
  // callbacks must not throw.
  Subscriber(RedisUrl url, OnMessage on_message, OnState on_state = nullptr,
             std::chrono::milliseconds retry = std::chrono::milliseconds(500));
  ~Subscriber();  // stop()
  Subscriber(const Subscriber&) = delete;
  Subscriber& operator=(const Subscriber&) = delete;

  // Thread-safe; they take effect soon on the subscriber thread (and again on reconnects).
  void subscribe(const std::string& channel);
  void unsubscribe(const std::string& channel);
  void psubscribe(const std::string& pattern);
  void punsubscribe(const std::string& pattern);

  // Waits until Redis has confirmed every subscription asked for so far (a message published
  // after this returns true is delivered). False on timeout.
  bool wait_subscribed(std::chrono::milliseconds timeout);

  // Stops and joins the thread; no callback runs after it returns. Not from a callback.
  void stop();

 private:
  struct Op {
    const char* command;
    std::string name;
  };
  void run();
  void wake();
  void set_confirmed(const Reply& r);
  bool in_sync() const;  // under mutex_

  RedisUrl url_;
  OnMessage on_message_;
  OnState on_state_;
  std::chrono::milliseconds retry_;
  int wake_pipe_[2] = {-1, -1};

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool stopping_ = false;
  bool connected_ = false;
  std::set<std::string> channels_, patterns_;          // asked for
  std::set<std::string> sub_channels_, sub_patterns_;  // confirmed by Redis
  std::vector<Op> ops_;                                // to send on the live connection
  std::thread thread_;
};

}  // namespace toguz::bus
