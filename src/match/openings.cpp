#include "match/openings.h"

#include <fstream>
#include <random>
#include <stdexcept>
#include <unordered_set>

#include "rules/game.h"
#include "search/engine.h"

namespace toguz::match {

std::vector<std::string> read_openings(const std::string& path, const RuleOptions& rules) {
  std::ifstream in(path);
  if (!in) throw ParseError(path + ": cannot open the openings file");
  std::vector<std::string> out;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    try {
      Position p = parse_position(line, rules);
      if (p.outcome() != Outcome::Ongoing)
        throw ParseError("the game is already over in this position");
      out.push_back(format_position(p));
    } catch (const ParseError& e) {
      throw ParseError(path + ":" + std::to_string(n) + ": " + e.what());
    }
  }
  if (out.empty()) throw ParseError(path + ": no position strings in the openings file");
  return out;
}

std::vector<std::string> generate_openings(const OpeningGen& gen, const Rules& rules) {
  std::mt19937_64 rng(gen.seed);
  std::unordered_set<uint64_t> seen;
  std::vector<std::string> out;
  search::Engine engine;
  const int max_tries = 1000 + 200 * gen.count;
  for (int tries = 0; int(out.size()) < gen.count && tries < max_tries; ++tries) {
    Game game(Position::start(rules));
    for (int ply = 0; ply < gen.plies && !game.over(); ++ply) {
      uint32_t mask = game.legal_mask();
      int holes[Position::kMaxN], k = 0;
      for (int h = 1; h <= rules.n; ++h)
        if (mask >> (h - 1) & 1) holes[k++] = h;
      game.play(holes[rng() % uint64_t(k)]);
    }
    if (game.over() || !seen.insert(game.position().key()).second) continue;
    if (gen.balance_depth > 0) {
      engine.new_game();
      engine.set_position(game);
      search::Limits limits;
      limits.depth = gen.balance_depth;
      search::SearchResult r = engine.search(limits);
      if (r.lines.empty()) continue;
      const search::Score& s = r.lines.front().score;
      if (s.proven || std::abs(s.cp) > gen.balance_cp) continue;
    }
    out.push_back(format_position(game.position()));
  }
  if (int(out.size()) < gen.count)
    throw std::runtime_error("found only " + std::to_string(out.size()) + " of " +
                             std::to_string(gen.count) +
                             " distinct balanced openings; use more "
                             "--plies, a larger --balance or fewer --pairs");
  return out;
}

}  // namespace toguz::match
