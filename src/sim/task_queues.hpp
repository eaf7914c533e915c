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
#include <cstddef>
#include <memory>

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

  /// Every node's queue, `queue_of(v)`, empty so far, starts with its tasks of `tasks`.
  /// Returns how many tasks that makes.
  template <class QueueOf>
  std::uint64_t defer(std::unique_ptr<DeferredTasks> tasks, std::size_t nodes, QueueOf&& queue_of) {
    std::uint64_t total = 0;
    for (NodeId v = 0; v < nodes; ++v) {
      Queue& q = queue_of(v);
      assert(q.empty());
      q.deferred = tasks->count(v);
      total += q.deferred;
    }
    deferred_ = std::move(tasks);
    return total;
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
    if (q.held.empty()) return deferred_->take_back(v, q.deferred--);
    return packer_.unpack(held_.pop_back(q.held));
  }

private:
  Held held_;
  TaskPacker packer_;
  std::unique_ptr<DeferredTasks> deferred_;  // none: every task is held
};

}  // namespace dlbkit
