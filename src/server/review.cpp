#include "server/review.h"

#include <algorithm>
#include <boost/json.hpp>
#include <vector>

#include "server/server_impl.h"

namespace toguz::server {

namespace {

constexpr int kProvenCp = 10000;  // a proven result counts this much (as in toguz annotate)

// A score clamped to +-kProvenCp, a proven result as +-kProvenCp or 0.
int clamp_cp(const search::Score& s) {
  if (s.proven) return s.result * kProvenCp;
  return std::clamp(s.cp, -kProvenCp, kProvenCp);
}

const char* mark_for(int loss) { return loss >= 1000 ? "??" : loss >= 500 ? "?" : loss >= 200 ? "?!" : nullptr; }

}  // namespace

// A plain per-move evaluation: each position searched once; a move's loss is the best score
// before it plus the score after it (both from the mover's view, the second negated back).
std::string review_json(search::Engine& engine, const Game& game, uint64_t nodes,
                        const std::function<void(int, int)>& progress, const std::atomic<bool>* cancel) {
  const int plies = game.ply_count();
  struct Searched {
    search::Score score;
    int best = 0;
    std::vector<int> pv;
  };
  std::vector<Searched> at(size_t(plies) + 1);
  Game g(game.start());
  search::Options options;
  engine.set_options(options);
  engine.new_game();
  for (int i = 0; i <= plies; ++i) {
    if (cancel && cancel->load()) return "";
    engine.set_position(g);
    search::Limits limits;
    limits.nodes = nodes;
    const search::SearchResult r = engine.search(limits, [&](const search::Info&) {
      if (cancel && cancel->load()) engine.stop();
    });
    if (!r.lines.empty()) {
      at[i].score = r.lines[0].score;
      at[i].pv = r.lines[0].pv;
    }
    at[i].best = r.best_move;
    if (progress) progress(i + 1, plies + 1);
    if (i < plies) g.play(game.moves()[i].hole);
  }
  if (cancel && cancel->load()) return "";
  json::array out;
  for (int i = 1; i <= plies; ++i) {
    const Side mover = game.position_at(i - 1).side_to_move();
    const Side after_stm = game.position_at(i).side_to_move();
    const int after_cp = clamp_cp(at[i].score);  // for the side to move after the move
    const int white_cp = after_stm == Side::White ? after_cp : -after_cp;
    const int hole = game.moves()[i - 1].hole;
    int loss = clamp_cp(at[i - 1].score) + after_cp;
    if (hole == at[i - 1].best || loss < 0) loss = 0;
    json::array best_pv;
    for (int h : at[i - 1].pv) best_pv.push_back(h);
    const char* mark = mark_for(loss);
    out.push_back(json::object{{"ply", i},
                               {"hole", hole},
                               {"side", side_name(index(mover))},
                               {"white_cp", white_cp},
                               {"best", at[i - 1].best},
                               {"best_pv", std::move(best_pv)},
                               {"loss_cp", loss},
                               {"mark", mark ? json::value(mark) : json::value(nullptr)}});
  }
  return json::serialize(out);
}

void Server::Impl::start_review(const std::shared_ptr<Room>& room_ptr, WsSession& s) {
  Room& room = *room_ptr;
  const bool finished = room.row.status == "over" || room.row.status == "aborted";
  if (finished && !room.row.review.empty()) {
    s.send(R"({"type":"review","done":true,"progress":1,"moves":)" + room.row.review + "}");
    return;
  }
  room.review_waiters.push_back(s.shared_from_this());
  if (room.reviewing) {
    s.send(json::serialize(json::object{
        {"type", "review"}, {"done", false}, {"progress", room.review_progress}, {"moves", json::array()}}));
    return;
  }
  room.reviewing = true;
  room.review_progress = 0;
  auto job = std::make_shared<Job>();
  room.review_job = job;
  const uint64_t nodes = config.review_nodes;
  pool->submit([this, room_ptr, job, nodes, game = room.game](search::Engine& engine) {
    std::atomic<bool> cancel{false};
    auto progress = [&](int done, int total) {
      if (job->cancelled() || pool->stopping()) cancel = true;
      const double p = double(done) / double(total);
      net::post(ioc, [this, room_ptr, p] {
        Room& room = *room_ptr;
        room.review_progress = p;
        const std::string text = json::serialize(
            json::object{{"type", "review"}, {"done", false}, {"progress", p}, {"moves", json::array()}});
        for (auto& w : room.review_waiters)
          if (auto s = w.lock()) s->send(text);
      });
    };
    std::string moves = review_json(engine, game, nodes, progress, &cancel);
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
      const std::string text = R"({"type":"review","done":true,"progress":1,"moves":)" + moves + "}";
      for (auto& w : room.review_waiters)
        if (auto s = w.lock()) s->send(text);
      room.review_waiters.clear();
    });
  });
}

}  // namespace toguz::server
