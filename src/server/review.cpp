#include "server/review.h"

#include <algorithm>
#include <boost/json.hpp>
#include <vector>

#include "rules/notation.h"
#include "search/annotate.h"
#include "server/server_impl.h"

namespace toguz::server {

// The review through the engine's annotate code (search/annotate.h, as `toguz annotate`).
std::string review_json(const Game& game, uint64_t nodes,
                        const std::function<void(int, int)>& progress,
                        const std::atomic<bool>* cancel) {
  search::Limits limits;
  limits.nodes = nodes;
  const search::GameReview review =
      search::review_game(game, limits, search::Options{}, progress, cancel);
  if (!review.complete) return "";
  json::array moves;
  for (const search::MoveReview& m : review.moves) {
    json::array best_pv;
    for (int h : m.best_pv) best_pv.push_back(h);
    // the best move as written in the move list ("65(10)"), so the client needs no rules
    Position before = game.position_at(m.ply - 1);
    json::value best_notation = nullptr;
    if (before.outcome() == Outcome::Ongoing && before.is_legal(m.best_hole))
      best_notation = json::string(format_move(before.play(m.best_hole)));
    moves.push_back(
        json::object{{"ply", m.ply},
                     {"hole", m.hole},
                     {"side", side_name(index(m.side))},
                     {"white_cp", m.white_cp},
                     {"best", m.best_hole},
                     {"best_pv", std::move(best_pv)},
                     {"best_notation", std::move(best_notation)},
                     {"loss_cp", m.loss_cp},
                     {"mark", m.mark.empty() ? json::value(nullptr) : json::value(m.mark)},
                     {"white", score_json(m.white, Side::White)},
                     {"best_score", score_json(m.best, m.side)}});
  }
  json::object players;
  for (int s = 0; s < 2; ++s) {
    const search::PlayerSummary& p = review.players[s];
    players[side_name(s)] = json::object{{"moves", p.moves},
                                         {"average_loss_cp", p.average_loss_cp},
                                         {"inaccuracies", p.inaccuracies},
                                         {"mistakes", p.mistakes},
                                         {"blunders", p.blunders}};
  }
  return json::serialize(
      json::object{{"moves", std::move(moves)}, {"players", std::move(players)}});
}

namespace {

// The finished review message from the stored {"moves":..,"players":..} object.
std::string done_message(const std::string& review) {
  return R"({"type":"review","done":true,"progress":1,)" + review.substr(1);
}

}  // namespace

void Server::Impl::start_review(const std::shared_ptr<Room>& room_ptr, WsSession& s) {
  Room& room = *room_ptr;
  const bool finished = room.row.status == "over" || room.row.status == "aborted";
  if (finished && !room.row.review.empty()) {
    s.send(done_message(room.row.review));
    return;
  }
  room.review_waiters.push_back(s.shared_from_this());
  if (room.reviewing) {
    s.send(json::serialize(json::object{{"type", "review"},
                                        {"done", false},
                                        {"progress", room.review_progress},
                                        {"moves", json::array()}}));
    return;
  }
  room.reviewing = true;
  room.review_progress = 0;
  auto job = std::make_shared<Job>();
  room.review_job = job;
  const uint64_t nodes = config.review_nodes;
  const bool queued = pool->submit([this, room_ptr, job, nodes, game = room.game](search::Engine&) {
    std::atomic<bool> cancel{false};
    auto progress = [&](int done, int total) {
      if (job->cancelled() || pool->stopping()) cancel = true;
      const double p = double(done) / double(total);
      net::post(ioc, [this, room_ptr, p] {
        Room& room = *room_ptr;
        room.review_progress = p;
        const std::string text = json::serialize(json::object{
            {"type", "review"}, {"done", false}, {"progress", p}, {"moves", json::array()}});
        for (auto& w : room.review_waiters)
          if (auto s = w.lock()) s->send(text);
      });
    };
    std::string moves = review_json(game, nodes, progress, &cancel);
    const int plies = game.ply_count();
    net::post(ioc, [this, room_ptr, moves = std::move(moves), plies] {
      Room& room = *room_ptr;
      room.reviewing = false;
      room.review_job.reset();
      if (moves.empty()) return;
      const bool finished = room.row.status == "over" || room.row.status == "aborted";
      if (finished && room.game.ply_count() == plies) {
        room.row.review = moves;
        try {
          store->save_review(room.row.id, moves);
        } catch (const std::exception&) {
        }
      }
      const std::string text = done_message(moves);
      for (auto& w : room.review_waiters)
        if (auto s = w.lock()) s->send(text);
      room.review_waiters.clear();
    });
  });
  if (!queued) {
    room.reviewing = false;
    room.review_job.reset();
    const std::string text = error_message("review: " + busy_message(*pool));
    for (auto& w : room.review_waiters)
      if (auto waiter = w.lock()) waiter->send(text);
    room.review_waiters.clear();
  }
}

}  // namespace toguz::server
