// `toguz bench`: a fixed search workload. About 30 fixed positions (openings, middle games,
// endgames, with and without tuz, all three variants) searched to a fixed depth on one
// thread with a cleared hash table each. The node count is the search's signature: it is
// stored in bench/bench-signature.txt and checked by tests/cli/bench_signature.sh; every
// commit that changes search behaviour updates it and ends its message with "Bench: N".
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "rules/game.h"
#include "rules/notation.h"
#include "search/engine.h"

namespace toguz::cli {

namespace {

// Openings and middle games from tests/data/random-games.jsonl (fixed prefixes of its games),
// the positions of tests/data/perft-positions.json and the composed studies of
// tests/data/etudes.json.
const char* const kBenchPositions[] = {
    "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1",
    "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 0 w 1",
    "5,5,5,5,5/5,5,5,5,5 0 0 w 1",
    "11,2,11,11,11,11,1,12,11/1,10,10,10,10,10,10,0,0 20 0 w 3",
    "1,13,13,11,11,11,11,11,0/11,10,10,1,12,11,1,12,12 0 0 b 4",
    "12,3,1,12,2,12,0,2,13/13,3,13,3,1,3,15,1,1 36 16 w 5",
    "2,6,4,3,14,2,0,15,14/13,2,0,1,4,2,14,6,2 26 32 w 7",
    "17,5,6,2,0,7,1,16,2/1,2,19,6,6,4,6,17,1 24 20 w 9",
    "2,3,16,3,1,x,3,4,17/1,x,4,2,1,18,5,4,16 43 19 w 13",
    "4,23,1,1,x,2,6,1,8/3,2,1,18,5,6,1,4,21 20 35 w 16",
    "4,11,1,1,1,1,21,12,1/1,4,5,0,4,3,0,5,3 52 32 b 18",
    "2,6,3,9,0,15,4,x,0/0,0,3,0,0,2,22,0,1 70 25 w 21",
    "9,x,3,3,0,4,5,3,13/2,2,2,4,15,2,6,2,7 62 18 w 26",
    "0,4,4,1,4,2,7,5,17/4,5,1,9,1,1,3,17,3 46 28 w 31",
    "1,9,3,x,2,1,2,3,2/0,5,8,2,0,1,2,0,2 70 49 b 33",
    "1,3,0,x,1,9,3,3,4/7,1,7,0,2,1,0,3,1 78 38 w 34",
    "x,12,1,2,5,0,1,1,22/1,5,x,8,1,6,5,3,2 33 54 w 36",
    "x,0,7,2,2,0,0,2,5/1,x,4,0,10,1,1,1,2 62 62 w 41",
    "0,1,2,x,0,7,0,0,2/0,x,1,0,6,0,1,7,2 76 57 w 46",
    "0,0,x,1,0,2,2,0,2/1,0,0,2,1,0,x,1,3 80 67 w 48",
    "0,1,1,2,11,x,2,1,20/3,5,18,0,1,20,0,11,1 26 39 w 16",
    "4,1,7,4,2,x,9,2,2/3,3,7,1,13,3,4,3,0 34 60 w 36",
    "0,2,1,2,4,x,1,0,2/1,0,3,1,1,2,2,5,0 54 81 w 56",
    "1,10,3,4,9,3,5,1,3/x,2,6,10,1,2,3,8,2 59 30 w 16",
    "5,3,12,14,2,3,x,5,4/6,8,4,2,2,1,6,7,10 26 42 w 16",
    "1,1,2,0,4,3,x,3,0/0,0,0,2,4,4,7,2,10 38 81 w 36",
    "0,0,0,1,x,1,3,2,1/0,0,2,2,0,0,0,0,0 78 72 w 40",
    "x,0,0,0,0,0,4,1,1/0,2,x,0,0,1,0,0,0 77 76 w 40",
    "x,0,2,3,4,8,0,0,2/0,9,0,0,1,5,2,3,2 66 55 w 40",
    "0,0,0,6,x,5,0,3,2/0,0,0,2,1,0,0,0,0 72 71 w 40",
    "x,0,0,0,5,4,1,2,1/0,2,0,x,3,2,0,0,0 74 68 w 40",
    "0,4,3,2,1,x,0,0,0/0,0,2,3,4,4,x,2,2 74 61 w 40",
};

// Depth 14: about 1.7 M nodes, long enough for a stable Nodes/second (the first iterations of
// each position cost more per node than the later ones).
constexpr int kDefaultDepth = 14;

}  // namespace

void add_bench(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("bench", "search fixed positions to a fixed depth; print the node count");
  struct Args {
    int depth = kDefaultDepth;
    int hash = 16;
    bool verbose = false;
    std::string eval = search::eval_kind_name(search::kDefaultEval);
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("--depth", args->depth, "search depth per position")->check(CLI::Range(1, 60));
  cmd->add_option("--hash", args->hash, "hash table size in MB")->check(CLI::Range(1, 4096));
  cmd->add_flag("--verbose", args->verbose, "one line per position (move, score, nodes)");
  cmd->add_option("--eval", args->eval, "static evaluation: classic or nnue")
      ->check(CLI::IsMember({"classic", "nnue"}))
      ->capture_default_str();
  cmd->callback([args] {
    search::Engine engine;
    search::Options options;
    options.hash_mb = args->hash;
    search::parse_eval_kind(args->eval, &options.eval);
    engine.set_options(options);
    uint64_t nodes = 0;
    double secs = 0;  // search time only (clearing the table between positions is left out)
    int i = 0;
    for (const char* text : kBenchPositions) {
      ++i;
      Game game(parse_position(text));
      engine.new_game();
      engine.set_position(game);
      search::Limits limits;
      limits.depth = args->depth;
      const auto start = std::chrono::steady_clock::now();
      const search::SearchResult r = engine.search(limits);
      secs += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      nodes += r.nodes;
      if (args->verbose)
        std::cerr << "position " << i << ": " << text << "  bestmove " << r.best_move << " score "
                  << r.lines.front().score.cp << " nodes " << r.nodes << "\n";
    }
    std::cout << "Total time (ms): " << int64_t(secs * 1000) << "\n";
    std::cout << "Nodes searched: " << nodes << "\n";
    std::cout << "Nodes/second: " << uint64_t(secs > 0 ? double(nodes) / secs : 0) << "\n";
  });
}

}  // namespace toguz::cli
