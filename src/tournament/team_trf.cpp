#include "tournament/team_trf.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "tournament/team_standings.h"
#include "tournament/trf_text.h"

namespace toguz::tournament {
namespace {

using namespace trf_text;

// The 013 line: the team's name in columns 5-36, its players' starting ranks from column 37,
// four wide, one apart. The 330 line: its type, round, first-named and other team.
constexpr size_t kTeamNameCol = 5, kTeamNameWidth = 32, kTeamPlayersCol = 37, kTeamStep = 5;
constexpr size_t kByeTeamsCol = 15, kByeStep = 4;  // 320: a team number per round

// Team t's first starting rank minus one; the last element is the number of players.
std::vector<int> team_offsets(const TeamEvent& ev) {
  std::vector<int> out = {0};
  for (const Team& t : ev.teams) out.push_back(out.back() + int(t.roster.size()));
  return out;
}

// Every roster player's round entries (by starting rank - 1, then round) and half points.
struct PlayerRounds {
  std::vector<std::vector<std::string>> texts;
  std::vector<int> half_points;
};

// The 001 entries of every board played or left empty, round by round.
PlayerRounds player_rounds(const TeamEvent& ev, const std::vector<int>& offsets) {
  PlayerRounds out{std::vector<std::vector<std::string>>(offsets.back()),
                   std::vector<int>(offsets.back(), 0)};
  for (size_t r = 0; r < ev.played.size(); ++r)
    for (const TeamMatch& m : ev.played[r].matches)
      for (int b = 0; b < int(m.results.size()); ++b) {
        const auto [h, a] = board_players(m, b);
        const int hp = h < 0 ? -1 : offsets[m.home] + h, ap = a < 0 ? -1 : offsets[m.away] + a;
        for (const auto& [self, other, white] :
             {std::tuple{hp, ap, home_has_white(b)}, std::tuple{ap, hp, !home_has_white(b)}}) {
          if (self < 0) continue;
          out.texts[self].resize(r + 1);
          out.texts[self][r] = other < 0
                                   ? std::string("0000 - +")
                                   : game_text(other + 1, white, side_result(m.results[b], white));
          out.half_points[self] +=
              white ? white_half_points(m.results[b]) : black_half_points(m.results[b]);
        }
      }
  return out;
}

// 320 lines: the teams with the pairing's bye (a round robin's rest), a line per bye of a round;
// 330 lines: the matches a team did not come to (+- the first-named team came, -+ the other,
// -- neither).
std::string team_round_lines(const TeamEvent& ev) {
  std::string out;
  size_t most = 0;
  for (const TeamRound& r : ev.played) most = std::max(most, r.byes.size());
  const bool swiss = ev.system == System::Swiss;
  for (size_t k = 0; k < most; ++k) {
    std::vector<std::string> line = {"3", "2", "0"};
    put(line, 5, 4, points_text(swiss ? 4 : 0), true);
    put(line, 10, 4, points_text(swiss ? 2 * ev.boards : 0), true);
    for (size_t r = 0; r < ev.played.size(); ++r) {
      const std::vector<int>& byes = ev.played[r].byes;
      put(line, kByeTeamsCol + r * kByeStep, 3, std::to_string(k < byes.size() ? byes[k] + 1 : 0),
          true);
    }
    out += line_of(std::move(line)) + "\n";
  }
  for (size_t r = 0; r < ev.played.size(); ++r) {  // in the order of the lower team number
    std::vector<const TeamMatch*> forfeited;
    for (const TeamMatch& m : ev.played[r].matches)
      if (match_forfeited(m)) forfeited.push_back(&m);
    std::sort(forfeited.begin(), forfeited.end(), [](const TeamMatch* a, const TeamMatch* b) {
      return std::min(a->home, a->away) < std::min(b->home, b->away);
    });
    for (const TeamMatch* m : forfeited)
      out += std::string("330 ") + (m->home_lineup.empty() ? '-' : '+') +
             (m->away_lineup.empty() ? '-' : '+') + " " + right_aligned(std::to_string(r + 1), 3) +
             " " + right_aligned(std::to_string(m->home + 1), 3) + " " +
             right_aligned(std::to_string(m->away + 1), 3) + "\n";
  }
  return out;
}

// XXB boards, XXS scoring, XXD withdrawn players, XXQ withdrawn teams.
std::string team_settings_text(const TeamEvent& ev, const std::vector<int>& offsets) {
  std::vector<int> players, teams;
  for (size_t t = 0; t < ev.teams.size(); ++t) {
    if (ev.teams[t].withdrawn) teams.push_back(int(t) + 1);
    for (size_t i = 0; i < ev.teams[t].roster.size(); ++i)
      if (ev.teams[t].roster[i].withdrawn) players.push_back(offsets[t] + int(i) + 1);
  }
  return "XXB " + std::to_string(ev.boards) + "\nXXS " +
         std::string(team_scoring_name(ev.scoring)) + "\n" + numbers_line("XXD", players) +
         numbers_line("XXQ", teams);
}

}  // namespace

std::string team_event_to_trf(const TeamEvent& ev) {
  const std::vector<int> offsets = team_offsets(ev);
  std::vector<int> place(ev.teams.size(), 0);
  for (const TeamStanding& s : team_standings(ev)) place[s.team] = s.rank;
  int rated = 0;
  for (const Team& t : ev.teams)
    rated += int(std::count_if(t.roster.begin(), t.roster.end(),
                               [](const Player& p) { return p.rating > 0; }));
  std::vector<std::string> tie_breaks;
  for (TeamTieBreak t : team_tie_breaks_of(ev)) tie_breaks.emplace_back(team_tie_break_short(t));
  const Header header{ev.name, ev.site, ev.date, ev.system, ev.total_rounds(), {}};
  std::string out = header_text(header, offsets.back(), rated, int(ev.teams.size()), tie_breaks) +
                    team_settings_text(ev, offsets);
  const PlayerRounds rounds = player_rounds(ev, offsets);
  for (size_t t = 0; t < ev.teams.size(); ++t)
    for (size_t i = 0; i < ev.teams[t].roster.size(); ++i) {
      const int p = offsets[t] + int(i);
      std::vector<std::string> line =
          player_cells(ev.teams[t].roster[i], p + 1, rounds.half_points[p], place[t]);
      for (size_t r = 0; r < rounds.texts[p].size(); ++r)
        put(line, round_column(r), 8, rounds.texts[p][r]);
      out += line_of(std::move(line)) + "\n";
    }
  for (size_t t = 0; t < ev.teams.size(); ++t) {
    std::vector<std::string> line = {"0", "1", "3"};
    put(line, kTeamNameCol, kTeamNameWidth, ev.teams[t].name);
    for (int i = 0; i < int(ev.teams[t].roster.size()); ++i)
      put(line, kTeamPlayersCol + i * kTeamStep, 4, std::to_string(offsets[t] + i + 1), true);
    out += line_of(std::move(line)) + "\n";
  }
  return out + team_round_lines(ev);
}

namespace {

// An entry of a player in the lineup: a game, or an empty board's forfeit win.
bool on_a_board(const Entry& e) {
  return e.kind == Entry::Game || e.result == 'U';
}

// A 330 line as read.
struct ForfeitLine {
  size_t line = 0;
  int round = 0, home = 0, away = 0;  // 0-based
  std::string type;                   // "+-", "-+", "--"
};

// The file as read: players by starting rank - 1, each one's team and roster index, the teams'
// players in roster order, the 320 lines' byes and the 330 lines.
struct TeamFile {
  std::vector<PlayerLine> players;
  std::vector<std::pair<int, int>> slot;
  std::vector<std::vector<int>> members;
  std::vector<std::pair<size_t, std::vector<int>>> byes;  // line, team per round (-1: none)
  std::vector<ForfeitLine> forfeits;
  int rounds = 0;  // rounds paired: up to the last with an entry, a bye or a forfeited match
};

// The 013 lines: the teams, their rosters in the line's order; every player on one team.
void read_teams(TeamEvent& ev, TeamFile& f, const std::vector<NumberedLine>& lines) {
  if (lines.empty()) throw std::runtime_error("no team lines (013)");
  const int n = int(f.players.size());
  f.slot.assign(n, {-1, -1});
  std::set<std::string> names;
  for (const auto& [line, text] : lines) {
    const Cells cells = cells_of(text);
    Team team;
    team.name = field(cells, kTeamNameCol, kTeamNameWidth);
    if (team.name.empty()) bad(line, "team name (columns 5-36): empty");
    const int t = int(ev.teams.size());
    f.members.emplace_back();
    for (size_t col = kTeamPlayersCol; col <= cells.size(); col += kTeamStep) {
      const std::string what =
          "team player (columns " + std::to_string(col) + "-" + std::to_string(col + 3) + ")";
      const int p = field_number(cells, col, 4, line, what, 1, n, 0) - 1;
      if (p < 0) continue;
      if (f.slot[p].first >= 0)
        bad(line, what + ": player " + std::to_string(p + 1) + " has a team");
      f.slot[p] = {t, int(team.roster.size())};
      f.members.back().push_back(p);
      team.roster.push_back(f.players[p].player);
      if (!names.insert(team.roster.back().name).second)
        bad(f.players[p].line,
            "name (columns 15-47): '" + team.roster.back().name + "' is in the event already");
    }
    ev.teams.push_back(std::move(team));
  }
  for (int p = 0; p < n; ++p)
    if (f.slot[p].first < 0)
      bad(f.players[p].line, "player " + std::to_string(p + 1) + " is on no team line (013)");
}

// XXB, XXS, XXD and XXQ (team_settings_text); 320 and 330 lines.
void read_team_line(TeamEvent& ev, TeamFile& f, std::string_view text, size_t line) {
  const std::string code(text.substr(0, 3));
  const std::vector<std::string> w = words_after_code(text);
  const auto arg = [&](size_t i, int lo, int hi) {
    return number_of(i < w.size() ? w[i] : "", line, code, lo, hi);
  };
  const int teams = int(ev.teams.size());
  const Cells cells = cells_of(text);
  if (code == "XXB") {
    ev.boards = arg(0, 1, 100);
  } else if (code == "XXS") {
    if (!parse_team_scoring(w.empty() ? "" : w[0], &ev.scoring))
      bad(line, "XXS: expected match-points or board-points, found '" +
                    (w.empty() ? std::string() : w[0]) + "'");
  } else if (code == "XXD") {
    for (size_t i = 0; i < w.size(); ++i) {
      const auto [t, m] = f.slot[arg(i, 1, int(f.players.size())) - 1];
      ev.teams[t].roster[m].withdrawn = true;
    }
  } else if (code == "XXQ") {
    for (size_t i = 0; i < w.size(); ++i) ev.teams[arg(i, 1, teams) - 1].withdrawn = true;
  } else if (code == "320") {
    std::vector<int> byes;
    for (size_t col = kByeTeamsCol; col <= cells.size(); col += kByeStep) {
      const std::string what = "320, round " + std::to_string(byes.size() + 1);
      byes.push_back(field_number(cells, col, 3, line, what, 0, teams, 0) - 1);
      if (byes.back() >= 0) f.rounds = std::max(f.rounds, int(byes.size()));
    }
    f.byes.emplace_back(line, std::move(byes));
  } else {  // 330
    ForfeitLine x{line, field_number(cells, 8, 3, line, "330 round (columns 8-10)", 1, 999, 0) - 1,
                  field_number(cells, 12, 3, line, "330 team (columns 12-14)", 1, teams, 0) - 1,
                  field_number(cells, 16, 3, line, "330 team (columns 16-18)", 1, teams, 0) - 1,
                  field(cells, 5, 2)};
    if (x.type != "+-" && x.type != "-+" && x.type != "--")
      bad(line, "330 type (columns 5-6): expected +-, -+ or --, found '" + x.type + "'");
    if (x.round < 0 || x.home < 0 || x.away < 0 || x.home == x.away)
      bad(line, "330: expected a round and two different teams");
    f.rounds = std::max(f.rounds, x.round + 1);
    f.forfeits.push_back(x);
  }
}

// One round as read: each team's lineup is its players with an entry, in roster order.
class RoundReader {
 public:
  RoundReader(const TeamEvent& ev, const TeamFile& f, size_t r)
      : ev_(ev), f_(f), r_(r), where_("round " + std::to_string(r + 1)), seen_(ev.teams.size()) {}

