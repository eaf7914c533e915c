#include <dlbkit/error.hpp>
#include <dlbkit/phases/lower_bound.hpp>
#include <dlbkit/phases/rebalance.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>

namespace dlbkit {

namespace {

/// protocol.hpp: each node ships and receives its objects at once; the slowest one sets the time.
SimTime migration_time(const Phase& phase, const std::vector<NodeId>& mapping, const MigrationCost& cost) {
  std::vector<double> busy(phase.nodes, 0.0);
  for (std::size_t i = 0; i < phase.objects.size(); ++i) {
    if (mapping[i] == phase.node_of[i]) continue;
    const double one = static_cast<double>(cost.per_object) + phase.objects[i].memory.shipped_bytes() * cost.per_byte;
    busy[phase.node_of[i]] += one;
    busy[mapping[i]] += one;
  }
  return static_cast<SimTime>(std::llround(*std::max_element(busy.begin(), busy.end())));
}

}  // namespace

Rebalanced rebalance(const PhaseStrategyChoice& strategy, const Phase& phase, const Topology& topology,
                     const RebalanceOptions& options) {
  check_phase(phase, "the phase");
  if (topology.size() != phase.nodes)
    throw InputError(fmt::format("the phase has {} nodes but topology {} has {}; accepted: a topology of {} nodes",
                                 phase.nodes, topology.spec(), topology.size(), phase.nodes));
  if (strategy.info->check_topology) strategy.info->check_topology(topology);
  if (std::isnan(options.memory_bound) || options.memory_bound < 0)
    throw InputError(fmt::format("memory bound {}; accepted: a number of bytes >= 0", options.memory_bound));

  Rebalanced result;
  result.before = phase_figures(phase, phase.node_of);
  PhaseContext ctx(phase, topology, options.cost, options.memory_bound, options.seed, options.work_model);
  const auto start = std::chrono::steady_clock::now();
  strategy.create()->rebalance(ctx);
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ctx.protocol().end_round();

  result.mapping = ctx.mapping();
  result.after = phase_figures(phase, result.mapping);
  for (std::size_t i = 0; i < phase.objects.size(); ++i)
    if (result.mapping[i] != phase.node_of[i]) {
      ++result.objects_migrated;
      result.bytes_migrated += phase.objects[i].memory.shipped_bytes();
    }
  result.unplaced = ctx.unplaced();
  std::sort(result.unplaced.begin(), result.unplaced.end());
  result.unplaced.erase(std::unique(result.unplaced.begin(), result.unplaced.end()), result.unplaced.end());
  if (phase.has_memory)
    for (NodeId v = 0; v < phase.nodes; ++v)
      if (ctx.memory().of(v) > options.memory_bound) ++result.nodes_over_memory_bound;
  result.rounds = ctx.protocol().rounds();
  result.messages = ctx.protocol().messages();
  result.protocol_time = ctx.protocol().time();
  result.migration_time = migration_time(phase, result.mapping, options.migration);
  result.flow_error = ctx.flow_error();
  if (!(options.work_model == WorkModel{}) || !phase.node_alpha.empty()) {
    const auto max_work = [&](const std::vector<NodeId>& mapping) {
      const std::vector<double> works = node_works(phase, mapping, options.work_model);
      return *std::max_element(works.begin(), works.end());
    };
    result.max_work_before = max_work(phase.node_of);
    result.max_work_after = max_work(result.mapping);
  }
  result.max_load_lower_bound = max_load_lower_bound(phase, options.memory_bound);
  if (options.optimum_time_limit) {
    result.optimum = solve_milp(phase, {.memory_bound = options.memory_bound,
                                        .time_limit = *options.optimum_time_limit,
                                        .start = result.mapping});
    // The solver's bound holds for mappings within the memory bound; the strategy's result is one
    // unless it left nodes above it (then only the bound of lower_bound.hpp holds).
    if (result.nodes_over_memory_bound == 0)
      result.max_load_lower_bound = std::max(result.max_load_lower_bound, result.optimum->max_load_lower_bound);
  }
  const double mean = result.after.mean_load;
  result.imbalance_lower_bound = mean > 0 ? std::max(0.0, result.max_load_lower_bound / mean - 1) : 0.0;
  // Relative slack for the rounding of the loads' sums, which differ in order between the two.
  result.at_lower_bound = result.after.max_load <= result.max_load_lower_bound * (1 + 1e-9);
  return result;
}

}  // namespace dlbkit
