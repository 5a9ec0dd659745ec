// The learning pages' read-only API (docs/web-protocol.md "Puzzles, studies and the opening
// explorer"): puzzles from a `toguz puzzles build` file, the classic studies with their proven
// or engine lines, and the opening explorer over a `toguz explorer build` index. Everything is
// loaded at start and answered from memory (the index is memory-mapped); no request searches.
// Independent of the HTTP layer: the router hands it a method and a target and sends back the
// status and JSON body it returns.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "accounts/glicko2.h"
#include "puzzles/puzzles.h"
#include "rules/position.h"

namespace toguz::explorer {
class Index;
}

namespace toguz::site {

// A data file that does not load: the message names the file, the line and what was expected.
class LearnDataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LearnOptions {
  std::string puzzles_path;   // JSON lines of `toguz puzzles build`; "" = no puzzles
  std::string studies_path;   // web/data/studies.json (docs/puzzles.md "Studies"); "" = none
  std::string explorer_path;  // an index of `toguz explorer build`; "" = no explorer
  uint64_t seed = 0;          // of the random pick of /api/puzzles/next; 0 = from the clock
  // Puzzles mined on this site (puzzle_miner.h), read after puzzles_path when the file exists;
  // a line that does not read (a write cut short) is skipped. "" = none.
  std::string mined_path;
};

struct LearnReply {
  int status = 200;
  std::string body;  // JSON
};

// What the store knows of the puzzle ratings (docs/ratings.md "Puzzle ratings"), asked while a
// puzzle request is answered: the server implements it over its store and the viewer's account,
// so that this service keeps no store. Called on the thread that calls handle().
class PuzzleRatingSource {
 public:
  virtual ~PuzzleRatingSource() = default;
  virtual bool signed_in() = 0;
  // The viewer's puzzle rating as shown now; nullopt when never rated (or anonymous).
  virtual std::optional<accounts::Rating> player() = 0;
  // A puzzle's stored rating; nullopt when nobody attempted it rated.
  virtual std::optional<accounts::Rating> puzzle(const std::string& id) = 0;
  virtual std::map<std::string, accounts::Rating> puzzles() = 0;  // every rated one, by id
  virtual std::set<std::string> attempted() = 0;  // the viewer's rated attempts' puzzle ids
  // The server picked puzzle `id` for the viewer (/api/puzzles/next): an attempt at it may be
  // rated. Only a puzzle served so is (docs/accounts.md "Fair play").
  virtual void served(const std::string& id) = 0;
  virtual bool was_served(const std::string& id) = 0;
};

// How an attempt's moves (every ply played on the board, the forced replies included) compare
// with a puzzle's stored line: the whole line (Solved); a start of it, possibly ending in
// another legal move at one of the solver's turns (Missed: a wrong move or a give-up); else
// Invalid, with *why naming the ply ("ply 2: not the puzzle's reply").
enum class AttemptVerdict { Solved, Missed, Invalid };
AttemptVerdict judge_attempt(const puzzles::Puzzle& p, const std::vector<int>& moves,
                             std::string* why);

// A puzzle's rating before anybody attempted it: from its difficulty (1..10), 1200 to 2100, at
// the deviation of a new player, so that the first attempts place it.
accounts::Rating puzzle_start_rating(int difficulty);
// The rating of a new solver (the start of every Glicko-2 rating).
inline accounts::Rating player_start_rating() {
  return {};
}
// {"rating" (rounded),"rd","provisional","attempts"}
boost::json::object rating_json(const accounts::Rating& r);

class LearnService {
 public:
  // Loads every file named in `options`; throws LearnDataError naming the file (and line) of
  // the first that does not load.
  explicit LearnService(const LearnOptions& options);
  ~LearnService();
  LearnService(const LearnService&) = delete;
  LearnService& operator=(const LearnService&) = delete;

  // The learning pages' answers, one for each route (learn_site.h adds them to the route
  // table). `ratings` (none: every puzzle at its start rating, the viewer anonymous) gives the
  // puzzles' and the viewer's ratings: the summary's `rated`, each puzzle's `rating`, and for a
  // signed-in viewer the next puzzle near the viewer's rating. `query` is a request's query
  // string. Safe to call from several threads at once.
  LearnReply summary(PuzzleRatingSource* ratings = nullptr) const;  // GET /api/puzzles
  LearnReply next(std::string_view query,
                  PuzzleRatingSource* ratings = nullptr) const;  // GET /api/puzzles/next
  LearnReply puzzle_of(const std::string& id,
                       PuzzleRatingSource* ratings = nullptr) const;  // GET /api/puzzles/:id
  // GET /api/studies (`rest` empty) and /api/studies/<rest> (a study, its line).
  LearnReply studies(std::string_view rest) const;
  LearnReply explorer_moves(std::string_view query) const;  // GET /api/explorer
  // The difficulty of the puzzle with this id (its `key` in hex), nullopt when none.
  std::optional<int> puzzle_difficulty(const std::string& id) const;
  // The puzzle with this id, nullopt when none.
  std::optional<puzzles::Puzzle> puzzle(const std::string& id) const;

  size_t puzzle_count() const;
  // Adds a puzzle to the served set (from any thread); false for a duplicate of one served
  // (puzzles::Deduper) or a line that is not legal from its position.
  bool add_puzzle(puzzles::Puzzle p);
  size_t mined_lines_skipped() const { return mined_skipped_; }
  size_t study_count() const { return studies_.size(); }
  bool has_explorer() const { return explorer_ != nullptr; }
  const explorer::Index* explorer() const { return explorer_.get(); }

  struct Study {
    int number = 0;
    std::string position;
    std::string task;           // what White is to achieve: "win" or "draw" (the book's claim)
    std::string proven;         // "" when not proven, else "win" / "draw" / "loss" for White
    std::optional<int> margin;  // the proven final margin, when proven with it
    uint64_t nodes = 0;         // the proof's nodes
    std::vector<int> line;      // the proven line, or the engine's line when not proven
    int engine_cp = 0;          // the engine's score (unproven studies), for White
    int engine_depth = 0;
  };

 private:
  LearnReply puzzle_reply(const puzzles::Puzzle& p, PuzzleRatingSource* ratings) const;
  LearnReply next_puzzle(std::string_view query, PuzzleRatingSource* ratings) const;
  LearnReply puzzle_summary(PuzzleRatingSource* ratings) const;
  LearnReply studies_reply(std::string_view rest) const;
  LearnReply explorer_reply(std::string_view query) const;

  bool load_puzzle(const std::string& text, const std::string& where, bool tolerant);

  mutable std::mutex puzzles_mutex_;  // puzzles_ and dedup_: add_puzzle runs beside the answers
  std::vector<puzzles::Puzzle> puzzles_;
  puzzles::Deduper dedup_;
  size_t mined_skipped_ = 0;
  std::vector<Study> studies_;
  std::unique_ptr<explorer::Index> explorer_;
  mutable std::mutex rng_mutex_;
  mutable std::mt19937_64 rng_;
};

// The position of an explorer request: `text` (empty: the start) under the rules of `index`
// (null: the standard rules). False and *why (another board size, or the parse error) when it is
// not one.
bool explorer_position(const std::string& text, const explorer::Index* index, Position* out,
                       std::string* why);

// Reads a studies file (the shape of web/data/studies.json); throws LearnDataError naming the
// file and the field.
std::vector<LearnService::Study> read_studies(const std::string& path);

}  // namespace toguz::site
