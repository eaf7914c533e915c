#include <dlbkit/error.hpp>
#include <dlbkit/phases/lower_bound.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/in_process_protocol.hpp>
#include <dlbkit/phases/local_phase.hpp>
#include <dlbkit/phases/protocol_meter.hpp>
#include <dlbkit/phases/rank_protocol.hpp>
#include <dlbkit/phases/rebalance.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <unordered_map>
#include <utility>

namespace dlbkit {

namespace {

// The result's mapping and what follows from it alone: the figures after, the objects and
// bytes that move, the migrations' time.
void take_mapping(const Phase& phase, std::vector<NodeId> mapping, const RebalanceOptions& options,
                  Rebalanced& result) {
  result.mapping = std::move(mapping);
  result.after = phase_figures(phase, result.mapping);
  for (std::size_t i = 0; i < phase.objects.size(); ++i)
    if (result.mapping[i] != phase.node_of[i]) {
      ++result.objects_migrated;
      result.bytes_migrated += phase.objects[i].memory.shipped_bytes();
    }
  result.migration_time = migration_time(phase, result.mapping, options.migration);
}

// The lower bound on the max load, the exact reference where asked, and whether the result
// reaches the bound.
void finish_bounds(const PhaseStrategyChoice& strategy, const Phase& phase, const RebalanceOptions& options,
                   Rebalanced& result) {
  result.lower_bound_on_clusters =
      strategy.info->moves_whole_clusters && strategy.info->moves_whole_clusters(strategy.params);
  result.max_load_lower_bound = max_load_lower_bound(phase, options.memory_bound, result.lower_bound_on_clusters);
  if (options.optimum_time_limit) {
    result.optimum = solve_milp(phase, {.memory_bound = options.memory_bound,
                                        .memory_group = options.memory_group,
                                        .time_limit = *options.optimum_time_limit,
                                        .start = result.mapping});
    // The solver's bound holds for mappings within the memory bound; the strategy's result is one
    // unless it left nodes above it (then only the bound of lower_bound.hpp holds).
    if (result.nodes_over_memory_bound == 0)
      result.max_load_lower_bound = std::max(result.max_load_lower_bound, result.optimum->max_load_lower_bound);
  }
  // Where the phase has alphas the bound is on times (lower_bound.hpp): against the busiest
  // node's time and total load / total speed.
  double mean = result.after.mean_load, busiest = result.after.max_load;
  if (!phase.node_alpha.empty()) {
    const std::vector<double> loads = node_loads(phase, result.mapping);
    mean = mean * static_cast<double>(phase.nodes) / total_speed(phase);
    busiest = 0;
    for (NodeId v = 0; v < phase.nodes; ++v) busiest = std::max(busiest, loads[v] * alpha_of(phase, v));
  }
  result.imbalance_lower_bound = mean > 0 ? std::max(0.0, result.max_load_lower_bound / mean - 1) : 0.0;
  // Relative slack for the rounding of the loads' sums, which differ in order between the two.
  result.at_lower_bound = busiest <= result.max_load_lower_bound * (1 + 1e-9);
}

std::vector<std::string> strategies_with_protocols() {
  std::vector<std::string> names;
  for (const auto& s : builtin_phase_strategies().all())
    if (s.rank_protocol) names.push_back(s.name);
  return names;
}

// A memory group above 1 only where the strategy's moves go through PhaseContext's checks.
void check_memory_group(const PhaseStrategyChoice& strategy, const RebalanceOptions& options) {
  const std::size_t group = options.memory_group;
  if (group == 0) throw InputError("memory group 0; accepted: a number of nodes >= 1");
  if (group == 1) return;
  if (options.as_protocol)
    throw InputError(fmt::format("memory group {} with --as-protocol; accepted: 1 (each rank agent bounds its own memory)",
                                 group));
  if (strategy.info->plans_node_memory) {
    std::vector<std::string> names;
    for (const auto& s : builtin_phase_strategies().all())
      if (!s.plans_node_memory) names.push_back(s.name);
    throw InputError(fmt::format("memory group {} with phase strategy {}, which plans each node's memory alone; "
                                 "accepted: 1, or one of {}",
                                 group, strategy.info->name, fmt::join(names, ", ")));
  }
}

// The mapping the agents' plans give, and the step's figures as the meter priced them.
Rebalanced as_protocol(const PhaseStrategyChoice& strategy, const Phase& phase, const Topology& topology,
                       const RebalanceOptions& options, Rebalanced result) {
  const RankProtocolFactory make = rank_protocol_factory(strategy);
  if (!make)
    throw InputError(fmt::format("--as-protocol with phase strategy {}, which has no rank protocol; accepted: {}",
                                 strategy.info->name, fmt::join(strategies_with_protocols(), ", ")));
  if (!(options.work_model == WorkModel{}))
    throw InputError("--as-protocol with a work model; accepted: the loads (the rank protocols weigh loads)");
  ProtocolMeter meter(phase.nodes, options.cost);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<RankPlan> plans =
      run_protocol_in_process(meter.metered(make), local_phases(phase), topology, options.memory_bound, options.seed);
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  meter.finish();
  std::unordered_map<std::uint64_t, ObjectIndex> index;
  for (ObjectIndex i = 0; i < phase.objects.size(); ++i) index.emplace(phase.objects[i].id, i);
  std::vector<NodeId> mapping = phase.node_of;
  for (const RankPlan& plan : plans)
    for (const ObjectMove& d : plan.departures) mapping[index.at(d.id)] = d.rank;
  take_mapping(phase, std::move(mapping), options, result);
  if (phase.has_memory) {
    const NodeMemory memory(phase, result.mapping);
    for (NodeId v = 0; v < phase.nodes; ++v)
      if (memory.of(v) > options.memory_bound) ++result.nodes_over_memory_bound;
  }
  result.rounds = meter.rounds();
  result.messages = meter.messages();
  result.protocol_time = meter.time();
  finish_bounds(strategy, phase, options, result);
  return result;
}

}  // namespace

SimTime migration_time(const Phase& phase, const std::vector<NodeId>& mapping, const MigrationCost& cost) {
  std::vector<double> pack(phase.nodes, 0.0), handled(phase.nodes, 0.0), unpack(phase.nodes, 0.0);
  std::vector<double> bytes_out(phase.nodes, 0.0), bytes_in(phase.nodes, 0.0);
  for (std::size_t i = 0; i < phase.objects.size(); ++i) {
    const NodeId from = phase.node_of[i], to = mapping[i];
    if (from == to) continue;
    const ObjectMemory& m = phase.objects[i].memory;
    handled[from] += static_cast<double>(cost.per_object);
    handled[to] += static_cast<double>(cost.per_object);
    bytes_out[from] += m.shipped_bytes();
    bytes_in[to] += m.shipped_bytes();
    pack[from] += m.serialize_seconds * 1e9;
    unpack[to] += (m.deserialize_seconds > 0 ? m.deserialize_seconds : m.serialize_seconds) * 1e9;
  }
  double exchange = 0;
  for (NodeId v = 0; v < phase.nodes; ++v)
    exchange = std::max(exchange, handled[v] + std::max(bytes_out[v], bytes_in[v]) * cost.per_byte);
  const auto slowest = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); };
  return static_cast<SimTime>(std::llround(slowest(pack) + exchange + slowest(unpack)));
}

