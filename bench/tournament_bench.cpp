// The Swiss pairing on events of club to national size: every round of an event with random
// results (a fixed seed), paired from scratch.
#include <benchmark/benchmark.h>

#include <random>

#include "tournament/swiss.h"

namespace {

using namespace toguz::tournament;

void BM_SwissEvent(benchmark::State& state) {
  const int players = int(state.range(0));
  const int rounds = int(state.range(1));
  for (auto _ : state) {
    std::mt19937 rng(1);
    Event ev;
    ev.system = System::Swiss;
    ev.rounds = rounds;
    for (int i = 0; i < players; ++i)
      ev.players.push_back({std::to_string(i), 1000 + int(rng() % 1500), ""});
    for (int r = 0; r < rounds; ++r) {
      Round round = pair_swiss_round(ev);
      for (Board& b : round.boards) {
        const unsigned x = rng() % 10;
        b.result = x < 4   ? BoardResult::WhiteWins
                   : x < 7 ? BoardResult::BlackWins
                           : BoardResult::Draw;
      }
      ev.played.push_back(std::move(round));
    }
    benchmark::DoNotOptimize(ev.played.back().boards.data());
  }
  state.SetLabel(std::to_string(players) + " players, " + std::to_string(rounds) + " rounds");
}
BENCHMARK(BM_SwissEvent)
    ->Args({16, 5})
    ->Args({64, 7})
    ->Args({120, 9})
    ->Unit(benchmark::kMillisecond);

}  // namespace
