#include "bus/job.h"

#include <boost/json.hpp>

#include "rules/notation.h"

namespace toguz::bus {

namespace json = boost::json;

namespace {

constexpr JobKind kKinds[] = {JobKind::Move, JobKind::Hint, JobKind::Analysis, JobKind::Review};

[[noreturn]] void bad(const std::string& what, const std::string& field, const std::string& why) {
  throw JobError(what + ": " + field + ": " + why);
}

// A value as shown in a message: quoted, at most 20 characters.
std::string quote(std::string_view s) {
  std::string q = "'";
  q += s.substr(0, 20);
  q += '\'';
  return q;
}

// Reads fields of one object, naming `what` ("job", "result") in its errors.
struct Fields {
  const json::object& o;
  std::string what;

  const json::value* find(const char* key) const {
    auto it = o.find(key);
    return it == o.end() || it->value().is_null() ? nullptr : &it->value();
  }
  std::string text(const char* key, bool required, std::string fallback = "") const {
    const json::value* v = find(key);
    if (!v) {
      if (required) bad(what, key, "missing (expected a string)");
      return fallback;
    }
    if (!v->is_string()) bad(what, key, "expected a string");
    return std::string(v->as_string());
  }
  int64_t integer(const char* key, int64_t lo, int64_t hi, int64_t fallback) const {
    const json::value* v = find(key);
    if (!v) return fallback;
    const auto range = "expected an integer " + std::to_string(lo) + ".." + std::to_string(hi);
    if (!v->is_int64() && !v->is_uint64()) bad(what, key, range);
    if (v->is_uint64() && v->as_uint64() > uint64_t(INT64_MAX)) bad(what, key, range);
    const int64_t x = v->is_int64() ? v->as_int64() : int64_t(v->as_uint64());
    if (x < lo || x > hi) bad(what, key, range);
    return x;
  }
  uint64_t unsigned_integer(const char* key, uint64_t fallback) const {
    const json::value* v = find(key);
    if (!v) return fallback;
    if (v->is_uint64()) return v->as_uint64();
    if (v->is_int64() && v->as_int64() >= 0) return uint64_t(v->as_int64());
    bad(what, key, "expected an integer >= 0");
  }
  bool boolean(const char* key, bool fallback) const {
    const json::value* v = find(key);
    if (!v) return fallback;
    if (!v->is_bool()) bad(what, key, "expected true or false");
    return v->as_bool();
  }
  JobKind kind() const {
    const std::string k = text("kind", true);
    for (JobKind x : kKinds)
      if (k == job_kind_name(x)) return x;
    bad(what, "kind", quote(k) + ": expected move, hint, analysis or review");
  }
};

json::object parse_object(std::string_view text, const std::string& what) {
  json::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec) throw JobError(what + ": not JSON (" + ec.message() + ")");
  if (!v.is_object()) throw JobError(what + ": expected a JSON object");
  return std::move(v.as_object());
}

}  // namespace

const char* job_kind_name(JobKind k) {
  switch (k) {
    case JobKind::Move:
      return "move";
    case JobKind::Hint:
      return "hint";
    case JobKind::Analysis:
      return "analysis";
    case JobKind::Review:
      return "review";
  }
  return "?";
}

std::string job_json(const Job& job) {
  json::object limits;
  limits["level"] = job.limits.level;
  if (job.limits.movetime_ms > 0) limits["movetime_ms"] = job.limits.movetime_ms;
  if (job.limits.depth > 0) limits["depth"] = job.limits.depth;
  if (job.limits.nodes > 0) limits["nodes"] = job.limits.nodes;
  if (job.limits.time_ms[0] >= 0 || job.limits.time_ms[1] >= 0) {
    limits["white_ms"] = job.limits.time_ms[0];
    limits["black_ms"] = job.limits.time_ms[1];
    limits["white_inc_ms"] = job.limits.inc_ms[0];
    limits["black_inc_ms"] = job.limits.inc_ms[1];
  }
  json::array moves;
  for (int h : job.moves) moves.push_back(h);
  json::object o{{"id", job.id},
                 {"kind", job_kind_name(job.kind)},
                 {"game", job.game},
                 {"generation", job.generation},
                 {"reply", job.reply},
                 {"variant", job.variant},
                 {"tuz", job.tuz < 0 ? json::value(nullptr) : json::value(job.tuz == 1)},
                 {"play_out", job.play_out},
                 {"start", job.start},
                 {"moves", std::move(moves)},
                 {"limits", std::move(limits)},
                 {"multipv", job.multipv},
                 {"stream", job.stream},
                 {"seed", job.seed},
                 {"expires_ms", job.expires_ms}};
  return json::serialize(o);
}

