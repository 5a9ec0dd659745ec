#include "search/engine.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "search/search.h"
#include "search/timeman.h"

namespace toguz::search {

struct Engine::Impl {
  Options options;
  TranspositionTable tt;
  Searcher searcher{tt};
  std::vector<std::unique_ptr<Searcher>> helpers;  // Lazy SMP: options.threads - 1
  std::atomic<bool> helper_stop{false};
  Game game;
  std::thread thread;
  std::mutex join_mutex;  // serialises wait() callers
  std::atomic<bool> stop{false};
  std::atomic<bool> running{false};

  void join() {
    std::lock_guard<std::mutex> lock(join_mutex);
    if (thread.joinable()) thread.join();
  }
};

Engine::Engine() : impl_(std::make_unique<Impl>()) {
  impl_->tt.resize(impl_->options.hash_mb);
}

Engine::~Engine() {
  stop();
  wait();
}

void Engine::set_options(const Options& options) {
  wait();
  Options o = options;
  o.hash_mb = std::clamp(o.hash_mb, 1, 1 << 16);
  o.threads = std::max(1, o.threads);
  o.multipv = std::max(1, o.multipv);
  o.skill = std::clamp(o.skill, 1, 20);
  o.threads = std::min(o.threads, 256);
  if (o.hash_mb != impl_->options.hash_mb) impl_->tt.resize(o.hash_mb);
  impl_->helpers.resize(size_t(o.threads - 1));
  for (auto& h : impl_->helpers)
    if (!h) h = std::make_unique<Searcher>(impl_->tt);
  impl_->options = o;
}

const Options& Engine::options() const {
  return impl_->options;
}

void Engine::new_game() {
  wait();
  impl_->tt.clear();
  impl_->searcher.clear_history();
  for (auto& h : impl_->helpers) h->clear_history();
}

void Engine::set_position(const Game& game) {
  wait();
  impl_->game = game;
}

// The answer for a game that is already over: no move, the result as a proven score with
// the final margin when the board decided it.
static SearchResult finished_result(const Game& game) {
  SearchResult r;
  Info info;
  const Result res = game.result();
  const Side us = game.position().side_to_move();
  Score& s = info.score;
  s.proven = true;
  s.result = res == Result::Draw ? 0 : (res == Result::WhiteWins) == (us == Side::White) ? 1 : -1;
  s.cp = s.result * kWin;
  if (game.outcome() == Outcome::Decided || game.outcome() == Outcome::NoMove) {
    const auto score = game.score();
    s.has_margin = true;
    s.margin = score[index(us)] - score[1 - index(us)];
  }
  r.lines.push_back(info);
  return r;
}

// The exact solver of Options::tables on a position within its reach, before the search:
// it gets half of the move's time (2 s of an infinite search, none under a depth limit alone,
// which keeps fixed-depth searches as they were) and half of a node limit of at least
// kMinProofNodes (it counts nodes in steps of 4096, so a smaller limit leaves it out and the
// search keeps its nodes). True and *out when it proved the result: the first move of its
// line keeps it. Full strength, one line only.
constexpr uint64_t kMinProofNodes = 16384;
static bool try_proof(const Game& game, const Limits& limits, const Options& options,
                      const std::atomic<bool>& stop, SearchResult* out) {
  const TableProbe* probe = options.tables.get();
  const Position& pos = game.position();
  if (!probe || options.skill < 20 || options.multipv > 1) return false;
  const int on_board = pos.rules().total_stones() - pos.kazna(Side::White) - pos.kazna(Side::Black);
  if (on_board > probe->proof_reach()) return false;
  const TimePlan plan = plan_time(limits, pos.side_to_move());
  ProofLimits pl;
  pl.time_ms = limits.infinite ? 2000 : (plan.soft_ms ? plan.soft_ms : plan.hard_ms) / 2;
  pl.nodes = limits.nodes / 2;
  if (limits.nodes && limits.nodes < kMinProofNodes) return false;
  if (!limits.infinite && pl.time_ms <= 0 && pl.nodes == 0) return false;
  pl.threads = options.threads;
  pl.hash_mb = options.hash_mb;
  pl.stop = &stop;
  Proof proof;
  const bool proven = probe->prove(game, pl, &proof);
  out->nodes = proof.nodes;
  if (!proven) return false;
  Info info;
  info.depth = int(proof.line.size());
  info.seldepth = info.depth;
  info.nodes = proof.nodes;
  info.pv = proof.line;
  Score& s = info.score;
  s.proven = true;
  s.result = proof.result;
  s.plies = int(proof.line.size());
  s.cp = proof.result * (kWin - s.plies);
  s.has_margin = proof.has_margin;
  s.margin = proof.margin;
  out->best_move = proof.line[0];
  out->lines.assign(1, info);
  return true;
}

void Engine::go(const Limits& limits, InfoCallback on_info, DoneCallback on_done) {
  wait();
  const auto start = Clock::now();
  impl_->stop = false;
  impl_->running = true;
  impl_->thread = std::thread([this, limits, start, on_info = std::move(on_info),
                               on_done = std::move(on_done)] {
    Impl& im = *impl_;
    SearchResult result;
    std::vector<std::thread> helpers_running;
    SearchResult proof;
    if (im.game.over()) {
      result = finished_result(im.game);
    } else if (try_proof(im.game, limits, im.options, im.stop, &proof)) {
      result = proof;
      Info& info = result.lines[0];
      info.time_ms =
          int(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count());
      info.nps = info.time_ms > 0 ? info.nodes * 1000 / uint64_t(info.time_ms) : 0;
      if (on_info) on_info(info);
    } else {
      // Not proven: the search, with the time and nodes that are left.
      Limits left = limits;
      if (left.nodes) left.nodes = left.nodes > proof.nodes ? left.nodes - proof.nodes : 1;
      // Lazy SMP: the helpers search the same position into the shared table until the main
      // thread has its answer. Levels below full strength search alone.
      std::vector<Searcher*> team;
      std::vector<std::thread> pool;
      if (im.options.skill >= 20) {
        Options helper_options = im.options;
        helper_options.multipv = 1;
        im.helper_stop = false;
        for (size_t i = 0; i < im.helpers.size(); ++i) {
          Searcher* h = im.helpers[i].get();
          team.push_back(h);
          pool.emplace_back([&im, h, i, left, helper_options, start] {
            h->run(im.game, left, helper_options, im.helper_stop, start, nullptr, int(i) + 1);
          });
        }
      }
      result = im.searcher.run(im.game, left, im.options, im.stop, start, on_info, 0, &team);
      result.nodes += proof.nodes;
      im.helper_stop = true;
      // Answer at once: the helpers' nodes so far are counted, and they are joined after
      // on_done (a helper waiting for a busy core must not cost clock time).
      for (const Searcher* h : team) result.nodes += h->nodes_published();
      helpers_running = std::move(pool);
    }
    // "infinite" answers only after stop(), even when the search ended by itself.
    while (limits.infinite && !im.stop.load())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    result.time_ms =
        int(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count());
    if (on_done) on_done(result);
    for (auto& t : helpers_running) t.join();
    im.running = false;
  });
}

void Engine::stop() {
  impl_->stop = true;
}

void Engine::wait() {
  if (impl_->thread.get_id() == std::this_thread::get_id())
    return;  // from a callback: no self-join
  impl_->join();
}

bool Engine::searching() const {
  return impl_->running;
}

SearchResult Engine::search(const Limits& limits, InfoCallback on_info) {
  SearchResult out;
  go(limits, std::move(on_info), [&out](const SearchResult& r) { out = r; });
  wait();
  return out;
}

}  // namespace toguz::search
