#pragma once
/// \file
/// A closed workload: initial_tasks() gives every task, on_completed() and next_arrival()
/// create none (artificial, bnb). NOBAL on one needs no simulation (sim/nobal.hpp).

#include <dlbkit/sim/workload.hpp>

namespace dlbkit {

class ClosedWorkload : public Workload {
public:
  void on_completed(const Task&, NodeId, Rng&, TaskSink&) final {}
  std::optional<Arrival> next_arrival(SimTime, Rng&) final { return std::nullopt; }
};

}  // namespace dlbkit
