// The `toguz` Python module: the rules core (Position, Game, records, perft), the engine
// (analyze) and the batched environment (VecEnv, in env_bindings.cpp). A thin adapter:
// every rule lives in src/rules, every search in src/search.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "protocol/analysis_json.h"
#include "rules/game.h"
#include "rules/notation.h"
#include "rules/perft.h"
#include "rules/position.h"
#include "rules/record.h"
#include "search/engine.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace toguz::python {

void bind_vec_env(py::module_& m);   // env_bindings.cpp
void bind_solve(py::module_& m);     // solve_bindings.cpp
void bind_selfplay(py::module_& m);  // selfplay_bindings.cpp

// The rule options of a call: variant name (None = from the row length or standard),
// tuz (None = the variant's default) and play-out. Raises ValueError on an unknown variant.
RuleOptions rule_options(const std::optional<std::string>& variant, std::optional<bool> tuz,
                         bool play_out) {
  RuleOptions o;
  if (variant) {
    Variant v;
    if (!parse_variant(*variant, &v))
      throw py::value_error("unknown variant '" + *variant + "' (standard, kozdatu, bestemshi)");
    o.variant = v;
  }
  o.tuz = tuz;
  o.play_out = play_out;
  return o;
}

namespace {

Side side_arg(int side) {
  if (side != 0 && side != 1)
    throw py::value_error("side must be 0 (White) or 1 (Black), got " + std::to_string(side));
  return Side(side);
}

int hole_arg(const Position& pos, int hole) {
  if (hole < 1 || hole > pos.n())
    throw py::value_error("no hole " + std::to_string(hole) + " (holes are 1.." +
                          std::to_string(pos.n()) + ")");
  return hole;
}

std::vector<int> holes_of_mask(uint32_t mask) {
  std::vector<int> out;
  for (int i = 0; mask; ++i, mask >>= 1)
    if (mask & 1) out.push_back(i + 1);
  return out;
}

std::string outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Decided:
      return "decided";
    case Outcome::NoMove:
      return "no-move";
    case Outcome::Repetition:
      return "repetition";
    default:
      return "ongoing";
  }
}

MoveStyle move_style(const std::string& s) {
  if (s == "playok" || s == "pgn") return MoveStyle::PlayOK;
  if (s == "tgk") return MoveStyle::Tgk;
  if (s == "book") return MoveStyle::Book;
  throw py::value_error("unknown move style '" + s + "' (playok, tgk, book)");
}

// read_records() with the reader's note (a Windows-1251 text) as a Python UserWarning.
std::vector<Record> read_records_warned(const std::string& text) {
  RecordFile file = read_record_file(text);
  if (!file.note.empty() && PyErr_WarnEx(PyExc_UserWarning, file.note.c_str(), 1) < 0)
    throw py::error_already_set();
  return std::move(file.games);
}

// replay_record() with its warning (a truncated game) as the error under `strict`, else as a
// Python UserWarning.
Replayed replay_warned(const Record& record, const RuleOptions& options, bool strict) {
  Replayed r = replay_record(record, options);
  if (r.warning && !r.error) {
    if (strict)
      r.error = r.warning;
    else if (PyErr_WarnEx(PyExc_UserWarning, describe(*r.warning).c_str(), 1) < 0)
      throw py::error_already_set();
  }
  return r;
}

RecordStyle record_style(const std::string& s) {
  if (s == "pgn" || s == "playok") return RecordStyle::PlayOK;
  if (s == "tgk") return RecordStyle::Tgk;
  throw py::value_error("unknown record style '" + s + "' (pgn, tgk)");
}

Position position_from(const std::optional<std::string>& text,
                       const std::optional<std::string>& variant, std::optional<bool> tuz,
                       bool play_out) {
  RuleOptions o = rule_options(variant, tuz, play_out);
  if (!text) return Position::start(o.resolve());
  return parse_position(*text, o);
}

// Plays `hole` on a position the way a referee would: raises on an illegal move or a
// finished position instead of breaking Position::play's precondition.
MoveInfo checked_play(Position& pos, int hole) {
  hole_arg(pos, hole);
  Outcome o = pos.outcome();
  if (o != Outcome::Ongoing) throw py::value_error("the game is over (" + outcome_name(o) + ")");
  if (!pos.is_legal(hole)) {
    bool tuz = pos.tuz(opposite(pos.side_to_move())) == hole;
    throw py::value_error("hole " + std::to_string(hole) +
                          (tuz ? " is the opponent's tuz" : " is empty"));
  }
  return pos.play(hole);
}

