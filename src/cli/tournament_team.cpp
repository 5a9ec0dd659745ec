// `toguz tournament team ACTION FILE ...`: a team event kept in a JSON state file
// (docs/tournaments.md "Team events"), with the individual event's commands where they fit.
// The pairing, scoring and TGK are in src/tournament/team*.h; this file reads, writes, prints.
#include <iostream>

#include "cli/commands.h"
#include "cli/tournament_files.h"
#include "rules/text.h"
#include "tournament/team_json.h"
#include "tournament/team_standings.h"
#include "tournament/team_trf.h"

namespace toguz::cli {

namespace {

using namespace toguz::tournament;
using namespace tournament_files;

TeamEvent load_team(const std::string& path) {
  return load_state(path, team_event_from_json);
}

void save_team(const std::string& path, const TeamEvent& ev) {
  write_file(path, team_event_to_json(ev));
}

// TEAM: the name as entered, or the entry number (1-based).
int team_arg(const TeamEvent& ev, const std::string& s) {
  std::vector<std::string> names;
  for (const Team& t : ev.teams) names.push_back(t.name);
  if (const int i = name_or_number(names, s); i >= 0) return i;
  fail("no team '" + s + "' (a name as entered, or 1 to " + std::to_string(ev.teams.size()) + ")");
}

// PLAYER of a team's roster: the name, or the roster number (1-based).
int member_arg(const TeamEvent& ev, int team, const std::string& s) {
  std::vector<std::string> names;
  for (const Player& p : ev.teams[team].roster) names.push_back(p.name);
  if (const int i = name_or_number(names, s); i >= 0) return i;
  fail("no player '" + s + "' in " + ev.teams[team].name + " (a name, or 1 to " +
       std::to_string(names.size()) + ")");
}

std::string round_text(const TeamEvent& ev, int round) {
  return "Round " + std::to_string(round) + " of " + std::to_string(ev.total_rounds()) + "\n" +
         team_round_table(ev, round).text();
}

std::vector<TeamTieBreak> team_tie_break_list(const std::string& text) {
  std::vector<TeamTieBreak> out;
  for (const std::string& w : list_words(text)) {
    TeamTieBreak t;
    if (!parse_team_tie_break(w, &t)) fail("--tiebreaks: unknown tie-break '" + w + "'", 2);
    out.push_back(t);
  }
  return out;
}

// new FILE
void add_team_new(CLI::App* team) {
  struct Args {
    NewArgs event;
    std::string scoring = "match-points", tiebreaks;
    int boards = 4;
  };
  auto a = std::make_shared<Args>();
  auto* c = team->add_subcommand("new", "create a team event's state file");
  add_new_options(c, a->event);
  c->add_option("--boards", a->boards, "boards per match (4)")->check(CLI::Range(1, 100));
  c->add_option("--scoring", a->scoring, "what ranks first: match-points (2/1/0) or board-points")
      ->check(CLI::IsMember({"match-points", "board-points"}));
  c->add_option("--tiebreaks", a->tiebreaks,
                "comma-separated, in order: match-points, board-points, sonneborn-berger, "
                "direct-encounter, buchholz (or MP, BP, TSB, DE, BH)");
  c->callback([a] {
    TeamEvent ev;
    ev.tie_breaks = team_tie_break_list(a->tiebreaks);
    parse_team_scoring(a->scoring, &ev.scoring);
    ev.boards = a->boards;
    apply_new(a->event, &ev.system, &ev.rounds, &ev.name, &ev.site, &ev.date);
    save_team(a->event.file, ev);
  });
}

// add-team FILE TEAM; add FILE TEAM NAME: teams and rosters, before round 1.
void add_team_entries(CLI::App* team) {
  struct Args {
    std::string file, team;
    PlayerArgs player;
  };
  auto a = std::make_shared<Args>();
  auto* t = team->add_subcommand("add-team", "enter a team (before round 1)");
  t->add_option("FILE", a->file, "the state file")->required();
  t->add_option("TEAM", a->team, "the team's name")->required();
  t->callback([a] {
    TeamEvent ev = load_team(a->file);
    if (!ev.played.empty()) fail("teams are entered before round 1 is paired");
    const std::string name = clean_display_text(a->team);
    if (name.empty()) fail("the name is empty");
    for (const Team& x : ev.teams)
      if (x.name == name) fail("'" + name + "' is already entered");
    ev.teams.push_back({name, {}});
    save_team(a->file, ev);
  });
  auto* c = team->add_subcommand("add", "add a player to a team's roster, in board order");
  c->add_option("FILE", a->file, "the state file")->required();
  c->add_option("TEAM", a->team, "the team's name or entry number")->required();
  add_player_options(c, a->player);
  c->callback([a] {
    TeamEvent ev = load_team(a->file);
    if (!ev.played.empty()) fail("rosters are entered before round 1 is paired");
    const int t = team_arg(ev, a->team);
    const Player player = player_of(a->player);
    for (const Team& x : ev.teams)
      for (const Player& p : x.roster)
        if (p.name == player.name) fail("'" + player.name + "' is already in " + x.name);
    ev.teams[t].roster.push_back(player);
    save_team(a->file, ev);
  });
}

// pair FILE; withdraw FILE TEAM
void add_team_pairing(CLI::App* team) {
  auto file = std::make_shared<std::string>();
  auto* c = team->add_subcommand("pair", "pair the next round and print its matches");
  c->add_option("FILE", *file, "the state file")->required();
  c->callback([file] {
    TeamEvent ev = load_team(*file);
    try {
      add_next_team_round(ev);
    } catch (const std::exception& e) {
      fail(e.what());
    }
    save_team(*file, ev);
    std::cout << round_text(ev, int(ev.played.size()));
  });
  struct Args {
    std::string file, team;
    bool back = false;
  };
  auto a = std::make_shared<Args>();
  auto* w = team->add_subcommand("withdraw", "withdraw a team from the rounds paired after");
  w->add_option("FILE", a->file, "the state file")->required();
  w->add_option("TEAM", a->team, "the team's name or entry number")->required();
  w->add_flag("--back", a->back, "bring it back");
  w->callback([a] {
    TeamEvent ev = load_team(a->file);
    ev.teams[team_arg(ev, a->team)].withdrawn = !a->back;
    save_team(a->file, ev);
  });
}

// lineup FILE TEAM [PLAYER...]
void add_team_lineup(CLI::App* team) {
  struct Args {
    std::string file, team;
    std::vector<std::string> players;
    int round = 0;
    bool absent = false;
  };
  auto a = std::make_shared<Args>();
  auto* c = team->add_subcommand("lineup", "the captain's lineup for a round, in roster order");
  c->add_option("FILE", a->file, "the state file")->required();
  c->add_option("TEAM", a->team, "the team's name or entry number")->required();
  c->add_option("PLAYERS", a->players, "names or roster numbers, board 1 first");
  c->add_option("--round", a->round, "the round (default: the latest)");
  c->add_flag("--absent", a->absent, "the team did not come: every board a forfeit");
  c->callback([a] {
    TeamEvent ev = load_team(a->file);
    const int r = round_arg(ev.played.size(), a->round), t = team_arg(ev, a->team);
    if (a->absent == !a->players.empty()) fail("give the players, or --absent");
    std::vector<int> lineup;
    for (const std::string& p : a->players) lineup.push_back(member_arg(ev, t, p));
    try {
      set_lineup(ev, r - 1, t, lineup);
    } catch (const std::invalid_argument& e) {
      fail(e.what());
    }
    save_team(a->file, ev);
    std::cout << round_text(ev, r);
  });
}

// result FILE MATCH BOARD RESULT
void add_team_result(CLI::App* team) {
  struct Args {
    std::string file;
    int match = 0, board = 0;
    ResultArgs result;
  };
  auto a = std::make_shared<Args>();
  auto* c = team->add_subcommand("result", "enter a board's result, optionally its moves");
  c->add_option("FILE", a->file, "the state file")->required();
  c->add_option("MATCH", a->match, "the match number in the round")->required();
  c->add_option("BOARD", a->board, "the board number in the match")->required();
  add_result_options(c, a->result);
  c->callback([a] {
    TeamEvent ev = load_team(a->file);
    const int r = round_arg(ev.played.size(), a->result.round);
    const BoardResult res = result_of(a->result);
    const std::vector<int> moves =
        moves_of(a->result, res,
                 "round " + std::to_string(r) + ", match " + std::to_string(a->match) + ", board " +
                     std::to_string(a->board));
    try {
      set_board_result(ev, r - 1, a->match - 1, a->board - 1, res, moves);
    } catch (const std::invalid_argument& e) {
      fail(e.what());
    }
    save_team(a->file, ev);
  });
}

// pairings, standings, boards, export: what is printed and written.
void add_team_reports(CLI::App* team) {
  struct Args {
    std::string file, out;
    int round = 0;
  };
  auto a = std::make_shared<Args>();
  auto* p = team->add_subcommand("pairings", "print a round's matches and results");
  p->add_option("FILE", a->file, "the state file")->required();
  p->add_option("--round", a->round, "the round (default: the latest)");
  p->callback([a] {
    const TeamEvent ev = load_team(a->file);
    std::cout << round_text(ev, round_arg(ev.played.size(), a->round));
  });
  auto* s = team->add_subcommand("standings", "print the team standings");
  s->add_option("FILE", a->file, "the state file")->required();
  s->callback([a] {
    const TeamEvent ev = load_team(a->file);
    std::cout << "Standings after round " << ev.played.size() << " of " << ev.total_rounds() << "\n"
              << team_standings_table(ev, team_standings(ev)).text();
  });
  auto* b = team->add_subcommand("boards", "print the board prizes and each player's results");
  b->add_option("FILE", a->file, "the state file")->required();
  b->callback([a] {
    const TeamEvent ev = load_team(a->file);
    for (int i = 0; i < ev.boards; ++i)
      std::cout << "Board " << i + 1 << "\n" << board_prizes_table(ev, i).text() << "\n";
    std::cout << "Players\n" << player_results_table(ev).text();
  });
  auto* e = team->add_subcommand("export", "write every board's game as one TGK file");
  e->add_option("FILE", a->file, "the state file")->required();
  e->add_option("-o,--output", a->out, "output file (default: standard output)");
  e->callback([a] { emit(a->out, team_event_tgk(load_team(a->file))); });
}

}  // namespace

void add_tournament_team(CLI::App& tournament) {
  auto* team = tournament.add_subcommand(
      "team", "a team event: teams, rosters, lineups, matches on N boards, standings, TGK");
  team->require_subcommand(1);
  add_team_new(team);
  add_team_entries(team);
  add_team_pairing(team);
  add_team_lineup(team);
  add_team_result(team);
  add_team_reports(team);
  // trf FILE: the exchange file; import TRF FILE: a state file from one.
  add_exchange_commands(
      team, "import", [](const std::string& path) { return team_event_to_trf(load_team(path)); },
      [](const std::string& text) { return team_event_to_json(team_event_from_trf(text)); });
}

}  // namespace toguz::cli
