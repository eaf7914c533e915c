#pragma once
/// \file
/// Observers see the simulation's task and message events and compute metrics of their
/// own (a conservation check, a load trace) without the engine knowing about them.

#include <dlbkit/core/task.hpp>
#include <dlbkit/core/time.hpp>
#include <dlbkit/topology/topology.hpp>

namespace dlbkit {

class Observer {
public:
  virtual ~Observer() = default;
  virtual void on_task_created(NodeId /*node*/, const Task&, SimTime) {}
  virtual void on_task_started(NodeId /*node*/, const Task&, SimTime) {}
  virtual void on_task_completed(NodeId /*node*/, const Task&, SimTime) {}
  virtual void on_task_migrated(NodeId /*from*/, NodeId /*to*/, const Task&, SimTime) {}
  /// `kind` indexes SimulationResult::message_kinds.
  virtual void on_message_sent(NodeId /*from*/, NodeId /*to*/, int /*kind*/, SimTime) {}
};

}  // namespace dlbkit
