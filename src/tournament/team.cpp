#include "tournament/team.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "tournament/round_robin.h"
#include "tournament/swiss.h"

namespace toguz::tournament {

namespace {

struct TieBreakName {
  TeamTieBreak t;
  std::string_view name, short_name;
};
constexpr TieBreakName kTieBreaks[] = {
    {TeamTieBreak::MatchPoints, "match-points", "MP"},
    {TeamTieBreak::BoardPoints, "board-points", "BP"},
    {TeamTieBreak::SonnebornBerger, "sonneborn-berger", "TSB"},
    {TeamTieBreak::DirectEncounter, "direct-encounter", "DE"},
    {TeamTieBreak::Buchholz, "buchholz", "BH"},
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

}  // namespace

std::string_view team_scoring_name(TeamScoring s) {
  return s == TeamScoring::MatchPoints ? "match-points" : "board-points";
}

bool parse_team_scoring(std::string_view s, TeamScoring* out) {
  if (s == "match-points")
    *out = TeamScoring::MatchPoints;
  else if (s == "board-points")
    *out = TeamScoring::BoardPoints;
  else
    return false;
  return true;
}

std::string_view team_tie_break_name(TeamTieBreak t) {
  return kTieBreaks[int(t)].name;
}

std::string_view team_tie_break_short(TeamTieBreak t) {
  return kTieBreaks[int(t)].short_name;
}

bool parse_team_tie_break(std::string_view s, TeamTieBreak* out) {
  const std::string l = lower(s);
  for (const TieBreakName& n : kTieBreaks)
    if (l == n.name || l == lower(n.short_name)) {
      *out = n.t;
      return true;
    }
  return false;
}

std::vector<TeamTieBreak> default_team_tie_breaks(TeamScoring s) {
  const TeamTieBreak other =
      s == TeamScoring::MatchPoints ? TeamTieBreak::BoardPoints : TeamTieBreak::MatchPoints;
  return {other, TeamTieBreak::DirectEncounter, TeamTieBreak::SonnebornBerger};
}

int TeamEvent::total_rounds() const {
  if (system == System::Swiss) return rounds;
  const int cycle = teams.size() < 2 ? 0 : berger_rounds(int(teams.size()));
  return system == System::DoubleRoundRobin ? 2 * cycle : cycle;
}

bool TeamEvent::round_complete(int round_index) const {
  const TeamRound& r = played.at(round_index);
  return std::all_of(r.matches.begin(), r.matches.end(), match_complete);
}

bool TeamEvent::finished() const {
  return !played.empty() && int(played.size()) >= total_rounds() &&
         round_complete(int(played.size()) - 1);
}

int team_rating(const TeamEvent& ev, int team) {
  int sum = 0, n = 0;
  for (const Player& p : ev.teams.at(team).roster)
    if (p.rating > 0 && n < ev.boards) {
      sum += p.rating;
      ++n;
    }
  return n ? sum / n : 0;
}

std::vector<int> team_seed_order(const TeamEvent& ev) {
  std::vector<int> order(ev.teams.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<int> rating(order.size());
  for (int t : order) rating[t] = team_rating(ev, t);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if (rating[a] != rating[b]) return rating[a] > rating[b];
    return ev.teams[a].name < ev.teams[b].name;
  });
  return order;
}

std::vector<int> default_lineup(const TeamEvent& ev, int team) {
  std::vector<int> out;
  const std::vector<Player>& roster = ev.teams.at(team).roster;
  for (int i = 0; i < int(roster.size()) && int(out.size()) < ev.boards; ++i)
    if (!roster[i].withdrawn) out.push_back(i);
  return out;
}

std::pair<int, int> board_players(const TeamMatch& m, int board) {
  auto at = [board](const std::vector<int>& l) { return board < int(l.size()) ? l[board] : -1; };
  return {at(m.home_lineup), at(m.away_lineup)};
}

BoardResult forced_result(const TeamMatch& m, int board) {
  const auto [h, a] = board_players(m, board);
  if (h >= 0 && a >= 0) return BoardResult::Pending;
  if (h < 0 && a < 0) return BoardResult::DoubleForfeit;
  const bool white_there = (h >= 0) == home_has_white(board);
  return white_there ? BoardResult::WhiteForfeitWin : BoardResult::BlackForfeitWin;
}

int match_half_points(const TeamMatch& m, bool home) {
  int sum = 0;
  for (int b = 0; b < int(m.results.size()); ++b)
    sum += home_has_white(b) == home ? white_half_points(m.results[b])
                                     : black_half_points(m.results[b]);
  return sum;
}

bool match_complete(const TeamMatch& m) {
  return std::none_of(m.results.begin(), m.results.end(),
                      [](BoardResult r) { return r == BoardResult::Pending; });
}

bool match_forfeited(const TeamMatch& m) {
  return m.home_lineup.empty() || m.away_lineup.empty();
}

int match_points(const TeamMatch& m, bool home) {
  if (!match_complete(m)) return 0;
  const std::vector<int>& own = home ? m.home_lineup : m.away_lineup;
  if (match_forfeited(m)) return own.empty() ? 0 : 2;
  const int mine = match_half_points(m, home), theirs = match_half_points(m, !home);
  return mine > theirs ? 2 : mine == theirs ? 1 : 0;
}

std::vector<TeamScore> team_scores(const TeamEvent& ev) {
  std::vector<TeamScore> out(ev.teams.size());
  for (const TeamRound& r : ev.played) {
    for (const TeamMatch& m : r.matches)
      for (bool home : {true, false}) {
        TeamScore& s = out.at(home ? m.home : m.away);
        s.match_points += match_points(m, home);
        s.board_half_points += match_half_points(m, home);
      }
    if (ev.system == System::Swiss)
      for (int t : r.byes) {
        out.at(t).match_points += 2;
        out.at(t).board_half_points += 2 * ev.boards;
      }
  }
  return out;
}

int primary_score(const TeamEvent& ev, const TeamScore& s) {
  return ev.scoring == TeamScoring::MatchPoints ? s.match_points : s.board_half_points;
}

namespace {

// A match as the individual event's board: home White, the result by the match.
Board pairing_board(const TeamMatch& m) {
  Board b{m.home, m.away, BoardResult::Draw, {}};
  if (m.home_lineup.empty() && m.away_lineup.empty())
    b.result = BoardResult::DoubleForfeit;
  else if (m.home_lineup.empty())
    b.result = BoardResult::BlackForfeitWin;
  else if (m.away_lineup.empty())
    b.result = BoardResult::WhiteForfeitWin;
  else if (match_points(m, true) != 1)
    b.result = match_points(m, true) == 2 ? BoardResult::WhiteWins : BoardResult::BlackWins;
  return b;
}

// The teams as an individual event's players: their pairing numbers (by rating) give the
// Swiss's rank within a score group: the other score, then the seeding.
Event pairing_event(const TeamEvent& ev) {
  Event e;
  e.system = ev.system;
  e.rounds = ev.rounds;
  const int n = int(ev.teams.size());
  const std::vector<TeamScore> scores = team_scores(ev);
  const std::vector<int> seed = team_seed_order(ev);
  std::vector<int> seed_pos(n), order(seed);
  for (int i = 0; i < n; ++i) seed_pos[seed[i]] = i;
  auto secondary = [&](int t) {
    const TeamScore& s = scores[t];
    return ev.scoring == TeamScoring::MatchPoints ? s.board_half_points : s.match_points;
  };
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    if (secondary(a) != secondary(b)) return secondary(a) > secondary(b);
    return seed_pos[a] < seed_pos[b];
  });
  e.players.resize(n);
  for (int i = 0; i < n; ++i) {
    const int t = order[i];
    e.players[t].name = ev.teams[t].name;
    e.players[t].rating = n - i;
    e.players[t].withdrawn = ev.teams[t].withdrawn;
  }
  for (const TeamRound& r : ev.played) {
    Round round;
    round.byes = r.byes;
    for (const TeamMatch& m : r.matches) round.boards.push_back(pairing_board(m));
    e.played.push_back(std::move(round));
  }
  return e;
}

