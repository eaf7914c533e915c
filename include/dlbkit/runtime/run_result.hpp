#pragma once
/// \file
/// What a run reports besides its result: elapsed time, every worker's figures, the
/// messages by kind and warnings (dlbkit::Runtime::last_run()), and the exception a task's
/// failure comes out as under MPI.

#include <dlbkit/core/time.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

namespace dlbkit {

struct WorkerStats {
  SimTime busy = 0;  ///< time holding tasks (executing them, and the strategy's work meanwhile)
  SimTime idle = 0;  ///< time without a task
  SimTime cpu = 0;   ///< processor time the worker's thread (or rank) used: busy and idle spinning
  SimTime idle_cpu = 0;  ///< the part of cpu used while idle (asking for work, waiting for it)
  std::uint64_t tasks_executed = 0;
  std::uint64_t tasks_sent = 0;
  std::uint64_t tasks_received = 0;
  std::uint64_t messages_sent = 0;  ///< strategy messages and task transfers
  std::uint64_t splits = 0;         ///< times an executing task split its work on demand
};

struct RuntimeResult {
  std::string engine;                        ///< "sequential", "threads" or "mpi"
  double elapsed_seconds = 0;                ///< from the first task to termination
  std::vector<WorkerStats> workers;
  std::vector<std::string> message_kinds;    ///< the strategy's, then "task_transfer"
  std::vector<std::uint64_t> messages_by_kind;
  std::vector<std::byte> result;             ///< the combined result, result_bytes() bytes
  /// Settings that made the run balance badly, for people: start_warnings(), and "no task
  /// moved" when the strategy moved nothing while a worker executed nothing.
  std::vector<std::string> warnings;

  std::uint64_t tasks_executed() const;
  std::uint64_t tasks_moved() const;
  std::uint64_t messages() const;
};

/// A task threw: the run stopped on every worker (and every rank). The threads engine
/// rethrows the task's own exception; the MPI engine throws this on every rank, naming the
/// rank where the task threw, with the original exception as cause() on that rank (an
/// InputError, bad input, is thrown as an InputError on every rank instead).
class TaskFailure : public std::runtime_error {
public:
  TaskFailure(int rank, const std::string& what, std::exception_ptr cause = nullptr);
  int rank() const { return rank_; }
  /// The exception the task threw, on the rank where it was thrown; null elsewhere.
  std::exception_ptr cause() const { return cause_; }

private:
  int rank_;
  std::exception_ptr cause_;
};

}  // namespace dlbkit
