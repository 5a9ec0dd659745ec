// Running one engine job of the queue (bus/job.h) on an engine: what `toguz worker` does with
// each job it takes. The results' shapes are in docs/cluster.md.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "bus/job.h"
#include "search/engine.h"

namespace toguz::cli {

using PostResult = std::function<void(const std::string& result)>;

enum class JobOutcome { Done, Failed, Cancelled };

// Runs `job` on `engine` and posts its results: the partial ones (done false) when the job
// streams, then the final one. Cancelled (no final result) when `cancel` was set before the
// end. A job that cannot be run (a bad start or move) gets an error result: Failed, with the
// reason in *error.
JobOutcome run_job(search::Engine& engine, const bus::Job& job, const std::string& worker,
                   const PostResult& post, const std::atomic<bool>& cancel, std::string* error);

// The final result of a job that could not be run: {..., "done":true, "error":why}.
std::string error_result(const bus::Job& job, const std::string& worker, const std::string& why);

}  // namespace toguz::cli