TeamMatch new_match(const TeamEvent& ev, const Board& b) {
  TeamMatch m;
  m.home = b.white;
  m.away = b.black;
  if (b.result != BoardResult::BlackForfeitWin) m.home_lineup = default_lineup(ev, m.home);
  if (b.result != BoardResult::WhiteForfeitWin) m.away_lineup = default_lineup(ev, m.away);
  m.results.assign(ev.boards, BoardResult::Pending);
  m.moves.assign(ev.boards, {});
  for (int i = 0; i < ev.boards; ++i) m.results[i] = forced_result(m, i);
  return m;
}

}  // namespace

TeamRound pair_next_team_round(const TeamEvent& ev) {
  const auto active =
      std::count_if(ev.teams.begin(), ev.teams.end(), [](const Team& t) { return !t.withdrawn; });
  if (active < 2) throw std::runtime_error("an event needs at least two teams to pair a round");
  if (ev.boards < 1) throw std::runtime_error("a match needs at least one board");
  const int next = int(ev.played.size());
  if (next > 0 && !ev.round_complete(next - 1))
    throw std::runtime_error("round " + std::to_string(next) +
                             " still has boards without a result");
  if (next >= ev.total_rounds())
    throw std::runtime_error("every round (" + std::to_string(ev.total_rounds()) +
                             ") has been paired");
  const Event e = pairing_event(ev);
  Round round;
  if (ev.system == System::Swiss) {
    std::vector<int> scores;
    for (const TeamScore& s : team_scores(ev)) scores.push_back(primary_score(ev, s));
    round = pair_swiss_round(e, scores);
  } else {
    round = pair_next_round(e);
  }
  TeamRound out;
  out.byes = round.byes;
  for (const Board& b : round.boards) out.matches.push_back(new_match(ev, b));
  return out;
}

