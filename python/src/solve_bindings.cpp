// Python face of the exact solver (src/tables/solver.h): toguz.solve(Position or Game).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "rules/game.h"
#include "tables/solver.h"
#include "tables/tablebase.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace toguz::python {

namespace {

// Runs the solve on its own thread with the GIL released, so that Ctrl-C (checked every
// 20 ms) can stop it: then KeyboardInterrupt is raised.
tables::Solution run_solve(const Position& root, tables::SolveOptions options) {
  std::atomic<bool> stop{false};
  options.stop = &stop;
  struct Done {
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    tables::Solution solution;
  } done;
  bool interrupted = false;
  {
    py::gil_scoped_release release;
    std::thread worker([&] {
      tables::Solution s = tables::solve(root, options);
      std::lock_guard<std::mutex> lock(done.mutex);
      done.solution = std::move(s);
      done.done = true;
      done.cv.notify_all();
    });
    std::unique_lock<std::mutex> lock(done.mutex);
    while (!done.cv.wait_for(lock, std::chrono::milliseconds(20), [&done] { return done.done; })) {
      lock.unlock();
      {
        py::gil_scoped_acquire acquire;
        if (!interrupted && PyErr_CheckSignals() != 0) {
          interrupted = true;
          stop = true;
        }
      }
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (interrupted) throw py::error_already_set();
  return std::move(done.solution);
}

py::dict solve(const py::object& target, int64_t time_ms, uint64_t max_nodes, bool margin,
               int hash_log2, const std::optional<std::string>& tables_dir) {
  if (time_ms < 0) throw py::value_error("time_ms must be >= 0");
  if (hash_log2 < 10 || hash_log2 > 30) throw py::value_error("hash_log2 must be 10..30");
  tables::SolveOptions options;
  Position root;
  if (py::isinstance<Game>(target)) {
    const Game& game = target.cast<const Game&>();
    root = game.position();
    for (int ply = 0; ply < game.ply_count(); ++ply)
      options.history.push_back(game.position_at(ply).key());
  } else if (py::isinstance<Position>(target)) {
    root = target.cast<Position>();
  } else {
    throw py::type_error("solve takes a Position or a Game");
  }
  std::unique_ptr<tables::Tablebase> tb;
  if (tables_dir) {
    const int k = tables::largest_table_stones(*tables_dir);
    if (k == 0) throw py::value_error("no table files (tb9_k<K>_<ab>.bin) in " + *tables_dir);
    tb = std::make_unique<tables::Tablebase>(*tables_dir, k);
    options.tables = tb.get();
  }
  options.time_ms = time_ms;
  options.max_nodes = max_nodes;
  options.want_margin = margin;
  options.hash_log2 = hash_log2;
  const tables::Solution s = run_solve(root, std::move(options));
  auto maybe = [](bool has, int v) {
    return has ? py::object(py::int_(v)) : py::object(py::none());
  };
  return py::dict("proven"_a = s.proven, "result"_a = maybe(s.proven, s.result),
                  "margin"_a = maybe(s.margin.has_value(), s.margin.value_or(0)),
                  "margin_timed_out"_a = s.margin_timed_out,
                  "margin_needs_repetition"_a = s.margin_needs_repetition, "line"_a = s.line,
                  "line_cut"_a = s.line_cut, "nodes"_a = s.nodes, "table_hits"_a = s.table_hits,
                  "time_ms"_a = s.time_ms);
}

}  // namespace

void bind_solve(py::module_& m) {
  m.def(
      "solve", &solve, "target"_a, py::kw_only(), "time_ms"_a = 0, "max_nodes"_a = 0,
      "margin"_a = true, "hash_log2"_a = 25, "tables"_a = py::none(),
      "Proves the result of a Position or a Game (its history counts for repetition) under its "
      "own\n"
      "rules with the exact solver. Limits: time_ms and max_nodes (0 = none); margin: also prove "
      "the\n"
      "play-out margin (a second search); hash_log2: transposition table of 2^hash_log2 entries "
      "of\n"
      "16 bytes; tables: a folder of endgame tables (toguz tables build) to probe.\n"
      "Returns a dict: proven, result (+1 win / 0 draw / -1 loss for the side to move, None when "
      "not\n"
      "proven), margin (final total minus the opponent's, or None), margin_timed_out,\n"
      "margin_needs_repetition, line (holes from here to the end by best play), line_cut, nodes,\n"
      "table_hits, time_ms. The GIL is released; Ctrl-C stops the solve and raises "
      "KeyboardInterrupt.");
}

}  // namespace toguz::python
