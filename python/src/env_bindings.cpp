// Python face of rl::VecEnv: the observation buffers as NumPy arrays that view the C++
// memory (no copy; the arrays keep the env alive), step() taking any integer array.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "rules/notation.h"
#include "vec_env.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace toguz::python {

RuleOptions rule_options(const std::optional<std::string>& variant, std::optional<bool> tuz,
                         bool play_out);

namespace {

// A read-only NumPy view of `data` with `shape`, owned by `owner` (the Python env object);
// uint8 data shown as bool when `as_bool`.
// Speed: NumPy's C API directly (step() returns two views at every call): no shape and
// strides vectors on the heap, no dtype object built and inspected, created read-only
// (data given without NPY_ARRAY_WRITEABLE): a view costs about 0.1 us.
template <typename T>
py::array view(std::vector<T>& data, std::initializer_list<py::ssize_t> shape, py::handle owner,
               bool as_bool = false) {
  auto& api = py::detail::npy_api::get();
  const int type =
      as_bool ? int(py::detail::npy_api::NPY_BOOL_) : py::detail::npy_format_descriptor<T>::value;
  Py_intptr_t dims[3];
  int ndim = 0;
  for (py::ssize_t d : shape) dims[ndim++] = Py_intptr_t(d);
  // The descriptor reference is stolen; strides null: C order. The env writes these buffers;
  // users must not (a write would desynchronise the games), so no WRITEABLE flag.
  PyObject* a = api.PyArray_NewFromDescr_(api.PyArray_Type_, api.PyArray_DescrFromType_(type), ndim,
                                          dims, nullptr, data.data(), 0, nullptr);
  if (!a) throw py::error_already_set();
  auto result = py::reinterpret_steal<py::array>(a);
  if (api.PyArray_SetBaseObject_(a, owner.inc_ref().ptr()) != 0) throw py::error_already_set();
  return result;
}

// A new writable C-order int64 array of `size` elements (NumPy's C API directly: see view).
py::array new_int64_array(py::ssize_t size) {
  auto& api = py::detail::npy_api::get();
  Py_intptr_t dims[1] = {Py_intptr_t(size)};
  PyObject* a = api.PyArray_NewFromDescr_(
      api.PyArray_Type_, api.PyArray_DescrFromType_(py::detail::npy_api::NPY_INT64_), 1, dims,
      nullptr, nullptr, 0, nullptr);
  if (!a) throw py::error_already_set();
  return py::reinterpret_steal<py::array>(a);
}

// Holds the env's busy flag for one call; refuses when another thread is stepping it.
class BusyGuard {
 public:
  explicit BusyGuard(rl::VecEnv& env) : env_(env) {
    if (env_.busy.exchange(true))
      throw std::runtime_error(
          "VecEnv is being stepped by another thread (use one env per thread)");
  }
  ~BusyGuard() { env_.busy = false; }
  BusyGuard(const BusyGuard&) = delete;
  BusyGuard& operator=(const BusyGuard&) = delete;

 private:
  rl::VecEnv& env_;
};

}  // namespace

