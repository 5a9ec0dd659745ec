// toguz explorer build RECORDS... -o FILE [--max-ply N]
// toguz explorer query FILE [--position S | --moves M] [--json] [--min-rating R]
//     [--max-rating R] [--from-year Y] [--to-year Y] [--eval DEPTH]
// The opening explorer (docs/explorer.md): an index of every move played in a record
// collection, and for a position the moves with their games, results and ratings.
#include "explorer/explorer.h"

#include <bit>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>

#include "cli/commands.h"
#include "cli/game_input.h"
#include "rules/notation.h"
#include "search/engine.h"

namespace toguz::cli {

namespace {

using explorer::MoveStats;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The move as written in records ("76(10)", "27X") from `pos`, or the bare hole when it is
// not legal there (two positions sharing a key).
std::string move_text(const Position& pos, int hole) {
  if (!pos.is_legal(hole)) return std::to_string(hole);
  Position p = pos;
  return format_move(p.play(hole));
}

// The engine's score of each move from `game`'s position, from White's view: one multi-PV
// search to `depth` over all legal moves (empty when the game is over).
std::map<int, search::Score> evaluate_moves(const Game& game, int depth) {
  std::map<int, search::Score> scores;
  if (depth <= 0 || game.legal_mask() == 0) return scores;
  search::Engine engine;
  search::Options options;
  options.multipv = std::popcount(game.legal_mask());
  engine.set_options(options);
  engine.set_position(game);
  search::Limits limits;
  limits.depth = depth;
  const bool flip = game.position().side_to_move() == Side::Black;
  for (search::Info line : engine.search(limits).lines) {
    if (line.pv.empty()) continue;
    if (flip) line.score.cp = -line.score.cp, line.score.result = -line.score.result;
    scores[line.pv[0]] = line.score;
  }
  return scores;
}

// "+1.25" stones, or "win 12" / "loss 12" / "draw" (plies to a proven end), White's view.
std::string eval_text(const search::Score& s) {
  if (s.proven) {
    if (s.result == 0) return "draw";
    return std::string(s.result > 0 ? "win " : "loss ") + std::to_string(s.plies);
  }
  char buf[16];
  std::snprintf(buf, sizeof buf, "%+.2f", s.cp / 100.0);
  return buf;
}

std::string percent(uint64_t part, uint64_t whole) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", whole ? 100.0 * double(part) / double(whole) : 0.0);
  return buf;
}

void print_table(const Position& pos, const std::vector<MoveStats>& moves,
                 const explorer::Index& index, const std::map<int, search::Score>* evals) {
  uint64_t total = 0, w = 0, d = 0, b = 0;
  for (const MoveStats& m : moves)
    total += m.games, w += m.white_wins, d += m.draws, b += m.black_wins;
  std::cout << "Position: " << format_position(pos) << "\n";
  std::cout << "Games: " << total << " of " << index.games()
            << " indexed; results from White's view: White wins " << w << ", draws " << d
            << ", Black wins " << b << "\n";
  if (moves.empty()) return;
  char line[128];
  std::snprintf(line, sizeof line, "%-8s %7s %7s %7s %7s %7s", "Move", "Games", "White", "Draw",
                "Black", "Rating");
  std::cout << line << (evals ? "     Eval" : "") << "\n";
  for (const MoveStats& m : moves) {
    const auto r = m.average_rating();
    const std::string rating = r ? std::to_string(int(*r + 0.5)) : "-";
    std::snprintf(line, sizeof line, "%-8s %7llu %7s %7s %7s %7s", move_text(pos, m.hole).c_str(),
                  static_cast<unsigned long long>(m.games), percent(m.white_wins, m.games).c_str(),
                  percent(m.draws, m.games).c_str(), percent(m.black_wins, m.games).c_str(),
                  rating.c_str());
    std::cout << line;
    if (evals) {
      auto it = evals->find(m.hole);
      std::snprintf(line, sizeof line, " %8s",
                    it == evals->end() ? "-" : eval_text(it->second).c_str());
      std::cout << line;
    }
    std::cout << "\n";
  }
}

std::string query_json(const Position& pos, const std::vector<MoveStats>& moves,
                       const std::map<int, search::Score>* evals) {
  boost::json::object o;
  o["position"] = format_position(pos);
  boost::json::array list;
  uint64_t total = 0;
  for (const MoveStats& m : moves) {
    boost::json::object j = explorer::move_json(pos, m);
    if (evals) {
      auto it = evals->find(m.hole);
      if (it == evals->end()) {
        j["eval"] = nullptr;
      } else {
        boost::json::object e{{"cp", it->second.cp}, {"proven", it->second.proven}};
        if (it->second.proven) e["result"] = it->second.result, e["plies"] = it->second.plies;
        j["eval"] = std::move(e);
      }
    }
    total += m.games;
    list.push_back(std::move(j));
  }
  o["games"] = total;
  o["moves"] = std::move(list);
  return boost::json::serialize(o);
}

void add_build(CLI::App* parent) {
  struct Args {
    std::vector<std::string> files;
    std::string out;
    int max_ply = 0;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = parent->add_subcommand("build", "index the moves of PGN/TGK record files");
  cmd->add_option("RECORDS", args->files, "record files (PGN or TGK)")->required();
  cmd->add_option("-o,--output", args->out, "the index file to write")->required();
  cmd->add_option("--max-ply", args->max_ply, "index only the first N plies of each game (0 = all)")
      ->check(CLI::Range(0, 65535));
  cmd->callback([args] {
    const auto t0 = std::chrono::steady_clock::now();
    explorer::IndexBuilder builder(args->max_ply);
    uint64_t skipped = 0;
    for (const std::string& file : args->files) {
      std::vector<Record> records;
      try {
        records = read_records(read_input(file));
      } catch (const ParseError& e) {
        std::cerr << "toguz explorer build: " << file << ": " << e.what() << "\n";
        throw CLI::RuntimeError(1);
      } catch (const std::runtime_error& e) {
        std::cerr << "toguz explorer build: " << e.what() << "\n";
        throw CLI::RuntimeError(2);
      }
      for (size_t i = 0; i < records.size(); ++i) {
        if (auto why = builder.add_record(records[i])) {
          ++skipped;
          std::cerr << "toguz explorer build: " << file << ": game " << i + 1
                    << " skipped: " << *why << "\n";
        }
      }
    }
    try {
      builder.write(args->out);
    } catch (const explorer::IndexError& e) {
      std::cerr << "toguz explorer build: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
    const size_t entries = builder.entries().size();
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.2f", seconds_since(t0));
    std::cout << "Indexed " << builder.games() << " games (" << skipped << " skipped): " << entries
              << " entries, " << 64 + entries * sizeof(explorer::Entry) << " bytes, in " << secs
              << " s\n";
  });
}

void add_query(CLI::App* parent) {
  struct Args {
    std::string file;
    std::string position;
    std::vector<std::string> moves;
    bool json = false;
    std::optional<int> min_rating, max_rating, from_year, to_year;
    int eval_depth = 0;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = parent->add_subcommand("query", "the moves played from a position");
  cmd->add_option("FILE", args->file, "an index written by toguz explorer build")->required();
  cmd->add_option("--position", args->position, "the position (default: the start)");
  cmd->add_option("--moves", args->moves,
                  "moves played from the position: holes or notation tokens, e.g. \"76 87\"");
  cmd->add_flag("--json", args->json, "one JSON object: position, games, moves");
  cmd->add_option("--min-rating", args->min_rating,
                  "games whose rating band (100 points, the players' mean) reaches R");
  cmd->add_option("--max-rating", args->max_rating, "games whose rating band starts at R or below");
  cmd->add_option("--from-year", args->from_year, "games played in year Y or later");
  cmd->add_option("--to-year", args->to_year, "games played in year Y or earlier");
  cmd->add_option("--eval", args->eval_depth,
                  "the engine's score of each move at depth D, from White's view (0 = none)")
      ->check(CLI::Range(0, 100));
  cmd->callback([args] {
    std::optional<explorer::Index> index;
    try {
      index.emplace(args->file);
    } catch (const explorer::IndexError& e) {
      std::cerr << "toguz explorer query: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
    Position start;
    try {
      start =
          args->position.empty() ? Position::start(index->rules()) : parse_position(args->position);
    } catch (const ParseError& e) {
      std::cerr << "toguz explorer query: bad --position: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
    if (start.rules() != index->rules()) {
      std::cerr << "toguz explorer query: the position is under "
                << variant_name(start.rules().variant()) << " rules, the index under "
                << variant_name(index->rules().variant()) << "\n";
      throw CLI::RuntimeError(2);
    }
    std::vector<std::string> tokens;
    for (const std::string& m : args->moves) {
      std::istringstream words(m);
      for (std::string w; words >> w;) tokens.push_back(w);
    }
    Game game(start);
    play_moves(game, tokens, "explorer query");
    explorer::Filter filter{args->min_rating, args->max_rating, args->from_year, args->to_year};
    const std::vector<MoveStats> moves = index->query(game.position(), filter);
    const std::map<int, search::Score> evals = evaluate_moves(game, args->eval_depth);
    const auto* shown = args->eval_depth > 0 ? &evals : nullptr;
    if (args->json)
      std::cout << query_json(game.position(), moves, shown) << "\n";
    else
      print_table(game.position(), moves, *index, shown);
  });
}

}  // namespace

void add_explorer(CLI::App& app) {
  auto* cmd = app.add_subcommand("explorer", "the opening explorer: build an index, query it");
  cmd->require_subcommand(1);
  add_build(cmd);
  add_query(cmd);
}

}  // namespace toguz::cli
