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

RecordFile read_games(std::string_view bytes) {
  if (looks_like_records(bytes))
    return read_record_file(bytes);  // '[' reads alike in both encodings
  RecordFile file;
  const std::string text = decode_record_text(bytes, &file.note);
  int line_number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = std::string_view(text).substr(pos, end - pos);
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
    if (r.plies.empty()) continue;
    r.number = int(file.games.size()) + 1;
    file.games.push_back(std::move(r));
  }
  return file;
}

RecordFile load_games(const std::string& command, const std::string& path) {
  RecordFile file;
  try {
    file = read_games(read_input(path));
  } catch (const ParseError& e) {
    std::cerr << "toguz " << command << ": " << path << ": " << e.what() << "\n";
    throw CLI::RuntimeError(1);
  } catch (const std::runtime_error& e) {
    std::cerr << "toguz " << command << ": " << e.what() << "\n";
    throw CLI::RuntimeError(2);
  }
  if (!file.note.empty())
    std::cerr << "toguz " << command << ": " << path << ": " << file.note << "\n";
  return file;
}

Replayed replay_checked(const std::string& command, const std::string& path, const Record& record,
                        const RuleOptions& overrides, bool strict) {
  Replayed r = replay_record(record, overrides);
  if (r.warning && !r.error) {
    if (strict)
      r.error = r.warning;
    else
      std::cerr << "toguz " << command << ": " << path << ": warning: " << describe(*r.warning)
                << "\n";
    r.warning.reset();
  }
  return r;
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
