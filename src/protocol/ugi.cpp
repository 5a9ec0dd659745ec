#include "protocol/ugi.h"

#include <algorithm>
#include <charconv>
#include <istream>
#include <ostream>
#include <sstream>

#include "rules/text.h"
#include "search/wdl.h"

namespace toguz::protocol {

namespace {

enum class IntCheck { Ok, NotInteger, OutOfRange };

// A whole-token integer in [lo, hi]. An integer too large for 64 bits is out of range too.
IntCheck check_int(const std::string& s, long long lo, long long hi, long long* out) {
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (p != s.data() + s.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
    return IntCheck::NotInteger;
  if (ec == std::errc::result_out_of_range || v < lo || v > hi) return IntCheck::OutOfRange;
  *out = v;
  return IntCheck::Ok;
}

bool parse_int(const std::string& s, long long lo, long long hi, long long* out) {
  return check_int(s, lo, hi, out) == IntCheck::Ok;
}

// Why `value` was refused: "value 'x' is not an integer in lo..hi" or "value '99999' is out
// of range lo..hi".
std::string int_error(const std::string& value, IntCheck c, long long lo, long long hi) {
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  return "value '" + value + "' " +
         (c == IntCheck::OutOfRange ? "is out of range " : "is not an integer in ") + range;
}

constexpr long long kMaxHashMb = 4096;
constexpr long long kMaxThreads = 256;
constexpr long long kMaxMultiPv = 9;
constexpr long long kMaxSeed = 2147483647;
// The search time of a `go` that sets no bound (no usable depth, nodes, movetime or clock of
// the side to move): long enough for a sound move, short enough that a client waiting for
// bestmove notices nothing wrong.
constexpr int kDefaultMoveMs = 1000;

}  // namespace

std::string format_score(const search::Score& s) {
  // A table result is as certain as a proven one: GUIs show "mate" as a known result.
  std::string text;
  if ((s.proven || s.table) && s.result > 0)
    text = "score mate " + std::to_string(s.plies);
  else if ((s.proven || s.table) && s.result < 0)
    text = "score mate -" + std::to_string(s.plies);
  else
    text = "score cp " + std::to_string(s.proven ? 0 : s.cp);
  // Win chances for the side to move, permille (search/wdl.h): certain for a known result.
  const search::Wdl w = search::wdl_of(s);
  return text + " wdl " + std::to_string(w.win) + " " + std::to_string(w.draw) + " " +
         std::to_string(w.loss);
}

std::string format_info(const search::Info& info) {
  std::string line = "info depth " + std::to_string(info.depth) + " seldepth " +
                     std::to_string(info.seldepth) + " multipv " + std::to_string(info.multipv) +
                     " " + format_score(info.score) + " nodes " + std::to_string(info.nodes) +
                     " nps " + std::to_string(info.nps) + " time " + std::to_string(info.time_ms);
  if (!info.pv.empty()) {
    line += " pv";
    for (int h : info.pv) {
      line += ' ';  // appended in two steps: `" " + std::string` trips GCC 12's -Wrestrict
      line += std::to_string(h);
    }
  }
  return line;
}

UgiSession::UgiSession(std::istream& in, std::ostream& out) : in_(in), out_(out) {
  // A tied input stream flushes its output before each read, outside send()'s lock, while the
  // search thread may be writing (std::cin is tied to std::cout): that race duplicated lines.
  // send() flushes every line itself.
  in_.tie(nullptr);
  engine_.set_options(options_);
}

UgiSession::~UgiSession() {
  engine_.stop();
  engine_.wait();
}

void UgiSession::send(const std::string& line) {
  std::lock_guard<std::mutex> lock(out_mutex_);
  out_ << line << '\n';
  out_.flush();
}

void UgiSession::run() {
  std::string line;
  while (std::getline(in_, line)) {
    if (!handle(line)) break;
  }
  if (infinite_) engine_.stop();
  engine_.wait();
}

// A finite search ends by its own limits: the command waits for its bestmove (scripts may
// send the next commands at once). A "go infinite" only ends on stop, so the command is
// refused instead of blocking the session.
bool UgiSession::busy(std::string_view command) {
  if (awaiting_bestmove_ && infinite_) {
    error(std::string(command) + " ignored: an infinite search is running (send stop first)");
    return true;
  }
  engine_.wait();
  return false;
}

bool UgiSession::handle(std::string_view line) {
  const std::vector<std::string> t = split_words(line);
  if (t.empty()) return true;
  const std::string& cmd = t[0];
  if (cmd == "quit") {
    engine_.stop();
    engine_.wait();
    return false;
  }
  if (cmd == "isready")
    send("readyok");
  else if (cmd == "ugi")
    cmd_ugi();
  else if (cmd == "stop")
    cmd_stop();
  else if (cmd == "query")
    cmd_query(t);
  else if (cmd == "setoption") {
    if (!busy(cmd)) cmd_setoption(t);
  } else if (cmd == "uginewgame") {
    if (!busy(cmd)) {
      engine_.new_game();
      reset_to_start();
    }
  } else if (cmd == "position") {
    if (!busy(cmd)) cmd_position(t);
  } else if (cmd == "go") {
    if (!busy(cmd)) cmd_go(t);
  } else
    error("unknown command: " + std::string(line.substr(0, 80)));
  return true;
}

void UgiSession::set_tables_opener(TablesOpener opener) {
  tables_opener_ = std::move(opener);
  std::string why;
  options_.tables = tables_opener_ ? tables_opener_("", &why) : nullptr;
  engine_.set_options(options_);
}

void UgiSession::cmd_ugi() {
  send(std::string("id name toguz ") + TOGUZ_VERSION);
  send("id author the toguz developers");
  send("option name Hash type spin default 16 min 1 max " + std::to_string(kMaxHashMb));
  send("option name Threads type spin default 1 min 1 max " + std::to_string(kMaxThreads));
  send("option name MultiPV type spin default 1 min 1 max " + std::to_string(kMaxMultiPv));
  send("option name Skill type spin default 20 min 1 max 20");
  send("option name Seed type spin default 0 min 0 max " + std::to_string(kMaxSeed));
  send("option name Variant type combo default standard var standard var kozdatu var bestemshi");
  send("option name Tuz type combo default auto var auto var on var off");
  send("option name PlayOut type check default false");
  send(std::string("option name Eval type combo default ") +
       search::eval_kind_name(search::kDefaultEval) + " var classic var nnue");
  if (tables_opener_) send("option name TablesDir type string default <empty>");
  send("ugiok");
}

// setoption name <name> [value <value>]; names are case-insensitive.
void UgiSession::cmd_setoption(const std::vector<std::string>& t) {
  if (t.size() < 3 || t[1] != "name")
    return error("setoption: expected 'setoption name <name> value <value>'");
  std::string name, value;
  size_t i = 2;
  for (; i < t.size() && t[i] != "value"; ++i) name += (name.empty() ? "" : " ") + t[i];
  if (i < t.size()) ++i;
  for (; i < t.size(); ++i) value += (value.empty() ? "" : " ") + t[i];
  const std::string key = lower(name);
  const std::string val = lower(value);
  long long v = 0;
  auto spin = [&](long long lo, long long hi) {
    const IntCheck c = check_int(value, lo, hi, &v);
    if (c == IntCheck::Ok) return true;
    error("setoption " + name + ": " + int_error(value, c, lo, hi));
    return false;
  };
  if (key == "hash") {
    if (spin(1, kMaxHashMb)) options_.hash_mb = int(v);
  } else if (key == "threads") {
    if (spin(1, kMaxThreads)) options_.threads = int(v);
  } else if (key == "multipv") {
    if (spin(1, kMaxMultiPv)) options_.multipv = int(v);
  } else if (key == "skill") {
    if (spin(1, 20)) options_.skill = int(v);
  } else if (key == "seed") {
    if (spin(0, kMaxSeed)) options_.seed = uint64_t(v);
  } else if (key == "variant") {
    Variant var;
    if (!parse_variant(val, &var))
      return error("setoption Variant: '" + value + "' is not standard, kozdatu or bestemshi");
    variant_ = var;
    variant_set_ = true;
    reset_to_start();
  } else if (key == "tuz") {
    std::string tv = val == "true" ? "on" : val == "false" ? "off" : val;
    if (tv != "auto" && tv != "on" && tv != "off")
      return error("setoption Tuz: '" + value + "' is not auto, on or off");
    tuz_ = tv;
    reset_to_start();
  } else if (key == "playout") {
    if (val != "true" && val != "false")
      return error("setoption PlayOut: '" + value + "' is not true or false");
    play_out_ = val == "true";
    reset_to_start();
  } else if (key == "eval") {
    if (!search::parse_eval_kind(val, &options_.eval))
      return error("setoption Eval: '" + value + "' is not classic or nnue");
  } else if (key == "tablesdir" && tables_opener_) {
    if (value.empty() || val == "<empty>") {
      std::string why;
      options_.tables = tables_opener_("", &why);
    } else {
      std::string why;
      auto probe = tables_opener_(value, &why);
      if (!probe) return error("setoption TablesDir: " + why);
      options_.tables = std::move(probe);
    }
  } else {
    return error("setoption: unknown option '" + name + "'");
  }
  engine_.set_options(options_);
}

RuleOptions UgiSession::rule_options() const {
  RuleOptions o;
  if (variant_set_) o.variant = variant_;
  if (tuz_ != "auto") o.tuz = tuz_ == "on";
  o.play_out = play_out_;
  return o;
}

void UgiSession::reset_to_start() {
  game_ = Game(Position::start(rule_options().resolve()));
  has_position_ = true;
}

// A refused position command leaves no position: answering for the one before it would let a
// runner that misses the error play on in a game the engine no longer follows.
void UgiSession::refuse_position(const std::string& why) {
  has_position_ = false;
  error(why + " (no position until a valid position command)");
}

void UgiSession::cmd_position(const std::vector<std::string>& t) {
  if (t.size() < 2)
    return refuse_position("position: expected 'startpos' or 'fen <position string>'");
  size_t i = 1;
  Position start;
  if (t[1] == "startpos") {
    start = Position::start(rule_options().resolve());
    i = 2;
  } else if (t[1] == "fen") {
    std::string text;
    for (i = 2; i < t.size() && t[i] != "moves"; ++i) text += (text.empty() ? "" : " ") + t[i];
    if (text.empty()) return refuse_position("position fen: the position string is missing");
    try {
      start = parse_position(text, rule_options());
    } catch (const ParseError& e) {
      return refuse_position(std::string("position fen: ") + e.what());
    }
  } else {
    return refuse_position("position: expected 'startpos' or 'fen', got '" + t[1] + "'");
  }
  if (i < t.size() && t[i] != "moves")
    return refuse_position("position: expected 'moves', got '" + t[i] + "'");
  Game game(start);
  for (size_t j = i + 1; j < t.size(); ++j) {
    long long hole = 0;
    std::string why;
    if (!parse_int(t[j], 1, start.n(), &hole))
      why = "not a hole number 1.." + std::to_string(start.n());
    else
      game.play(int(hole), &why);
    if (!why.empty())
      return refuse_position("position: move " + std::to_string(j - i) + " '" + t[j] + "': " + why);
  }
  game_ = std::move(game);
  has_position_ = true;
}

void UgiSession::cmd_go(const std::vector<std::string>& t) {
  if (!has_position_) {
    error("go: no position (the last position command was refused); no move");
    send("bestmove 0000");
    return;
  }
  search::Limits limits;
  const Side us = game_.position().side_to_move();
  // Why the limits given set no bound (reported when nothing else bounds the search).
  std::vector<std::string> unusable;
  for (size_t i = 1; i < t.size(); ++i) {
    const std::string& k = t[i];
    if (k == "infinite") {
      limits.infinite = true;
      continue;
    }
    const bool known = k == "p1time" || k == "p2time" || k == "p1inc" || k == "p2inc" ||
                       k == "movetime" || k == "depth" || k == "nodes";
    if (!known) {
      error("go: unknown parameter '" + k + "' ignored");
      continue;
    }
    long long v = 0;
    const long long hi = k == "nodes" ? (1ll << 62) : k == "depth" ? 1000 : (1ll << 31) - 1;
    // A clock may already be negative when a front end is late; it is read as "no time".
    const long long lo = (k == "p1time" || k == "p2time") ? -(1ll << 31) : 0;
    if (i + 1 >= t.size()) {
      error("go: '" + k + "' needs an integer value");
      unusable.push_back("'" + k + "' has no value");
      continue;
    }
    const IntCheck c = check_int(t[i + 1], lo, hi, &v);
    if (c != IntCheck::Ok) {
      if (c == IntCheck::OutOfRange)
        error("go: '" + k + "' " + int_error(t[i + 1], c, lo, hi));
      else
        error("go: '" + k + "' needs an integer value, got '" + t[i + 1] + "'");
      unusable.push_back("'" + k + " " + t[i + 1].substr(0, 24) + "' was refused");
      if (t[i + 1] != "infinite") ++i;
      continue;
    }
    ++i;
    if (v == 0 && (k == "movetime" || k == "depth" || k == "nodes"))
      unusable.push_back("'" + k + " 0' is no limit");
    if (k == "p1time")
      limits.time_ms[0] = int(std::max(0ll, v));
    else if (k == "p2time")
      limits.time_ms[1] = int(std::max(0ll, v));
    else if (k == "p1inc")
      limits.inc_ms[0] = int(v);
    else if (k == "p2inc")
      limits.inc_ms[1] = int(v);
    else if (k == "movetime")
      limits.movetime_ms = int(v);
    else if (k == "depth")
      limits.depth = int(v);
    else if (k == "nodes")
      limits.nodes = uint64_t(v);
  }
  if (game_.over()) {
    error("go: the game is over (" + std::string(end_reason_name(game_.end_reason())) + ", " +
          std::string(result_text(game_.result())) + "); no move");
    send("bestmove 0000");
    return;
  }
  const std::string own = us == Side::White ? "p1time" : "p2time";
  const bool bounded = limits.depth > 0 || limits.nodes > 0 || limits.movetime_ms > 0 ||
                       limits.time_ms[index(us)] >= 0;
  if (!limits.infinite && !bounded) {
    // Only "go infinite" waits for stop: a client that never sends one must still get a move.
    if (limits.time_ms[index(opposite(us))] >= 0)
      unusable.push_back("only the opponent's clock was given (" + own + " is the side to move's)");
    if (unusable.empty()) unusable.push_back("none was given");
    std::string why;
    for (const std::string& u : unusable) why += (why.empty() ? "" : ", ") + u;
    send("info string go: no usable limit (" + why + "); searching " +
         std::to_string(kDefaultMoveMs) + " ms ('go infinite' searches until stop)");
    limits.movetime_ms = kDefaultMoveMs;
  }
  infinite_ = limits.infinite;
  awaiting_bestmove_ = true;
  engine_.set_position(game_);
  engine_.go(
      limits, [this](const search::Info& info) { send(format_info(info)); },
      [this](const search::SearchResult& r) {
        send("bestmove " + (r.best_move ? std::to_string(r.best_move) : std::string("0000")));
        awaiting_bestmove_ = false;
      });
}

void UgiSession::cmd_stop() {
  engine_.stop();
  engine_.wait();  // the bestmove is out before the next command is read
}

void UgiSession::cmd_query(const std::vector<std::string>& t) {
  if (t.size() != 2) return error("query: expected 'query gameover|p1turn|result'");
  const bool known = t[1] == "gameover" || t[1] == "p1turn" || t[1] == "result";
  if (known && !has_position_) {
    // Still a response, so that a runner waiting for one goes on; "gameover true" ends its
    // game instead of playing on from a position the engine does not have.
    error("query " + t[1] + ": no position (the last position command was refused)");
    return send(t[1] == "gameover" ? "response true" : "response none");
  }
  if (t[1] == "gameover") {
    send(std::string("response ") + (game_.over() ? "true" : "false"));
  } else if (t[1] == "p1turn") {
    send(std::string("response ") +
         (game_.position().side_to_move() == Side::White ? "true" : "false"));
  } else if (t[1] == "result") {
    const Result r = game_.result();
    send(std::string("response ") + (r == Result::WhiteWins   ? "p1win"
                                     : r == Result::BlackWins ? "p2win"
                                     : r == Result::Draw      ? "draw"
                                                              : "none"));
  } else {
    error("query: unknown query '" + t[1] + "' (gameover, p1turn, result)");
  }
}

}  // namespace toguz::protocol
