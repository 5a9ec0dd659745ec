// The engine job format (docs/cluster.md "Jobs"): what a server instance puts on the queue
// and what a worker sends back. Plain data and its JSON; running a job is the worker's part.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rules/game.h"

namespace toguz::bus {

// A job or result that cannot be read; the message names the field and what was expected.
class JobError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class JobKind { Move, Hint, Analysis, Review };
const char* job_kind_name(JobKind k);  // "move", "hint", "analysis", "review"

// What a search may use. Zero / absent: no limit of that kind.
struct JobLimits {
  int level = 20;  // engine strength 1..20 (search::Options::skill), for moves
  int movetime_ms = 0;
  int depth = 0;
  uint64_t nodes = 0;         // a review: per position
  int time_ms[2] = {-1, -1};  // clocks left for White and Black (-1: none), for moves
  int inc_ms[2] = {0, 0};
};

struct Job {
  std::string id;  // unique among the submitter's jobs; the results carry it
  JobKind kind = JobKind::Move;
  // The staleness key: a result for a game that has since reached another generation (the
  // server's counter for the game: its ply, or a counter bumped by takebacks too) is dropped.
  std::string game;
  uint64_t generation = 0;
  std::string reply;  // the result stream of the submitter
  // The game: rules, start ("startpos" or a position string, docs/rules.md) and the holes
  // played from it (the history counts for repetition).
  std::string variant = "standard";
  int tuz = -1;  // 1 / 0: tuz allowed or not; -1: the variant's default
  bool play_out = false;
  std::string start = "startpos";
  std::vector<int> moves;
  JobLimits limits;
  int multipv = 1;      // analysis: lines, 1..5
  bool stream = false;  // analysis, review: also post results while running (done false)
  uint64_t seed = 0;    // moves below level 20: the choice among near-best moves
  // Wall clock (ms since the epoch) after which the job is not started; 0: never.
  int64_t expires_ms = 0;
};

// The job as one JSON object; parse_job reads it back. parse_job throws JobError for a missing
// or mistyped field or a value out of range ("job: multipv: expected an integer 1..5").
std::string job_json(const Job& job);
Job parse_job(std::string_view text);
// The id, kind, game, generation and reply of a job that parse_job refused, when they can be
// read, so that the submitter can be told; false when there is no id or reply to answer.
bool parse_job_envelope(std::string_view text, Job* out);
// The game of the job, replayed; throws JobError naming the bad field or move
// ("job: moves[3]: hole 4: the hole is empty").
Game job_game(const Job& job);

// What every result carries (the rest is per kind: docs/cluster.md).
struct ResultHeader {
  std::string job;
  JobKind kind = JobKind::Move;
  std::string game;
  uint64_t generation = 0;
  bool done = true;   // false: a streamed partial result, more follow
  std::string error;  // set when the job could not be run
  std::string worker;
};
ResultHeader parse_result_header(std::string_view text);  // throws JobError
// The first members of a result object, without the closing brace: a runner appends its
// members and "}".
std::string result_prefix(const Job& job, bool done, const std::string& worker);

// True when a result no longer applies: another game or another generation than `generation`,
// the game's generation now.
bool is_stale(const ResultHeader& r, std::string_view game, uint64_t generation);

}  // namespace toguz::bus
