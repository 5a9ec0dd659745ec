// An external engine speaking UGI over pipes: fork/exec, handshake with a timeout, options,
// one `position ... moves ...` + `go ...` per move. A process that exits or closes its
// output has crashed; one that does not answer by the deadline has hung and is killed.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <sstream>

#include "match/player.h"
#include "rules/notation.h"

namespace toguz::match {

namespace {

using Clock = std::chrono::steady_clock;

int ms_since(Clock::time_point t0) {
  return int(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
}

// Parses the fields of an `info` line that the match reports (depth, score, nodes, time).
// Returns false when the line carries no score.
bool parse_info(const std::string& line, search::Info* info) {
  std::istringstream in(line);
  std::string w;
  in >> w;  // "info"
  bool scored = false;
  while (in >> w) {
    if (w == "depth")
      in >> info->depth;
    else if (w == "seldepth")
      in >> info->seldepth;
    else if (w == "nodes")
      in >> info->nodes;
    else if (w == "time")
      in >> info->time_ms;
    else if (w == "string")
      break;
    else if (w == "score") {
      std::string kind;
      int v = 0;
      if (!(in >> kind >> v)) return false;
      info->score = {};
      if (kind == "cp") {
        info->score.cp = v;
        scored = true;
      } else if (kind == "mate") {
        info->score.proven = true;
        info->score.result = v > 0 ? 1 : v < 0 ? -1 : 0;
        info->score.plies = v < 0 ? -v : v;
        scored = true;
      }
    } else if (w == "pv") {
      info->pv.clear();
      int h;
      while (in >> h) info->pv.push_back(h);
      break;
    }
  }
  return scored;
}

class UgiPlayer : public Player {
 public:
  UgiPlayer(const EngineSpec& spec, const Settings& settings)
      : spec_(spec), handshake_ms_(settings.handshake_ms) {
    // A write to an engine that has exited must fail with EPIPE, not kill the match.
    static std::once_flag once;
    std::call_once(once, [] { signal(SIGPIPE, SIG_IGN); });
    if (pipe2(interrupt_pipe_, O_CLOEXEC | O_NONBLOCK) != 0) interrupt_pipe_[0] = -1;
  }
  ~UgiPlayer() override {
    shutdown();
    close_fd(&interrupt_pipe_[0]);
    close_fd(&interrupt_pipe_[1]);
  }

  void interrupt() override {
    if (interrupt_pipe_[0] < 0) return;
    const char byte = 1;
    ssize_t ignored = ::write(interrupt_pipe_[1], &byte, 1);
    (void)ignored;
  }

  std::string name() const override {
    if (!spec_.name.empty()) return spec_.name;
    if (!id_name_.empty()) return id_name_;
    return spec_.cmd;
  }

  bool start(std::string* why) override {
    if (pid_ > 0) return true;
    if (!spawn(why)) return false;
    std::string line;
    auto t0 = Clock::now();
    if (!send("ugi")) return fail(why, "could not write to the engine");
    for (;;) {
      int left = handshake_ms_ - ms_since(t0);
      int r = read_line(&line, left);
      if (r < 0) return fail(why, "engine exited during the ugi handshake");
      if (r == 0) return fail(why, "no ugiok within " + std::to_string(handshake_ms_) + " ms");
      if (line.rfind("id name ", 0) == 0) id_name_ = line.substr(8);
      if (line == "ugiok") break;
    }
    for (auto& [k, v] : spec_.options)
      if (!send("setoption name " + k + " value " + v)) return fail(why, "engine closed its input");
    return ready(why);
  }

  bool new_game(const Rules& rules, std::string* why) override {
    if (!start(why)) return false;
    if (!(rules == last_rules_)) {
      // Only what differs from the standard game, so engines without these options still work
      // for standard matches.
      if (rules.n != 9 || last_rules_.n != 9)
        send("setoption name Variant value " + std::string(variant_name(rules.variant())));
      if (rules.tuz != (rules.n == 9) || last_rules_.tuz != (last_rules_.n == 9))
        send(std::string("setoption name Tuz value ") + (rules.tuz ? "on" : "off"));
      if (rules.play_out || last_rules_.play_out)
        send(std::string("setoption name PlayOut value ") + (rules.play_out ? "true" : "false"));
      last_rules_ = rules;
    }
    if (!send("uginewgame")) return fail(why, "engine closed its input");
    return ready(why);
  }

  MoveReply think(const Game& game, const MoveRequest& request) override {
    MoveReply reply;
    std::ostringstream cmd;
    cmd << "position ";
    if (game.start() == Position::start(game.rules()))
      cmd << "startpos";
    else
      cmd << "fen " << format_position(game.start());
    if (game.ply_count() > 0) {
      cmd << " moves";
      for (const MoveInfo& m : game.moves()) cmd << ' ' << int(m.hole);
    }
    std::ostringstream go;
    go << "go";
    for (int s = 0; s < 2; ++s)
      if (request.clock_ms[s] >= 0) go << " p" << s + 1 << "time " << request.clock_ms[s];
    for (int s = 0; s < 2; ++s)
      if (request.clock_ms[s] >= 0 && request.inc_ms[s] > 0)
        go << " p" << s + 1 << "inc " << request.inc_ms[s];
    if (request.limits.movetime_ms > 0) go << " movetime " << request.limits.movetime_ms;
    if (request.limits.depth > 0) go << " depth " << request.limits.depth;
    if (request.limits.nodes > 0) go << " nodes " << request.limits.nodes;
    auto t0 = Clock::now();
    if (!send(cmd.str()) || !send(go.str())) {
      reply.status = ReplyStatus::Crashed;
      reply.error = "engine closed its input";
      kill_process();
      return reply;
    }
    std::string line;
    for (;;) {
      int left = request.deadline_ms - ms_since(t0);
      int r = read_line(&line, left);
      reply.elapsed_ms = ms_since(t0);
      if (r < 0) {
        reply.status = ReplyStatus::Crashed;
        reply.error = "engine exited while thinking" + exit_text();
        return reply;
      }
      if (r == 0) {
        reply.status = ReplyStatus::Hung;
        reply.error = "no bestmove within " + std::to_string(request.deadline_ms) + " ms";
        kill_process();
        return reply;
      }
      if (line.rfind("info", 0) == 0) {
        search::Info info;
        if (parse_info(line, &info)) {
          reply.info = info;
          reply.have_info = true;
        }
      } else if (line.rfind("bestmove", 0) == 0) {
        std::istringstream in(line);
        std::string w;
        in >> w >> reply.move_text;
        char* end = nullptr;
        long v = std::strtol(reply.move_text.c_str(), &end, 10);
        reply.move = (!reply.move_text.empty() && *end == 0 && v > 0 && v < 100) ? int(v) : -1;
        return reply;
      }
    }
  }

  void shutdown() override {
    if (pid_ <= 0) return;
    send("quit");
    close_fd(&to_child_);
    // A well-behaved engine exits on quit; give it a moment, then kill it.
    for (int i = 0; i < 50; ++i) {
      int status;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      usleep(10000);
    }
    kill_process();
  }

 private:
  bool fail(std::string* why, const std::string& what) {
    *why = name() + ": " + what;
    kill_process();
    return false;
  }

  bool ready(std::string* why) {
    if (!send("isready")) return fail(why, "engine closed its input");
    auto t0 = Clock::now();
    std::string line;
    for (;;) {
      int r = read_line(&line, handshake_ms_ - ms_since(t0));
      if (r < 0) return fail(why, "engine exited before readyok" + exit_text());
      if (r == 0) return fail(why, "no readyok within " + std::to_string(handshake_ms_) + " ms");
      if (line == "readyok") return true;
    }
  }

  bool spawn(std::string* why) {
    int in_pipe[2], out_pipe[2];
    // Close-on-exec, so engines started by other match threads do not inherit these ends.
    if (pipe2(in_pipe, O_CLOEXEC) != 0) return fail(why, std::string("pipe: ") + strerror(errno));
    if (pipe2(out_pipe, O_CLOEXEC) != 0) {
      ::close(in_pipe[0]);
      ::close(in_pipe[1]);
      return fail(why, std::string("pipe: ") + strerror(errno));
    }
    std::vector<std::string> argv_s{spec_.cmd};
    argv_s.insert(argv_s.end(), spec_.args.begin(), spec_.args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = fork();
    if (pid < 0) return fail(why, std::string("fork: ") + strerror(errno));
    if (pid == 0) {
      // Child: only async-signal-safe calls until exec.
      // Its own process group: a Ctrl-C meant for the match must not kill the engines
      // (the match finishes the games in progress and saves its state).
      setpgid(0, 0);
      dup2(in_pipe[0], 0);
      dup2(out_pipe[1], 1);
      execvp(argv[0], argv.data());
      const char msg[] = "toguz match: exec failed\n";
      ssize_t ignored = write(2, msg, sizeof msg - 1);
      (void)ignored;
      _exit(127);
    }
    ::close(in_pipe[0]);
    ::close(out_pipe[1]);
    pid_ = pid;
    to_child_ = in_pipe[1];
    from_child_ = out_pipe[0];
    buffer_.clear();
    exit_status_ = -1;
    return true;
  }

  bool send(const std::string& line) {
    if (to_child_ < 0) return false;
    std::string s = line + "\n";
    size_t done = 0;
    while (done < s.size()) {
      ssize_t n = ::write(to_child_, s.data() + done, s.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;  // EPIPE: SIGPIPE is ignored by the runner
      done += size_t(n);
    }
    return true;
  }

  // Reads one line (without the line end). 1 = got one, 0 = timed out, -1 = end of output.
  int read_line(std::string* line, int timeout_ms) {
    auto t0 = Clock::now();
    for (;;) {
      auto nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        *line = buffer_.substr(0, nl);
        if (!line->empty() && line->back() == '\r') line->pop_back();
        buffer_.erase(0, nl + 1);
        return 1;
      }
      if (from_child_ < 0) return -1;
      int left = timeout_ms - ms_since(t0);
      if (left <= 0) return 0;
      pollfd pfd[2] = {{from_child_, POLLIN, 0}, {interrupt_pipe_[0], POLLIN, 0}};
      int r = poll(pfd, interrupt_pipe_[0] >= 0 ? 2 : 1, left);
      if (r < 0 && errno == EINTR) continue;
      if (r == 0 || (interrupt_pipe_[0] >= 0 && (pfd[1].revents & POLLIN))) return 0;
      char buf[4096];
      ssize_t n = ::read(from_child_, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        reap();
        return -1;
      }
      buffer_.append(buf, size_t(n));
    }
  }

  // After the output closed: collect the exit status (briefly), then make sure it is gone.
  void reap() {
    for (int i = 0; i < 20 && pid_ > 0; ++i) {
      int status;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exit_status_ = status;
        pid_ = -1;
      } else {
        usleep(5000);
      }
    }
    kill_process();
  }

  std::string exit_text() const {
    if (exit_status_ < 0) return "";
    if (WIFEXITED(exit_status_))
      return " (exit status " + std::to_string(WEXITSTATUS(exit_status_)) + ")";
    if (WIFSIGNALED(exit_status_))
      return " (signal " + std::to_string(WTERMSIG(exit_status_)) + ")";
    return "";
  }

  void kill_process() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      int status;
      waitpid(pid_, &status, 0);
      pid_ = -1;
    }
    close_fd(&to_child_);
    close_fd(&from_child_);
    last_rules_ = Rules{};
  }

  static void close_fd(int* fd) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }

  EngineSpec spec_;
  int handshake_ms_;
  std::string id_name_;
  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  std::string buffer_;
  int exit_status_ = -1;
  Rules last_rules_;
  int interrupt_pipe_[2] = {-1, -1};  // interrupt() writes a byte that read_line sees
};

}  // namespace

std::unique_ptr<Player> make_ugi_player(const EngineSpec& spec, const Settings& settings) {
  return std::make_unique<UgiPlayer>(spec, settings);
}

}  // namespace toguz::match
