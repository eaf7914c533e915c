#pragma once
/// \file
/// The contract of a phase strategy: between two phases it decides a new mapping of the
/// objects, moving them through PhaseContext, which honours the memory bound, and it counts
/// its protocol's messages and rounds in PhaseContext::protocol() so that the simulator's
/// cost model gives the time the decision takes. A distributed strategy is written as
/// synchronous rounds in which node v reads only its own objects and the messages sent to it;
/// a central one gathers the loads to a root and scatters the decisions, as real ones do.
///
/// ```
/// class Greedy : public dlbkit::PhaseStrategy {
///   void rebalance(dlbkit::PhaseContext& ctx) override { ... ctx.move(object, node); ... }
/// };
/// ```

#include <dlbkit/core/random.hpp>
#include <dlbkit/core/registry.hpp>
#include <dlbkit/phases/memory.hpp>
#include <dlbkit/phases/phase.hpp>
#include <dlbkit/phases/protocol.hpp>
#include <dlbkit/phases/work_model.hpp>

#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dlbkit {

class RankProtocol;  // rank_protocol.hpp
struct RankSetup;

class PhaseContext {
public:
  /// `memory_bound`: most bytes a node may hold (infinity: no bound); `work_model`: what a
  /// criterion weighs (work_model.hpp; by default the loads); `memory_group`: the bound holds
  /// for each group of that many consecutive nodes together, the last group holding the rest
  /// (LBAF's ranks_per_node: ranks that share a machine's memory).
  PhaseContext(const Phase& phase, const Topology& topology, const CostModel& cost, double memory_bound,
               std::uint64_t seed, const WorkModel& work_model = {}, std::size_t memory_group = 1);

  const Phase& phase() const { return *phase_; }
  const Topology& topology() const { return *topology_; }
  std::size_t nodes() const { return phase_->nodes; }

  /// The current mapping and loads, as moved so far.
  const std::vector<NodeId>& mapping() const { return mapping_; }
  NodeId node_of(ObjectIndex object) const { return mapping_[object]; }
  double load(NodeId node) const { return loads_[node]; }
  const std::vector<double>& loads() const { return loads_; }
  /// The objects on each node under the current mapping (computed on each call).
  std::vector<std::vector<ObjectIndex>> objects_by_node() const;

  /// Whether the work follows the loads (work_model.hpp, follows_loads): a criterion may then
  /// weigh loads. Otherwise work() is each node's work under the current mapping.
  bool work_follows_loads() const { return !work_; }
  const NodeWork& work() const { return *work_; }

  double memory_bound() const { return memory_bound_; }
  const NodeMemory& memory() const { return memory_; }
  /// The memory the bound holds for: the node's, or with a memory group its group's.
  double bounded_memory(NodeId node) const { return memory_.of_group(node, memory_group_); }
  /// Whether `object` may live on `to` within the bound (true on its own node).
  bool fits(ObjectIndex object, NodeId to) const;
  /// Whether `objects`, all on one node other than `to`, may join `to` together within the bound.
  bool fits(std::span<const ObjectIndex> objects, NodeId to) const;
  /// Moves `object` to `to` when it is migratable and fits; false (nothing moved) otherwise.
  bool move(ObjectIndex object, NodeId to);
  /// Moves every (object, node) of `moves` (each object once) at once, or none: each must be migratable,
  /// and every node that gains one must end within the bound with all of them done (a swap of
  /// two shared blocks passes over the bound halfway). False, nothing moved, otherwise.
  bool move_together(std::span<const std::pair<ObjectIndex, NodeId>> moves);
  /// Replaces the whole mapping at once (a central strategy's plan, made with a NodeMemory of
  /// its own): every node that gains an object must end within the bound, and unmigratable
  /// objects must stay. A plan that breaks either is the strategy's bug (std::logic_error).
  void remap(const std::vector<NodeId>& mapping);
  /// The strategy wanted to place `object` elsewhere and found no node with room.
  void could_not_place(ObjectIndex object) { unplaced_.push_back(object); }
  const std::vector<ObjectIndex>& unplaced() const { return unplaced_; }

