// Simulated Swiss events for the independent checker (tests/swiss/check_swiss.py): each event
// is paired round by round by the library with random results, requested byes, forbidden
// pairs, forfeits and acceleration, and written as one state file (JSON) per line.
// Usage: swiss_sim EVENTS SEED
#include <cstdlib>
#include <iostream>
#include <random>
#include <stdexcept>

#include "tournament/event.h"
#include "tournament/event_json.h"

using namespace toguz::tournament;

namespace {

Event random_event(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Event ev;
  ev.system = System::Swiss;
  const int n = pick(8, 30);
  ev.rounds = pick(5, 9);
  for (int i = 0; i < n; ++i) {
    std::string name = "P";
    name += std::to_string(i + 1);  // (not "P" + ...: GCC 12 warns falsely on it)
    ev.players.push_back({name, pick(0, 5) == 0 ? 0 : pick(1000, 2600), ""});
  }
  ev.accelerated_rounds = pick(0, 3) == 0 ? pick(1, 3) : 0;
  ev.max_half_byes = pick(0, 2);
  ev.half_bye_last_round = pick(0, 1);
  for (int k = pick(0, 3); k > 0; --k) {
    const int a = pick(0, n - 1), b = pick(0, n - 1);
    if (a != b) forbid_pair(ev, a, b);
  }
  return ev;
}

// Random byes asked for the next round, within the limits (request_bye refuses the others).
void random_requests(Event& ev, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(0, 19);
  for (int p = 0; p < int(ev.players.size()); ++p) {
    if (d(rng) != 0) continue;
    try {
      request_bye(ev, {p, int(ev.played.size()) + 1, d(rng) < 14 ? ByeKind::Half : ByeKind::Zero});
    } catch (const std::invalid_argument&) {
    }
  }
}

void random_results(Event& ev, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(0, 99);
  const int r = int(ev.played.size()) - 1;
  for (int b = 0; b < int(ev.played[r].boards.size()); ++b) {
    const int x = d(rng);
    if (x < 2) {
      record_forfeit(ev, r, b, x == 0 ? BoardResult::WhiteForfeitWin : BoardResult::DoubleForfeit,
                     d(rng) < 50);
      continue;
    }
    ev.played[r].boards[b].result = x < 40   ? BoardResult::WhiteWins
                                    : x < 75 ? BoardResult::BlackWins
                                             : BoardResult::Draw;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: swiss_sim EVENTS SEED\n";
    return 2;
  }
  const int events = std::atoi(argv[1]);
  std::mt19937 rng(unsigned(std::atoi(argv[2])));
  for (int e = 0; e < events; ++e) {
    Event ev = random_event(rng);
    std::string failed;
    while (int(ev.played.size()) < ev.rounds) {
      random_requests(ev, rng);
      try {
        add_next_round(ev);
      } catch (const std::runtime_error& err) {
        failed = err.what();
        break;
      }
      random_results(ev, rng);
    }
    std::string line = event_to_json(ev);
    line.pop_back();  // the newline
    if (!failed.empty()) line.insert(line.size() - 1, ",\"failed\":true");
    std::cout << line << "\n";
  }
  return 0;
}
