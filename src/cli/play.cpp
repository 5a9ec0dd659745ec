// toguz play [--vs human|engine] [--skill N] [--color white|black] [--variant V] [--tuz on|off]
//            [--play-out] [--movetime MS]
// A terminal game over stdin/stdout, refereed by toguz::Game. The board is drawn from the
// mover's seat (against the engine: the human's); moves are typed as a hole number or a
// notation token (checked against what the move did); commands: undo, save, load, new, board,
// moves, help, quit. At the end of input or on quit the game goes to the autosave file
// ($TOGUZ_AUTOSAVE, default ./toguz-autosave.pgn). The computer is toguz::search::Engine.
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <vector>

#include "cli/board_text.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "rules/game.h"
#include "rules/notation.h"
#include "rules/record.h"
#include "rules/text.h"
#include "search/engine.h"

namespace toguz::cli {

namespace {

std::string plies(int n) {
  return std::to_string(n) + (n == 1 ? " ply" : " plies");
}

// The moves in PlayOK notation, one full move ("12. 41(37) 73(35)") per word, wrapped at about
// 76 columns, each line indented. With `last_lines` > 0 only that many final lines are kept.
std::string move_list(const Game& game, int last_lines = 0) {
  if (game.ply_count() == 0) return "  (no moves yet)\n";
  std::vector<std::string> words, lines;
  for (int ply = 0; ply < game.ply_count(); ++ply) {
    const Position& before = game.position_at(ply);
    const std::string move = format_move(game.moves()[ply]);
    if (before.side_to_move() == Side::White)
      words.push_back(std::to_string(before.move_number()) + ". " + move);
    else if (ply == 0)
      words.push_back(std::to_string(before.move_number()) + "... " + move);
    else
      words.back() += " " + move;
  }
  std::string line = " ";
  for (const auto& word : words) {
    if (line.size() > 1 && line.size() + 1 + word.size() > 76) {
      lines.push_back(line);
      line = " ";
    }
    line += " " + word;
  }
  lines.push_back(line);
  std::string out;
  size_t first = 0;
  if (last_lines > 0 && lines.size() > size_t(last_lines)) {
    first = lines.size() - last_lines;
    out += "  ... (earlier moves: type 'moves')\n";
  }
  for (size_t i = first; i < lines.size(); ++i) out += lines[i] + "\n";
  return out;
}

// "White wins 82-45 (decided: ...)" for a finished game.
std::string end_summary(const Game& game) {
  const auto score = game.score();
  std::string who;
  switch (game.result()) {
    case Result::WhiteWins:
      who = "White wins";
      break;
    case Result::BlackWins:
      who = "Black wins";
      break;
    case Result::Draw:
      who = "Draw";
      break;
    default:
      who = "Unfinished";
      break;
  }
  const Position& pos = game.position();
  std::string why;
  switch (game.end_reason()) {
    case EndReason::Decided:
      why = "a kazna holds more than " + std::to_string(pos.n() * pos.n());
      break;
    case EndReason::NoMove:
      why = std::string(side_name(pos.side_to_move())) + " has no move; " +
            side_name(opposite(pos.side_to_move())) + " takes the stones left on his row";
      break;
    case EndReason::Repetition:
      why = "the same position occurred three times";
      break;
    default:  // recorded, not from the board: the kaznas are the running totals
      return who + " (" + std::string(end_reason_name(game.end_reason())) + "; kaznas " +
             std::to_string(score[0]) + "-" + std::to_string(score[1]) + ")";
  }
  return who + " " + std::to_string(score[0]) + "-" + std::to_string(score[1]) + " (" +
         std::string(end_reason_name(game.end_reason())) + ": " + why + ")";
}

std::string today() {
  std::time_t t = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y.%m.%d", std::localtime(&t));
  return buf;
}

const char* kHelp =
    "  Type a hole number (1..N) to play it, or a move in notation (65, 65(10), 27X):\n"
    "  a notation move is checked against what the move does.\n"
    "  undo        take back your last move (against the engine: its reply too)\n"
    "  save FILE   write the game to FILE as a PGN record\n"
    "  load FILE   continue the first game of a PGN/TGK file\n"
    "  new         start a new game with the same rules\n"
    "  board       draw the board again\n"
    "  moves       list all the moves\n"
    "  help        this text\n"
    "  quit        save to the autosave file and leave\n";

struct PlayArgs {
  std::string vs = "engine";
  int skill = 10;
  std::string color = "white";
  int movetime_ms = 1000;
  RuleFlags rules;
};

class Session {
 public:
  Session(const PlayArgs& args, const Rules& rules, std::istream& in, std::ostream& out)
      : args_(args), rules_(rules), game_(Position::start(rules)), in_(in), out_(out) {
    vs_engine_ = args.vs == "engine";
    human_ = args.color == "black" ? Side::Black : Side::White;
    echo_ = !isatty(STDIN_FILENO);
    if (vs_engine_) {
      search::Options options;
      options.skill = args.skill;
      options.seed = std::random_device{}();  // a different game each time below full strength
      engine_.set_options(options);
      engine_.new_game();
    }
  }