std::string move_info_repr(const MoveInfo& mi) {
  std::ostringstream s;
  s << "MoveInfo(hole=" << int(mi.hole) << ", last_hole=" << int(mi.last_hole)
    << ", last_row=" << index(mi.last_row) << ", captured=" << int(mi.captured)
    << ", tuz_made=" << (mi.tuz_made ? "True" : "False") << ", kazna_after=" << int(mi.kazna_after)
    << ", notation='" << format_move(mi, MoveStyle::PlayOK) << "')";
  return s.str();
}

py::dict move_info_dict(const MoveInfo& mi) {
  return py::dict("hole"_a = int(mi.hole), "last_hole"_a = int(mi.last_hole),
                  "last_row"_a = index(mi.last_row), "captured"_a = int(mi.captured),
                  "tuz_made"_a = mi.tuz_made,
                  "into_tuz"_a = py::make_tuple(int(mi.into_tuz[0]), int(mi.into_tuz[1])),
                  "kazna_after"_a = int(mi.kazna_after), "kazna_changed"_a = mi.kazna_changed,
                  "notation"_a = format_move(mi, MoveStyle::PlayOK));
}

std::string result_name(Result r) {
  return std::string(result_text(r));
}

std::vector<std::pair<std::string, std::string>> tags_arg(const py::object& tags) {
  std::vector<std::pair<std::string, std::string>> out;
  if (tags.is_none()) return out;
  if (py::isinstance<py::dict>(tags)) {
    for (auto item : tags.cast<py::dict>())
      out.emplace_back(py::str(item.first), py::str(item.second));
    return out;
  }
  return tags.cast<std::vector<std::pair<std::string, std::string>>>();
}

Game game_from(const py::object& start, const std::optional<std::string>& variant,
               std::optional<bool> tuz, bool play_out) {
  if (start.is_none()) return Game(position_from(std::nullopt, variant, tuz, play_out));
  if (py::isinstance<Position>(start)) {
    if (variant || tuz || play_out)
      throw py::value_error(
          "give the rules either with the start Position or as arguments, not both");
    return Game(start.cast<Position>());
  }
  if (py::isinstance<py::str>(start))
    return Game(position_from(start.cast<std::string>(), variant, tuz, play_out));
  throw py::type_error("start must be a Position, a position string or None");
}

EndReason end_reason_arg(const std::string& s) {
  for (EndReason r : {EndReason::Resignation, EndReason::Time, EndReason::Agreement})
    if (s == end_reason_name(r)) return r;
  throw py::value_error("unknown end reason '" + s + "' (resignation, time, agreement)");
}

// A JSON value as the Python value json.loads would give (objects keep their key order).
py::object python_value(const boost::json::value& v) {
  switch (v.kind()) {
    case boost::json::kind::null:
      return py::none();
    case boost::json::kind::bool_:
      return py::bool_(v.get_bool());
    case boost::json::kind::int64:
      return py::int_(v.get_int64());
    case boost::json::kind::uint64:
      return py::int_(v.get_uint64());
    case boost::json::kind::double_:
      return py::float_(v.get_double());
    case boost::json::kind::string:
      return py::str(std::string(v.get_string()));
    case boost::json::kind::array: {
      py::list out;
      for (const auto& x : v.get_array()) out.append(python_value(x));
      return out;
    }
    case boost::json::kind::object: {
      py::dict out;
      for (const auto& [k, x] : v.get_object()) out[py::str(std::string(k))] = python_value(x);
      return out;
    }
  }
  return py::none();
}

// A line as the JSON of protocol::line_json (docs/web-protocol.md, "Scores and lines"), plus
// the earlier flat names, kept for one release: score_cp (= score.cp), proven (a bool),
// result (+1/0/-1), plies, margin (None when not proven / not known).
py::dict line_dict(const search::Info& info, const Position& pos) {
  py::dict d = python_value(protocol::line_json(info, pos)).cast<py::dict>();
  const search::Score& s = info.score;
  d["score_cp"] = s.cp;
  d["proven"] = s.proven;
  d["result"] = s.proven ? py::object(py::int_(s.result)) : py::object(py::none());
  d["plies"] = s.proven ? py::object(py::int_(s.plies)) : py::object(py::none());
  d["margin"] = s.has_margin ? py::object(py::int_(s.margin)) : py::object(py::none());
  return d;
}

search::Limits limits_arg(int depth, uint64_t nodes, int movetime_ms) {
  if (depth <= 0 && nodes == 0 && movetime_ms <= 0)
    throw py::value_error("give a limit: depth, nodes or movetime_ms");
  search::Limits limits;
  limits.depth = depth;
  limits.nodes = nodes;
  limits.movetime_ms = movetime_ms;
  return limits;
}

