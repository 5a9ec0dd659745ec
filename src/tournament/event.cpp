#include "tournament/event.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "tournament/round_robin.h"
#include "tournament/swiss.h"

namespace toguz::tournament {

std::string_view board_result_text(BoardResult r) {
  switch (r) {
    case BoardResult::WhiteWins:
      return "1-0";
    case BoardResult::BlackWins:
      return "0-1";
    case BoardResult::Draw:
      return "1/2-1/2";
    case BoardResult::WhiteForfeitWin:
      return "+-";
    case BoardResult::BlackForfeitWin:
      return "-+";
    case BoardResult::Pending:
      break;
  }
  return "*";
}

bool parse_board_result(std::string_view s, BoardResult* out) {
  if (s == "1-0")
    *out = BoardResult::WhiteWins;
  else if (s == "0-1")
    *out = BoardResult::BlackWins;
  else if (s == "1/2-1/2" || s == "1/2" || s == "=" || s == "\xC2\xBD-\xC2\xBD")
    *out = BoardResult::Draw;
  else if (s == "+-" || s == "1-0f")
    *out = BoardResult::WhiteForfeitWin;
  else if (s == "-+" || s == "0-1f")
    *out = BoardResult::BlackForfeitWin;
  else if (s == "*")
    *out = BoardResult::Pending;
  else
    return false;
  return true;
}

int white_half_points(BoardResult r) {
  switch (r) {
    case BoardResult::WhiteWins:
    case BoardResult::WhiteForfeitWin:
      return 2;
    case BoardResult::Draw:
      return 1;
    default:
      return 0;
  }
}

int black_half_points(BoardResult r) {
  switch (r) {
    case BoardResult::BlackWins:
    case BoardResult::BlackForfeitWin:
      return 2;
    case BoardResult::Draw:
      return 1;
    default:
      return 0;
  }
}

bool is_forfeit(BoardResult r) {
  return r == BoardResult::WhiteForfeitWin || r == BoardResult::BlackForfeitWin;
}

std::string_view system_name(System s) {
  switch (s) {
    case System::RoundRobin:
      return "round-robin";
    case System::DoubleRoundRobin:
      return "double-round-robin";
    case System::Swiss:
      break;
  }
  return "swiss";
}

bool parse_system(std::string_view s, System* out) {
  for (System v : {System::RoundRobin, System::DoubleRoundRobin, System::Swiss})
    if (s == system_name(v)) {
      *out = v;
      return true;
    }
  return false;
}

namespace {
constexpr TieBreak kAllTieBreaks[] = {TieBreak::Buchholz, TieBreak::BuchholzCut1,
                                      TieBreak::SonnebornBerger, TieBreak::Wins,
                                      TieBreak::DirectEncounter};
}

std::string_view tie_break_name(TieBreak t) {
  switch (t) {
    case TieBreak::Buchholz:
      return "buchholz";
    case TieBreak::BuchholzCut1:
      return "buchholz-cut1";
    case TieBreak::SonnebornBerger:
      return "sonneborn-berger";
    case TieBreak::Wins:
      return "wins";
    case TieBreak::DirectEncounter:
      break;
  }
  return "direct-encounter";
}

std::string_view tie_break_short(TieBreak t) {
  switch (t) {
    case TieBreak::Buchholz:
      return "BH";
    case TieBreak::BuchholzCut1:
      return "BH-1";
    case TieBreak::SonnebornBerger:
      return "SB";
    case TieBreak::Wins:
      return "W";
    case TieBreak::DirectEncounter:
      break;
  }
  return "DE";
}

bool parse_tie_break(std::string_view s, TieBreak* out) {
  for (TieBreak t : kAllTieBreaks) {
    std::string lower(tie_break_short(t));
    std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
    if (s == tie_break_name(t) || s == tie_break_short(t) || s == lower) {
      *out = t;
      return true;
    }
  }
  return false;
}

std::vector<TieBreak> default_tie_breaks(System s) {
  if (s == System::Swiss)
    return {TieBreak::BuchholzCut1, TieBreak::Buchholz, TieBreak::SonnebornBerger, TieBreak::Wins,
            TieBreak::DirectEncounter};
  return {TieBreak::DirectEncounter, TieBreak::SonnebornBerger, TieBreak::Wins};
}

int Event::total_rounds() const {
  if (system == System::Swiss) return rounds;
  const int cycle = berger_rounds(int(players.size()));
  return system == System::DoubleRoundRobin ? 2 * cycle : cycle;
}

bool Event::round_complete(int round_index) const {
  for (const Board& b : played.at(round_index).boards)
    if (b.result == BoardResult::Pending) return false;
  return true;
}

std::vector<int> pairing_order(const std::vector<Player>& players) {
  std::vector<int> order(players.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const Player& x = players[a];
    const Player& y = players[b];
    if (x.rating != y.rating) return x.rating > y.rating;
    if (x.title.empty() != y.title.empty()) return !x.title.empty();
    return x.name < y.name;
  });
  return order;
}

Round pair_next_round(const Event& event) {
  const int n = int(event.players.size());
  const auto active = std::count_if(event.players.begin(), event.players.end(),
                                    [](const Player& p) { return !p.withdrawn; });
  if (active < 2) throw std::runtime_error("an event needs at least two players to pair a round");
  const int next = int(event.played.size());
  if (next > 0 && !event.round_complete(next - 1))
    throw std::runtime_error("round " + std::to_string(next) +
                             " still has boards without a result");
  if (next >= event.total_rounds())
    throw std::runtime_error("every round (" + std::to_string(event.total_rounds()) +
                             ") has been paired");
  if (event.system == System::Swiss) return pair_swiss_round(event);
  Round round = berger_round(n, next + 1, event.system == System::DoubleRoundRobin);
  for (Board& b : round.boards) {
    const bool white_out = event.players[b.white].withdrawn;
    const bool black_out = event.players[b.black].withdrawn;
    if (white_out != black_out)
      b.result = white_out ? BoardResult::BlackForfeitWin : BoardResult::WhiteForfeitWin;
  }
  return round;
}

std::vector<int> half_points(const Event& event) {
  std::vector<int> pts(event.players.size(), 0);
  for (const Round& r : event.played) {
    for (const Board& b : r.boards) {
      pts.at(b.white) += white_half_points(b.result);
      pts.at(b.black) += black_half_points(b.result);
    }
    for (int p : r.byes) pts.at(p) += event.bye_half_points();
  }
  return pts;
}

std::string score_text(int half_points) {
  std::string s = std::to_string(half_points / 2);
  if (half_points % 2) s += ".5";
  return s;
}

}  // namespace toguz::tournament
