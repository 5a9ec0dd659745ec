// The opening explorer: for a position, every move played in a record collection, with its
// games, results and players' ratings. Built once into a compact file (sorted fixed-size
// entries, see docs/explorer.md), answered by a binary search over the memory-mapped file.
// Depends on src/rules only.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "rules/game.h"
#include "rules/record.h"

namespace toguz::explorer {

// A file that is not a readable index (missing, truncated, wrong magic or version): the
// message names the file and what was expected.
class IndexError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

constexpr uint32_t kIndexVersion = 1;
constexpr int kBandWidth = 100;  // rating points per band

// One on-disk entry: the games that played `hole` from the position `key` (Position::key),
// with one rating band and one year. Sorted by (key, hole, band, year); unique.
struct Entry {
  uint64_t key = 0;
  uint8_t hole = 0;
  uint8_t band = 0;   // 0: no rating tag; b >= 1: game rating in [(b-1)*100, b*100)
  uint16_t year = 0;  // 0: no year in the Date tag
  uint32_t games = 0;
  uint32_t white_wins = 0, draws = 0, black_wins = 0;  // unfinished games count in none
  uint32_t rated = 0;                                  // player ratings summed in rating_sum
  uint64_t rating_sum = 0;
};
static_assert(sizeof(Entry) == 40, "the on-disk entry is 40 bytes without padding");

// What a game contributes to every entry it passes through.
struct GameFacts {
  int band = 0;
  int year = 0;
  Result result = Result::None;
  int rated = 0;       // ratings present (0, 1 or 2)
  int rating_sum = 0;  // their sum
};
// The facts of a record: WhiteElo / BlackElo (the game's rating is their mean, or the one
// present), the year from Date ("2025.11.09", "2018"), the result from the replayed game.
GameFacts game_facts(const Record& record, const Game& game);

class IndexBuilder {
 public:
  // max_ply > 0 indexes only the first max_ply plies of every game; 0 indexes them all.
  explicit IndexBuilder(int max_ply = 0) : max_ply_(max_ply) {}

  // Replays `record` and adds it. Returns the replay error (the game is then not added), or
  // a message when its rules differ from those of the first game added.
  std::optional<std::string> add_record(const Record& record);
  // Adds a replayed game: every (position, move) of it once, however often it repeats.
  // False when its rules differ from those of the index.
  bool add_game(const Game& game, const GameFacts& facts);

  uint64_t games() const { return games_; }
  // The merged entries (sorted, unique).
  const std::vector<Entry>& entries();
  // Writes the index to `path`; throws IndexError naming the file when it cannot.
  void write(const std::string& path);

 private:
  void compact();
  int max_ply_;
  std::optional<Rules> rules_;
  uint64_t games_ = 0;
  int year_min_ = 0, year_max_ = 0;
  std::vector<Entry> entries_;
  size_t merged_ = 0;  // entries_[0, merged_) is sorted and unique
};

// Which games a query counts. Unset bounds do not filter; a set rating bound leaves out the
// unrated games and counts whole bands (a band counts when it meets [min_rating, max_rating]);
// a set year bound leaves out the games without a year.
struct Filter {
  std::optional<int> min_rating, max_rating;
  std::optional<int> from_year, to_year;
  bool accepts(const Entry& e) const;
};

struct MoveStats {
  int hole = 0;
  uint64_t games = 0, white_wins = 0, draws = 0, black_wins = 0;
  uint64_t rated = 0, rating_sum = 0;
  // The mean rating of the players who played it, nullopt when none had a rating.
  std::optional<double> average_rating() const;
};

// One move's counts as the explorer's JSON answers give them (docs/explorer.md): hole, move (its
// notation from `pos`), games, white_wins, draws, black_wins, average_rating (rounded; null when
// no player had a rating).
boost::json::object move_json(const Position& pos, const MoveStats& m);

// A read-only index mapped into memory.
class Index {
 public:
  // Throws IndexError for a missing or unreadable file, a wrong magic, a wrong version or a
  // size that does not match the header.
  explicit Index(const std::string& path);
  ~Index();
  Index(const Index&) = delete;
  Index& operator=(const Index&) = delete;

  Rules rules() const { return rules_; }
  uint64_t games() const { return games_; }
  int max_ply() const { return max_ply_; }
  int year_min() const { return year_min_; }
  int year_max() const { return year_max_; }
  std::span<const Entry> entries() const { return {entries_, count_}; }
  // The entries of one position (empty when it was never reached).
  std::span<const Entry> find(uint64_t key) const;
  // Every move played from `pos`, most played first (ties by hole).
  std::vector<MoveStats> query(const Position& pos, const Filter& filter = {}) const;

 private:
  void* map_ = nullptr;
  size_t size_ = 0;
  const Entry* entries_ = nullptr;
  size_t count_ = 0;
  Rules rules_;
  uint64_t games_ = 0;
  int max_ply_ = 0, year_min_ = 0, year_max_ = 0;
};

}  // namespace toguz::explorer
