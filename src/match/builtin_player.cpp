// The builtin engine in-process through the toguz::search::Engine API; skill=0 is a random
// mover (uniform over the legal holes, seeded per game and ply) for the strength self-checks.
#include <chrono>
#include <random>

#include "match/player.h"

namespace toguz::match {

search::Limits to_search_limits(const MoveRequest& r) {
  search::Limits l;
  l.depth = r.limits.depth;
  l.nodes = r.limits.nodes;
  l.movetime_ms = r.limits.movetime_ms;
  for (int s = 0; s < 2; ++s) {
    l.time_ms[s] = r.clock_ms[s];
    l.inc_ms[s] = r.inc_ms[s];
  }
  return l;
}

namespace {

bool parse_bool(const std::string& v) {
  return v == "true" || v == "1" || v == "on" || v == "yes";
}

class BuiltinPlayer : public Player {
 public:
  BuiltinPlayer(const EngineSpec& spec) : spec_(spec) {
    options_ = engine_.options();
    if (spec.skill > 0) options_.skill = spec.skill;
    random_ = spec.skill == 0;
    for (auto& [k, v] : spec.options) {
      int n = std::atoi(v.c_str());
      if (k == "Hash")
        options_.hash_mb = n;
      else if (k == "Threads")
        options_.threads = n;
      else if (k == "MultiPV")
        options_.multipv = n;
      else if (k == "Skill") {
        if (n == 0)
          random_ = true;
        else
          options_.skill = n;
      } else if (k == "Random")
        random_ = parse_bool(v);
      else if (k == "Seed")
        options_.seed = std::strtoull(v.c_str(), nullptr, 10);
      else if (k == "Eval" && search::parse_eval_kind(v, &options_.eval))
        continue;
      else
        unknown_ = k;
    }
  }
  std::string name() const override {
    if (!spec_.name.empty()) return spec_.name;
    return random_ ? "random" : "builtin";
  }
  bool start(std::string* why) override {
    if (!unknown_.empty()) {
      *why = "builtin engine has no option '" + unknown_ +
             "' (it has Hash, Threads, MultiPV, Skill, Random, Seed, Eval=classic|nnue)";
      return false;
    }
    if (!configured_) engine_.set_options(options_);
    configured_ = true;
    return true;
  }
  bool new_game(const Rules&, std::string*) override {
    engine_.new_game();
    return true;
  }
  MoveReply think(const Game& game, const MoveRequest& request) override {
    MoveReply reply;
    auto t0 = std::chrono::steady_clock::now();
    if (random_) {
      uint32_t mask = game.legal_mask();
      std::vector<int> holes;
      for (int h = 1; h <= game.rules().n; ++h)
        if (mask >> (h - 1) & 1) holes.push_back(h);
      std::mt19937_64 rng(request.seed);
      reply.move = holes.empty() ? 0 : holes[rng() % holes.size()];
    } else {
      engine_.set_position(game);
      search::SearchResult r = engine_.search(to_search_limits(request));
      reply.move = r.best_move;
      if (!r.lines.empty()) {
        reply.have_info = true;
        reply.info = r.lines.front();
      }
    }
    reply.move_text = std::to_string(reply.move);
    reply.elapsed_ms = int(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count());
    return reply;
  }
  void shutdown() override {}

 private:
  EngineSpec spec_;
  search::Engine engine_;
  search::Options options_;
  bool random_ = false;
  bool configured_ = false;
  std::string unknown_;
};

}  // namespace

std::unique_ptr<Player> make_ugi_player(const EngineSpec& spec, const Settings& settings);

std::unique_ptr<Player> make_player(const EngineSpec& spec, const Settings& settings) {
  if (spec.builtin) return std::make_unique<BuiltinPlayer>(spec);
  return make_ugi_player(spec, settings);
}

}  // namespace toguz::match
