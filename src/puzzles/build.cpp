// The puzzle file: JSON lines, duplicates, and a build that can be resumed.
#include <boost/json.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "puzzles/puzzles.h"
#include "rules/notation.h"
#include "rules/record.h"

namespace toguz::puzzles {

namespace json = boost::json;

namespace {

std::string hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// The board key and the first move as one key (a splitmix64 step keeps them apart).
uint64_t board_move_key(uint64_t board_key, int first_move) {
  uint64_t z = board_key + 0x9E3779B97F4A7C15ull * uint64_t(first_move + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// FNV-1a over bytes, chained.
uint64_t fnv(uint64_t h, std::string_view bytes) {
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001B3ull;
  return h;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read the file");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string options_text(const MineOptions& o) {
  std::ostringstream s;
  s << "depth=" << o.depth << " confirm=" << o.confirm_depth << " margin=" << o.margin_cp
    << " skip=" << o.skip_plies << " line=" << o.max_line << " prove=" << o.prove_stones
    << " nodes=" << o.solver_nodes << " hash=" << o.hash_mb;
  return s.str();
}

struct State {
  std::string inputs, options;
  int games_done = 0;
  uint64_t bytes = 0;
};

// Written to a temporary file and renamed: a build stopped at any point leaves either the old
// or the new state, never half of one.
void write_state(const std::string& path, const State& s) {
  json::object o;
  o["inputs"] = s.inputs;
  o["options"] = s.options;
  o["games_done"] = s.games_done;
  o["bytes"] = s.bytes;
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << json::serialize(o) << "\n";
    if (!f.flush()) throw std::runtime_error(tmp + ": cannot write the state file");
  }
  std::filesystem::rename(tmp, path);
}

State read_state(const std::string& path) {
  State s;
  try {
    const json::object o = json::parse(read_file(path)).as_object();
    s.inputs = std::string(o.at("inputs").as_string());
    s.options = std::string(o.at("options").as_string());
    s.games_done = int(o.at("games_done").to_number<int64_t>());
    s.bytes = o.at("bytes").to_number<uint64_t>();
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": not a puzzle build state file (" + e.what() +
                             "); remove it to build afresh");
  }
  return s;
}

}  // namespace

bool Deduper::add(const Puzzle& p) {
  return add(p.key, p.board_key, p.line.empty() ? 0 : p.line[0]);
}

bool Deduper::add(uint64_t key, uint64_t board_key, int first_move) {
  const uint64_t b = board_move_key(board_key, first_move);
  if (keys_.count(key) || boards_.count(b)) return false;
  keys_.insert(key);
  boards_.insert(b);
  return true;
}

std::string puzzle_json(const Puzzle& p) {
  json::object o;
  o["position"] = p.position;
  o["side"] = p.side == Side::White ? "white" : "black";
  json::array line, notation;
  for (int h : p.line) line.push_back(h);
  for (const auto& t : p.line_notation) notation.push_back(json::string(t));
  o["line"] = std::move(line);
  o["line_notation"] = std::move(notation);
  o["best_cp"] = p.best_cp;
  o["second_cp"] = p.second_cp;
  if (p.proven) {
    o["proven"] = json::object{
        {"result", p.proven_result > 0   ? "win"
                   : p.proven_result < 0 ? "loss"
                                         : "draw"},
        {"margin", p.proven_margin ? json::value(*p.proven_margin) : json::value(nullptr)}};
  } else {
    o["proven"] = nullptr;
  }
  json::array themes;
  for (const auto& t : p.themes) themes.push_back(json::string(t));
  o["themes"] = std::move(themes);
  o["difficulty"] = p.difficulty;
  o["found_depth"] = p.found_depth;
  o["key"] = hex(p.key);
  o["board_key"] = hex(p.board_key);
  json::object tags;
  for (const auto& [k, v] : p.source.tags) tags[k] = v;
  o["source"] = json::object{{"file", p.source.file},
                             {"game", p.source.game},
                             {"ply", p.source.ply},
                             {"played", p.source.played},
                             {"tags", std::move(tags)}};
  return json::serialize(o);
}

bool read_puzzle(const std::string& line, Puzzle* out, std::string* why) {
  // The member `name` of `obj`; its absence is named in the error.
  auto field = [](const json::object& obj, const char* name) -> const json::value& {
    if (const json::value* v = obj.if_contains(name)) return *v;
    throw std::runtime_error(std::string("no \"") + name + "\" member");
  };
  try {
    const json::object o = json::parse(line).as_object();
    Puzzle p;
    p.position = std::string(field(o, "position").as_string());
    p.side = field(o, "side").as_string() == "black" ? Side::Black : Side::White;
    for (const auto& h : field(o, "line").as_array()) p.line.push_back(int(h.as_int64()));
    for (const auto& t : field(o, "line_notation").as_array())
      p.line_notation.emplace_back(t.as_string());
    if (p.line.empty()) throw std::runtime_error("the line is empty");
    Position pos = parse_position(p.position);  // names the field at fault
    for (int hole : p.line) {
      if (pos.outcome() != Outcome::Ongoing || !pos.is_legal(hole))
        throw std::runtime_error("the line's move " + std::to_string(hole) + " is not legal");
      pos.play(hole);
    }
    p.best_cp = int(field(o, "best_cp").as_int64());
    p.second_cp = int(field(o, "second_cp").as_int64());
    if (!field(o, "proven").is_null()) {
      const json::object& pr = field(o, "proven").as_object();
      const json::string& r = field(pr, "result").as_string();
      p.proven = true;
      p.proven_result = r == "win" ? 1 : r == "loss" ? -1 : 0;
      if (!field(pr, "margin").is_null()) p.proven_margin = int(field(pr, "margin").as_int64());
    }
    for (const auto& t : field(o, "themes").as_array()) p.themes.emplace_back(t.as_string());
    p.difficulty = int(field(o, "difficulty").as_int64());
    p.found_depth = int(field(o, "found_depth").as_int64());
    p.key = std::stoull(std::string(field(o, "key").as_string()), nullptr, 16);
    p.board_key = std::stoull(std::string(field(o, "board_key").as_string()), nullptr, 16);
    const json::object& src = field(o, "source").as_object();
    p.source.file = std::string(field(src, "file").as_string());
    p.source.game = int(field(src, "game").as_int64());
    p.source.ply = int(field(src, "ply").as_int64());
    p.source.played = int(field(src, "played").as_int64());
    for (const auto& [k, v] : field(src, "tags").as_object())
      p.source.tags.emplace_back(std::string(k), std::string(v.as_string()));
    *out = std::move(p);
    return true;
  } catch (const std::exception& e) {
    if (why) *why = std::string("not a puzzle line: ") + e.what();
    return false;
  }
}

BuildProgress build_puzzle_file(const std::vector<std::string>& inputs, const std::string& out,
                                const BuildOptions& options) {
  BuildProgress progress;
  auto report = [&](std::string message) {
    progress.message = std::move(message);
    if (options.on_progress) options.on_progress(progress);
    progress.message.clear();
  };
  // Every input read first: the games counted and the inputs hashed before anything is written.
  std::vector<RecordFile> files;
  uint64_t h = 0xCBF29CE484222325ull;
  for (const auto& path : inputs) {
    const std::string bytes = read_file(path);
    h = fnv(fnv(h, bytes), std::string_view("\0", 1));
    try {
      files.push_back(read_record_file(bytes));
    } catch (const ParseError& e) {
      throw std::runtime_error(path + ": " + e.what());
    }
    progress.games_total += int(files.back().games.size());
  }
  State state;
  state.inputs = hex(h);
  state.options = options_text(options.mine);

  const std::string state_path = out + ".state";
  Deduper dedupe;
  if (std::filesystem::exists(state_path)) {
    const State old = read_state(state_path);
    if (old.inputs != state.inputs || old.options != state.options)
      throw std::runtime_error(state_path + ": made from other records or options (" + old.options +
                               "); remove it and " + out + " to build afresh, or use another -o");
    if (!std::filesystem::exists(out) || std::filesystem::file_size(out) < old.bytes)
      throw std::runtime_error(out +
                               ": shorter than its state file says; remove both to build afresh");
    std::filesystem::resize_file(out,
                                 old.bytes);  // drop what a stopped build wrote after the state
    state = old;
    std::ifstream in(out);
    std::string line;
    Puzzle p;
    while (std::getline(in, line))
      if (read_puzzle(line, &p, nullptr)) dedupe.add(p), ++progress.puzzles;
    progress.games_done = state.games_done;
    if (state.games_done > 0)
      report("resuming after " + std::to_string(state.games_done) + " games (" +
             std::to_string(progress.puzzles) + " puzzles)");
  } else {
    std::ofstream(out, std::ios::binary | std::ios::trunc);
    state.games_done = 0, state.bytes = 0;
    write_state(state_path, state);
  }
  std::ofstream file(out, std::ios::binary | std::ios::app);
  if (!file) throw std::runtime_error(out + ": cannot write the file");

  int index = 0, this_run = 0;
  for (size_t f = 0; f < files.size(); ++f) {
    for (const Record& record : files[f].games) {
      if (index++ < state.games_done) continue;
      if (options.stop_after > 0 && this_run >= options.stop_after) return progress;
      ++this_run;
      std::optional<ReplayError> error = record.read_error;
      Replayed replayed;
      if (!error) {
        replayed = replay_record(record);
        error = replayed.error;
      }
      std::string note;
      if (error) {
        ++progress.bad_games;
        note = inputs[f] + ": " + describe(*error) + " (game skipped)";
      } else {
        Source source;
        source.file = inputs[f];
        source.game = record.number;
        source.tags = record.tags;
        for (const Puzzle& p : mine_game(replayed.game, source, options.mine)) {
          if (!dedupe.add(p)) {
            ++progress.duplicates;
            continue;
          }
          file << puzzle_json(p) << "\n";
          ++progress.puzzles;
        }
      }
      if (!file.flush()) throw std::runtime_error(out + ": cannot write the file");
      state.games_done = index;
      state.bytes = std::filesystem::file_size(out);
      write_state(state_path, state);
      progress.games_done = index;
      report(note);
    }
  }
  return progress;
}

}  // namespace toguz::puzzles