  // The round's matches (from the games, then the 330 lines) and byes, each team once.
  TeamRound read() {
    for (int t = 0; t < int(ev_.teams.size()); ++t)
      if (!seen_[t]) match_from_games(t);
    for (const ForfeitLine& x : f_.forfeits)
      if (x.round == int(r_)) forfeited_match(x);
    for (const auto& [line, byes] : f_.byes)
      if (r_ < byes.size() && byes[r_] >= 0) {
        if (seen_[byes[r_]])
          bad(line,
              "320, " + where_ + ": team " + std::to_string(byes[r_] + 1) + " plays in that round");
        seen_[byes[r_]] = 1;
        round_.byes.push_back(byes[r_]);
      }
    for (int t = 0; t < int(ev_.teams.size()); ++t)
      if (!seen_[t] && !ranks(t).empty())
        bad(line_of_player(ranks(t)[0]),
            where_ + ": the players of " + ev_.teams[t].name +
                " have no game and no 330 line names their forfeited match");
    std::sort(round_.matches.begin(), round_.matches.end(),
              [](const TeamMatch& a, const TeamMatch& b) {
                return std::min(a.home, a.away) < std::min(b.home, b.away);
              });
    return round_;
  }

 private:
  // Player p's entry this round (Absent past the end of his line).
  Entry entry(int p) const {
    const std::vector<Entry>& rounds = f_.players[p].rounds;
    return r_ < rounds.size() ? rounds[r_] : Entry{};
  }
  size_t line_of_player(int p) const { return f_.players[p].line; }