void bind_vec_env(py::module_& m) {
  using rl::VecEnv;
  py::class_<VecEnv>(
      m, "VecEnv",
      "B games of one rule set stepped together, for reinforcement learning.\n\n"
      "Observations are NumPy arrays that view the env's own memory (no copy; read-only; the\n"
      "same array objects' data change in place at every step and reset):\n"
      "  holes [B,2,N] int32 (row 0 White, row 1 Black, holes 1..N; a tuz holds 0),\n"
      "  kaznas [B,2] int32, tuz [B,2,N] int8 (1 where hole i+1 of row s is a tuz, owned by 1-s),\n"
      "  side_to_move [B] int8 (0 White, 1 Black), legal_mask [B,N] bool, legal_bits [B] uint32.\n"
      "Actions are 0-based hole indices (action i plays hole i+1), one per game, any integer "
      "dtype.\n"
      "step() returns (reward [B] float32, done [B] bool). reward is +1 / 0 / -1 at the end of a "
      "game\n"
      "for the player who made the last move (the side_to_move before the step), 0 otherwise.\n"
      "A finished game is reset at once (auto-reset): after a step with done[b], the observation "
      "of\n"
      "game b is already a new game's start; winner, final_score and episode_length describe the\n"
      "game that ended. Games end as the referee says: decided (a kazna above N*N, unless "
      "play_out),\n"
      "no move (remaining stones to the opponent), or threefold repetition (a draw).\n"
      "Illegal actions: step() raises ValueError naming the game and the legal actions, and no "
      "game\n"
      "moves (the whole batch is checked first).\n"
      "Seeding: `seed` drives random_actions() and the random_start_plies opening plies "
      "(SplitMix64,\n"
      "the same on every platform); the same seed and actions give the same games.\n"
      "step() releases the GIL; one thread at a time per env (a second one gets RuntimeError).\n"
      "num_threads > 1 steps the batch on that many threads (0: one per CPU); the games,\n"
      "rewards and random draws are the same for every thread count.")
      .def(
          py::init([](int batch, const std::optional<std::string>& variant, std::optional<bool> tuz,
                      bool play_out, uint64_t seed, int random_start_plies, int num_threads) {
            RuleOptions o = rule_options(variant, tuz, play_out);
            if (num_threads < 0) throw py::value_error("num_threads must be >= 0 (0: one per CPU)");
            if (num_threads == 0)
              num_threads = int(std::max(1u, std::thread::hardware_concurrency()));
            try {
              return new VecEnv(batch, o.resolve(), seed, random_start_plies, num_threads);
            } catch (const std::invalid_argument& e) {
              throw py::value_error(e.what());
            }
          }),
          "batch"_a, py::kw_only(), "variant"_a = "standard", "tuz"_a = py::none(),
          "play_out"_a = false, "seed"_a = 0, "random_start_plies"_a = 0, "num_threads"_a = 1,
          "`batch` games of `variant` ('standard', 'kozdatu', 'bestemshi'; tuz None = the "
          "variant's default),\n"
          "each started after `random_start_plies` uniformly random plies drawn from `seed`;\n"
          "step() on `num_threads` threads (0: one per CPU; at most one per 64 games).")
      .def_property_readonly("batch", &VecEnv::batch)
      .def_property_readonly("n", &VecEnv::n, "Holes per row.")
      .def_property_readonly("num_actions", &VecEnv::n, "N: actions are 0..N-1.")
      .def_property_readonly("num_threads", &VecEnv::threads,
                             "Threads step() uses (num_threads capped at one per 64 games).")
      .def_property_readonly(
          "holes",
          [](py::object self) {
            VecEnv& e = self.cast<VecEnv&>();
            return view(e.holes, {e.batch(), 2, e.n()}, self);
          },
          "[B,2,N] int32 stones per hole (view).")
      .def_property_readonly(
          "kaznas",
          [](py::object self) {
            VecEnv& e = self.cast<VecEnv&>();
            return view(e.kaznas, {e.batch(), 2}, self);
          },
          "[B,2] int32 (White, Black) kaznas (view).")
      .def_property_readonly(
          "tuz",
          [](py::object self) {
            VecEnv& e = self.cast<VecEnv&>();
            return view(e.tuz, {e.batch(), 2, e.n()}, self);
          },
          "[B,2,N] int8 one-hot: 1 where hole i+1 of row s is a tuz (owned by side 1-s) (view).")
      .def_property_readonly(
          "side_to_move",
          [](py::object self) {
            VecEnv& e = self.cast<VecEnv&>();
            return view(e.side_to_move, {e.batch()}, self);
          },
          "[B] int8: 0 White, 1 Black (view).")
      .def_property_readonly(
          "legal_mask",
          [](py::object self) {
            VecEnv& e = self.cast<VecEnv&>();
            return view(e.legal, {e.batch(), e.n()}, self, true);
          },
          "[B,N] bool: action i (hole i+1) is legal (view).")
      .def_property_readonly(
          "legal_bits",
          [](py::object self) {
            VecEnv& e = self.cast<VecEnv&>();
            return view(e.legal_bits, {e.batch()}, self);
          },
          "[B] uint32: the legal actions as bits, bit i set when action i is legal (view); e.g. "
          "for\n"
          "sampling with lookup tables indexed by the mask.")
      .def_property_readonly(
          "reward",
          [](py::object self) {
            VecEnv& e = self.cast<VecEnv&>();
            return view(e.reward, {e.batch()}, self);
          },
          "[B] float32 of the last step: +1/0/-1 at a game's end for the player who moved (view).")
      .def_property_readonly(
          "done",
          [](py::object self) {
            VecEnv& e = self.cast<VecEnv&>();
            return view(e.done, {e.batch()}, self, true);
          },
          "[B] bool: the last step ended game b (it has been reset) (view).")
      .def_property_readonly(
          "winner",
          [](py::object self) {
            VecEnv& e = self.cast<VecEnv&>();
            return view(e.winner, {e.batch()}, self);
          },
          "[B] int8 of the last step: 0 White won, 1 Black won, -1 draw where done; -2 elsewhere "
          "(view).")
      .def_property_readonly(
          "final_score",
          [](py::object self) {
            VecEnv& e = self.cast<VecEnv&>();
            return view(e.final_score, {e.batch(), 2}, self);
          },
          "[B,2] int32: (White, Black) totals of the last game that ended in slot b (view).")
      .def_property_readonly(
          "episode_length",
          [](py::object self) {
            VecEnv& e = self.cast<VecEnv&>();
            return view(e.episode_length, {e.batch()}, self);
          },
          "[B] int32: plies of the last game that ended in slot b (view).")
      .def_property_readonly(
          "plies",
          [](py::object self) {
            VecEnv& e = self.cast<VecEnv&>();
            return view(e.plies, {e.batch()}, self);
          },
          "[B] int32: plies played in the current game of slot b (random start plies included) "
          "(view).")
      .def(
          "reset",
          [](VecEnv& e, std::optional<uint64_t> seed) {
            BusyGuard guard(e);
            e.reset(seed.value_or(0));
          },
          "seed"_a = py::none(),
          "Every game back to a start; the RNG restarts from `seed` (None: 0).")
      .def(
          "step",
          [](py::object self, py::handle given) {
            using Actions = py::array_t<int64_t, py::array::c_style | py::array::forcecast>;
            // Speed: a C-order int64 array (what random_actions() returns) as it is, without
            // NumPy's general conversion; anything else converted (any integer dtype, lists).
            Actions actions = Actions::check_(given) ? py::reinterpret_borrow<Actions>(given)
                                                     : Actions::ensure(given);
            if (!actions) throw py::type_error("actions must be an array of integers");
            VecEnv& e = self.cast<VecEnv&>();
            if (actions.ndim() != 1 || actions.shape(0) != e.batch())
              throw py::value_error("actions must have shape (" + std::to_string(e.batch()) + ",)");
            BusyGuard guard(e);
            const int64_t* a = actions.data();
            int bad = e.first_illegal(a);
            if (bad >= 0) throw py::value_error(e.illegal_reason(bad, a[bad]));
            {
              py::gil_scoped_release release;
              e.step(a);
            }
            return py::make_tuple(view(e.reward, {e.batch()}, self),
                                  view(e.done, {e.batch()}, self, true));
          },
          "actions"_a,
          "Plays actions[b] (0-based hole index) in every game. Returns (reward, done) views.\n"
          "Raises ValueError, with no game changed, when any action is illegal.")
      .def(
          "random_actions",
          [](VecEnv& e) {
            BusyGuard guard(e);
            py::array out = new_int64_array(e.batch());
            e.random_actions(static_cast<int64_t*>(out.mutable_data()));
            return out;
          },
          "A uniformly random legal action per game ([B] int64), from the env's seeded RNG.")
      .def(
          "position",
          [](const VecEnv& e, int b) {
            if (b < 0 || b >= e.batch()) throw py::index_error("game index out of range");
            return e.position(b);
          },
          "b"_a, "The current Position of game b (a copy).");
}

}  // namespace toguz::python
