#include "mail/outbox.h"

namespace toguz::mail {

Outbox::Outbox(Sender send, Failed failed, size_t max_queued)
    : send_(std::move(send)), on_failed_(std::move(failed)), max_queued_(max_queued) {
  thread_ = std::thread([this] { run(); });
}

Outbox::~Outbox() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

bool Outbox::post(Mail mail) {
  {
    std::lock_guard lock(mutex_);
    if (queue_.size() >= max_queued_) {
      ++dropped_;
      return false;
    }
    queue_.push_back(std::move(mail));
  }
  wake_.notify_one();
  return true;
}

size_t Outbox::queued() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

void Outbox::run() {
  for (;;) {
    Mail mail;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      mail = std::move(queue_.front());
      queue_.pop_front();
    }
    std::string error;
    try {
      error = send_(mail);
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (error.empty()) {
      ++sent_;
      continue;
    }
    ++failed_;
    if (on_failed_) on_failed_(mail, error);
  }
}

}  // namespace toguz::mail
