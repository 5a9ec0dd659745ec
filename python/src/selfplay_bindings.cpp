// Python face of the self-play data files (src/search/selfplay.h, docs/selfplay-format.md):
// toguz.read_selfplay(path) -> dict of NumPy arrays, one row per stored position.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "search/selfplay.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace toguz::python {

namespace {

// A fresh array of `rows` x `cols` (cols 0 = one dimension) filled by `get(record, col)`.
template <class T, class Get>
py::array_t<T> column(const std::vector<search::SelfplayRecord>& recs, size_t cols, Get get) {
  py::array_t<T> a = cols ? py::array_t<T>({recs.size(), cols}) : py::array_t<T>(recs.size());
  T* out = a.mutable_data();
  const size_t width = cols ? cols : 1;
  for (size_t i = 0; i < recs.size(); ++i)
    for (size_t c = 0; c < width; ++c) out[i * width + c] = T(get(recs[i], c));
  return a;
}

py::dict read_selfplay(const std::string& path) {
  if (!std::filesystem::exists(path)) {
    PyErr_SetString(PyExc_FileNotFoundError, (path + ": no such file").c_str());
    throw py::error_already_set();
  }
  std::vector<search::SelfplayRecord> recs;
  try {
    recs = search::read_selfplay(path);
  } catch (const std::runtime_error& e) {
    throw py::value_error(e.what());
  }
  using R = search::SelfplayRecord;
  py::dict d;
  d["holes"] = column<uint8_t>(recs, 18, [](const R& r, size_t c) { return r.holes[c]; });
  d["kazna"] = column<uint8_t>(recs, 2, [](const R& r, size_t c) { return r.kazna[c]; });
  d["tuz"] = column<uint8_t>(recs, 2, [](const R& r, size_t c) { return r.tuz[c]; });
  d["side"] = column<uint8_t>(recs, 0, [](const R& r, size_t) { return r.side; });
  d["n"] = column<uint8_t>(recs, 0, [](const R& r, size_t) { return r.n; });
  d["rules"] = column<uint8_t>(recs, 0, [](const R& r, size_t) { return r.rules; });
  d["result"] = column<int8_t>(recs, 0, [](const R& r, size_t) { return r.result; });
  d["proven"] = column<bool>(recs, 0, [](const R& r, size_t) { return r.proven != 0; });
  d["best_move"] = column<uint8_t>(recs, 0, [](const R& r, size_t) { return r.best_move; });
  d["score"] = column<int16_t>(recs, 0, [](const R& r, size_t) { return r.score; });
  d["ply"] = column<uint16_t>(recs, 0, [](const R& r, size_t) { return r.ply; });
  d["move_number"] = column<uint16_t>(recs, 0, [](const R& r, size_t) { return r.move_number; });
  d["final_margin"] = column<int16_t>(recs, 0, [](const R& r, size_t) { return r.final_margin; });
  d["game"] = column<uint32_t>(recs, 0, [](const R& r, size_t) { return r.game; });
  d["game_plies"] = column<uint16_t>(recs, 0, [](const R& r, size_t) { return r.game_plies; });
  d["nodes"] = column<uint32_t>(recs, 0, [](const R& r, size_t) { return r.nodes; });
  return d;
}

}  // namespace

void bind_selfplay(py::module_& m) {
  m.def(
      "read_selfplay", &read_selfplay, "path"_a,
      "Reads a `toguz selfplay` data file (docs/selfplay-format.md) in one call: a dict of NumPy\n"
      "arrays with one row per position: holes (n, 18) uint8 (White's 1..9 then Black's 1..9),\n"
      "kazna (n, 2) uint8, tuz (n, 2) uint8 (hole of the tuz owned by White / Black, 0 none),\n"
      "side uint8 (0 White to move), n uint8 (holes per row), rules uint8 (bit 0 tuz, bit 1\n"
      "play-out), result int8 (final, for White: 1/0/-1), proven bool, best_move uint8, score\n"
      "int16 (centi-stones for the side to move), ply uint16, move_number uint16, final_margin\n"
      "int16 (White minus Black), game uint32, game_plies uint16, nodes uint32.\n"
      "Raises FileNotFoundError for a missing file and ValueError on a file that is not\n"
      "self-play data (magic, version, truncation).");
}

}  // namespace toguz::python