Game game_arg(const py::object& target) {
  if (py::isinstance<Game>(target)) return target.cast<Game>();
  if (py::isinstance<Position>(target)) return Game(target.cast<Position>());
  throw py::type_error("analyze takes a Position or a Game");
}

// One search on `engine` with the GIL released; returns when it is done, at once (no polling
// delay). Ctrl-C (checked every 20 ms) stops the search and raises KeyboardInterrupt.
py::dict run_search(search::Engine& engine, const Game& game, const search::Limits& limits) {
  struct Done {
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    search::SearchResult result;
  } done;
  {
    py::gil_scoped_release release;
    engine.set_position(game);
    engine.go(limits, nullptr, [&done](const search::SearchResult& r) {
      std::lock_guard<std::mutex> lock(done.mutex);
      done.result = r;
      done.done = true;
      done.cv.notify_all();
    });
    std::unique_lock<std::mutex> lock(done.mutex);
    while (!done.cv.wait_for(lock, std::chrono::milliseconds(20), [&done] { return done.done; })) {
      lock.unlock();
      bool interrupted;
      {
        py::gil_scoped_acquire acquire;
        interrupted = PyErr_CheckSignals() != 0;
      }
      if (interrupted) {
        engine.stop();
        engine.wait();
        py::gil_scoped_acquire acquire;
        throw py::error_already_set();
      }
      lock.lock();
    }
    lock.unlock();
    engine.wait();
  }
  const search::SearchResult& result = done.result;
  py::list lines;
  for (const auto& info : result.lines) lines.append(line_dict(info, game.position()));
  return py::dict("best_move"_a = result.best_move == 0 ? py::object(py::none())
                                                        : py::object(py::int_(result.best_move)),
                  "lines"_a = lines, "nodes"_a = result.nodes, "time_ms"_a = result.time_ms);
}

search::Options engine_options(int hash_mb, int threads, int multipv, int skill, uint64_t seed) {
  if (multipv < 1) throw py::value_error("multipv must be at least 1");
  if (hash_mb < 1) throw py::value_error("hash_mb must be at least 1");
  if (threads < 1) throw py::value_error("threads must be at least 1");
  if (skill < 1 || skill > 20) throw py::value_error("skill must be 1..20");
  search::Options opt;
  opt.hash_mb = hash_mb;
  opt.threads = threads;
  opt.multipv = multipv;
  opt.skill = skill;
  opt.seed = seed;
  return opt;
}

// An engine kept between searches (its hash table and history survive), for one thread at
// a time.
class PyEngine {
 public:
  PyEngine(int hash_mb, int threads, int skill, uint64_t seed)
      : options_(engine_options(hash_mb, threads, 1, skill, seed)) {
    engine_.set_options(options_);
  }
  py::dict analyze(const py::object& target, int depth, uint64_t nodes, int movetime_ms,
                   int multipv) {
    Game game = game_arg(target);
    search::Limits limits = limits_arg(depth, nodes, movetime_ms);
    if (multipv < 1) throw py::value_error("multipv must be at least 1");
    if (busy_.exchange(true))
      throw std::runtime_error("Engine is searching for another thread (use one per thread)");
    struct Release {
      std::atomic<bool>& flag;
      ~Release() { flag = false; }
    } release{busy_};
    if (multipv != options_.multipv) {
      options_.multipv = multipv;
      engine_.set_options(options_);
    }
    return run_search(engine_, game, limits);
  }
  void new_game() {
    if (busy_.exchange(true)) throw std::runtime_error("Engine is searching for another thread");
    engine_.new_game();
    busy_ = false;
  }
  const search::Options& options() const { return options_; }

 private:
  search::Options options_;
  search::Engine engine_;
  std::atomic<bool> busy_{false};
};

py::dict analyze(const py::object& target, int depth, uint64_t nodes, int movetime_ms, int multipv,
                 int hash_mb, int threads, int skill, uint64_t seed) {
  Game game = game_arg(target);
  search::Limits limits = limits_arg(depth, nodes, movetime_ms);
  search::Engine engine;
  engine.set_options(engine_options(hash_mb, threads, multipv, skill, seed));
  return run_search(engine, game, limits);
}

}  // namespace

}  // namespace toguz::python

using namespace toguz;
using namespace toguz::python;