  // Runs until quit or the end of input; returns the exit status.
  int run() {
    out_ << "toguz play: " << variant_name(rules_.variant())
         << (rules_.tuz ? ", tuz on" : ", tuz off") << (rules_.play_out ? ", play-out" : "")
         << ".\n";
    if (vs_engine_)
      out_ << "You play " << side_name(human_) << ", the computer " << side_name(opposite(human_))
           << " (skill " << args_.skill << ").";
    else
      out_ << "Two players at one keyboard.";
    out_ << " Type 'help' for the commands.\n";
    bool redraw = true;
    while (true) {
      if (!game_.over() && vs_engine_ && game_.position().side_to_move() != human_) {
        if (!computer_moves()) {
          autosave();
          return 3;
        }
        redraw = true;
        continue;
      }
      if (redraw) show();
      redraw = false;
      out_ << prompt() << std::flush;
      std::string line;
      if (!std::getline(in_, line)) {
        out_ << "\nEnd of input.\n";
        autosave();
        return 0;
      }
      line = std::string(trim(line));
      if (echo_) out_ << line << "\n";
      if (line.empty()) continue;
      std::istringstream words(line);
      std::string cmd, arg;
      words >> cmd;
      std::getline(words, arg);
      arg = std::string(trim(arg));
      if (cmd == "quit" || cmd == "exit" || cmd == "q") {
        autosave();
        return 0;
      } else if (cmd == "help" || cmd == "?") {
        out_ << kHelp;
      } else if (cmd == "board") {
        redraw = true;
      } else if (cmd == "moves") {
        out_ << move_list(game_);
      } else if (cmd == "undo") {
        redraw = undo();
      } else if (cmd == "new") {
        game_ = Game(Position::start(rules_));
        if (vs_engine_) engine_.new_game();
        out_ << "New game.\n";
        redraw = true;
      } else if (cmd == "save") {
        if (arg.empty())
          out_ << "save: which file? (save FILE)\n";
        else
          save(arg);
      } else if (cmd == "load") {
        if (arg.empty())
          out_ << "load: which file? (load FILE)\n";
        else
          redraw = load(arg);
      } else {
        redraw = human_move(line);
      }
    }
  }

 private:
  // The board from the seat of the side to move (against the engine: the human's), the moves,
  // and the result once the game is over.
  void show() {
    const Side seat = vs_engine_ ? human_ : game_.position().side_to_move();
    out_ << "\n" << draw_board(game_.position(), seat);
    out_ << "  Moves:\n" << move_list(game_, 3);
    if (game_.over()) {
      out_ << "  Result: " << end_summary(game_) << "\n";
      out_ << "  (undo, new, save FILE, load FILE or quit)\n";
    }
  }

  std::string prompt() const {
    if (game_.over()) return "> ";
    const Side s = game_.position().side_to_move();
    const int n = game_.position().n();
    if (vs_engine_)
      return std::string("Your move (") + side_name(s) + ", hole 1-" + std::to_string(n) + "): ";
    return std::string(side_name(s)) + " to move (hole 1-" + std::to_string(n) + "): ";
  }

  // A hole number or a notation token; false (and why) when it is not a legal move now.
  bool human_move(const std::string& text) {
    int hole = 0;
    MoveToken token;
    std::string why;
    bool all_digits = text.find_first_not_of("0123456789") == std::string::npos;
    if (all_digits && (text.size() == 1 || !parse_move_token(text, &token, nullptr))) {
      // A plain number: "10" or "0" is a hole that does not exist, not a token.
      hole = text.size() > 3 ? 1000 : std::stoi(text);
      token = MoveToken{};
    } else if (parse_move_token(text, &token, &why)) {
      hole = token.hole;
    } else {
      out_ << "Not a move or command: '" << text << "' (" << why << "). Type 'help'.\n";
      return false;
    }
    MoveInfo info;
    if (!game_.play(hole, &why, &info)) {
      out_ << "Illegal: " << why
           << (game_.over() ? " (undo, new, load FILE or quit)" : ". Try again.") << "\n";
      return false;
    }
    if (token.hole) {
      const std::string mismatch = check_move_token(token, info);
      if (!mismatch.empty()) {
        game_.undo();
        out_ << "'" << text << "' does not match hole " << hole << ": " << mismatch
             << ". Try again.\n";
        return false;
      }
    }
    out_ << side_name(opposite(game_.position().side_to_move())) << " plays " << format_move(info)
         << "\n";
    return true;
  }

