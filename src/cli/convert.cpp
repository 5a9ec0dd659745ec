// toguz convert IN [-o OUT] --to pgn|tgk
// Every game is replayed (every token checked) and written again in the chosen style. When any
// game is bad nothing is written: the errors are listed and the exit status is 1.
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "cli/commands.h"
#include "cli/game_input.h"

namespace toguz::cli {

void add_convert(CLI::App& app) {
  struct Args {
    std::string in;
    std::string out;
    std::string to;
    bool strict = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("convert", "rewrite game records as PlayOK PGN or federation TGK");
  cmd->add_option("IN", args->in, "records or bare move lists ('-' = standard input)")->required();
  cmd->add_option("-o,--output", args->out, "output file (default: standard output)");
  cmd->add_option("--to", args->to, "pgn (PlayOK style) or tgk (one move number per line)")
      ->required()
      ->check(CLI::IsMember({"pgn", "tgk"}));
  cmd->add_flag("--strict", args->strict,
                "a last game cut off inside its moves (no result token, not over) is an error, not "
                "a warning");
  cmd->callback([args] {
    const std::vector<Record> games = load_games("convert", args->in).games;
    const RecordStyle style = args->to == "tgk" ? RecordStyle::Tgk : RecordStyle::PlayOK;
    std::string text;
    int bad = 0;
    for (size_t i = 0; i < games.size(); ++i) {
      Replayed r = replay_checked("convert", args->in, games[i], {}, args->strict);
      if (r.error) {
        ++bad;
        std::cerr << "toguz convert: " << args->in << ": " << describe(*r.error) << "\n";
        continue;
      }
      if (!text.empty()) text += '\n';
      text += write_record(r.game, games[i].tags, style);
    }
    if (bad) {
      std::cerr << "toguz convert: " << bad << " of " << games.size()
                << " games are bad; nothing written\n";
      throw CLI::RuntimeError(1);
    }
    if (args->out.empty()) {
      std::cout << text;
      return;
    }
    std::ofstream out(args->out, std::ios::binary);
    out << text;
    out.close();
    if (!out) {
      std::cerr << "toguz convert: " << args->out << ": cannot write\n";
      throw CLI::RuntimeError(2);
    }
  });
}

}  // namespace toguz::cli