PYBIND11_MODULE(toguz, m) {
  m.doc() =
      "Toguz korgool / Togyz kumalak (2x9 mancala) at native speed: the rules of the toguz "
      "project\n"
      "(Position, Game, records, perft), its engine (analyze) and a batched environment for\n"
      "reinforcement learning (VecEnv). Sides are ints: WHITE = 0, BLACK = 1; holes are numbered\n"
      "1..N from the owner's left (N = 9, 7 or 5), except in VecEnv where actions are 0-based.";
  m.attr("WHITE") = 0;
  m.attr("BLACK") = 1;
  m.attr("__version__") = TOGUZ_VERSION;
  py::register_exception<ParseError>(m, "ParseError", PyExc_ValueError);

  py::class_<MoveInfo>(m, "MoveInfo",
                       "What one move did (returned by Position.play and Game.play).")
      .def_property_readonly(
          "hole", [](const MoveInfo& mi) { return int(mi.hole); }, "The hole played, 1..N.")
      .def_property_readonly(
          "last_hole", [](const MoveInfo& mi) { return int(mi.last_hole); },
          "The hole (1..N, on row last_row) where the last stone fell.")
      .def_property_readonly(
          "last_row", [](const MoveInfo& mi) { return index(mi.last_row); },
          "The row (0 White, 1 Black) where the last stone fell.")
      .def_property_readonly(
          "captured", [](const MoveInfo& mi) { return int(mi.captured); },
          "Stones taken by an even capture (0 if none).")
      .def_property_readonly(
          "tuz_made", [](const MoveInfo& mi) { return mi.tuz_made; },
          "The landing hole became the mover's tuz (3 stones taken).")
      .def_property_readonly(
          "into_tuz",
          [](const MoveInfo& mi) {
            return py::make_tuple(int(mi.into_tuz[0]), int(mi.into_tuz[1]));
          },
          "Stones sown into the tuz owned by (White, Black).")
      .def_property_readonly(
          "kazna_after", [](const MoveInfo& mi) { return int(mi.kazna_after); },
          "The mover's kazna after the move.")
      .def_property_readonly(
          "kazna_changed", [](const MoveInfo& mi) { return mi.kazna_changed; },
          "The mover's kazna grew (capture, tuz, or stones into his tuz).")
      .def(
          "notation",
          [](const MoveInfo& mi, const std::string& style) {
            return format_move(mi, move_style(style));
          },
          "style"_a = "playok",
          "The move as written: style 'playok' ('65(10)', '27X'), 'tgk' ('65', '27x') or 'book' "
          "('65 (10)').")
      .def("to_dict", &move_info_dict, "The fields as a plain dict (notation in PlayOK style).")
      .def("__eq__", [](const MoveInfo& a,
                        const MoveInfo& b) { return move_info_dict(a).equal(move_info_dict(b)); })
      .def("__repr__", &move_info_repr)
      .def("__str__", [](const MoveInfo& mi) { return format_move(mi, MoveStyle::PlayOK); });

  py::class_<Position>(
      m, "Position",
      "A position (a small value): holes, kaznas, tuzes, side to move, move number and rules.\n"
      "Position() is the standard start; Position(text) parses a position string\n"
      "'<White holes>/<Black holes> <White kazna> <Black kazna> <w|b> [<move>]'.")
      .def(py::init(&position_from), "text"_a = py::none(), py::kw_only(), "variant"_a = py::none(),
           "tuz"_a = py::none(), "play_out"_a = false,
           "A position from its string (None: the start). variant: 'standard', 'kozdatu' or "
           "'bestemshi'\n"
           "(None: from the row length); tuz: None = the variant's default; play_out: no stop "
           "above N*N.\n"
           "Raises ParseError (a ValueError) naming the bad field.")
      .def_static(
          "start",
          [](const std::string& variant, std::optional<bool> tuz, bool play_out) {
            return position_from(std::nullopt, variant, tuz, play_out);
          },
          "variant"_a = "standard", "tuz"_a = py::none(), "play_out"_a = false,
          "The start position of a rule set: N stones in every hole, White to move.")
      .def("to_string", &format_position,
           "The canonical position string (move number always written).")
      .def("__str__", &format_position)
      .def("__repr__",
           [](const Position& p) {
             Rules r = p.rules();
             std::string s = "Position('" + format_position(p) + "'";
             if (r.tuz != Rules::for_variant(r.variant()).tuz)
               s += std::string(", tuz=") + (r.tuz ? "True" : "False");
             if (r.play_out) s += ", play_out=True";
             return s + ")";
           })
      .def("__eq__", [](const Position& a, const Position& b) { return a == b; })
      .def("__copy__", [](const Position& p) { return p; })
      .def(
          "__deepcopy__", [](const Position& p, py::object) { return p; }, "memo"_a)
      .def(
          "copy", [](const Position& p) { return p; }, "An independent copy.")
      .def(py::pickle(
          [](const Position& p) {
            Rules r = p.rules();
            return py::make_tuple(format_position(p), r.tuz, r.play_out);
          },
          [](const py::tuple& t) {
            RuleOptions o;
            o.tuz = t[1].cast<bool>();
            o.play_out = t[2].cast<bool>();
            return parse_position(t[0].cast<std::string>(), o);
          }))
      .def_property_readonly("n", &Position::n, "Holes per row (9, 7 or 5).")
      .def_property_readonly(
          "variant",
          [](const Position& p) { return std::string(variant_name(p.rules().variant())); },
          "'standard', 'kozdatu' or 'bestemshi'.")
      .def_property_readonly(
          "tuz_allowed", [](const Position& p) { return p.rules().tuz; }, "The rules allow a tuz.")
      .def_property_readonly(
          "play_out", [](const Position& p) { return p.rules().play_out; },
          "The play-out option (no stop above N*N).")
      .def_property_readonly(
          "side_to_move", [](const Position& p) { return index(p.side_to_move()); },
          "0 = White, 1 = Black.")
      .def_property_readonly("move_number", &Position::move_number,
                             "Starts at 1, grows after each Black move.")
      .def_property_readonly("key", &Position::key,
                             "The 64-bit Zobrist key (holes, tuzes, kaznas, side to move).")
      .def(
          "stones",
          [](const Position& p, int side, int hole) {
            return p.stones(side_arg(side), hole_arg(p, hole));
          },
          "side"_a, "hole"_a, "Stones in `side`'s hole `hole` (1..N); a tuz holds 0.")
      .def(
          "holes",
          [](const Position& p, int side) {
            std::vector<int> out;
            for (int h = 1; h <= p.n(); ++h) out.push_back(p.stones(side_arg(side), h));
            return out;
          },
          "side"_a, "The stones of `side`'s holes 1..N as a list.")
      .def(
          "kazna", [](const Position& p, int side) { return p.kazna(side_arg(side)); }, "side"_a,
          "The stones in `side`'s kazna.")
      .def_property_readonly(
          "kaznas",
          [](const Position& p) {
            return py::make_tuple(p.kazna(Side::White), p.kazna(Side::Black));
          },
          "(White kazna, Black kazna).")
      .def(
          "tuz", [](const Position& p, int owner) { return p.tuz(side_arg(owner)); }, "owner"_a,
          "The hole number (1..N, on the opponent's row) of `owner`'s tuz, 0 if none.")
      .def_property_readonly("any_tuz", &Position::any_tuz,
                             "Some tuz exists (no repetition is possible then).")
      .def_property_readonly("legal_mask", &Position::legal_mask,
                             "Bit h-1 set when hole h may be played.")
      .def(
          "legal_moves",
          [](const Position& p) {
            return p.outcome() == Outcome::Ongoing ? holes_of_mask(p.legal_mask())
                                                   : std::vector<int>{};
          },
          "The holes (1..N) the side to move may play; empty once the game is over.")
      .def(
          "is_legal",
          [](const Position& p, int hole) {
            return p.outcome() == Outcome::Ongoing && p.is_legal(hole);
          },
          "hole"_a, "Whether `hole` may be played now.")
      .def("play", &checked_play, "hole"_a,
           "Plays `hole` in place and returns a MoveInfo. Raises ValueError on an illegal move or "
           "when\n"
           "the game is over (decided / no move); repetition needs the history: use Game.")
      .def(
          "after",
          [](const Position& p, int hole) {
            Position q = p;
            checked_play(q, hole);
            return q;
          },
          "hole"_a, "A copy after `hole` (this position is unchanged).")
      .def(
          "outcome", [](const Position& p) { return outcome_name(p.outcome()); },
          "'ongoing', 'decided' (a kazna above N*N) or 'no-move' (the side to move has no stones).")
      .def(
          "final_score",
          [](const Position& p) {
            auto s = p.final_score(p.outcome());
            return py::make_tuple(s[0], s[1]);
          },
          "(White, Black) totals when play stops here (on no-move the stones left go to the "
          "opponent).")
      .def(
          "consistent", [](const Position& p) { return p.consistent(); },
          "Stones conserved, tuzes legal, key right.");

  py::class_<Game>(
      m, "Game",
      "A game with its history: the referee (legal moves, repetition, end, result, undo).\n"
      "Game() starts the standard game; Game(Position or position string) starts from there.")
      .def(py::init(&game_from), "start"_a = py::none(), py::kw_only(), "variant"_a = py::none(),
           "tuz"_a = py::none(), "play_out"_a = false,
           "A game from `start` (a Position, a position string, or None = the start of the rules).")
      .def_static(
          "from_record",
          [](const std::string& text, std::optional<std::string> variant, std::optional<bool> tuz,
             bool play_out, bool strict) {
            auto records = read_records_warned(text);
            if (records.empty()) throw py::value_error("no game record in the text");
            Replayed r =
                replay_warned(records.front(), rule_options(variant, tuz, play_out), strict);
            if (r.error) throw py::value_error(describe(*r.error));
            return r.game;
          },
          "text"_a, "variant"_a = py::none(), "tuz"_a = py::none(), "play_out"_a = false,
          "strict"_a = false,
          "The first game of a PGN/TGK text (str, or bytes in UTF-8 or Windows-1251), every move\n"
          "checked. Raises ValueError naming the game, line and bad ply; ParseError when the text "
          "is\n"
          "not a record at all. A truncated game warns (an error with strict=True).")
      .def(
          "to_record",
          [](const Game& g, const py::object& tags, const std::string& style) {
            return write_record(g, tags_arg(tags), record_style(style));
          },
          "tags"_a = py::none(), "style"_a = "pgn",
          "The game as a record: style 'pgn' (PlayOK) or 'tgk'; tags a dict or list of (name, "
          "value).")
      .def_property_readonly(
          "start", [](const Game& g) { return g.start(); }, "The start position (a copy).")
      .def_property_readonly(
          "position", [](const Game& g) { return g.position(); }, "The current position (a copy).")
      .def(
          "position_at",
          [](const Game& g, int ply) {
            if (ply < 0 || ply > g.ply_count())
              throw py::index_error("ply out of range 0.." + std::to_string(g.ply_count()));
            return g.position_at(ply);
          },
          "ply"_a, "The position before ply `ply` (0 = start, ply_count = now).")
      .def_property_readonly(
          "moves", [](const Game& g) { return g.moves(); }, "The MoveInfo of every ply.")
      .def_property_readonly(
          "holes_played",
          [](const Game& g) {
            std::vector<int> out;
            for (const auto& mi : g.moves()) out.push_back(mi.hole);
            return out;
          },
          "The hole of every ply.")
      .def_property_readonly("ply_count", &Game::ply_count)
      .def(
          "legal_moves", [](const Game& g) { return holes_of_mask(g.legal_mask()); },
          "The holes the side to move may play (empty once the game is over).")
      .def_property_readonly("legal_mask", &Game::legal_mask,
                             "Bit h-1 set when hole h may be played (0 when over).")
      .def(
          "play",
          [](Game& g, int hole) {
            std::string why;
            MoveInfo mi;
            if (!g.play(hole, &why, &mi)) throw py::value_error(why);
            return mi;
          },
          "hole"_a,
          "Plays `hole`; returns a MoveInfo. Raises ValueError (game unchanged) when illegal or "
          "over.")
      .def(
          "play_token",
          [](Game& g, const std::string& token) {
            MoveToken t;
            std::string why;
            if (!parse_move_token(token, &t, &why))
              throw py::value_error("'" + token + "': " + why);
            MoveInfo mi;
            if (!g.play(t.hole, &why, &mi)) throw py::value_error("'" + token + "': " + why);
            std::string bad = check_move_token(t, mi);
            if (!bad.empty()) {
              g.undo();
              throw py::value_error("'" + token + "': " + bad);
            }
            return mi;
          },
          "token"_a,
          "Plays a written move ('65(10)', '27X', '6') after checking its landing hole, tuz mark "
          "and count.")
      .def("undo", &Game::undo,
           "Takes back the last move (and any recorded result); False at the start.")
      .def(
          "outcome", [](const Game& g) { return outcome_name(g.outcome()); },
          "What the board says: 'ongoing', 'decided', 'no-move' or 'repetition'.")
      .def_property_readonly("over", &Game::over,
                             "The board ended the game or a result was recorded.")
      .def_property_readonly(
          "end_reason",
          [](const Game& g) {
            EndReason r = g.end_reason();
            return r == EndReason::None ? py::object(py::none())
                                        : py::object(py::str(std::string(end_reason_name(r))));
          },
          "'decided', 'no-move', 'repetition', 'resignation', 'time', 'agreement' or None.")
      .def_property_readonly(
          "result", [](const Game& g) { return result_name(g.result()); },
          "'1-0', '0-1', '1/2-1/2' or '*' (ongoing).")
      .def(
          "score",
          [](const Game& g) {
            auto s = g.score();
            return py::make_tuple(s[0], s[1]);
          },
          "(White, Black): the final totals once the board ended the game, else the kaznas.")
      .def_property_readonly("repetition_count", &Game::repetition_count,
                             "How often the current position occurred.")
      .def(
          "set_result",
          [](Game& g, const std::string& result, const std::string& reason) {
            Result r;
            if (!parse_result(result, &r))
              throw py::value_error("unknown result '" + result + "' (1-0, 0-1, 1/2-1/2, *)");
            g.set_recorded_result(r, end_reason_arg(reason));
          },
          "result"_a, "reason"_a = "resignation",
          "Records a result the board does not give (reason: resignation, time, agreement).")
      .def(
          "copy", [](const Game& g) { return g; }, "An independent copy.")
      .def("__copy__", [](const Game& g) { return g; })
      .def(
          "__deepcopy__", [](const Game& g, py::object) { return g; }, "memo"_a)
      .def("__len__", &Game::ply_count)
      .def("__repr__", [](const Game& g) {
        return "<toguz.Game plies=" + std::to_string(g.ply_count()) +
               " result=" + result_name(g.result()) + " position='" +
               format_position(g.position()) + "'>";
      });

  py::class_<Record>(m, "Record",
                     "One game record as written (tags, move tokens, result), before replay.")
      .def_property_readonly(
          "tags", [](const Record& r) { return r.tags; }, "(name, value) pairs in file order.")
      .def("tag", &Record::tag, "name"_a, "The value of a tag, or None.")
      .def_property_readonly(
          "tokens",
          [](const Record& r) {
            std::vector<std::string> out;
            for (const auto& p : r.plies) out.push_back(p.token);
            return out;
          },
          "The move tokens as written.")
      .def_property_readonly(
          "token_lines",
          [](const Record& r) {
            std::vector<int> out;
            for (const auto& p : r.plies) out.push_back(p.line);
            return out;
          },
          "The 1-based input line of every token.")
      .def_property_readonly("result_token", [](const Record& r) { return r.result_token; })
      .def_property_readonly(
          "zero", [](const Record& r) { return r.zero; }, "A '{zero}' comment followed the result.")
      .def_property_readonly("comments", [](const Record& r) { return r.comments; })
      .def_property_readonly("first_line", [](const Record& r) { return r.first_line; })
      .def_property_readonly(
          "number", [](const Record& r) { return r.number; },
          "1-based number of the game in its text.")
      .def_property_readonly(
          "error", [](const Record& r) { return r.read_error; },
          "Why the game could not be read (a ReplayError), or None.")
      .def_property_readonly(
          "unterminated", [](const Record& r) { return r.unterminated; },
          "The text ended inside this game's moves without a result token.")
      .def("__repr__", [](const Record& r) {
        return "<toguz.Record line=" + std::to_string(r.first_line) +
               " plies=" + std::to_string(r.plies.size()) + " result='" + r.result_token + "'>";
      });

  py::class_<ReplayError>(
      m, "ReplayError",
      "Why a record did not read or replay: the game, ply, line, column, token and message.")
      .def_property_readonly(
          "game", [](const ReplayError& e) { return e.game; }, "1-based game number in the text.")
      .def_property_readonly(
          "ply", [](const ReplayError& e) { return e.ply; }, "1-based ply (0: the whole game).")
      .def_property_readonly("line", [](const ReplayError& e) { return e.line; })
      .def_property_readonly(
          "column", [](const ReplayError& e) { return e.column; }, "1-based column (0: not known).")
      .def_property_readonly("token", [](const ReplayError& e) { return e.token; })
      .def_property_readonly("message", [](const ReplayError& e) { return e.message; })
      .def("__str__", [](const ReplayError& e) { return describe(e); })
      .def("__repr__",
           [](const ReplayError& e) { return "<toguz.ReplayError " + describe(e) + ">"; });

  m.def(
      "read_records", &read_records_warned, "text"_a,
      "Every record in a PGN (PlayOK) or TGK (federation) text: str, or bytes in UTF-8 or\n"
      "Windows-1251 (read as such with a UserWarning saying so); CRLF is fine. A game that cannot\n"
      "be read is returned with its error (Record.error) and reading goes on at the next tag\n"
      "block. Raises ParseError when the text is not a record at all (empty, binary, HTML).");
  m.def(
      "replay_record",
      [](const Record& rec, std::optional<std::string> variant, std::optional<bool> tuz,
         bool play_out, bool strict) {
        Replayed r = replay_warned(rec, rule_options(variant, tuz, play_out), strict);
        return py::make_tuple(r.game, r.error ? py::cast(*r.error) : py::object(py::none()));
      },
      "record"_a, "variant"_a = py::none(), "tuz"_a = py::none(), "play_out"_a = false,
      "strict"_a = false,
      "Replays a Record, every token checked: returns (Game, ReplayError or None). The game holds\n"
      "the moves up to the first error. The record's Variant/Rules/FEN tags apply unless "
      "overridden.\n"
      "A truncated last game (Record.unterminated, not over on the board) warns, or with\n"
      "strict=True is the error.");
  m.def(
      "write_record",
      [](const Game& g, const py::object& tags, const std::string& style) {
        return write_record(g, tags_arg(tags), record_style(style));
      },
      "game"_a, "tags"_a = py::none(), "style"_a = "pgn",
      "A game as a record: style 'pgn' (PlayOK habits) or 'tgk'; tags a dict or list of pairs.");
  m.def(
      "perft",
      [](const Position& p, int depth) {
        if (depth < 0 || depth > kMaxPerftDepth)
          throw py::value_error("depth must be 0.." + std::to_string(kMaxPerftDepth));
        py::gil_scoped_release release;
        return perft(p, depth);
      },
      "position"_a, "depth"_a,
      "Leaves of the legal-move tree at `depth` (a finished position is one leaf). Releases the "
      "GIL.");
  m.def(
      "perft_divide",
      [](const Position& p, int depth) {
        if (depth < 1 || depth > kMaxPerftDepth)
          throw py::value_error("depth must be 1.." + std::to_string(kMaxPerftDepth));
        py::gil_scoped_release release;
        return perft_divide(p, depth);
      },
      "position"_a, "depth"_a, "perft per root move: [(hole, leaves), ...] in hole order.");
  m.def(
      "analyze", &analyze, "target"_a, py::kw_only(), "depth"_a = 0, "nodes"_a = 0,
      "movetime_ms"_a = 0, "multipv"_a = 1, "hash_mb"_a = 16, "threads"_a = 1, "skill"_a = 20,
      "seed"_a = 0,
      "Searches a Position or a Game (its history counts for repetition) with the engine, with at\n"
      "least one limit (depth, nodes, movetime_ms). Returns a dict: best_move (hole, None when "
      "the\n"
      "game is over), nodes, time_ms and lines: one dict per multipv rank with multipv, depth,\n"
      "seldepth, score_cp (hundredths of a stone for the side to move), proven, result (+1/0/-1 "
      "when\n"
      "proven, else None), plies (to the end when proven), margin (or None), nodes and pv "
      "(holes).\n"
      "The GIL is released while searching; Ctrl-C stops the search and raises KeyboardInterrupt.");
  py::class_<PyEngine>(
      m, "Engine",
      "An engine kept between searches (hash table and history tables survive), e.g. for\n"
      "playing a whole game; one thread at a time per Engine.")
      .def(py::init<int, int, int, uint64_t>(), py::kw_only(), "hash_mb"_a = 16, "threads"_a = 1,
           "skill"_a = 20, "seed"_a = 0,
           "skill 1..20 (20 = full strength); seed makes the weaker levels' choices reproducible.")
      .def("analyze", &PyEngine::analyze, "target"_a, py::kw_only(), "depth"_a = 0, "nodes"_a = 0,
           "movetime_ms"_a = 0, "multipv"_a = 1, "As toguz.analyze, on this engine.")
      .def(
          "best_move",
          [](PyEngine& e, const py::object& target, int depth, uint64_t nodes, int movetime_ms) {
            return e.analyze(target, depth, nodes, movetime_ms, 1)["best_move"];
          },
          "target"_a, py::kw_only(), "depth"_a = 0, "nodes"_a = 0, "movetime_ms"_a = 0,
          "The engine's move (a hole), None when the game is over.")
      .def("new_game", &PyEngine::new_game, "Clears the hash table and history tables.")
      .def_property_readonly("hash_mb", [](const PyEngine& e) { return e.options().hash_mb; })
      .def_property_readonly("threads", [](const PyEngine& e) { return e.options().threads; })
      .def_property_readonly("skill", [](const PyEngine& e) { return e.options().skill; });
  bind_vec_env(m);
  bind_solve(m);
  bind_selfplay(m);
}
