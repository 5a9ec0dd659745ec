// UGI (Universal Game Interface, UCI-shaped) over the Engine API. Reads commands from an
// istream, writes answers to an ostream; search output arrives from the engine's thread, so
// every write takes a lock. `toguz ugi` runs it on stdin/stdout; tests drive it in-process.
//
// Commands (one per line; see docs/ugi.md for the full description):
//   ugi                      -> id name / id author / option ... lines, ugiok
//   isready                  -> readyok (answered at once, also while searching)
//   setoption name X value Y -> Hash, Threads, MultiPV, Skill, Seed, Variant, Tuz, PlayOut
//   uginewgame               -> clears the hash table; the position becomes the start
//   position startpos|fen <position string> [moves <hole> ...]
//   go [p1time MS] [p2time MS] [p1inc MS] [p2inc MS] [movetime MS] [depth D] [nodes N] [infinite]
//                            -> info ... lines, then bestmove <hole>; without a usable limit
//                               (none, depth/movetime/nodes 0, only the opponent's clock, a
//                               refused value) an info string says so and it searches 1 s;
//                               only "go infinite" searches until stop
//   stop, quit
//   query gameover|p1turn|result -> response true|false, response p1win|p2win|draw|none
// Errors: every unknown or malformed command gets "info string error <what>" and changes
// nothing else, except a refused position command (a bad position string, an illegal move):
// it leaves no position until a valid position, uginewgame or rules option. Without one, go
// answers an error and "bestmove 0000", the queries an error and "response true" (gameover)
// or "response none". `go` when the game is over answers "info string error ..." and
// "bestmove 0000". While a finite search runs, commands other than isready, stop, quit and
// query wait for its bestmove; during "go infinite" they are refused with an error.
#pragma once

#include <atomic>
#include <functional>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "rules/game.h"
#include "rules/notation.h"
#include "search/engine.h"

namespace toguz::protocol {

// "score cp 35", "score mate 7", "score mate -4", "score cp 0 wdl 0 1000 0" (a proven draw).
// Mate plies: to the end of the game when proven, to the tables' position for a table result.
std::string format_score(const search::Score& score);
// One "info depth .. seldepth .. multipv .. score .. nodes .. nps .. time .. pv .." line.
std::string format_info(const search::Info& info);

class UgiSession {
 public:
  UgiSession(std::istream& in, std::ostream& out);
  ~UgiSession();
  UgiSession(const UgiSession&) = delete;
  UgiSession& operator=(const UgiSession&) = delete;

  // Reads and handles commands until "quit" or the end of the input. At the end of the
  // input a running "go infinite" is stopped and a finite search is let finish; either way
  // its bestmove is written before run() returns.
  void run();
  // Handles one command line. Returns false for "quit".
  bool handle(std::string_view line);

  // Opens a folder of endgame tables for the search (null and *why on
  // failure). When set, the session offers "option name TablesDir type string" and hands the
  // tables to the engine (Options::tables); an empty value turns them off. The opener called
  // with no folder ("") gives the probe the engine has without tables (e.g. the exact solver
  // alone; may be null): the session uses it from the start and after an empty value. The
  // protocol does not depend on src/tables: the front end (toguz ugi) supplies this.
  using TablesOpener = std::function<std::shared_ptr<const search::TableProbe>(
      const std::string& dir, std::string* why)>;
  void set_tables_opener(TablesOpener opener);

 private:
  void send(const std::string& line);
  void error(const std::string& what) { send("info string error " + what); }
  bool busy(
      std::string_view command);  // waits for a finite search; true (and says so) during infinite

  void cmd_ugi();
  void cmd_setoption(const std::vector<std::string>& t);
  void cmd_position(const std::vector<std::string>& t);
  void cmd_go(const std::vector<std::string>& t);
  void cmd_query(const std::vector<std::string>& t);
  void cmd_stop();
  RuleOptions rule_options() const;
  void reset_to_start();
  void refuse_position(const std::string& why);

  std::istream& in_;
  std::ostream& out_;
  std::mutex out_mutex_;
  search::Engine engine_;
  search::Options options_;
  bool variant_set_ = false;  // Variant was given: position strings must have its length
  Variant variant_ = Variant::Standard;
  std::string tuz_ = "auto";  // auto, on, off
  bool play_out_ = false;
  TablesOpener tables_opener_;
  Game game_;
  bool has_position_ = true;  // false after a refused position command
  std::atomic<bool> awaiting_bestmove_{false};
  bool infinite_ = false;
};

}  // namespace toguz::protocol
