#include "cli/game_input.h"

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace toguz::cli {

std::string read_input(const std::string& path) {
  std::stringstream ss;
  if (path == "-") {
    ss << std::cin.rdbuf();
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open for reading");
    ss << in.rdbuf();
    if (in.bad()) throw std::runtime_error(path + ": read error");
  }
  return ss.str();
}

bool looks_like_records(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    return c == '[';
  }
  return false;
}

std::vector<Record> read_games(std::string_view text) {
  if (looks_like_records(text)) return read_records(text);
  std::vector<Record> games;
  int line_number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    Record r;
    r.first_line = line_number;
    size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
      size_t j = i;
      while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
      if (j > i) r.plies.push_back(Record::Ply{std::string(line.substr(i, j - i)), line_number});
      i = j;
    }
    if (!r.plies.empty()) games.push_back(std::move(r));
  }
  return games;
}

std::string describe(const ReplayError& e, bool with_ply) {
  std::string out = "line " + std::to_string(e.line) + ": ";
  if (with_ply && e.ply > 0) out += "ply " + std::to_string(e.ply) + ", token '" + e.token + "': ";
  return out + e.message;
}

void play_moves(Game& game, const std::vector<std::string>& moves, const char* command) {
  for (size_t i = 0; i < moves.size(); ++i) {
    const std::string& text = moves[i];
    auto fail = [&](const std::string& why) {
      std::cerr << "toguz " << command << ": --moves token " << i + 1 << " '" << text
                << "': " << why << "\n";
      throw CLI::RuntimeError(2);
    };
    MoveToken token;
    std::string why;
    if (!parse_move_token(text, &token, &why)) fail(why);
    MoveInfo info;
    if (!game.play(token.hole, &why, &info)) fail(why);
    const std::string bad = check_move_token(token, info);
    if (!bad.empty()) fail(bad);
  }
}

}  // namespace toguz::cli
