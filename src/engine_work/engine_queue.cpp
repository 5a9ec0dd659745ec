#include "engine_work/engine_queue.h"

#include <algorithm>
#include <chrono>

#include "bus/job.h"
#include "net/log.h"
#include "rules/notation.h"

namespace toguz::engine_work {

namespace json = boost::json;
using std::chrono::milliseconds;

namespace {

constexpr milliseconds kWorkerWindow(10000);  // a worker heard from this lately is alive
constexpr int64_t kMoveExpiryMs = 60 * 1000;  // a move or hint nobody took by then is not run
constexpr int64_t kReviewExpiryMs = 15 * 60 * 1000;

int64_t wall_ms() {
  return std::chrono::duration_cast<milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int64_t int_of(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  if (!v) return 0;
  if (v->is_int64()) return v->as_int64();
  if (v->is_uint64()) return int64_t(v->as_uint64());
  if (v->is_double()) return int64_t(v->as_double());
  return 0;
}

// "s17": unique among this instance's jobs.
std::string job_id(char kind, uint64_t n) {
  std::string id = std::to_string(n);
  id.insert(id.begin(), kind);
  return id;
}

// The job's game: its rules, start and moves.
bus::Job job_of(const Game& game) {
  bus::Job job;
  const Rules rules = game.rules();
  job.variant = std::string(variant_name(rules.variant()));
  job.tuz = rules.tuz ? 1 : 0;
  job.play_out = rules.play_out;
  job.start = format_position(game.start());
  for (int i = 0; i < game.ply_count(); ++i) job.moves.push_back(game.moves()[i].hole);
  return job;
}

search::Score score_of(const json::object& o) {
  search::Score s;
  s.cp = int(int_of(o, "cp"));
  auto known = [](const json::value* v, search::Score& s) {
    if (!v || !v->is_object()) return false;
    const json::object& r = v->as_object();
    const json::value* word = r.if_contains("result");
    const std::string w = word && word->is_string() ? std::string(word->as_string()) : "";
    s.result = w == "win" ? 1 : w == "loss" ? -1 : 0;
    s.plies = int(int_of(r, "plies"));
    if (const json::value* m = r.if_contains("margin"); m && !m->is_null()) {
      s.has_margin = true;
      s.margin = int(int_of(r, "margin"));
    }
    return true;
  };
  s.proven = known(o.if_contains("proven"), s);
  if (!s.proven) s.table = known(o.if_contains("table"), s);
  if (s.table) s.has_margin = false;  // a table's margin is in cp
  return s;
}

}  // namespace

search::SearchResult search_result_of(const json::object& analysis) {
  search::SearchResult r;
  r.best_move = int(int_of(analysis, "bestmove"));
  r.nodes = uint64_t(int_of(analysis, "nodes"));
  r.time_ms = int(int_of(analysis, "time_ms"));
  if (const json::value* lines = analysis.if_contains("lines"); lines && lines->is_array()) {
    for (const json::value& l : lines->as_array()) {
      if (!l.is_object()) continue;
      const json::object& o = l.as_object();
      search::Info info;
      info.multipv = int(int_of(o, "multipv"));
      info.depth = int(int_of(o, "depth"));
      info.seldepth = int(int_of(o, "seldepth"));
      info.nodes = uint64_t(int_of(o, "nodes"));
      info.time_ms = r.time_ms;
      if (const json::value* pv = o.if_contains("pv"); pv && pv->is_array())
        for (const json::value& h : pv->as_array())
          if (h.is_int64()) info.pv.push_back(int(h.as_int64()));
      if (const json::value* sc = o.if_contains("score"); sc && sc->is_object())
        info.score = score_of(sc->as_object());
      r.lines.push_back(std::move(info));
    }
  }
  return r;
}

EngineQueue::EngineQueue(boost::asio::io_context& ioc, EngineWork& local,
                         const std::string& redis_url, const std::string& instance)
    : ioc_(ioc),
      local_(local),
      redis_(bus::parse_redis_url(redis_url),
             bus::Timeouts{milliseconds(1000), milliseconds(2000)}),
      queue_(redis_),
      results_("toguz:results:" + instance) {
  queue_.create_group();
  listener_ = std::make_unique<bus::ResultListener>(
      bus::parse_redis_url(redis_url), results_,
      [this](const std::string& text) {
        boost::asio::post(ioc_, [this, text] {
          if (!stopped_) on_result(text);
        });
      },
      [](const std::string& error) {
        log(net::LogLevel::Warn, "", "engine queue: results: " + error);
      });
  refresh();
}

EngineQueue::~EngineQueue() {
  stop();
}

void EngineQueue::stop() {
  stopped_ = true;
  if (listener_) listener_->stop();
}

void EngineQueue::refresh() {
  if (stopped_) return;
  try {
    const long long before = workers_;
    workers_ = queue_.live_workers(kWorkerWindow);
    if ((before > 0) != (workers_ > 0))
      log(net::LogLevel::Info, "",
          workers_ > 0 ? "engine queue: " + std::to_string(workers_) + " workers: jobs go to them"
                       : std::string("engine queue: no worker: jobs run here"));
  } catch (const bus::BusError& e) {
    workers_ = 0;
    log(net::LogLevel::Warn, "", std::string("engine queue: ") + e.what());
  }
  if (workers_ > 0) return;
  // Nobody will serve what waits: run it here.
  auto waiting = std::move(pending_);
  pending_.clear();
  for (auto& [id, p] : waiting)
    if (!p.job->cancelled()) p.run_locally();
}

bool EngineQueue::submit(const std::string& id, const std::string& text, Pending pending) {
  try {
    queue_.submit(text);
  } catch (const bus::BusError& e) {
    log(net::LogLevel::Warn, "",
        std::string("engine queue: cannot submit, running here: ") + e.what());
    return false;
  }
  pending_[id] = std::move(pending);
  return true;
}

bool EngineQueue::search(const EngineWork::Search& s, Priority priority, std::shared_ptr<Job> job,
                         std::function<void(search::SearchResult)> done) {
  bus::Job j = job_of(s.game);
  j.id = job_id('s', next_id_++);
  j.reply = results_;
  j.game = j.id;
  j.generation = uint64_t(s.game.ply_count());
  const bool streams = bool(s.on_info);
  if (priority == Priority::Engine) {
    j.kind = bus::JobKind::Move;
    j.limits.level = std::clamp(s.options.skill, 1, 20);
    j.seed = s.options.seed;
  } else if (streams || s.options.multipv > 1) {
    j.kind = bus::JobKind::Analysis;
    j.multipv = std::clamp(s.options.multipv, 1, 5);
    j.stream = streams;
  } else {
    j.kind = bus::JobKind::Hint;
  }
  j.limits.movetime_ms = s.limits.movetime_ms;
  j.limits.depth = s.limits.depth;
  j.limits.nodes = s.limits.nodes;
  for (int i = 0; i < 2; ++i) {
    j.limits.time_ms[i] = s.limits.time_ms[i];
    j.limits.inc_ms[i] = s.limits.inc_ms[i];
  }
  j.expires_ms = wall_ms() + kMoveExpiryMs;
  Pending p;
  p.job = job;
  p.generation = j.generation;
  auto on_info = s.on_info;
  p.on_result = [on_info, done](const json::object& result, bool final) {
    const json::value* a = result.if_contains("analysis");
    const search::SearchResult r =
        a && a->is_object() ? search_result_of(a->as_object()) : search::SearchResult{};
    if (!final) {
      if (on_info)
        for (const search::Info& line : r.lines) on_info(line);
      return;
    }
    done(r);
  };
  p.run_locally = [this, s, priority, job, done] { local_.search_here(s, priority, job, done); };
  return submit(j.id, bus::job_json(j), std::move(p));
}

bool EngineQueue::review(const Game& game, uint64_t nodes, std::shared_ptr<Job> job,
                         std::function<void(double)> progress,
                         std::function<void(std::string)> done) {
  bus::Job j = job_of(game);
  j.id = job_id('r', next_id_++);
  j.reply = results_;
  j.game = j.id;
  j.generation = uint64_t(game.ply_count());
  j.kind = bus::JobKind::Review;
  j.limits.nodes = nodes;
  j.stream = true;
  j.expires_ms = wall_ms() + kReviewExpiryMs;
  Pending p;
  p.job = job;
  p.generation = j.generation;
  p.on_result = [progress, done](const json::object& result, bool final) {
    if (!final) {
      if (const json::value* v = result.if_contains("progress"); v && v->is_number())
        progress(v->to_number<double>());
      return;
    }
    const json::value* review = result.if_contains("review");
    done(review && review->is_object() ? json::serialize(*review) : std::string());
  };
  p.run_locally = [this, game, nodes, job, progress, done] {
    local_.review_here(game, nodes, job, progress, done);
  };
  return submit(j.id, bus::job_json(j), std::move(p));
}

void EngineQueue::on_result(const std::string& text) {
  bus::ResultHeader h;
  try {
    h = bus::parse_result_header(text);
  } catch (const bus::JobError& e) {
    log(net::LogLevel::Warn, "",
        std::string("engine queue: a result that cannot be read: ") + e.what());
    return;
  }
  auto it = pending_.find(h.job);
  // Not one of ours now: answered already, run here meanwhile, or of this instance's earlier run.
  if (it == pending_.end() || bus::is_stale(h, it->first, it->second.generation)) return;
  Pending& p = it->second;
  if (p.job->cancelled()) {
    pending_.erase(it);
    return;
  }
  if (!h.error.empty()) {
    log(net::LogLevel::Warn, "",
        "engine queue: job " + h.job + " failed on " + h.worker + ": " + h.error +
            "; running it here");
    Pending failed = std::move(p);
    pending_.erase(it);
    failed.run_locally();
    return;
  }
  json::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec || !v.is_object()) return;
  if (h.done) {
    Pending finished = std::move(p);
    pending_.erase(it);
    finished.on_result(v.as_object(), true);
  } else {
    p.on_result(v.as_object(), false);
  }
}

}  // namespace toguz::engine_work