  // The engine's move, searched for --movetime ms (less when it finds the end). False only if
  // the engine answered an illegal move (a bug, reported rather than looped on).
  bool computer_moves() {
    engine_.set_position(game_);
    search::Limits limits;
    limits.movetime_ms = args_.movetime_ms;
    const int hole = engine_.search(limits).best_move;
    MoveInfo info;
    std::string why;
    if (!game_.play(hole, &why, &info)) {  // a bug in the engine: say so rather than loop
      out_ << "The computer chose an illegal move (" << hole << ": " << why << ").\n";
      return false;
    }
    out_ << "Computer (" << side_name(opposite(game_.position().side_to_move())) << ") plays "
         << format_move(info) << "\n";
    return true;
  }

  // Against the engine: back to just before the human's last move (its reply goes too).
  bool undo() {
    int target = game_.ply_count() - 1;
    if (vs_engine_)
      while (target >= 0 && game_.position_at(target).side_to_move() != human_) --target;
    if (target < 0) {
      out_ << "Nothing to undo.\n";
      return false;
    }
    const int taken = game_.ply_count() - target;
    while (game_.ply_count() > target) game_.undo();
    out_ << "Took back " << taken << (taken == 1 ? " move.\n" : " moves.\n");
    return true;
  }

  std::vector<std::pair<std::string, std::string>> tags() const {
    const std::string computer = "toguz (skill " + std::to_string(args_.skill) + ")";
    std::string white = "Player", black = "Player";
    if (vs_engine_) (human_ == Side::White ? black : white) = computer;
    return {{"Event", "toguz play"},
            {"Site", "toguz"},
            {"Date", today()},
            {"White", white},
            {"Black", black}};
  }

  bool save(const std::string& path) {
    std::ofstream file(path, std::ios::binary);
    file << write_record(game_, tags());
    file.close();
    if (!file) {
      out_ << "Could not write " << path << ".\n";
      return false;
    }
    out_ << "Game saved to " << path << " (" << plies(game_.ply_count()) << ").\n";
    return true;
  }

  void autosave() {
    const char* env = std::getenv("TOGUZ_AUTOSAVE");
    std::string path = env && *env ? env : "toguz-autosave.pgn";
    std::error_code ec;
    auto abs = std::filesystem::absolute(path, ec);
    if (!ec) path = abs.string();
    save(path);
  }

  bool load(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
      out_ << "load: cannot open " << path << ".\n";
      return false;
    }
    std::stringstream text;
    text << file.rdbuf();
    try {
      auto records = read_records(text.str());
      if (records.empty()) {
        out_ << "load: no game in " << path << ".\n";
        return false;
      }
      Replayed replayed = replay_record(records.front());
      if (replayed.error) {
        out_ << "load: " << path << ": " << describe(*replayed.error)
             << ". The current game is kept.\n";
        return false;
      }
      game_ = replayed.game;
      rules_ = game_.rules();
      out_ << "Loaded " << path << " (" << plies(game_.ply_count())
           << (records.size() > 1 ? ", the first of " + std::to_string(records.size()) + " games"
                                  : "")
           << ").\n";
      return true;
    } catch (const ParseError& e) {
      out_ << "load: " << path << ": " << e.what() << ". The current game is kept.\n";
      return false;
    }
  }

  PlayArgs args_;
  Rules rules_;
  Game game_;
  std::istream& in_;
  std::ostream& out_;
  bool vs_engine_ = true;
  Side human_ = Side::White;
  bool echo_ = false;  // input is not a terminal: echo it so a transcript reads naturally
  search::Engine engine_;
};

}  // namespace

void add_play(CLI::App& app) {
  auto args = std::make_shared<PlayArgs>();
  auto* cmd =
      app.add_subcommand("play", "play a game in the terminal (against the computer or a friend)");
  cmd->add_option("--vs", args->vs, "opponent: engine (default) or human")
      ->check(CLI::IsMember({"human", "engine"}));
  cmd->add_option("--skill", args->skill, "engine strength 1..20 (default 10)")
      ->check(CLI::Range(1, 20));
  cmd->add_option("--color", args->color, "your side against the engine: white (default) or black")
      ->check(CLI::IsMember({"white", "black"}));
  cmd->add_option("--movetime", args->movetime_ms,
                  "engine thinking time per move in ms (default 1000)")
      ->check(CLI::Range(10, 600000));
  args->rules.add_to(cmd);
  cmd->callback([args] {
    Rules rules;
    try {
      rules = args->rules.options().resolve();
    } catch (const ParseError& e) {
      std::cerr << "toguz play: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
    Session session(*args, rules, std::cin, std::cout);
    if (int rc = session.run()) throw CLI::RuntimeError(rc);
  });
}

}  // namespace toguz::cli
