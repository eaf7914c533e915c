#pragma once
/// \file
/// The user's side of the runtimes: an application is a task type, the tasks a run starts
/// with, a function that executes one task (it may spawn new tasks and adds to a result),
/// and how two partial results combine. The engines (threads, MPI, sequential) move tasks
/// between workers: a trivially copyable task or result as its bytes, any other through
/// cereal (runtime/serialization.hpp). dlbkit::Runtime (runtime/runtime.hpp) runs an
/// Application, or the same written as lambdas, on any engine and returns its Result.
///
/// ```
/// struct Count { std::uint64_t nodes; };
/// struct Subtree { std::uint32_t depth; };
/// class Tree final : public dlbkit::Application<Subtree, Count> {
///   std::vector<Subtree> roots(dlbkit::NodeId worker, std::size_t) const override {
///     return worker == 0 ? std::vector<Subtree>{{0}} : std::vector<Subtree>{};
///   }
///   void execute(const Subtree& t, dlbkit::TaskContext<Subtree, Count>& ctx) override {
///     ++ctx.result().nodes;
///     if (t.depth < 20) { ctx.spawn({t.depth + 1}); ctx.spawn({t.depth + 1}); }
///   }
///   void combine(Count& into, const Count& other) const override { into.nodes += other.nodes; }
/// };
/// ```
///
/// Results: a sum is a result whose combine adds; a minimum with bound sharing (branch and
/// bound) reads TaskContext::bound() to prune and calls offer_bound() with every better
/// solution, which every worker sees soon after; any other associative and commutative
/// combine is a custom result.
///
/// Long tasks. The worker answers the strategy's messages between tasks; a task that runs
/// longer than about 10 us should call TaskContext::poll() in its inner loop, as often as it
/// likes: a call costs a decrement and a branch, and the worker reads the clock only every
/// few calls (their number adapts so that it looks about every poll_interval / 8). A task
/// whose remaining work can be cut (a range, a search frontier) passes poll() a split
/// function: when a strategy asks this worker for work while its stack is empty (a thief's
/// request, say), the worker calls it inside that poll() call, and it spawns part of what
/// is left as new tasks, which the strategy then moves (X10 GLB's split on demand:
/// Saraswat et al., PPoPP 2011, Sec. 3). Nothing is split when no one asks.
///
/// ```
/// void execute(const Range& r, dlbkit::TaskContext<Range, Sum>& ctx) override {
///   for (auto i = r.begin, end = r.end; i < end; ++i) {
///     ctx.result().value += f(i);
///     ctx.poll([&] {                       // a thief asks: give away the upper half of what is left
///       if (end - i < 2) return;
///       const auto mid = i + 1 + (end - i - 1) / 2;
///       ctx.spawn({mid, end});
///       end = mid;
///     });
///   }
/// }
/// ```

#include <dlbkit/runtime/detail/byte_application.hpp>
#include <dlbkit/runtime/serialization.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

namespace dlbkit {

namespace detail {
template <class Task, class Result, class Base>
class TypedApplication;
}  // namespace detail

/// What an executing task may do: spawn tasks, add to its worker's partial result, share a
/// bound, poll. Only the runtime makes one, for each task it executes.
template <class Task, class Result>
class TaskContext {
public:
  /// A new task for this worker's stack; strategies may move it elsewhere.
  void spawn(const Task& task) {
    if constexpr (travels_as_bytes<Task>) {
      port_.spawn(std::as_bytes(std::span(&task, 1)));
    } else {
      to_bytes(task, port_.scratch());
      port_.spawn(port_.scratch());
    }
  }
  /// This worker's partial result.
  Result& result() { return result_; }
  /// The best bound any worker has offered so far (or a little older: it travels).
  std::int64_t bound() const { return port_.bound(); }
  void offer_bound(std::int64_t value) { port_.offer_bound(value); }
  /// Lets the worker handle messages during a long task; cheap enough for an inner loop.
  void poll() { port_.poll(); }
  /// The same for a task that can give work away: `split()` (called inside this call, only
  /// when a strategy wants work from this worker and its stack is empty) spawns part of the
  /// task's remaining work and shrinks what the task itself will do, or does nothing.
  template <class Split>
  void poll(Split&& split) {
    port_.poll(split);
  }
  /// The same with an estimate of the work the task still holds, in tasks' worth (the
  /// elements of a range, say): the worker's load is then that much, not 1, so that
  /// strategies that weigh loads (sid, gm, hbm, rid, ...) see the work and ask the task to
  /// split, as work stealing does.
  template <class Split>
  void poll(Split&& split, std::uint64_t remaining) {
    port_.set_remaining(remaining);
    port_.poll(split);
  }
  NodeId worker() const { return port_.worker(); }

private:
  template <class, class, class>
  friend class detail::TypedApplication;
  TaskContext(detail::WorkerPort& port, Result& result) : port_(port), result_(result) {}
  detail::WorkerPort& port_;
  Result& result_;
};

namespace detail {

/// An application's typed hooks and the byte interface `Base` (ByteApplication, or
/// AnyApplication for dlbkit's own applications with a report) that the engines call.
template <class Task, class Result, class Base>
class TypedApplication : public Base {
public:
  /// The tasks worker `worker` of `workers` starts with (deterministic: every MPI rank
  /// calls it for itself).
  virtual std::vector<Task> roots(NodeId worker, std::size_t workers) const = 0;
  virtual void execute(const Task& task, TaskContext<Task, Result>& ctx) = 0;
  /// Associative and commutative.
  virtual void combine(Result& into, const Result& other) const = 0;
  virtual Result identity() const { return Result{}; }
  /// The partial result of worker `worker` after a run (under MPI, of this rank's worker).
  const Result& partial_result(NodeId worker) const { return partials_[worker].value; }

  std::size_t task_bytes() const final { return travels_as_bytes<Task> ? sizeof(Task) : 0; }
  std::size_t result_bytes() const final { return travels_as_bytes<Result> ? sizeof(Result) : 0; }
  void prepare(std::size_t workers) final { partials_.assign(workers, Slot{identity()}); }
  void push_roots(NodeId worker, std::size_t workers, TaskStack& stack) const final {
    std::vector<std::byte> bytes;
    for (const Task& t : roots(worker, workers)) {
      to_bytes(t, bytes);
      stack.push(bytes);
    }
  }
  void execute_bytes(std::span<const std::byte> bytes, WorkerPort& port) final {
    const Task task = from_bytes<Task>(bytes);
    TaskContext<Task, Result> ctx(port, partials_[port.worker()].value);
    execute(task, ctx);
  }
  std::vector<std::byte> partial(NodeId worker) const final {
    std::vector<std::byte> out;
    if constexpr (travels_as_bytes<Result>) to_bytes(partials_[worker].value, out);
    return out;
  }
  void combine_bytes(std::byte* into, const std::byte* other) const final {
    if constexpr (travels_as_bytes<Result>) {
      Result a = from_bytes<Result>(std::span(into, sizeof(Result)));
      combine(a, from_bytes<Result>(std::span(other, sizeof(Result))));
      std::memcpy(into, &a, sizeof a);
    }
  }
private:
  struct alignas(64) Slot {  // one cache line each: workers never share one
    Result value;
  };
  std::vector<Slot> partials_;
};

}  // namespace detail

/// Derive from this. Tasks and results that are trivially copyable travel as bytes; any
/// other type travels through cereal (runtime/serialization.hpp).
template <class Task, class Result>
class Application : public detail::TypedApplication<Task, Result, detail::ByteApplication> {};

}  // namespace dlbkit
