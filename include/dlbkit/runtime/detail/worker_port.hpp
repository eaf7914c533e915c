#pragma once
/// \file
/// The engines' side of the runtime: what a worker lends its executing task (TaskContext
/// wraps it). Not for programs that use dlbkit::Runtime (runtime/runtime.hpp).

#include <dlbkit/runtime/detail/task_stack.hpp>
#include <dlbkit/topology/topology.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace dlbkit::detail {

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
  /// The work the executing task still holds, in tasks' worth (0: unknown); reset to 0
  /// before each task.
  void set_remaining(std::uint64_t work) { remaining_ = work; }
  std::uint64_t remaining() const { return remaining_; }
  /// poll() calls so far (a recording notes whether tasks poll: the simulator checks inside
  /// a task only if they do).
  std::uint64_t poll_calls() const { return poll_calls_; }
  /// Cheap: most calls only count down.
  void poll() {
    ++poll_calls_;
    if (--countdown_ == 0) countdown_ = hooks_->poll_point(nullptr);
  }
  template <class Split>
  void poll(Split& split) {
    ++poll_calls_;
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
  std::uint64_t poll_calls_ = 0;
  std::uint64_t remaining_ = 0;
  std::vector<std::byte> scratch_;
  std::span<const std::byte> suffix_;
  std::vector<std::byte> joined_;
};

}  // namespace dlbkit::detail