  // Team t's players with an entry this round (starting ranks - 1), in roster order; another
  // program's "0000 - Z" (not paired) is no entry.
  std::vector<int> ranks(int t) const {
    std::vector<int> out;
    for (int p : f_.members[t]) {
      const Entry e = entry(p);
      if (e.kind == Entry::Absent || (e.kind == Entry::Bye && e.result == 'Z')) continue;
      if (e.kind == Entry::Bye && e.result != 'U')
        bad(line_of_player(p), where_ +
                                   ": a team player without an opponent wins the empty "
                                   "board by forfeit (0000 - +)");
      out.push_back(p);
    }
    if (int(out.size()) > ev_.boards)
      bad(line_of_player(out[ev_.boards]), where_ + ": " + ev_.teams[t].name + " has more than " +
                                               std::to_string(ev_.boards) + " players");
    return out;
  }

  // Starting ranks - 1 as roster indexes.
  std::vector<int> lineup(const std::vector<int>& players) const {
    std::vector<int> out;
    for (int p : players) out.push_back(f_.slot[p].second);
    return out;
  }

  // Marks a team as placed this round; a second time is refused.
  void take(int team) {
    if (seen_[team])
      throw std::runtime_error(where_ + ": " + ev_.teams[team].name + " has two matches");
    seen_[team] = 1;
  }

