#pragma once
/// \file
/// Running many independent simulations at once: every seed of every strategy, and the
/// figures of one strategy's run beside NOBAL's.

#include <dlbkit/sim/simulator.hpp>

#include <string>
#include <vector>

namespace dlbkit {

/// Every strategy on seeds 1 .. runs, `jobs` simulations at a time, each on its own tasks from
/// `workload`: results[strategy][seed - 1].
std::vector<std::vector<SimulationResult>> simulate_seeds(const Topology& topology,
                                                          const std::vector<StrategyChoice>& strategies,
                                                          const WorkloadChoice& workload, const CostModel& cost,
                                                          std::size_t runs, unsigned jobs);

/// One strategy run and NOBAL on the same tasks: makespans in seconds.
struct Trial {
  double makespan = 0;
  double nobal = 0;
  double optimal = 0;
  std::uint64_t tasks_transferred = 0;
  std::uint64_t messages = 0;
  double speedup() const { return nobal / makespan; }
  double pi() const { return (nobal - makespan) / (nobal - optimal); }  // WLR93 eq. (36)
};

}  // namespace dlbkit
