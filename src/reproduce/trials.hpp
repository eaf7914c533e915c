#pragma once
/// \file
/// Running many independent simulations at once: every seed of every strategy, and the
/// figures of one strategy's run beside NOBAL's.

#include <dlbkit/sim/simulator.hpp>

#include <functional>
#include <string>
#include <vector>

namespace dlbkit {

/// Calls f(0) .. f(count - 1), `jobs` at a time on separate threads. Each call must be
/// independent (simulations are: they share no state). Exceptions propagate.
void parallel_for(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& f);

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