  // The match of team t found by its players' games: board 1's White is the first-named team.
  void match_from_games(int t) {
    const std::vector<int> mine = ranks(t);
    const auto game =
        std::find_if(mine.begin(), mine.end(), [&](int p) { return entry(p).kind == Entry::Game; });
    if (game == mine.end()) return;
    const int u = f_.slot[entry(*game).opponent].first;
    if (u == t || seen_[u])
      bad(line_of_player(*game), where_ + ": player " + std::to_string(*game + 1) + " met " +
                                     std::to_string(entry(*game).opponent + 1) +
                                     ", who is not in another match");
    const std::vector<int> theirs = ranks(u);
    const Entry first = entry(mine[0]);
    if (theirs.empty() || first.kind != Entry::Game || first.opponent != theirs[0])
      bad(line_of_player(mine[0]), where_ + ": board 1 of " + ev_.teams[t].name + " against " +
                                       ev_.teams[u].name + ": expected player " +
                                       std::to_string(mine[0] + 1) + " to meet the first of " +
                                       ev_.teams[u].name);
    TeamMatch m;
    const bool t_home = first.white;
    m.home = t_home ? t : u;
    m.away = t_home ? u : t;
    const std::vector<int>& home = t_home ? mine : theirs;
    const std::vector<int>& away = t_home ? theirs : mine;
    m.home_lineup = lineup(home);
    m.away_lineup = lineup(away);
    for (int b = 0; b < ev_.boards; ++b) m.results.push_back(board_result(m, home, away, b));
    m.moves.assign(ev_.boards, {});
    take(t), take(u);
    round_.matches.push_back(std::move(m));
  }

