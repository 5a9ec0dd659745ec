#include "cli/engine_jobs.h"

#include <algorithm>
#include <bit>
#include <boost/json.hpp>
#include <chrono>
#include <vector>

#include "engine_work/review.h"
#include "protocol/analysis_json.h"
#include "search/decisions.h"

namespace toguz::cli {

namespace {

using Clock = std::chrono::steady_clock;

search::Limits search_limits(const bus::JobLimits& l) {
  search::Limits out;
  out.depth = l.depth;
  out.nodes = l.nodes;
  out.movetime_ms = l.movetime_ms;
  for (int s = 0; s < 2; ++s) {
    out.time_ms[s] = l.time_ms[s];
    out.inc_ms[s] = l.inc_ms[s];
  }
  return out;
}

std::string finish(std::string prefix, const std::string& members) {
  return prefix + "," + members + "}";
}

// Engine move, hint and analysis: one search, its lines in the analysis object.
bool run_search(search::Engine& engine, const bus::Job& job, const Game& game,
                const std::string& worker, const PostResult& post,
                const std::atomic<bool>& cancel) {
  // The engine's own table size and tables stay; strength, seed and lines are the job's.
  search::Options options = engine.options();
  options.skill = 20;
  options.seed = 0;
  options.multipv = 1;
  if (job.kind == bus::JobKind::Move) {
    options.skill = job.limits.level;
    options.seed = job.seed;
  }
  const int legal = std::popcount(game.legal_mask());
  if (job.kind == bus::JobKind::Analysis) options.multipv = job.multipv;
  engine.set_options(options);
  engine.set_position(game);
  // An iteration is complete when all its lines are in: then a streamed result is posted.
  const int expected = std::max(1, std::min(options.multipv, legal));
  std::vector<search::Info> set;
  search::Info top;
  const bool stream = job.stream && job.kind == bus::JobKind::Analysis;
  const search::SearchResult r =
      engine.search(search_limits(job.limits), [&](const search::Info& i) {
        if (cancel) engine.stop();
        if (i.multipv == 1) {
          set.clear();
          top = i;
        }
        set.push_back(i);
        if (stream && int(set.size()) == expected && !cancel) {
          search::SearchResult partial;
          partial.best_move = set[0].pv.empty() ? 0 : set[0].pv[0];
          partial.lines = set;
          partial.nodes = i.nodes;
          partial.time_ms = i.time_ms;
          post(finish(bus::result_prefix(job, false, worker),
                      "\"analysis\":" + protocol::analysis_json(partial, top, game.position())));
        }
      });
  if (cancel) return false;
  if (!r.lines.empty() && top.depth == 0) top = r.lines[0];
  std::string members = "\"analysis\":" + protocol::analysis_json(r, top, game.position());
  if (job.kind == bus::JobKind::Move) {
    members += std::string(",\"resign\":") + (search::should_resign(r) ? "true" : "false");
    members += std::string(",\"accepts_draw\":") + (search::accepts_draw(r) ? "true" : "false");
  }
  post(finish(bus::result_prefix(job, true, worker), members));
  return true;
}

bool run_review(search::Engine& engine, const bus::Job& job, const Game& game,
                const std::string& worker, const PostResult& post,
                const std::atomic<bool>& cancel) {
  Clock::time_point last{};
  auto progress = [&](int done, int total) {
    if (!job.stream || done >= total) return;
    const Clock::time_point now = Clock::now();
    if (now - last < std::chrono::milliseconds(200)) return;
    last = now;
    post(
        finish(bus::result_prefix(job, false, worker),
               "\"progress\":" + boost::json::serialize(boost::json::value(double(done) / total))));
  };
  const std::string review =
      engine_work::review_json(engine, game, job.limits.nodes, progress, &cancel);
  if (review.empty() || cancel) return false;
  post(finish(bus::result_prefix(job, true, worker), "\"progress\":1,\"review\":" + review));
  return true;
}

}  // namespace

std::string error_result(const bus::Job& job, const std::string& worker, const std::string& why) {
  return finish(bus::result_prefix(job, true, worker),
                "\"error\":" + boost::json::serialize(boost::json::value(why)));
}

JobOutcome run_job(search::Engine& engine, const bus::Job& job, const std::string& worker,
                   const PostResult& post, const std::atomic<bool>& cancel, std::string* error) {
  Game game;
  try {
    game = bus::job_game(job);
  } catch (const bus::JobError& e) {
    *error = e.what();
    post(error_result(job, worker, *error));
    return JobOutcome::Failed;
  }
  const bool done = job.kind == bus::JobKind::Review
                        ? run_review(engine, job, game, worker, post, cancel)
                        : run_search(engine, job, game, worker, post, cancel);
  return done ? JobOutcome::Done : JobOutcome::Cancelled;
}

}  // namespace toguz::cli
