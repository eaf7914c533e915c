#pragma once
/// \file
/// A load-balancing strategy: one instance per node, driven by the engine through these
/// callbacks, acting only through its NodeContext. The same object runs in the simulator
/// and in the runtimes. Callbacks of one node are never called concurrently.

#include <dlbkit/core/message.hpp>
#include <dlbkit/core/node_context.hpp>

#include <cstdint>

namespace dlbkit {

class Strategy {
public:
  virtual ~Strategy() = default;

  /// Once, at time 0, after the initial tasks are in place.
  virtual void on_start(NodeContext&) {}
  /// The node's load differs from what it was at the previous call (tasks completed,
  /// arrived, were created or left). Called at the node's next message-check point.
  virtual void on_load_change(NodeContext&) {}
  virtual void on_message(NodeContext&, NodeId /*from*/, const Message&) {}
  /// `count` tasks sent by `from` were added to the local queue.
  virtual void on_tasks_arrived(NodeContext&, NodeId /*from*/, std::int64_t /*count*/) {}
  /// A task arrived from outside (an open workload's arrival) and joined the end of the
  /// local queue, where migrate() takes it first.
  virtual void on_task_submitted(NodeContext&) {}
  virtual void on_timer(NodeContext&, std::uint64_t /*tag*/) {}
  /// The node has just run out of tasks.
  virtual void on_idle(NodeContext&) {}
};

}  // namespace dlbkit
