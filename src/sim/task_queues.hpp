#pragma once
/// \file
/// The simulator's pending tasks, a queue per node: tasks held packed in one pool
/// (pooled_deques.hpp, packed_task.hpp), behind the node's initial tasks that the workload
/// draws only when one is taken (sim/deferred_tasks.hpp). A node's deferred tasks are the
/// front of its queue, since every task that joins later queues behind them; the front is
/// taken to run, the back to migrate, and nothing is put back in front of them (a lifo run,
/// which does, holds every task).

#include "packed_task.hpp"
#include "pooled_deques.hpp"

#include <dlbkit/sim/deferred_tasks.hpp>

#include <cassert>
#include <cstdint>

namespace dlbkit {

class TaskQueues {
  using Held = PooledDeques<PackedTask, 16>;  // blocks of 264 bytes: short queues waste little

public:
  struct Queue {
    Held::Queue held;
    std::uint32_t deferred = 0;  // the front tasks, still the workload's to draw
    std::uint32_t size() const { return held.size + deferred; }
    bool empty() const { return size() == 0; }
  };

  /// Node v's queue, empty so far, starts with its tasks of `tasks`, which outlive the pool.
  void defer(DeferredTasks& tasks, Queue& q, NodeId v) {
    assert(q.empty());
    deferred_ = &tasks;
    q.deferred = tasks.count(v);
  }

  void push_back(Queue& q, const Task& t) { held_.push_back(q.held, packer_.pack(t)); }

  void push_front(Queue& q, const Task& t) {
    assert(q.deferred == 0);
    held_.push_front(q.held, packer_.pack(t));
  }

  Task pop_front(Queue& q, NodeId v) {
    if (q.deferred > 0) {
      --q.deferred;
      return deferred_->take_front(v);
    }
    return packer_.unpack(held_.pop_front(q.held));
  }

  Task pop_back(Queue& q, NodeId v) {
    assert(!q.empty());
    if (q.held.empty()) {
      if (q.deferred <= kDrawnFromBack) return deferred_->take_back(v, q.deferred--);
      hold_deferred(q, v);
    }
    return packer_.unpack(held_.pop_back(q.held));
  }

private:
  // A task from the back of a list may cost a draw for each task before it: a longer list
  // is drawn whole, once, into the pool.
  static constexpr std::uint32_t kDrawnFromBack = 256;

  void hold_deferred(Queue& q, NodeId v) {
    for (; q.deferred > 0; --q.deferred) held_.push_back(q.held, packer_.pack(deferred_->take_front(v)));
  }

  Held held_;
  TaskPacker packer_;
  DeferredTasks* deferred_ = nullptr;  // none: every task is held
};

}  // namespace dlbkit
