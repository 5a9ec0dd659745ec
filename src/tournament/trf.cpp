#include "tournament/trf.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <vector>

#include "tournament/standings.h"
#include "tournament/trf_text.h"

namespace toguz::tournament {
namespace {

using namespace trf_text;

// One round of a player's line: "  12 w 1" (opponent's starting rank, colour, result).
// A bye: "U" the pairing's point, "H" a requested half point, "Z" nothing.
std::string round_text(const RoundEntry& e, const std::vector<int>& start_rank) {
  if (e.kind == RoundEntry::Absent) return "";
  if (e.kind == RoundEntry::Bye)
    return std::string("0000 - ") + (e.half_points == 2 ? "U" : e.half_points == 1 ? "H" : "Z");
  char result = e.half_points == 2 ? '1' : e.half_points == 1 ? '=' : '0';
  if (e.kind == RoundEntry::Forfeit) result = e.half_points == 2 ? '+' : '-';
  if (e.pending) result = '*';
  return game_text(start_rank[e.opponent], std::tolower(e.colour) == 'w', result);
}

// Our lines for the arbiter's settings (docs/tournaments.md), each only when it is not the
// default: XXH the half-point byes' limit and whether the last round allows one, XXW whether a
// forfeit withdraws, XXP a forbidden pair, XXA a player's virtual points per round (JaVaFo's
// acceleration line), XXD the players withdrawn.
std::string settings_text(const Event& event, const std::vector<int>& start_rank) {
  const Event defaults;
  std::vector<int> withdrawn;
  for (size_t p = 0; p < event.players.size(); ++p)
    if (event.players[p].withdrawn) withdrawn.push_back(start_rank[p]);
  std::string out = numbers_line("XXD", withdrawn);
  if (event.max_half_byes != defaults.max_half_byes || event.half_bye_last_round)
    out += "XXH " + std::to_string(event.max_half_byes) + " " +
           (event.half_bye_last_round ? "1" : "0") + "\n";
  if (!event.forfeit_withdraws) out += "XXW 0\n";
  for (auto [a, b] : event.forbidden)
    out += "XXP " + std::to_string(start_rank[a]) + " " + std::to_string(start_rank[b]) + "\n";
  if (event.accelerated_rounds > 0 && event.system == System::Swiss) {
    std::vector<std::vector<int>> virt(event.players.size());
    for (int r = 1; r <= event.accelerated_rounds; ++r) {
      Event bare = event;
      bare.played.clear();
      const std::vector<int> v = pairing_half_points(bare, r);
      for (size_t p = 0; p < v.size(); ++p) virt[p].push_back(v[p]);
    }
    std::vector<int> order(event.players.size());
    for (size_t p = 0; p < order.size(); ++p) order[start_rank[p] - 1] = int(p);
    for (int p : order) {
      if (virt[p][0] == 0) continue;
      std::string rank = std::to_string(start_rank[p]);
      std::string line = "XXA " + std::string(4 - std::min<size_t>(4, rank.size()), ' ') + rank;
      for (int v : virt[p]) {
        std::string pts = points_text(v);
        line += std::string(5 - std::min<size_t>(5, pts.size()), ' ') + pts;
      }
      out += line + "\n";
    }
  }
  return out;
}

}  // namespace

std::string event_to_trf(const Event& event) {
  const int n = int(event.players.size());
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  if (event.system == System::Swiss) order = pairing_order(event.players);
  std::vector<int> start_rank(n);
  for (int r = 0; r < n; ++r) start_rank[order[r]] = r + 1;
  const auto table = standings(event);
  std::vector<const Standing*> of(n);
  for (const Standing& s : table) of[s.player] = &s;
  const int rated = int(std::count_if(event.players.begin(), event.players.end(),
                                      [](const Player& p) { return p.rating > 0; }));
  std::vector<std::string> tie_breaks;
  for (TieBreak t : tie_breaks_of(event)) tie_breaks.emplace_back(tie_break_short(t));
  const Header header{event.name, event.site, event.date, event.system, event.total_rounds(), {}};
  std::string out = header_text(header, n, rated, -1, tie_breaks);
  out += settings_text(event, start_rank);
  for (int i : order) {
    std::vector<std::string> line =
        player_cells(event.players[i], start_rank[i], of[i]->half_points, of[i]->rank);
    for (size_t r = 0; r < of[i]->rounds.size(); ++r)
      put(line, round_column(r), 8, round_text(of[i]->rounds[r], start_rank));
    for (const ByeRequest& q : event.bye_requests)  // byes asked for, in their round's column
      if (q.player == i)
        put(line, round_column(q.round - 1), 8, q.kind == ByeKind::Half ? "0000 - H" : "0000 - Z");
    out += line_of(std::move(line)) + '\n';
  }
  return out;
}

namespace {

// Round `r` from every player's entry, each game checked against the opponent's entry.
Round read_round(const std::vector<PlayerLine>& players, size_t r, int bye_points) {
  Round round;
  const auto entry = [&](int i) {
    return r < players[i].rounds.size() ? players[i].rounds[r] : Entry{};
  };
  const std::string where = "round " + std::to_string(r + 1);
  for (int i = 0; i < int(players.size()); ++i) {
    const Entry e = entry(i);
    const size_t line = players[i].line;
    if (e.kind == Entry::Bye) {
      const bool swiss = bye_points > 0;
      if (e.result == 'U' && !swiss)
        bad(line, where + ": a bye in this event scores " + points_text(bye_points));
      if (e.result == 'H' && !swiss) bad(line, where + ": a round robin has no half-point bye");
      (e.result == 'H'            ? round.half_byes
       : e.result == 'Z' && swiss ? round.zero_byes
                                  : round.byes)
          .push_back(i);
    }
    if (e.kind != Entry::Game) continue;
    const Entry o = entry(e.opponent);
    if (o.kind != Entry::Game || o.opponent != i)
      bad(line, where + ": player " + std::to_string(i + 1) + " met " +
                    std::to_string(e.opponent + 1) + ", but that player's entry does not name " +
                    std::to_string(i + 1));
    if (o.white == e.white) bad(line, where + ": both players have the same colour");
    const bool double_forfeit = e.result == '-' && o.result == '-';
    if (o.result != answer_of(e.result) && !double_forfeit)
      bad(line, where + ": the results '" + std::string(1, e.result) + "' and '" +
                    std::string(1, o.result) + "' of one game disagree");
    if (!e.white) continue;
    round.boards.push_back(
        Board{i,
              e.opponent,
              double_forfeit ? BoardResult::DoubleForfeit : board_result_of(e.result),
              {}});
  }
  std::sort(round.boards.begin(), round.boards.end(), [](const Board& a, const Board& b) {
    return std::min(a.white, a.black) < std::min(b.white, b.black);
  });
  return round;
}

// XXH, XXW, XXP, XXA and XXD (settings_text); player numbers are starting ranks.
void read_setting(Event& ev, std::string_view text, size_t line) {
  const std::string code(text.substr(0, 3));
  const std::vector<std::string> w = words_after_code(text);
  const int n = int(ev.players.size());
  auto arg = [&](size_t i, int lo, int hi) {
    return number_of(i < w.size() ? w[i] : "", line, code, lo, hi);
  };
  if (code == "XXD") {
    for (size_t i = 0; i < w.size(); ++i) ev.players[arg(i, 1, n) - 1].withdrawn = true;
  } else if (code == "XXH") {
    ev.max_half_byes = arg(0, 0, 1000);
    ev.half_bye_last_round = w.size() > 1 && arg(1, 0, 1) == 1;
  } else if (code == "XXW") {
    ev.forfeit_withdraws = arg(0, 0, 1) == 1;
  } else if (code == "XXP") {
    const int a = arg(0, 1, n) - 1, b = arg(1, 1, n) - 1;
    if (a == b) bad(line, "XXP: a pair needs two different players");
    if (!is_forbidden(ev, a, b)) ev.forbidden.push_back({std::min(a, b), std::max(a, b)});
  } else {  // XXA: the rounds with virtual points are the accelerated rounds
    arg(0, 1, n);
    int acc = 0;
    for (size_t i = 1; i < w.size(); ++i) {
      if (w[i] == "0.0" || w[i] == "0") break;
      acc = int(i);
    }
    ev.accelerated_rounds = std::max(ev.accelerated_rounds, acc);
  }
}

}  // namespace

Event event_from_trf(std::string_view text) {
  Event ev;
  std::vector<NumberedLine> player_lines, setting_lines;
  const Header header =
      sort_lines(text, {"XXP", "XXA", "XXH", "XXW", "XXD", "013"}, player_lines, setting_lines);
  // A team event's file read as an individual event would lose its matches.
  for (const auto& [line, text] : setting_lines)
    if (text.substr(0, 3) == "013") bad(line, "013: a team event's file: read it as a team event");
  copy_header(header, ev);
  ev.rounds = header.rounds;
  for (const auto& [line, word] : header.tie_breaks) {
    TieBreak t;
    if (!parse_tie_break(word, &t)) bad(line, "XXT: no tie-break '" + word + "'");
    ev.tie_breaks.push_back(t);
  }
  const std::vector<PlayerLine> players = read_players(player_lines);
  const int n = int(players.size());
  // Rounds paired: up to the last with a game or the pairing's bye; requested byes after it
  // are requests.
  size_t rounds = 0, columns = 0;
  for (const PlayerLine& p : players)
    for (size_t r = 0; r < p.rounds.size(); ++r) {
      const Entry& e = p.rounds[r];
      if (e.kind == Entry::Absent) continue;
      columns = std::max(columns, r + 1);
      if (e.kind == Entry::Game || e.result == 'U') rounds = std::max(rounds, r + 1);
    }
  for (const PlayerLine& p : players) ev.players.push_back(p.player);
  for (size_t r = 0; r < rounds; ++r)
    ev.played.push_back(read_round(players, r, ev.bye_half_points()));
  if (ev.system == System::Swiss && ev.rounds < int(columns)) ev.rounds = int(columns);
  for (int i = 0; i < n; ++i)
    for (size_t r = rounds; r < players[i].rounds.size(); ++r) {
      const Entry& e = players[i].rounds[r];
      if (e.kind == Entry::Absent) continue;
      if (ev.system != System::Swiss)
        bad(players[i].line,
            "round " + std::to_string(r + 1) + ": a round robin has no requested byes");
      ev.bye_requests.push_back({i, int(r) + 1, e.result == 'H' ? ByeKind::Half : ByeKind::Zero});
    }
  for (const auto& [line, text] : setting_lines) read_setting(ev, text, line);
  return ev;
}

}  // namespace toguz::tournament
