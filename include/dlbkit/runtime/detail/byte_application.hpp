#pragma once
/// \file
/// The engines' side of the runtime: an application as the engines see it, tasks and
/// results as bytes. Not for programs that use dlbkit::Runtime (runtime/runtime.hpp).

#include <dlbkit/runtime/detail/worker_port.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace dlbkit::detail {

/// The engine-facing, type-erased application: tasks and results as bytes. Users derive
/// from Application<Task, Result>. One object serves one run: the engine calls prepare()
/// first, then execute() from several threads at once, each with its own worker's port.
class ByteApplication {
public:
  virtual ~ByteApplication() = default;
  /// The length of every task; 0 when tasks are serialised, each of its own length.
  virtual std::size_t task_bytes() const = 0;
  /// The length of a partial result; 0 when results are serialised: the engines leave
  /// RuntimeResult::result empty then, and dlbkit::Runtime combines the typed partials.
  virtual std::size_t result_bytes() const = 0;
  /// Before a run of `workers` workers: every worker's partial result is reset.
  virtual void prepare(std::size_t workers) = 0;
  /// Pushes the tasks worker `worker` of `workers` starts with onto `stack`.
  virtual void push_roots(NodeId worker, std::size_t workers, TaskStack& stack) const = 0;
  /// Executes the task whose bytes are `task` on the port's worker.
  virtual void execute_bytes(std::span<const std::byte> task, WorkerPort& port) = 0;
  /// The partial result of `worker`, as result_bytes() bytes.
  virtual std::vector<std::byte> partial(NodeId worker) const = 0;
  /// into = combine(into, other), both result_bytes() bytes.
  virtual void combine_bytes(std::byte* into, const std::byte* other) const = 0;
  /// The bound a run starts from (minimum results); the largest int64 when none.
  virtual std::int64_t initial_bound() const { return std::numeric_limits<std::int64_t>::max(); }
};

}  // namespace dlbkit::detail
