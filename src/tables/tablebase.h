// Endgame tables for the standard board (N = 9) with at least one tuz: for every distribution
// of at most K stones over the non-tuz holes, the board value = with best play to the natural
// end (play-out), the side to move's share of the stones now on the board minus the
// opponent's. The kaznas are not indexed: the final margin of a real position is
// (kazna difference + board value), and its sign is the result under the standard rules.
//
// Positions are seen from the side to move ("mover"): a configuration is the pair (mover's
// tuz, opponent's tuz), hole numbers 1..8 on the other row, 0 = none; 72 of them have a tuz.
// Entries of one configuration are ranked by stone count S (all S = 0, then S = 1, ...) and,
// within S, by the combinatorial rank of the composition of S over the free holes (mover's
// holes 1..9, then the opponent's, tuzes skipped). So the first entries of a K table are the
// table for any smaller K. One signed byte per entry; kUnknown marks an entry not yet built.
//
// Why generation terminates (the graph is acyclic with a tuz): take a tuz hole T and
// Phi = sum over the stones on the board of their distance to T in sowing order (1..2N-1).
// A move that sows no stone into T and captures nothing keeps the board's stone count and
// lowers Phi: k >= 2 stones at distance d go to distances d, d-1, ..., d-k+1 (a drop of
// k(k-1)/2), a single stone moves one step closer. Any other move lowers the number of stones
// on the board. So (stones on board, Phi) falls strictly with every move and no position can
// recur; the memoised recursion below therefore always reaches the game's end.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rules/position.h"

namespace toguz::tables {

constexpr int8_t kUnknown = -128;

// A configuration: tuz hole numbers from the mover's point of view.
struct Config {
  int mine = 0;    // the mover's tuz (on the opponent's row), 0 = none
  int theirs = 0;  // the opponent's tuz (on the mover's row), 0 = none
  int id() const { return mine * 9 + theirs; }
  bool valid() const {
    return (mine || theirs) && mine >= 0 && mine <= 8 && theirs >= 0 && theirs <= 8 &&
           (mine != theirs || mine == 0);
  }
  int free_holes() const { return 18 - (mine != 0) - (theirs != 0); }
};

// Every valid configuration (72).
std::vector<Config> all_configs();
// The configurations a position with at least one tuz can reach (its own, the swapped one, and
// those with the tuz the other side may still make).
std::vector<Config> configs_for(const Position& p);

// Entries of one configuration's table with at most k stones.
uint64_t table_entries(const Config& c, int k);

struct BuildProgress {
  Config config;
  uint64_t done = 0, total = 0;  // entries of this configuration finished / in all
  int config_index = 0, config_count = 0;
};

// The largest K with table files (`tb9_k<K>_<mine><theirs>.bin`) in `dir`, 0 if none or if
// `dir` cannot be read.
int largest_table_stones(const std::string& dir);

// A set of tables for at most `max_stones` stones, one file per configuration in `dir`
// (`tb9_k<K>_<mine><theirs>.bin`), memory-mapped. A file starts with a 64-byte header and
// is marked complete once every entry is built; an interrupted build resumes from what the
// file already holds (entries are written only once their children are final).
class Tablebase {
 public:
  Tablebase(std::string dir, int max_stones);
  ~Tablebase();
  Tablebase(const Tablebase&) = delete;
  Tablebase& operator=(const Tablebase&) = delete;

  int max_stones() const { return k_; }
  const std::string& dir() const { return dir_; }

  // The board value of `p` when a complete table holds it (standard board, a tuz, at most K
  // stones on the board). Opens files lazily (not thread-safe while opening).
  bool probe(const Position& p, int* value) const;

  // Builds (or finishes) the tables of `configs` and those they depend on. Throws
  // std::runtime_error on a file error. `progress` is called now and then.
  void build(const std::vector<Config>& configs,
             const std::function<void(const BuildProgress&)>& progress = {});

  // Checks every entry of `configs` against its children (the value must be the best move's).
  // Returns the number of wrong or missing entries; `progress` as for build.
  uint64_t verify(const std::vector<Config>& configs,
                  const std::function<void(const BuildProgress&)>& progress = {});

  // The entry of one configuration (building files on demand is not done here); kUnknown when
  // the file is missing or the entry not built.
  int8_t entry(const Config& c, uint64_t index) const;
  bool complete(const Config& c) const;

  // Indexing, exposed for tests: the index of `p` (which must have a tuz and <= K stones) and
  // its configuration; the position (White to move, play-out rules) of an index.
  uint64_t index_of(const Position& p, Config* c) const;
  Position position_of(const Config& c, uint64_t index) const;

 private:
  struct File;
  File* open(const Config& c, bool create) const;
  int compute(const Config& c, uint64_t index, const Position& p);
  int value_from_children(const Position& p, bool* missing, bool build);

  std::string dir_;
  int k_;
  mutable std::unique_ptr<File> files_[81];
  // binom_[n][r] and the per-hole rank offsets, see tablebase.cpp
  std::vector<uint64_t> binom_;
  uint64_t binom(int n, int r) const;
  std::vector<uint64_t> block_start_[2];  // [holes == 17][S]: first index of stone count S
};

}  // namespace toguz::tables
