// A room's review (docs/web-protocol.md <Review>): started for its askers, computed by the
// engine's work (engine_work/review.h), kept with the game and sent to everyone waiting.
#include <algorithm>
#include <boost/json.hpp>
#include <vector>

#include "net/log.h"
#include "site/games/room.h"
#include "site/json_out.h"
#include "site/types.h"

namespace toguz::site {

namespace {

// The finished review message from the stored {"moves":..,"players":..} object.
std::string done_message(const std::string& review) {
  return R"({"type":"review","done":true,"progress":1,)" + review.substr(1);
}

std::string progress_message(double progress) {
  return json::serialize(json::object{
      {"type", "review"}, {"done", false}, {"progress", progress}, {"moves", json::array()}});
}

}  // namespace

void Room::send_review(const std::string& text) {
  for (auto& w : review_waiters_)
    if (auto c = w.lock()) c->send(text);
}

bool Room::review_needs_engine() const {
  return !reviewing_ && !(finished(status) && !review.empty());
}

void Room::stop_review() {
  if (review_job_) review_job_->cancel();
  review_job_.reset();
  review_ticket_.reset();
  reviewing_ = false;
  review_waiters_.clear();
}

Refused Room::start_review(const std::shared_ptr<RoomClient>& client,
                           std::shared_ptr<void> ticket) {
  if (finished(status) && !review.empty()) {
    // A stored review can be 100 KB: asked again and again on one socket that does not read,
    // it would pile up there.
    if (client->review_sent) return Refusal("review_sent");
    client->review_sent = true;
    client->send(done_message(review));
    return std::nullopt;
  }
  const bool waiting = std::any_of(review_waiters_.begin(), review_waiters_.end(),
                                   [&](const auto& w) { return w.lock() == client; });
  if (!waiting) review_waiters_.push_back(client);
  if (reviewing_) {
    client->send(progress_message(review_progress_));
    return std::nullopt;
  }
  reviewing_ = true;
  review_progress_ = 0;
  review_ticket_ = std::move(ticket);
  auto job = std::make_shared<engine_work::Job>();
  review_job_ = job;
  engine_work::EngineWork& work = services_.engine;
  auto self = shared_from_this();
  auto progress = [self](double p) {
    self->review_progress_ = p;
    self->send_review(progress_message(p));
  };
  auto done = [self, plies = game.ply_count()](std::string moves) {
    Room& room = *self;
    room.reviewing_ = false;
    room.review_job_.reset();
    room.review_ticket_.reset();
    if (moves.empty()) return;
    if (finished(room.status) && room.game.ply_count() == plies) {
      room.review = moves;
      try {
        room.services_.store.save_review(room.id, moves);
      } catch (const std::exception& e) {
        log(net::LogLevel::Error, room.id, std::string("cannot save the review: ") + e.what());
      }
    }
    for (auto& w : room.review_waiters_)
      if (auto c = w.lock()) c->review_sent = true;
    room.send_review(done_message(moves));
    room.review_waiters_.clear();
  };
  if (!work.review(game, services_.config.review_nodes, job, progress, done)) {
    send_review(busy_refusal(work.pool(), "review").message());
    stop_review();
  }
  return std::nullopt;
}

}  // namespace toguz::site