Rebalanced rebalance(const PhaseStrategyChoice& strategy, const Phase& phase, const Topology& topology,
                     const RebalanceOptions& options) {
  check_phase(phase, "the phase");
  if (topology.size() != phase.nodes)
    throw InputError(fmt::format("the phase has {} nodes but topology {} has {}; accepted: a topology of {} nodes",
                                 phase.nodes, topology.spec(), topology.size(), phase.nodes));
  if (strategy.info->check_topology) strategy.info->check_topology(topology);
  if (std::isnan(options.memory_bound) || options.memory_bound < 0)
    throw InputError(fmt::format("memory bound {}; accepted: a number of bytes >= 0", options.memory_bound));
  check_memory_group(strategy, options);

  Rebalanced result;
  result.before = phase_figures(phase, phase.node_of);
  if (options.as_protocol) return as_protocol(strategy, phase, topology, options, result);
  const auto decision_start = std::chrono::steady_clock::now();
  PhaseContext ctx(phase, topology, options.cost, options.memory_bound, options.seed, options.work_model,
                   options.memory_group);
  const auto start = std::chrono::steady_clock::now();
  strategy.create()->rebalance(ctx);
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ctx.protocol().end_round();

  take_mapping(phase, ctx.mapping(), options, result);
  result.unplaced = ctx.unplaced();
  std::sort(result.unplaced.begin(), result.unplaced.end());
  result.unplaced.erase(std::unique(result.unplaced.begin(), result.unplaced.end()), result.unplaced.end());
  if (phase.has_memory) {
    for (NodeId v = 0; v < phase.nodes; ++v)
      if (ctx.bounded_memory(v) > options.memory_bound) ++result.nodes_over_memory_bound;
    if (options.memory_group > 1) {
      result.max_group_memory_after = 0.0;
      for (std::size_t v = 0; v < phase.nodes; v += options.memory_group)
        result.max_group_memory_after =
            std::max(*result.max_group_memory_after, ctx.bounded_memory(static_cast<NodeId>(v)));
    }
  }
  result.rounds = ctx.protocol().rounds();
  result.messages = ctx.protocol().messages();
  result.protocol_time = ctx.protocol().time();
  result.flow_error = ctx.flow_error();
  if (!(options.work_model == WorkModel{}) || !phase.node_alpha.empty()) {
    const auto max_work = [&](const std::vector<NodeId>& mapping) {
      const std::vector<double> works = node_works(phase, mapping, options.work_model);
      return *std::max_element(works.begin(), works.end());
    };
    result.max_work_before = max_work(phase.node_of);
    result.max_work_after = max_work(result.mapping);
  }
  // Direct execution (cost_model.hpp, protocol_compute): a strategy that Balancer and
  // ObjectRuntime decide centrally runs this call at the root, on the gathered objects.
  if (options.cost.protocol_compute > 0 && !runnable_rank_protocol(strategy, options.work_model))
    result.protocol_time += static_cast<SimTime>(std::llround(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - decision_start).count() * 1e9 *
        options.cost.protocol_compute));
  finish_bounds(strategy, phase, options, result);
  return result;
}

}  // namespace dlbkit
