#include "bus/pubsub.h"

#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace toguz::bus {

long long publish(Connection& redis, const std::string& channel, const std::string& message) {
  return redis.command({"PUBLISH", channel, message}).number("PUBLISH");
}

Subscriber::Subscriber(RedisUrl url, OnMessage on_message, OnState on_state,
                       std::chrono::milliseconds retry)
    : url_(std::move(url)),
      on_message_(std::move(on_message)),
      on_state_(std::move(on_state)),
      retry_(retry) {
  if (pipe2(wake_pipe_, O_CLOEXEC | O_NONBLOCK) != 0)
    throw std::system_error(errno, std::generic_category(), "subscriber: pipe");
  thread_ = std::thread([this] { run(); });
}

Subscriber::~Subscriber() {
  stop();
  close(wake_pipe_[0]);
  close(wake_pipe_[1]);
}

void Subscriber::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  wake();
  if (thread_.joinable()) thread_.join();
}

void Subscriber::wake() {
  const char b = 1;
  [[maybe_unused]] ssize_t n = write(wake_pipe_[1], &b, 1);  // a full pipe is awake already
}

void Subscriber::subscribe(const std::string& channel) {
  {
    std::lock_guard lock(mutex_);
    if (!channels_.insert(channel).second) return;
    ops_.push_back({"SUBSCRIBE", channel});
  }
  wake();
}

void Subscriber::unsubscribe(const std::string& channel) {
  {
    std::lock_guard lock(mutex_);
    if (channels_.erase(channel) == 0) return;
    ops_.push_back({"UNSUBSCRIBE", channel});
  }
  wake();
}

void Subscriber::psubscribe(const std::string& pattern) {
  {
    std::lock_guard lock(mutex_);
    if (!patterns_.insert(pattern).second) return;
    ops_.push_back({"PSUBSCRIBE", pattern});
  }
  wake();
}

void Subscriber::punsubscribe(const std::string& pattern) {
  {
    std::lock_guard lock(mutex_);
    if (patterns_.erase(pattern) == 0) return;
    ops_.push_back({"PUNSUBSCRIBE", pattern});
  }
  wake();
}

bool Subscriber::in_sync() const {
  return channels_ == sub_channels_ && patterns_ == sub_patterns_;
}

bool Subscriber::wait_subscribed(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return connected_ && in_sync(); });
}

namespace {

void flush(redisContext* c) {
  int done = 0;
  while (!done)
    if (redisBufferWrite(c, &done) != REDIS_OK) throw BusError(std::string("write: ") + c->errstr);
}

}  // namespace

// Updates the confirmed sets from a (p)(un)subscribe reply.
void Subscriber::set_confirmed(const Reply& r) {
  const std::string& kind = r.elements[0].str;
  const std::string& name = r.elements[1].str;
  std::lock_guard lock(mutex_);
  if (kind == "subscribe")
    sub_channels_.insert(name);
  else if (kind == "unsubscribe")
    sub_channels_.erase(name);
  else if (kind == "psubscribe")
    sub_patterns_.insert(name);
  else if (kind == "punsubscribe")
    sub_patterns_.erase(name);
}

void Subscriber::run() {
  for (;;) {
    redisContext* c = nullptr;
    std::string error;
    try {
      c = open_context(url_, Timeouts{});
      for (const auto& cmd : session_commands(url_)) {
        append_command(c, cmd);
        void* raw = nullptr;
        if (redisGetReply(c, &raw) != REDIS_OK) throw BusError(c->errstr);
        Reply r = take_reply(raw);
        if (r.type == Reply::Type::Error) throw BusError(cmd[0] + ": " + r.str);
      }
      {
        std::lock_guard lock(mutex_);
        ops_.clear();
        sub_channels_.clear();
        sub_patterns_.clear();
        std::vector<std::string> sub{"SUBSCRIBE"}, psub{"PSUBSCRIBE"};
        sub.insert(sub.end(), channels_.begin(), channels_.end());
        psub.insert(psub.end(), patterns_.begin(), patterns_.end());
        if (sub.size() > 1) append_command(c, sub);
        if (psub.size() > 1) append_command(c, psub);
      }
      flush(c);
      bool announced = false;
      for (;;) {
        bool now_in_sync = false;
        {
          std::lock_guard lock(mutex_);
          if (stopping_) break;
          if (!announced && in_sync()) connected_ = now_in_sync = announced = true;
        }
        if (now_in_sync) {
          changed_.notify_all();
          if (on_state_) on_state_(true, "");
        }
        pollfd fds[2] = {{c->fd, POLLIN, 0}, {wake_pipe_[0], POLLIN, 0}};
        if (poll(fds, 2, -1) < 0) {
          if (errno == EINTR) continue;
          throw BusError(std::string("poll: ") + std::strerror(errno));
        }
        if (fds[1].revents) {
          char buf[64];
          while (read(wake_pipe_[0], buf, sizeof buf) > 0) {
          }
          std::vector<Op> ops;
          {
            std::lock_guard lock(mutex_);
            if (stopping_) break;
            ops.swap(ops_);
          }
          for (const Op& op : ops) append_command(c, {op.command, op.name});
          if (!ops.empty()) flush(c);
        }
        if (fds[0].revents == 0) continue;
        if (redisBufferRead(c) != REDIS_OK) throw BusError(c->errstr);
        void* raw = nullptr;
        while (redisGetReplyFromReader(c, &raw) == REDIS_OK && raw != nullptr) {
          Reply r = take_reply(raw);
          raw = nullptr;
          if (r.type == Reply::Type::Error) throw BusError(r.str);
          if (!r.is_array() || r.elements.size() < 3) continue;
          const std::string& kind = r.elements[0].str;
          if (kind == "message") {
            on_message_(Message{r.elements[1].str, "", r.elements[2].str});
          } else if (kind == "pmessage" && r.elements.size() >= 4) {
            on_message_(Message{r.elements[2].str, r.elements[1].str, r.elements[3].str});
          } else {
            set_confirmed(r);
            changed_.notify_all();
          }
        }
        if (c->err) throw BusError(c->errstr);
      }
    } catch (const BusError& e) {
      error = e.what();
      if (error.rfind("redis at ", 0) != 0) error = "redis at " + url_.text() + ": " + error;
    }
    if (c) redisFree(c);
    {
      std::unique_lock lock(mutex_);
      connected_ = false;
      sub_channels_.clear();
      sub_patterns_.clear();
      if (stopping_) return;
    }
    if (on_state_) on_state_(false, error);
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, retry_, [&] { return stopping_; });
    if (stopping_) return;
  }
}

}  // namespace toguz::bus
