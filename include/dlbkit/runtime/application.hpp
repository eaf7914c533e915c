#pragma once
/// \file
/// The user's side of the runtimes: an application is a task type, the tasks a run starts
/// with, a function that executes one task (it may spawn new tasks and adds to a result),
/// and how two partial results combine. The engines (threads, MPI, sequential) move tasks
/// between workers as bytes: a trivially copyable task or result as it is, any other
/// through cereal (runtime/serialization.hpp). dlbkit::Runtime (runtime/runtime.hpp) runs
/// an Application, or the same written as three lambdas, on either engine.
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
///   nlohmann::json report(const Count& c) const override { return {{"nodes", c.nodes}}; }
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

#include <dlbkit/core/time.hpp>
#include <dlbkit/runtime/serialization.hpp>
#include <dlbkit/topology/topology.hpp>

#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <utility>
#include <type_traits>
#include <vector>

namespace dlbkit {

/// One worker's tasks: a stack of byte records (a task and its hop count). Trivially
/// copyable tasks have records of one size (`task_bytes` and the hop count, 8-byte aligned);
/// serialised tasks (task_bytes 0) have records of their own length (a header with the
/// length and the hop count, the bytes, a trailer with the record's length, so the top can
/// be popped). The worker executes from the top (depth first); migrations take from the
/// bottom, the tasks it would execute last. Not thread-safe: it belongs to one worker.
class TaskStack {
public:
  /// `task_bytes` 0: serialised tasks of any length.
  explicit TaskStack(std::size_t task_bytes)
      : bytes_(task_bytes), stride_((task_bytes + sizeof(std::uint32_t) + 7) / 8 * 8) {}

  std::size_t task_bytes() const { return bytes_; }
  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }

  /// Fixed-size tasks: pushes task_bytes() bytes from `task`.
  void push(const void* task, std::uint32_t hops = 0) { push_record(task, bytes_, hops); }
  /// Pushes a task of either kind (a fixed-size one must be task_bytes() long).
  void push(std::span<const std::byte> task) { push_record(task.data(), task.size(), 0); }
  /// Fixed-size tasks: copies the top task to `task` (task_bytes() bytes) and removes it.
  void pop(void* task) {
    top_ -= stride_;
    --count_;
    std::memcpy(task, data_.data() + top_, bytes_);
  }
  /// Copies the top task of either kind to `task` (resized to its length) and removes it.
  void pop(std::vector<std::byte>& task) {
    if (serialised()) return pop_serialised(task);
    task.resize(bytes_);
    pop(task.data());
  }
  /// Moves up to `amount` tasks from the bottom whose hop count is below `max_hops` into
  /// `out` (records of task and incremented hop count), never the top `keep` tasks; tasks
  /// passed over stay, in order. Returns how many moved.
  std::size_t take_bottom(std::size_t amount, std::uint32_t max_hops, std::vector<std::byte>& out,
                          std::size_t keep = 0);
  /// Appends `count` records produced by take_bottom() on the top.
  void push_records(const std::byte* records, std::size_t count);
  /// Fixed-size tasks: the length of one record.
  std::size_t record_bytes() const { return stride_; }

private:
  static constexpr std::size_t kFrame = 8;  // a serialised record's header, and its trailer
  bool serialised() const { return bytes_ == 0; }
  std::size_t length_of(const std::byte* record) const;  // a record's length, from its header
  std::size_t hops_offset() const { return serialised() ? sizeof(std::uint32_t) : bytes_; }
  void push_record(const void* task, [[maybe_unused]] std::size_t bytes, std::uint32_t hops) {
    if (serialised()) return push_serialised(task, bytes, hops);
    assert(bytes == bytes_);
    reserve(stride_);
    std::memcpy(data_.data() + top_, task, bytes_);
    std::memcpy(data_.data() + top_ + bytes_, &hops, sizeof hops);
    top_ += stride_;
    ++count_;
  }
  void push_serialised(const void* task, std::size_t bytes, std::uint32_t hops);
  void pop_serialised(std::vector<std::byte>& task);
  void reserve(std::size_t more) {  // room for `more` bytes above the top
    if (top_ + more > data_.size()) grow(more);
  }
  void grow(std::size_t more);

  std::size_t bytes_, stride_;
  std::size_t base_ = 0, top_ = 0;  // byte offsets of the bottom record and past the top one
  std::size_t count_ = 0;
  std::vector<std::byte> data_;
};

/// Lowers `bound` to `value` if `value` is lower (atomically, against other writers);
/// true when this call lowered it.
inline bool lower_shared_bound(std::atomic<std::int64_t>& bound, std::int64_t value) {
  std::int64_t seen = bound.load(std::memory_order_relaxed);
  while (value < seen)
    if (bound.compare_exchange_weak(seen, value, std::memory_order_relaxed)) return true;
  return false;
}