  // Board b's result from its players' entries, each checked against the board.
  BoardResult board_result(const TeamMatch& m, const std::vector<int>& home,
                           const std::vector<int>& away, int b) const {
    const int hp = b < int(home.size()) ? home[b] : -1, ap = b < int(away.size()) ? away[b] : -1;
    const std::string board = where_ + ", board " + std::to_string(b + 1);
    if (hp < 0 || ap < 0) {
      const int present = std::max(hp, ap);
      if (present >= 0 && entry(present).kind != Entry::Bye)
        bad(line_of_player(present),
            board + ": the other team has no player there, so this is a forfeit win (0000 - +)");
      return forced_result(m, b);
    }
    const Entry eh = entry(hp), ea = entry(ap);
    for (const auto& [self, e, other] : {std::tuple{hp, eh, ap}, std::tuple{ap, ea, hp}})
      if (e.kind != Entry::Game || e.opponent != other)
        bad(line_of_player(self), board + ": expected player " + std::to_string(self + 1) +
                                      " to meet " + std::to_string(other + 1) +
                                      " (boards follow the roster order)");
    if (eh.white != home_has_white(b))
      bad(line_of_player(hp), board + ": the first-named team has " +
                                  (home_has_white(b) ? "White" : "Black") + " here");
    if (ea.white == eh.white)
      bad(line_of_player(ap), board + ": both players have the same colour");
    if (eh.result == '-' && ea.result == '-') return BoardResult::DoubleForfeit;
    if (ea.result != answer_of(eh.result))
      bad(line_of_player(ap), board + ": the results '" + std::string(1, eh.result) + "' and '" +
                                  std::string(1, ea.result) + "' of one game disagree");
    return board_result_of(eh.white ? eh.result : ea.result);
  }

  // A 330 line's match: the team that came has its players' forfeit wins.
  void forfeited_match(const ForfeitLine& x) {
    if (seen_[x.home] || seen_[x.away])
      bad(x.line, "330: a team of it has another match in " + where_);
    TeamMatch m;
    m.home = x.home;
    m.away = x.away;
    m.home_lineup = lineup(ranks(x.home));
    m.away_lineup = lineup(ranks(x.away));
    const std::string type =
        std::string(1, m.home_lineup.empty() ? '-' : '+') + (m.away_lineup.empty() ? '-' : '+');
    if (type != x.type || type == "++")
      bad(x.line, "330 type (columns 5-6): '" + x.type + "' does not fit the players' entries");
    for (int b = 0; b < ev_.boards; ++b) m.results.push_back(forced_result(m, b));
    m.moves.assign(ev_.boards, {});
    take(x.home), take(x.away);
    round_.matches.push_back(std::move(m));
  }

  const TeamEvent& ev_;
  const TeamFile& f_;
  size_t r_;
  std::string where_;
  std::vector<char> seen_;
  TeamRound round_;
};

// Boards per match when the file has no XXB: the most players of one team in a round.
int boards_of(const TeamFile& f) {
  int most = 1;
  for (int r = 0; r < f.rounds; ++r)
    for (const std::vector<int>& team : f.members)
      most = std::max(most, int(std::count_if(team.begin(), team.end(), [&](int p) {
                        const std::vector<Entry>& e = f.players[p].rounds;
                        return r < int(e.size()) && on_a_board(e[r]);
                      })));
  return most;
}

}  // namespace

TeamEvent team_event_from_trf(std::string_view text) {
  TeamEvent ev;
  std::vector<NumberedLine> player_lines, lines, team_lines, other_lines;
  const Header header =
      sort_lines(text, {"013", "XXB", "XXS", "XXD", "XXQ", "320", "330"}, player_lines, lines);
  copy_header(header, ev);
  bool boards_given = false;
  for (const NumberedLine& l : lines) {
    (l.second.substr(0, 3) == "013" ? team_lines : other_lines).push_back(l);
    boards_given |= l.second.substr(0, 3) == "XXB";
  }
  for (const auto& [line, word] : header.tie_breaks) {
    TeamTieBreak t;
    if (!parse_team_tie_break(word, &t)) bad(line, "XXT: no team tie-break '" + word + "'");
    ev.tie_breaks.push_back(t);
  }
  TeamFile f;
  f.players = read_players(player_lines);
  read_teams(ev, f, team_lines);
  for (const auto& [line, text] : other_lines) read_team_line(ev, f, text, line);
  for (const PlayerLine& p : f.players)
    for (size_t r = 0; r < p.rounds.size(); ++r)
      if (on_a_board(p.rounds[r])) f.rounds = std::max(f.rounds, int(r) + 1);
  if (f.rounds > 1000) throw std::runtime_error("more than 1000 rounds");
  if (!boards_given) ev.boards = std::min(100, boards_of(f));
  if (ev.system == System::Swiss) ev.rounds = std::max(header.rounds, f.rounds);
  for (int r = 0; r < f.rounds; ++r) ev.played.push_back(RoundReader(ev, f, r).read());
  if (ev.tie_breaks == default_team_tie_breaks(ev.scoring)) ev.tie_breaks.clear();
  return ev;
}

}  // namespace toguz::tournament
