#include <dlbkit/error.hpp>
#include <dlbkit/phases/communication_cost.hpp>
#include <dlbkit/phases/object_matching.hpp>
#include <dlbkit/phases/phase_run.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace dlbkit {

namespace {

// The workload's next phase, its objects followed by id from the phase before: one that stays
// keeps its node in the run's mapping (phase.node_of) and in the never-balanced one
// (`unbalanced`); a new one starts on its origin's node in each, or, without an origin, on
// the node the workload gave it.
void next_phase(PhaseWorkload& workload, Phase& phase, std::vector<NodeId>& unbalanced, PhaseStep& step,
                std::size_t k) {
  const std::vector<std::uint64_t> ids = object_ids(phase);
  const std::vector<NodeId> nodes = phase.node_of;
  const std::vector<ObjectOrigin> origins = workload.next_phase(phase);
  const std::string what = fmt::format("the workload's phase {}", k);
  check_phase(phase, what);
  const std::vector<ObjectIndex> match = match_objects(ids, phase, what);
  std::vector<ObjectIndex> from(phase.objects.size(), kNewObject);  // each object's origin, by index before
  if (!origins.empty()) {
    std::vector<std::uint64_t> new_ids, from_ids;
    for (const ObjectOrigin& o : origins) {
      new_ids.push_back(o.id);
      from_ids.push_back(o.from);
    }
    const std::vector<ObjectIndex> origin = index_of_ids(ids, from_ids);
    for (std::size_t n = 0; n < origins.size(); ++n)
      if (origin[n] == kNewObject)
        throw InputError(fmt::format("{}: object {} comes from object {}, which phase {} does not have; accepted: "
                                     "an origin among the objects of the phase before",
                                     what, origins[n].id, origins[n].from, k - 1));
    std::vector<std::uint64_t> created;  // the new objects' ids, at `at` in the phase
    std::vector<std::size_t> at;
    for (std::size_t i = 0; i < match.size(); ++i)
      if (match[i] == kNewObject) {
        created.push_back(phase.objects[i].id);
        at.push_back(i);
      }
    const std::vector<ObjectIndex> entry = index_of_ids(new_ids, created);  // each one's in `origins`
    for (std::size_t n = 0; n < entry.size(); ++n)
      if (entry[n] != kNewObject) from[at[n]] = origin[entry[n]];
  }
  std::vector<NodeId> home(phase.objects.size());
  for (std::size_t i = 0; i < phase.objects.size(); ++i) {
    ObjectIndex j = match[i];
    if (j == kNewObject) {
      ++step.objects_created;
      if (from[i] == kNewObject) {  // where the workload put it
        home[i] = phase.node_of[i];
        continue;
      }
      j = from[i];
    }
    phase.node_of[i] = nodes[j];
    home[i] = unbalanced[j];
  }
  step.objects_destroyed = ids.size() - (phase.objects.size() - step.objects_created);
  unbalanced = std::move(home);
}

}  // namespace

PhaseRunResult run_phases(const PhaseStrategyChoice& strategy, PhaseWorkload& workload, const Topology& topology,
                    const PhaseRunOptions& options) {
  if (options.phases == 0) throw InputError("0 phases; accepted: at least 1");
  if (options.every == 0) throw InputError("balancing every 0 phases; accepted: every 1 or more");
  if (std::isnan(options.threshold) || options.threshold < 0)
    throw InputError(fmt::format("imbalance threshold {}; accepted: a number >= 0 or inf", options.threshold));

  PhaseRunResult run;
  Phase phase = workload.first_phase(topology.size(), options.rebalance.seed);
  check_phase(phase, "the workload's first phase");
  match_objects({}, phase, "the workload's first phase");  // its ids distinct
  std::vector<NodeId> unbalanced = phase.node_of;
  for (std::size_t k = 0; k < options.phases; ++k) {
    PhaseStep step;
    if (k > 0) next_phase(workload, phase, unbalanced, step, k);
    step.objects = phase.objects.size();
    run.objects_created += step.objects_created;
    run.objects_destroyed += step.objects_destroyed;
    step.figures = phase_figures(phase, phase.node_of);
    step.communication_seconds = communication_seconds(phase, phase.node_of, options.rebalance.cost);
    const std::vector<double> unbalanced_loads = node_loads(phase, unbalanced);
    step.unbalanced_max_load = *std::max_element(unbalanced_loads.begin(), unbalanced_loads.end());
    // A phase lasts as long as its slowest node, in each of its subphases where it has them.
    run.application_seconds += step.figures.subphase_time + step.communication_seconds;
    run.communication_seconds += step.communication_seconds;
    run.unbalanced_seconds +=
        phase_time(phase, unbalanced) + communication_seconds(phase, unbalanced, options.rebalance.cost);
    if (options.on_mapping) options.on_mapping(phase, false);
    if ((k + 1) % options.every == 0 || step.figures.imbalance > options.threshold) {
      RebalanceOptions ro = options.rebalance;
      ro.seed = options.rebalance.seed + k;  // each step its own random stream
      Rebalanced r = rebalance(strategy, phase, topology, ro);
      run.balancing_seconds += to_seconds(r.protocol_time + r.migration_time);
      run.wall_seconds += r.wall_seconds;
      run.objects_migrated += r.objects_migrated;
      ++run.balancing_steps;
      phase.node_of = r.mapping;
      if (options.on_mapping) options.on_mapping(phase, true);
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