/// A task's split function, as the engine calls it (a reference to the caller's callable).
class SplitRef {
public:
  template <class F>  // F may be const: a split lambda changes what it captured by reference
  explicit SplitRef(F& f)
      : object_(const_cast<void*>(static_cast<const void*>(&f))), call_([](void* o) { (*static_cast<F*>(o))(); }) {}
  void operator()() const { call_(object_); }

private:
  void* object_;
  void (*call_)(void*);
};

/// What the engine lends an executing task. Belongs to one worker; not thread-safe.
class WorkerPort {
public:
  /// The engine's side of poll() and offer_bound().
  class Hooks {
  public:
    /// A look at the clock (and maybe a check point), with the task's split function if it
    /// gave one. Returns how many poll() calls to let pass before the next look.
    virtual std::uint32_t poll_point(const SplitRef* split) = 0;
    virtual void bound_improved(std::int64_t bound) = 0;

  protected:
    ~Hooks() = default;
  };

  WorkerPort(NodeId worker, TaskStack& stack, std::atomic<std::int64_t>& bound, Hooks& hooks)
      : worker_(worker), stack_(&stack), bound_(&bound), hooks_(&hooks) {}

  NodeId worker() const { return worker_; }
  void spawn(std::span<const std::byte> task) {
    if (suffix_.empty()) return stack_->push(task);
    joined_.assign(task.begin(), task.end());
    joined_.insert(joined_.end(), suffix_.begin(), suffix_.end());
    stack_->push(joined_);
  }
  /// Bytes appended to every spawned task until reset (a recording's parent name).
  void set_spawn_suffix(std::span<const std::byte> suffix) { suffix_ = suffix; }
  /// A buffer for serialising a task on its way to spawn().
  std::vector<std::byte>& scratch() { return scratch_; }
  std::int64_t bound() const { return bound_->load(std::memory_order_relaxed); }
  /// Lowers the shared bound to `value` if it is lower; tells the engine when it was.
  void offer_bound(std::int64_t value) {
    if (lower_shared_bound(*bound_, value)) hooks_->bound_improved(value);
  }
  /// Cheap: most calls only count down.
  void poll() {
    if (--countdown_ == 0) countdown_ = hooks_->poll_point(nullptr);
  }
  template <class Split>
  void poll(Split& split) {
    if (--countdown_ == 0) {
      const SplitRef ref(split);
      countdown_ = hooks_->poll_point(&ref);
    }
  }

private:
  NodeId worker_;
  TaskStack* stack_;
  std::atomic<std::int64_t>* bound_;
  Hooks* hooks_;
  std::uint32_t countdown_ = 1;
  std::vector<std::byte> scratch_;
  std::span<const std::byte> suffix_;
  std::vector<std::byte> joined_;
};

/// The engine-facing, type-erased application. Users derive from Application<Task, Result>.
/// One object serves one run: the engine calls prepare() first, then execute() from
/// several threads at once, each with its own worker's port.
class AnyApplication {
public:
  virtual ~AnyApplication() = default;
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
  /// The result for people and for the check against the sequential run.
  virtual nlohmann::json report_bytes(const std::byte* result) const = 0;
  /// Keys of report_bytes() that must equal the sequential run's (all by default; a B&B
  /// optimum is exact, the optimal schedule found first may differ).
  virtual std::vector<std::string> exact_keys() const { return {}; }
  /// The bound a run starts from (minimum results); the largest int64 when none.
  virtual std::int64_t initial_bound() const { return std::numeric_limits<std::int64_t>::max(); }
};

template <class Task, class Result>
class TaskContext {
public:
  TaskContext(WorkerPort& port, Result& result) : port_(port), result_(result) {}
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
  NodeId worker() const { return port_.worker(); }

private:
  WorkerPort& port_;
  Result& result_;
};

/// Derive from this. Tasks and results that are trivially copyable travel as bytes; any
/// other type travels through cereal (runtime/serialization.hpp).
template <class Task, class Result>
class Application : public AnyApplication {
public:
  /// The tasks worker `worker` of `workers` starts with (deterministic: every MPI rank
  /// calls it for itself).
  virtual std::vector<Task> roots(NodeId worker, std::size_t workers) const = 0;
  virtual void execute(const Task& task, TaskContext<Task, Result>& ctx) = 0;
  /// Associative and commutative.
  virtual void combine(Result& into, const Result& other) const = 0;
  virtual Result identity() const { return Result{}; }
  /// The result as JSON, for `dlbkit run` and same_result(); programs of their own need not
  /// write it (null by default).
  virtual nlohmann::json report(const Result&) const { return nullptr; }

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
  nlohmann::json report_bytes(const std::byte* bytes) const final {
    if constexpr (travels_as_bytes<Result>) return report(from_bytes<Result>(std::span(bytes, sizeof(Result))));
    else return nullptr;
  }

private:
  struct alignas(64) Slot {  // one cache line each: workers never share one
    Result value;
  };
  std::vector<Slot> partials_;
};

}  // namespace dlbkit