void add_next_team_round(TeamEvent& ev) {
  ev.played.push_back(pair_next_team_round(ev));
}

namespace {

void refuse(const std::string& why) {
  throw std::invalid_argument(why);
}

}  // namespace

void set_lineup(TeamEvent& ev, int round, int team, const std::vector<int>& lineup) {
  if (round < 0 || round >= int(ev.played.size()))
    refuse("round " + std::to_string(round + 1) + " is not paired");
  if (team < 0 || team >= int(ev.teams.size())) refuse("no such team");
  TeamRound& r = ev.played[round];
  auto it = std::find_if(r.matches.begin(), r.matches.end(),
                         [team](const TeamMatch& m) { return m.home == team || m.away == team; });
  if (it == r.matches.end())
    refuse(ev.teams[team].name + " has no match in round " + std::to_string(round + 1));
  TeamMatch& m = *it;
  for (int b = 0; b < ev.boards; ++b)
    if (forced_result(m, b) == BoardResult::Pending && m.results[b] != BoardResult::Pending)
      refuse("board " + std::to_string(b + 1) + " of the match has a result: clear it first");
  if (int(lineup.size()) > ev.boards)
    refuse("a lineup has at most " + std::to_string(ev.boards) + " players");
  const std::vector<Player>& roster = ev.teams[team].roster;
  for (size_t i = 0; i < lineup.size(); ++i) {
    if (lineup[i] < 0 || lineup[i] >= int(roster.size()))
      refuse("no player " + std::to_string(lineup[i] + 1) + " in the roster of " +
             ev.teams[team].name);
    if (i > 0 && lineup[i] <= lineup[i - 1])
      refuse("the lineup must follow the roster order, each player once");
  }
  (m.home == team ? m.home_lineup : m.away_lineup) = lineup;
  for (int b = 0; b < ev.boards; ++b) {
    m.results[b] = forced_result(m, b);
    m.moves[b].clear();
  }
}

void set_board_result(TeamEvent& ev, int round, int match, int board, BoardResult r,
                      std::vector<int> moves) {
  if (round < 0 || round >= int(ev.played.size()))
    refuse("round " + std::to_string(round + 1) + " is not paired");
  TeamRound& tr = ev.played[round];
  if (match < 0 || match >= int(tr.matches.size()))
    refuse("match " + std::to_string(match + 1) + ": round " + std::to_string(round + 1) +
           " has matches 1 to " + std::to_string(tr.matches.size()));
  TeamMatch& m = tr.matches[match];
  if (board < 0 || board >= int(m.results.size()))
    refuse("board " + std::to_string(board + 1) + ": a match has boards 1 to " +
           std::to_string(m.results.size()));
  const BoardResult forced = forced_result(m, board);
  if (forced != BoardResult::Pending && r != forced)
    refuse("board " + std::to_string(board + 1) + " has no player on one side or both: it is " +
           std::string(board_result_text(forced)));
  m.results[board] = r;
  m.moves[board] = std::move(moves);
}

IndividualView individual_view(const TeamEvent& ev) {
  IndividualView v;
  v.event.name = ev.name;
  v.event.site = ev.site;
  v.event.date = ev.date;
  v.event.system = ev.system;
  v.event.rounds = ev.total_rounds();
  for (const Team& t : ev.teams) {
    v.offsets.push_back(int(v.event.players.size()));
    v.event.players.insert(v.event.players.end(), t.roster.begin(), t.roster.end());
  }
  for (const TeamRound& r : ev.played) {
    Round round;
    for (const TeamMatch& m : r.matches)
      for (int b = 0; b < int(m.results.size()); ++b) {
        const auto [h, a] = board_players(m, b);
        if (h < 0 || a < 0) continue;
        const int hp = v.offsets[m.home] + h, ap = v.offsets[m.away] + a;
        const bool hw = home_has_white(b);
        round.boards.push_back({hw ? hp : ap, hw ? ap : hp, m.results[b], m.moves[b]});
      }
    v.event.played.push_back(std::move(round));
  }
  return v;
}

}  // namespace toguz::tournament
