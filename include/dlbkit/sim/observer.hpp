#pragma once
/// \file
/// Observers see the simulation's task and message events and compute metrics of their
/// own (a conservation check, a load trace) without the engine knowing about them.

#include <dlbkit/core/task.hpp>
#include <dlbkit/core/time.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cstdint>

namespace dlbkit {

/// What a node's processor does when it is not idle.
enum class Activity : std::uint8_t {
  busy,      ///< executing tasks
  overhead,  ///< sending and handling messages, checking for them at poll points
};

class Observer {
public:
  virtual ~Observer() = default;
  virtual void on_task_created(NodeId /*node*/, const Task&, SimTime) {}
  virtual void on_task_started(NodeId /*node*/, const Task&, SimTime) {}
  virtual void on_task_completed(NodeId /*node*/, const Task&, SimTime) {}
  virtual void on_task_migrated(NodeId /*from*/, NodeId /*to*/, const Task&, SimTime) {}
  /// `kind` indexes SimulationResult::message_kinds.
  virtual void on_message_sent(NodeId /*from*/, NodeId /*to*/, int /*kind*/, SimTime) {}
  /// A migrated task reached node `to` (after the handling cost of its message).
  virtual void on_task_arrived(NodeId /*to*/, NodeId /*from*/, const Task&, SimTime) {}
  /// Node `node` spent [begin, end) on `activity`; idle where no span covers. Per node, the
  /// spans come in time order. The checks of a stretch of execution are reported as one
  /// overhead span at its end (they are spread over it at every poll point).
  virtual void on_activity(NodeId /*node*/, Activity, SimTime /*begin*/, SimTime /*end*/) {}
  /// Node `node` holds `load` tasks (queued and executing) from `t` on; reported when it
  /// changed since the node's last report.
  virtual void on_load(NodeId /*node*/, std::int64_t /*load*/, SimTime /*t*/) {}
};

}  // namespace dlbkit