Job parse_job(std::string_view text) {
  const json::object o = parse_object(text, "job");
  const Fields f{o, "job"};
  Job job;
  job.id = f.text("id", true);
  job.kind = f.kind();
  job.game = f.text("game", false);
  job.generation = f.unsigned_integer("generation", 0);
  job.reply = f.text("reply", true);
  if (job.reply.empty()) bad("job", "reply", "empty (expected the result stream's key)");
  job.variant = f.text("variant", false, "standard");
  Variant v;
  if (!parse_variant(job.variant, &v))
    bad("job", "variant", quote(job.variant) + ": expected standard, kozdatu or bestemshi");
  if (f.find("tuz")) job.tuz = f.boolean("tuz", true) ? 1 : 0;
  job.play_out = f.boolean("play_out", false);
  job.start = f.text("start", false, "startpos");
  if (const json::value* m = f.find("moves")) {
    if (!m->is_array()) bad("job", "moves", "expected an array of holes");
    for (size_t i = 0; i < m->as_array().size(); ++i) {
      const json::value& h = m->as_array()[i];
      if (!h.is_int64() || h.as_int64() < 1 || h.as_int64() > Position::kMaxN)
        bad("job", "moves[" + std::to_string(i) + "]", "expected a hole 1..9");
      job.moves.push_back(int(h.as_int64()));
    }
  }
  if (const json::value* l = f.find("limits")) {
    if (!l->is_object()) bad("job", "limits", "expected an object");
    const Fields lf{l->as_object(), "job: limits"};
    constexpr int64_t kDay = 24LL * 3600 * 1000;
    job.limits.level = int(lf.integer("level", 1, 20, 20));
    job.limits.movetime_ms = int(lf.integer("movetime_ms", 0, kDay, 0));
    job.limits.depth = int(lf.integer("depth", 0, 100, 0));
    job.limits.nodes = lf.unsigned_integer("nodes", 0);
    job.limits.time_ms[0] = int(lf.integer("white_ms", -1, kDay, -1));
    job.limits.time_ms[1] = int(lf.integer("black_ms", -1, kDay, -1));
    job.limits.inc_ms[0] = int(lf.integer("white_inc_ms", 0, kDay, 0));
    job.limits.inc_ms[1] = int(lf.integer("black_inc_ms", 0, kDay, 0));
  }
  const JobLimits& lim = job.limits;
  const bool clocks = lim.time_ms[0] >= 0 || lim.time_ms[1] >= 0;
  if (lim.movetime_ms == 0 && lim.depth == 0 && lim.nodes == 0 && !clocks)
    bad("job", "limits", "no limit (expected movetime_ms, depth, nodes or the clocks)");
  if (job.kind == JobKind::Review && lim.nodes == 0)
    bad("job", "limits", "a review needs nodes (per position)");
  job.multipv = int(f.integer("multipv", 1, 5, 1));
  job.stream = f.boolean("stream", false);
  job.seed = f.unsigned_integer("seed", 0);
  job.expires_ms = f.integer("expires_ms", 0, INT64_MAX, 0);
  return job;
}

bool parse_job_envelope(std::string_view text, Job* out) {
  try {
    const json::object o = parse_object(text, "job");
    const Fields f{o, "job"};
    out->id = f.text("id", true);
    out->reply = f.text("reply", true);
    try {
      out->kind = f.kind();
      out->game = f.text("game", false);
      out->generation = f.unsigned_integer("generation", 0);
    } catch (const JobError&) {
    }
    return !out->id.empty() && !out->reply.empty();
  } catch (const JobError&) {
    return false;
  }
}

Game job_game(const Job& job) {
  RuleOptions opts;
  Variant v;
  if (!parse_variant(job.variant, &v))
    bad("job", "variant", "expected standard, kozdatu or bestemshi");
  opts.variant = v;
  if (job.tuz >= 0) opts.tuz = job.tuz == 1;
  opts.play_out = job.play_out;
  Position start;
  try {
    start =
        job.start == "startpos" ? Position::start(opts.resolve()) : parse_position(job.start, opts);
  } catch (const ParseError& e) {
    bad("job", "start", e.what());
  }
  Game game(start);
  for (size_t i = 0; i < job.moves.size(); ++i) {
    std::string why;
    if (!game.play(job.moves[i], &why))
      bad("job", "moves[" + std::to_string(i) + "]",
          "hole " + std::to_string(job.moves[i]) + ": " + why);
  }
  return game;
}

ResultHeader parse_result_header(std::string_view text) {
  const json::object o = parse_object(text, "result");
  const Fields f{o, "result"};
  ResultHeader r;
  r.job = f.text("job", true);
  r.kind = f.kind();
  r.game = f.text("game", false);
  r.generation = f.unsigned_integer("generation", 0);
  r.done = f.boolean("done", true);
  r.error = f.text("error", false);
  r.worker = f.text("worker", false);
  return r;
}

std::string result_prefix(const Job& job, bool done, const std::string& worker) {
  std::string s = json::serialize(json::object{{"job", job.id},
                                               {"kind", job_kind_name(job.kind)},
                                               {"game", job.game},
                                               {"generation", job.generation},
                                               {"done", done},
                                               {"worker", worker}});
  s.pop_back();  // the closing brace
  return s;
}

bool is_stale(const ResultHeader& r, std::string_view game, uint64_t generation) {
  return r.game != game || r.generation != generation;
}

}  // namespace toguz::bus
