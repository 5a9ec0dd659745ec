// The cost of a login: verifying an Argon2id hash at the site's cost (docs/accounts.md), and the
// cheap parts beside it (a session token, a Glicko-2 update).
#include <benchmark/benchmark.h>

#include "accounts/glicko2.h"
#include "accounts/password.h"
#include "accounts/session.h"

namespace {

using namespace toguz::accounts;

void BM_PasswordVerify(benchmark::State& state) {
  const std::string hash = hash_password("correct horse battery");
  for (auto _ : state) benchmark::DoNotOptimize(verify_password("correct horse battery", hash));
}
BENCHMARK(BM_PasswordVerify)->Unit(benchmark::kMillisecond);

void BM_NewSession(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(new_session(0));
}
BENCHMARK(BM_NewSession);

void BM_RateGame(benchmark::State& state) {
  const Glicko2Config config;
  const Rating a{1620, 80, 0.06, 40}, b{1540, 120, 0.06, 12};
  for (auto _ : state) benchmark::DoNotOptimize(rate_game(a, b, 0.5, config, 0.01, 0.3));
}
BENCHMARK(BM_RateGame);

}  // namespace
