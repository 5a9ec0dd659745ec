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
    case BoardResult::DoubleForfeit:
      return "--";
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
  else if (s == "--" || s == "0-0f")
    *out = BoardResult::DoubleForfeit;
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
  return r == BoardResult::WhiteForfeitWin || r == BoardResult::BlackForfeitWin ||
         r == BoardResult::DoubleForfeit;
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

std::string_view bye_kind_name(ByeKind k) {
  return k == ByeKind::Half ? "half" : "zero";
}

bool parse_bye_kind(std::string_view s, ByeKind* out) {
  for (ByeKind k : {ByeKind::Half, ByeKind::Zero})
    if (s == bye_kind_name(k)) {
      *out = k;
      return true;
    }
  return false;
}

const std::vector<TieBreak>& all_tie_breaks() {
  static const std::vector<TieBreak> all = {TieBreak::Buchholz, TieBreak::BuchholzCut1,
                                            TieBreak::Median,   TieBreak::SonnebornBerger,
                                            TieBreak::Wins,     TieBreak::DirectEncounter};
  return all;
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
    case TieBreak::Median:
      return "median";
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
    case TieBreak::Median:
      return "BH-M1";
    case TieBreak::DirectEncounter:
      break;
  }
  return "DE";
}

bool parse_tie_break(std::string_view s, TieBreak* out) {
  for (TieBreak t : all_tie_breaks()) {
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
    for (int p : r.half_byes) pts.at(p) += 1;
  }
  return pts;
}

std::vector<int> pairing_half_points(const Event& event, int round) {
  std::vector<int> pts = half_points(event);
  const int acc = event.accelerated_rounds;
  if (event.system != System::Swiss || round > acc) return pts;
  const int bonus = round <= (acc + 1) / 2 ? 2 : 1;
  const std::vector<int> order = pairing_order(event.players);
  const size_t group_a = std::min(order.size(), 2 * ((order.size() + 3) / 4));
  for (size_t i = 0; i < group_a; ++i) pts[order[i]] += bonus;
  return pts;
}

int half_byes_of(const Event& event, int player) {
  int n = 0;
  for (const Round& r : event.played)
    n += int(std::count(r.half_byes.begin(), r.half_byes.end(), player));
  for (const ByeRequest& q : event.bye_requests) n += q.player == player && q.kind == ByeKind::Half;
  return n;
}

ByeRefusal check_bye(const Event& event, const ByeRequest& q) {
  if (event.system != System::Swiss) return ByeRefusal::NotSwiss;
  if (q.player < 0 || q.player >= int(event.players.size())) return ByeRefusal::NoPlayer;
  if (event.players[q.player].withdrawn) return ByeRefusal::Withdrawn;
  const int total = event.total_rounds();
  if (q.round <= int(event.played.size()) || q.round > total) return ByeRefusal::RoundNotOpen;
  for (const ByeRequest& o : event.bye_requests)
    if (o.player == q.player && o.round == q.round) return ByeRefusal::AlreadyAsked;
  if (q.kind == ByeKind::Half) {
    if (q.round == total && !event.half_bye_last_round) return ByeRefusal::LastRound;
    if (half_byes_of(event, q.player) >= event.max_half_byes) return ByeRefusal::OverLimit;
  }
  return ByeRefusal::None;
}

void request_bye(Event& event, const ByeRequest& q) {
  const std::string round = std::to_string(q.round);
  switch (check_bye(event, q)) {
    case ByeRefusal::None:
      break;
    case ByeRefusal::NotSwiss:
      throw std::invalid_argument(
          "a round robin has no requested byes (an absent player forfeits his board)");
    case ByeRefusal::NoPlayer:
      throw std::invalid_argument("no such player");
    case ByeRefusal::Withdrawn:
      throw std::invalid_argument("the player has withdrawn");
    case ByeRefusal::RoundNotOpen:
      throw std::invalid_argument("round " + round + " is not a round still to pair (" +
                                  std::to_string(event.played.size() + 1) + " to " +
                                  std::to_string(event.total_rounds()) + ")");
    case ByeRefusal::AlreadyAsked:
      throw std::invalid_argument("the player already has a bye requested for round " + round);
    case ByeRefusal::LastRound:
      throw std::invalid_argument("no half-point bye in the last round in this event");
    case ByeRefusal::OverLimit:
      throw std::invalid_argument("at most " + std::to_string(event.max_half_byes) +
                                  " half-point byes a player in this event");
  }
  event.bye_requests.push_back(q);
}

bool cancel_bye(Event& event, int player, int round) {
  auto& v = event.bye_requests;
  const auto it = std::find_if(v.begin(), v.end(), [&](const ByeRequest& q) {
    return q.player == player && q.round == round;
  });
  if (it == v.end()) return false;
  v.erase(it);
  return true;
}

void forbid_pair(Event& event, int a, int b) {
  using E = std::invalid_argument;
  if (event.system != System::Swiss)
    throw E("a round robin's table is fixed: it cannot keep two players apart");
  const int n = int(event.players.size());
  if (a < 0 || b < 0 || a >= n || b >= n) throw E("no such player");
  if (a == b) throw E("a pair needs two different players");
  if (!is_forbidden(event, a, b)) event.forbidden.push_back({std::min(a, b), std::max(a, b)});
}

bool unforbid_pair(Event& event, int a, int b) {
  auto& v = event.forbidden;
  const auto it =
      std::find(v.begin(), v.end(), std::pair<int, int>{std::min(a, b), std::max(a, b)});
  if (it == v.end()) return false;
  v.erase(it);
  return true;
}

bool is_forbidden(const Event& event, int a, int b) {
  const std::pair<int, int> key{std::min(a, b), std::max(a, b)};
  return std::find(event.forbidden.begin(), event.forbidden.end(), key) != event.forbidden.end();
}

std::vector<int> record_forfeit(Event& event, int round, int board, BoardResult result, bool keep) {
  if (!is_forfeit(result)) throw std::invalid_argument("not a forfeit");
  Board& b = event.played.at(round).boards.at(board);
  b.result = result;
  b.moves.clear();
  std::vector<int> out;
  if (!event.forfeit_withdraws || keep) return out;
  if (result != BoardResult::WhiteForfeitWin) out.push_back(b.white);  // White did not come
  if (result != BoardResult::BlackForfeitWin) out.push_back(b.black);
  for (int p : out) event.players.at(p).withdrawn = true;
  return out;
}

void add_next_round(Event& event) {
  event.played.push_back(pair_next_round(event));
  const int r = int(event.played.size());
  auto& v = event.bye_requests;
  v.erase(std::remove_if(v.begin(), v.end(), [&](const ByeRequest& q) { return q.round == r; }),
          v.end());
}

void take_back_round(Event& event) {
  if (event.played.empty()) return;
  const int r = int(event.played.size());
  const Round& last = event.played.back();
  for (int p : last.half_byes) event.bye_requests.push_back({p, r, ByeKind::Half});
  for (int p : last.zero_byes) event.bye_requests.push_back({p, r, ByeKind::Zero});
  event.played.pop_back();
}

std::string score_text(int half_points) {
  std::string s = std::to_string(half_points / 2);
  if (half_points % 2) s += ".5";
  return s;
}

}  // namespace toguz::tournament
