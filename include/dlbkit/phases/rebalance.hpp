#pragma once
/// \file
/// One rebalancing step: a phase strategy on one phase, with every figure of the result.
///
/// ```
/// auto greedy = dlbkit::builtin_phase_strategies().configure("greedy", {});
/// dlbkit::Rebalanced r = dlbkit::rebalance(greedy, phase, dlbkit::parse_topology("complete:4"), {});
/// // r.mapping, r.after.imbalance, r.objects_migrated, r.protocol_time ...
/// ```

#include <dlbkit/phases/figures.hpp>
#include <dlbkit/phases/milp.hpp>
#include <dlbkit/phases/phase_strategy.hpp>

#include <limits>
#include <optional>

namespace dlbkit {

struct RebalanceOptions {
  CostModel cost;                  ///< prices the protocol's messages (default: free)
  MigrationCost migration;         ///< prices the objects' moves
  double memory_bound = std::numeric_limits<double>::infinity();  ///< bytes per node
  /// The bound holds for each group of this many consecutive nodes together (PhaseContext;
  /// LBAF's ranks_per_node). Above 1: not with as_protocol or a strategy that plans each
  /// node's memory alone (PhaseStrategyInfo::plans_node_memory).
  std::size_t memory_group = 1;
  WorkModel work_model;            ///< what the strategies' criteria weigh (work_model.hpp)
  std::uint64_t seed = 1;
  /// Where set, the exact reference is solved beside the strategy with this time limit in
  /// seconds (milp.hpp; small phases only).
  std::optional<double> optimum_time_limit;
  /// Run the strategy's rank protocol (rank_protocol.hpp), each node an agent, in place of its
  /// PhaseContext form, and price the agents' own rounds (protocol_meter.hpp): the step as the
  /// MPI driver runs it. InputError for a strategy without one.
  bool as_protocol = false;
};

struct Rebalanced {
  std::vector<NodeId> mapping;
  PhaseFigures before, after;
  std::size_t objects_migrated = 0;
  double bytes_migrated = 0;
  std::vector<ObjectIndex> unplaced;  ///< objects the strategy found no room for
  std::size_t nodes_over_memory_bound = 0;  ///< after: nodes still above the bound (or in a group above it)
  std::optional<double> max_group_memory_after;  ///< with a memory group: the fullest group's bytes
  std::uint64_t rounds = 0, messages = 0;
  SimTime protocol_time = 0;   ///< simulated, protocol.hpp
  SimTime migration_time = 0;  ///< simulated, protocol.hpp
  double wall_seconds = 0;     ///< this machine's time to decide
  std::optional<double> flow_error;
  /// lower_bound.hpp's bound on the max load (raised to what the exact reference proved), the
  /// imbalance it implies (bound / mean - 1), and whether the result reaches it (then no
  /// mapping has a lower max load). Where the phase has alphas, on times: the bound on the
  /// busiest node's alpha x load, over total load / total speed.
  double max_load_lower_bound = 0;
  double imbalance_lower_bound = 0;
  bool at_lower_bound = false;
  /// Whether the bound counts clusters, not objects, as what no mapping splits: the strategy's
  /// configuration moves only whole clusters (PhaseStrategyInfo::moves_whole_clusters).
  bool lower_bound_on_clusters = false;
  std::optional<MilpResult> optimum;  ///< with RebalanceOptions::optimum_time_limit
  /// The largest node work before and after (work_model.hpp), where the work is not the load:
  /// a work model other than the default, or nodes' alpha in the phase.
  std::optional<double> max_work_before, max_work_after;
};

/// The simulated time of the migrations from the phase's mapping to `mapping` (protocol.hpp):
/// each node packs what leaves it, then ships and receives its objects at once, then unpacks
/// what arrived; the slowest node sets the time of each step.
SimTime migration_time(const Phase& phase, const std::vector<NodeId>& mapping, const MigrationCost& cost);

/// Throws InputError when the phase is malformed, its nodes are not the topology's, or the
/// strategy does not accept the topology.
Rebalanced rebalance(const PhaseStrategyChoice& strategy, const Phase& phase, const Topology& topology,
                     const RebalanceOptions& options);

}  // namespace dlbkit
