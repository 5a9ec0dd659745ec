// Google Benchmark for the hot rules functions: play (copy-make) and legal moves.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <vector>

#include "rules/perft.h"
#include "rules/position.h"

namespace {

// Positions from random play, so the benchmark sees typical stone counts (not just the start).
std::vector<toguz::Position> random_positions(int count) {
  std::mt19937_64 rng(12345);
  std::vector<toguz::Position> out;
  while (int(out.size()) < count) {
    toguz::Position p = toguz::Position::start();
    while (p.outcome() == toguz::Outcome::Ongoing && int(out.size()) < count) {
      out.push_back(p);
      uint32_t mask = p.legal_mask();
      int holes[9], k = 0;
      for (int h = 0; h < 9; ++h)
        if (mask >> h & 1) holes[k++] = h + 1;
      p.play(holes[rng() % k]);
    }
  }
  return out;
}

void BM_Play(benchmark::State& state) {
  auto positions = random_positions(4096);
  std::vector<int> moves;
  std::mt19937 rng(7);
  for (auto& p : positions) {  // a random legal move of each position
    uint32_t m = p.legal_mask();
    for (int skip = int(rng() % __builtin_popcount(m)); skip > 0; --skip) m &= m - 1;
    moves.push_back(__builtin_ctz(m) + 1);
  }
  size_t i = 0;
  for (auto _ : state) {
    toguz::Position child = positions[i];
    benchmark::DoNotOptimize(child.play(moves[i]));
    benchmark::DoNotOptimize(child);
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Play);

// The same moves with the positions in random order (BM_Play visits them game by game, so a
// branch that depends on the stage of the game could predict well there and not here).
void BM_PlayShuffled(benchmark::State& state) {
  auto positions = random_positions(4096);
  std::vector<int> moves;
  std::mt19937 rng(7);
  for (auto& p : positions) {
    uint32_t m = p.legal_mask();
    for (int skip = int(rng() % __builtin_popcount(m)); skip > 0; --skip) m &= m - 1;
    moves.push_back(__builtin_ctz(m) + 1);
  }
  std::vector<size_t> order(positions.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<toguz::Position> shuffled;
  std::vector<int> shuffled_moves;
  for (size_t i : order) shuffled.push_back(positions[i]), shuffled_moves.push_back(moves[i]);
  size_t i = 0;
  for (auto _ : state) {
    toguz::Position child = shuffled[i];
    benchmark::DoNotOptimize(child.play(shuffled_moves[i]));
    benchmark::DoNotOptimize(child);
    if (++i == shuffled.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PlayShuffled);

// BM_Play's loop without the move (the copy of the position and the bookkeeping): what of
// BM_Play's time is the harness.
void BM_PlayHarness(benchmark::State& state) {
  auto positions = random_positions(4096);
  size_t i = 0;
  for (auto _ : state) {
    toguz::Position child = positions[i];
    benchmark::DoNotOptimize(child);
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PlayHarness);

void BM_LegalMask(benchmark::State& state) {
  auto positions = random_positions(4096);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(positions[i].legal_mask());
    if (++i == positions.size()) i = 0;
  }
}
BENCHMARK(BM_LegalMask);

// Perft from the start (bulk-counted last ply, as `toguz perft`); items/s = leaves/s.
void BM_Perft(benchmark::State& state) {
  const toguz::Position start = toguz::Position::start();
  uint64_t leaves = 0;
  for (auto _ : state) {
    leaves = toguz::perft(start, int(state.range(0)));
    benchmark::DoNotOptimize(leaves);
  }
  state.SetItemsProcessed(int64_t(state.iterations() * leaves));
}
BENCHMARK(BM_Perft)->Arg(7)->Unit(benchmark::kMillisecond);

}  // namespace
