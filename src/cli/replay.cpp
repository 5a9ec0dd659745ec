// toguz replay [FILE|-] [--variant V] [--tuz on|off] [--play-out] [--json] [--strict]
// Every game is replayed with every token checked; bad games (unreadable ones too: the reader
// goes on at the next tag block) are reported, the others still checked; exit status 1 when
// any game was bad.
#include <boost/json.hpp>
#include <iostream>
#include <stdexcept>

#include "cli/board_text.h"
#include "cli/commands.h"
#include "cli/game_input.h"
#include "cli/options.h"

namespace toguz::cli {

namespace {

// {"plies":n,"end":...,"score":[w,b],"result":"..","position":".."}.
std::string game_json(const Game& g) {
  boost::json::object o;
  o["plies"] = g.ply_count();
  if (g.outcome() == Outcome::Ongoing)
    o["end"] = nullptr;
  else
    o["end"] = end_reason_name(g.end_reason());
  auto score = g.score();
  o["score"] = boost::json::array{score[0], score[1]};
  o["result"] = result_text(g.result());
  o["position"] = format_position(g.position());
  return boost::json::serialize(o);
}

// {"game":g,"ply":p,"token":"..","line":l,"error":"line l[, column c]: .."}: where, and what.
std::string error_json(int game, const ReplayError& e) {
  boost::json::object o;
  o["game"] = game;
  o["ply"] = e.ply;
  o["token"] = e.token;
  o["line"] = e.line;
  ReplayError where = e;
  where.game = where.ply = 0;
  o["error"] = describe(where);
  return boost::json::serialize(o);
}

// The plain report: the players, the final board, the position string and the result.
void print_game(int k, const Record& r, const Game& g) {
  std::cout << "Game " << k;
  auto white = r.tag("White"), black = r.tag("Black");
  if (white || black) std::cout << ": " << white.value_or("?") << " - " << black.value_or("?");
  std::cout << "\n"
            << draw_board(g.position()) << "Position: " << format_position(g.position()) << "\n";
  auto score = g.score();
  std::string how = g.over() ? std::string(end_reason_name(g.end_reason())) : "unfinished";
  std::cout << "Result: " << result_text(g.result()) << " (" << how << ", " << score[0] << "-"
            << score[1] << ", " << g.ply_count() << " plies)\n\n";
}

}  // namespace

void add_replay(CLI::App& app) {
  struct Args {
    std::string file = "-";
    RuleFlags rules;
    bool json = false;
    bool strict = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "replay",
      "check games move by move: PGN/TGK records (input starting with '[') or bare move lists, "
      "one game per line");
  cmd->add_option("FILE", args->file, "records or move lists; '-' or nothing = standard input");
  args->rules.add_to(cmd);
  cmd->add_flag(
      "--json", args->json,
      "one JSON line per game: plies, end, score, result, position (or game, ply, token, error)");
  cmd->add_flag("--strict", args->strict,
                "a last game cut off inside its moves (no result token, not over) is an error, not "
                "a warning");
  cmd->callback([args] {
    const std::vector<Record> games = load_games("replay", args->file).games;
    const RuleOptions overrides = args->rules.options();
    int bad = 0;
    for (size_t i = 0; i < games.size(); ++i) {
      const int k = int(i) + 1;
      std::cout.flush();  // warnings on stderr follow the games before them
      Replayed r = replay_checked("replay", args->file, games[i], overrides, args->strict);
      if (r.error) {
        ++bad;
        if (args->json)
          std::cout << error_json(k, *r.error) << "\n";
        else {
          ReplayError where = *r.error;
          where.game = 0;  // named in front
          std::cout << "Game " << k << ": error at " << describe(where) << "\n\n";
        }
      } else if (args->json) {
        std::cout << game_json(r.game) << "\n";
      } else {
        print_game(k, games[i], r.game);
      }
    }
    std::cout.flush();
    if (bad) {
      std::cerr << "toguz replay: " << bad << " of " << games.size() << " games are bad\n";
      throw CLI::RuntimeError(1);
    }
  });
}

}  // namespace toguz::cli
