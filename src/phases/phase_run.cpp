#include <dlbkit/error.hpp>
#include <dlbkit/phases/communication_cost.hpp>
#include <dlbkit/phases/phase_run.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace dlbkit {

PhaseRunResult run_phases(const PhaseStrategyChoice& strategy, PhaseWorkload& workload, const Topology& topology,
                    const PhaseRunOptions& options) {
  if (options.phases == 0) throw InputError("0 phases; accepted: at least 1");
  if (options.every == 0) throw InputError("balancing every 0 phases; accepted: every 1 or more");
  if (std::isnan(options.threshold) || options.threshold < 0)
    throw InputError(fmt::format("imbalance threshold {}; accepted: a number >= 0 or inf", options.threshold));

  PhaseRunResult run;
  Phase phase = workload.first_phase(topology.size(), options.rebalance.seed);
  check_phase(phase, "the workload's first phase");
  const std::vector<NodeId> first_mapping = phase.node_of;
  for (std::size_t k = 0; k < options.phases; ++k) {
    if (k > 0) workload.next_phase(phase);
    PhaseStep step;
    step.figures = phase_figures(phase, phase.node_of);
    step.communication_seconds = communication_seconds(phase, phase.node_of, options.rebalance.cost);
    const std::vector<double> unbalanced = node_loads(phase, first_mapping);
    step.unbalanced_max_load = *std::max_element(unbalanced.begin(), unbalanced.end());
    // A phase lasts as long as its slowest node, in each of its subphases where it has them.
    run.application_seconds += step.figures.subphase_time + step.communication_seconds;
    run.communication_seconds += step.communication_seconds;
    run.unbalanced_seconds +=
        phase_time(phase, first_mapping) + communication_seconds(phase, first_mapping, options.rebalance.cost);
    if ((k + 1) % options.every == 0 || step.figures.imbalance > options.threshold) {
      RebalanceOptions ro = options.rebalance;
      ro.seed = options.rebalance.seed + k;  // each step its own random stream
      Rebalanced r = rebalance(strategy, phase, topology, ro);
      run.balancing_seconds += to_seconds(r.protocol_time + r.migration_time);
      run.wall_seconds += r.wall_seconds;
      run.objects_migrated += r.objects_migrated;
      ++run.balancing_steps;
      phase.node_of = r.mapping;
      step.communication_seconds_after = communication_seconds(phase, phase.node_of, options.rebalance.cost);
      step.rebalanced = std::move(r);
    }
    run.steps.push_back(std::move(step));
    if (options.on_phase) options.on_phase(k + 1);
  }
  run.last = std::move(phase);
  return run;
}

}  // namespace dlbkit
