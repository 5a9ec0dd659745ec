// Google Benchmark for the opening explorer (docs/explorer.md): building an index from
// ../shared/corpus, building one from N synthetic games, and a query on a mapped index.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "explorer/explorer.h"
#include "rules/random.h"
#include "rules/record.h"

namespace {

namespace fs = std::filesystem;
using namespace toguz;

// The corpus games, replayed with their tags' facts (empty without ../shared/corpus).
struct CorpusGame {
  Game game;
  explorer::GameFacts facts;
};
const std::vector<CorpusGame>& corpus() {
  static const std::vector<CorpusGame> games = [] {
    std::vector<CorpusGame> out;
    const fs::path dir = fs::path(TOGUZ_SHARED_DIR) / "corpus";
    if (!fs::exists(dir)) return out;
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::ifstream in(f, std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      for (const Record& rec : read_records(text.str())) {
        Replayed r = replay_record(rec);
        if (!r.error) out.push_back({r.game, explorer::game_facts(rec, r.game)});
      }
    }
    return out;
  }();
  return games;
}

// Synthetic game k: the first 0..39 plies of a corpus game (so openings repeat as in real
// collections), then uniformly random legal moves to the end; that game's facts.
CorpusGame synthetic_game(uint64_t k) {
  const auto& games = corpus();
  uint64_t state = k;
  const CorpusGame& base = games[splitmix64(state) % games.size()];
  const int prefix = std::min(int(splitmix64(state) % 40), base.game.ply_count());
  CorpusGame g{Game(base.game.start()), base.facts};
  for (int ply = 0; ply < prefix; ++ply) g.game.play(base.game.moves()[ply].hole);
  while (!g.game.over() && g.game.ply_count() < 400) {
    uint32_t mask = g.game.legal_mask();
    for (int skip = int(splitmix64(state) % std::popcount(mask)); skip > 0; --skip)
      mask &= mask - 1;
    g.game.play(std::countr_zero(mask) + 1);
  }
  g.facts.result = g.game.result();
  return g;
}

fs::path bench_file(const char* name) {
  return fs::temp_directory_path() / name;
}

void BM_ExplorerBuildCorpus(benchmark::State& state) {
  if (corpus().empty()) return state.SkipWithError("no ../shared/corpus");
  size_t entries = 0;
  for (auto _ : state) {
    explorer::IndexBuilder builder;
    for (const CorpusGame& g : corpus()) builder.add_game(g.game, g.facts);
    builder.write(bench_file("toguz-explorer-bench.idx").string());
    entries = builder.entries().size();
  }
  state.counters["games"] = double(corpus().size());
  state.counters["entries"] = double(entries);
  state.counters["bytes"] = double(fs::file_size(bench_file("toguz-explorer-bench.idx")));
}
BENCHMARK(BM_ExplorerBuildCorpus)->Unit(benchmark::kMillisecond);

// Synthetic collections of state.range(0) games; the games are made outside the timing.
void BM_ExplorerBuildSynthetic(benchmark::State& state) {
  if (corpus().empty()) return state.SkipWithError("no ../shared/corpus");
  std::vector<CorpusGame> games;
  for (int64_t k = 0; k < state.range(0); ++k) games.push_back(synthetic_game(uint64_t(k)));
  size_t entries = 0, plies = 0;
  for (const CorpusGame& g : games) plies += size_t(g.game.ply_count());
  for (auto _ : state) {
    explorer::IndexBuilder builder;
    for (const CorpusGame& g : games) builder.add_game(g.game, g.facts);
    builder.write(bench_file("toguz-explorer-synthetic.idx").string());
    entries = builder.entries().size();
  }
  state.counters["plies"] = double(plies);
  state.counters["entries"] = double(entries);
  state.counters["bytes"] = double(fs::file_size(bench_file("toguz-explorer-synthetic.idx")));
}
BENCHMARK(BM_ExplorerBuildSynthetic)
    ->Arg(10000)
    ->Arg(100000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// A query of each position of the corpus games in turn, on the index the synthetic build
// of 100,000 games left (else the corpus index).
void BM_ExplorerQuery(benchmark::State& state) {
  if (corpus().empty()) return state.SkipWithError("no ../shared/corpus");
  fs::path file = bench_file("toguz-explorer-synthetic.idx");
  if (!fs::exists(file)) file = bench_file("toguz-explorer-bench.idx");
  explorer::Index index(file.string());
  std::vector<Position> positions;
  for (const CorpusGame& g : corpus())
    for (int ply = 0; ply < g.game.ply_count(); ply += 7)
      positions.push_back(g.game.position_at(ply));
  size_t i = 0, moves = 0;
  for (auto _ : state) {
    auto found = index.query(positions[i++ % positions.size()]);
    moves += found.size();
    benchmark::DoNotOptimize(found);
  }
  state.counters["index_bytes"] = double(fs::file_size(file));
  state.counters["moves_per_query"] = double(moves) / double(state.iterations());
}
BENCHMARK(BM_ExplorerQuery)->Unit(benchmark::kMicrosecond);

}  // namespace
