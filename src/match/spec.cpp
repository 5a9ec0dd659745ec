#include "match/spec.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace toguz::match {

namespace {

bool to_double(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  *out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(*out);
}

template <class T>
bool to_int(const std::string& s, T* out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

void parse_tc(const std::string& text, MoveLimits* out) {
  auto plus = text.find('+');
  std::string base = text.substr(0, plus);
  std::string inc = plus == std::string::npos ? "0" : text.substr(plus + 1);
  double b, i;
  if (!to_double(base, &b) || !to_double(inc, &i) || b <= 0 || i < 0)
    throw SpecError("time control '" + text +
                    "': expected SECONDS[+INCREMENT], e.g. 10+0.1 (base > 0, increment >= 0)");
  out->tc_ms = int(std::lround(b * 1000));
  out->inc_ms = int(std::lround(i * 1000));
}

std::string format_tc(const MoveLimits& l) {
  std::ostringstream s;
  s << l.tc_ms / 1000.0;
  if (l.inc_ms) s << '+' << l.inc_ms / 1000.0;
  return s.str();
}

EngineSpec parse_engine_spec(const std::vector<std::string>& tokens) {
  EngineSpec e;
  e.tokens = tokens;
  bool have_cmd = false;
  for (const std::string& t : tokens) {
    if (t == "builtin") {
      e.builtin = true;
      continue;
    }
    auto eq = t.find('=');
    if (eq == std::string::npos || eq == 0)
      throw SpecError("--engine: '" + t +
                      "' is not KEY=VALUE (expected builtin, cmd=, arg=, name=, skill=, "
                      "option.NAME=, tc=, movetime=, nodes=, depth=)");
    std::string key = t.substr(0, eq), value = t.substr(eq + 1);
    auto bad = [&](const char* what) {
      return SpecError("--engine: '" + t + "': expected " + what);
    };
    if (key == "cmd") {
      if (value.empty()) throw bad("a program path after cmd=");
      e.cmd = value;
      have_cmd = true;
    } else if (key == "arg") {
      e.args.push_back(value);
    } else if (key == "name") {
      e.name = value;
    } else if (key == "skill") {
      if (!to_int(value, &e.skill) || e.skill < 0 || e.skill > 20)
        throw bad("skill=N with N in 0..20 (0 = random mover)");
    } else if (key.rfind("option.", 0) == 0 && key.size() > 7) {
      e.options.emplace_back(key.substr(7), value);
    } else if (key == "tc") {
      parse_tc(value, &e.limits);
    } else if (key == "movetime") {
      if (!to_int(value, &e.limits.movetime_ms) || e.limits.movetime_ms <= 0)
        throw bad("movetime=MS, a positive number");
    } else if (key == "nodes") {
      if (!to_int(value, &e.limits.nodes) || e.limits.nodes == 0)
        throw bad("nodes=N, a positive number");
    } else if (key == "depth") {
      if (!to_int(value, &e.limits.depth) || e.limits.depth <= 0)
        throw bad("depth=D, a positive number");
    } else {
      throw SpecError(
          "--engine: unknown key '" + key +
          "' (expected cmd, arg, name, skill, option.NAME, tc, movetime, nodes, depth)");
    }
  }
  if (e.builtin == have_cmd)
    throw SpecError(e.builtin ? "--engine: give either builtin or cmd=PATH, not both"
                              : "--engine: expected builtin or cmd=PATH");
  if (!e.builtin && e.skill >= 0)
    throw SpecError("--engine: skill= is for builtin; use option.Skill=N for a cmd= engine");
  if (e.builtin && !e.args.empty()) throw SpecError("--engine: arg= is for cmd= engines");
  return e;
}

MoveLimits merge_limits(const MoveLimits& match, const MoveLimits& engine) {
  MoveLimits l = match;
  if (engine.tc_ms >= 0) {
    l.tc_ms = engine.tc_ms;
    l.inc_ms = engine.inc_ms;
  }
  if (engine.movetime_ms > 0) l.movetime_ms = engine.movetime_ms;
  if (engine.nodes > 0) l.nodes = engine.nodes;
  if (engine.depth > 0) l.depth = engine.depth;
  return l;
}

SprtParams parse_sprt(const std::vector<std::string>& tokens) {
  SprtParams p;
  std::vector<std::string> parts;
  for (const std::string& t : tokens) {
    std::istringstream in(t);
    std::string w;
    while (in >> w) parts.push_back(w);
  }
  for (const std::string& t : parts) {
    auto eq = t.find('=');
    double v;
    std::string key = t.substr(0, eq);
    if (eq == std::string::npos || !to_double(t.substr(eq + 1), &v))
      throw SpecError("--sprt: '" + t + "': expected elo0=X, elo1=X, alpha=X or beta=X");
    if (key == "elo0")
      p.elo0 = v;
    else if (key == "elo1")
      p.elo1 = v;
    else if (key == "alpha")
      p.alpha = v;
    else if (key == "beta")
      p.beta = v;
    else
      throw SpecError("--sprt: unknown key '" + key + "' (expected elo0, elo1, alpha, beta)");
  }
  if (!(p.elo1 > p.elo0)) throw SpecError("--sprt: elo1 must be greater than elo0");
  if (!(p.alpha > 0 && p.alpha < 0.5 && p.beta > 0 && p.beta < 0.5))
    throw SpecError("--sprt: alpha and beta must lie in (0, 0.5)");
  return p;
}

}  // namespace toguz::match