  /// What a strategy that tries several times and keeps its best (tempered's trials and
  /// rollback) saves and returns to: the mapping and the objects that found no room.
  struct State {
    std::vector<NodeId> mapping;
    std::vector<ObjectIndex> unplaced;
  };
  State state() const { return {mapping_, unplaced_}; }
  /// Returns to a state this context held (no bound is checked: it held).
  void return_to(const State& state);

  Protocol& protocol() { return protocol_; }
  Rng& rng() { return rng_; }

  /// For strategies that compute a flow on loads first (diffusion, dimension exchange, ...):
  /// how far the objects chosen are from that flow, sum |moved - flow| / sum |flow| over
  /// the edges.
  void set_flow_error(double error) { flow_error_ = error; }
  std::optional<double> flow_error() const { return flow_error_; }

private:
  // The whole mapping replaced (remap, return_to): its loads and works recomputed, `memory` its accounting.
  void take(const std::vector<NodeId>& mapping, NodeMemory memory);

  const Phase* phase_;
  const Topology* topology_;
  std::vector<NodeId> mapping_;
  std::vector<double> loads_;
  WorkModel work_model_;
  std::optional<NodeWork> work_;  // kept only where the work does not follow the loads
  double memory_bound_;
  std::size_t memory_group_;
  NodeMemory memory_;
  std::vector<ObjectIndex> unplaced_;
  Protocol protocol_;
  Rng rng_;
  std::optional<double> flow_error_;
};

class PhaseStrategy {
public:
  virtual ~PhaseStrategy() = default;
  virtual void rebalance(PhaseContext& ctx) = 0;
};

struct PhaseStrategyInfo {
  static constexpr const char* kind = "phase strategy";
  std::string name;
  std::string description;  ///< one line
  std::string source;       ///< the paper or system it follows, e.g. "Cyb89 Sec. 2"
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<PhaseStrategy>(const Parameters&)> create;
  /// Where set, throws InputError when the strategy cannot run on the topology.
  std::function<void(const Topology&)> check_topology;
  /// Whether it reads the phase's communications (a runtime records them only then).
  bool reads_communications = false;
  /// Whether its criterion weighs the nodes' speeds (node_alpha) in every choice, balancing
  /// times: a runtime with declared speeds runs only such a strategy.
  bool weighs_speeds = false;
  /// Where set and true for the parameters, the strategy moves only whole clusters (each node's
  /// objects of one shared block, together) and never an object of no block: its lower bound
  /// then counts clusters as indivisible (lower_bound.hpp).
  std::function<bool(const Parameters&)> moves_whole_clusters;
  /// Where set, the strategy's agent on one rank of a distributed run (rank_protocol.hpp).
  std::function<std::unique_ptr<RankProtocol>(const Parameters&, const RankSetup&)> rank_protocol;
  /// Whether it plans each node's memory alone (a plan for PhaseContext::remap): it takes no
  /// memory group.
  bool plans_node_memory = false;
};

/// The registry entry of a phase strategy class S, declared once in static members (name,
/// description, source, optional params(), check_topology, reads_communications, weighs_speeds,
/// moves_whole_clusters, rank_protocol and plans_node_memory) and built from its Parameters.
template <class S>
PhaseStrategyInfo phase_strategy_info() {
  PhaseStrategyInfo info{.name = S::name,
                         .description = S::description,
                         .source = S::source,
                         .create = [](const Parameters& p) -> std::unique_ptr<PhaseStrategy> {
                           return std::make_unique<S>(p);
                         }};
  if constexpr (requires { S::params(); }) info.params = S::params();
  if constexpr (requires(const Topology& t) { S::check_topology(t); }) info.check_topology = S::check_topology;
  if constexpr (requires { S::reads_communications; }) info.reads_communications = S::reads_communications;
  if constexpr (requires { S::weighs_speeds; }) info.weighs_speeds = S::weighs_speeds;
  if constexpr (requires { &S::moves_whole_clusters; }) info.moves_whole_clusters = &S::moves_whole_clusters;
  if constexpr (requires { &S::rank_protocol; }) info.rank_protocol = &S::rank_protocol;
  if constexpr (requires { S::plans_node_memory; }) info.plans_node_memory = S::plans_node_memory;
  return info;
}

using PhaseStrategyRegistry = Registry<PhaseStrategyInfo>;
using PhaseStrategyChoice = Choice<PhaseStrategyInfo>;

}  // namespace dlbkit
