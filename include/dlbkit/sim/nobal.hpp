#pragma once
/// \file
/// NOBAL (strategy `none`) without a simulation where none is needed. With no balancing a
/// node never sends, receives or checks for a message (`none` pays no poll_cost), so under
/// FCFS it executes its tasks back to back from time 0: its finish time is the sum of its
/// tasks' times (their work at its speed). When every task is given at the start
/// (Workload::closed()), the whole run is that per-node sum, bit for bit what simulate()
/// computes (tests/sim/nobal_test.cpp, tests/sim/node_speeds_test.cpp).
/// Still simulated: workloads that create tasks as others complete or arrive over time (the
/// order of completions across nodes draws the workload's random stream), processor
/// sharing, runs with observers.

#include <dlbkit/sim/simulator.hpp>

#include <optional>

namespace dlbkit {

/// The per-node computation for `config` (strategy `none`): the same result simulate()
/// gives, but wall_seconds, or nullopt when it would not be exact (the strategy is not
/// `none`, the workload not closed, processor sharing, observers) or the run would stop
/// with an error (a bad task, a limit, a time overflow); the caller then simulates, with a
/// fresh workload when config.workload has given its tasks (`consumed` says so).
std::optional<SimulationResult> nobal_by_node(const SimulationConfig& config, bool* consumed = nullptr);

/// NOBAL for `config` with the workload `workload` (config.workload is ignored): per node
/// when that is exact, simulated otherwise.
SimulationResult simulate_nobal(const SimulationConfig& config, const WorkloadChoice& workload);

/// True when `strategy` is the builtin `none`.
bool is_nobal(const StrategyChoice& strategy);

}  // namespace dlbkit
