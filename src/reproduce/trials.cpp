#include "reproduce/trials.hpp"

#include <dlbkit/core/parallel_for.hpp>
#include <dlbkit/sim/nobal.hpp>

namespace dlbkit {

std::vector<std::vector<SimulationResult>> simulate_seeds(const Topology& topology,
                                                          const std::vector<StrategyChoice>& strategies,
                                                          const WorkloadChoice& workload, const CostModel& cost,
                                                          std::size_t runs, unsigned jobs) {
  std::vector<std::vector<SimulationResult>> results(strategies.size(), std::vector<SimulationResult>(runs));
  parallel_for(strategies.size() * runs, jobs, [&](std::size_t i) {
    const std::size_t s = i / runs, r = i % runs;
    SimulationConfig config{.topology = &topology, .strategy = strategies[s], .cost = cost, .seed = r + 1};
    if (is_nobal(strategies[s])) {
      results[s][r] = simulate_nobal(config, workload);  // per node when that is exact
      return;
    }
    auto w = workload.create();
    config.workload = w.get();
    results[s][r] = simulate(config);
  });
  return results;
}

}  // namespace dlbkit
