#pragma once
/// \file
/// The flow phase strategies (diffusion, dimension_exchange, sos, chebyshev; hbm computes
/// its flow its own way and shares the realisation) in two halves:
///
/// 1. The ideal flow. The scheme's synchronous rounds run on the nodes' loads as real numbers
///    (Cyb89 Sec. 2 treats loads as reals), and every edge keeps the net load the scheme sent
///    across it, summed over the rounds: for diffusion f_uv += alpha (l_u - l_v) per round.
///    In a round every node sends one message to each partner (its load, or its z for the
///    second-order schemes) and updates its load from what they sent. Before each round the
///    nodes learn the imbalance max/mean - 1 of their loads by a reduction to node 0 and back
///    along a binomial tree (one message per node each way, 2 ceil(log2 n) rounds; central.hpp);
///    they stop when it is at most
///    `tolerance` or after `rounds` rounds (auto: from the analysis, FlowStop::factor).
/// 2. The realisation. The flow is moved as whole objects (realise() below), and the flow
///    error sum_e |moved_e - f_e| / sum_e |f_e| (over the edges, each once) says how far the
///    objects are from it. Each node fills its positive outgoing flows, largest first, from
///    the migratable objects it holds, as `selection` says; one message per such edge
///    announces the objects. A flow that crosses a node on its way (as out of a hot spot)
///    needs objects the node receives: with hops = 1 a node ships only the objects it had
///    before balancing, so such a flow ends at the first node whose outgoing flow exceeds
///    what it had, and the error counts the rest. hops = k (default: the diameter) lets the
///    objects received in one migration round be passed on in the next, up to k rounds and
///    until a round moves nothing, each round priced like the first (one message an edge
///    still owed flow); objects_migrated and the migration cost of protocol.hpp count an
///    object's first and last node only.

#include <dlbkit/phases/phase_strategy.hpp>
#include <dlbkit/topology/edge_coloring.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dlbkit {

inline constexpr IntegerParam kFlowRounds{.name = "rounds", .default_value = "auto",
    .description = "most rounds of the scheme on the loads; auto: the rounds after which the analysis's "
                   "convergence factor brings ||l - mean|| within tolerance x mean, and so the imbalance within "
                   "the tolerance (Cyb89 eq. 11 and its successors' predictions)",
    .min = 1, .max = 10'000'000, .allow_auto = true};
inline constexpr RealParam kFlowTolerance{.name = "tolerance", .default_value = "0.05",
    .description = "the rounds stop once the loads' imbalance max/mean - 1 is at most this", .min = 1e-9,
    .max = 0.99, .search = {"0.02", "0.2"}};
inline constexpr ChoiceParam kFlowSelection{.name = "selection", .default_value = "greedy",
    .description = "how a node picks the objects for an edge's flow f: greedy: the largest object not above "
                   "what is left of f, again and again, then the smallest one if it lands nearer f than the "
                   "gap it closes; largest_first: the same without that last object (never above f)",
    .choices = {"greedy", "largest_first"}};
inline constexpr IntegerParam kFlowHops{.name = "hops", .default_value = "auto",
    .description = "most migration rounds: in each, a node ships what it holds at its start toward the flow it "
                   "still owes, so objects can pass through nodes; they stop after a round that moves nothing; "
                   "1: only the objects a node had before balancing; auto: the network's diameter (one more on "
                   "nodes of unequal speed)",
    .min = 1, .max = 1000, .allow_auto = true};
inline constexpr ChoiceParam kFlowTransit{.name = "transit", .default_value = "forward",
    .description = "what a node ships for flow that passes through it: forward: in the first hop only its own "
                   "objects for the outflow its inflow does not cover, then the objects it receives, passed on; "
                   "own: its own objects at once for all its outflow, keeping what it receives (every node on a "
                   "flow's path then migrates objects)",
    .choices = {"forward", "own"}};

/// Heterogeneous diffusion (Elsaesser, Monien, Preis, "Diffusion schemes for load balancing on
/// heterogeneous networks", Theory Comput. Syst. 35, 2002): node v has capacity c_v, the scheme
/// runs on l_v / c_v with the diffusion matrix I - alpha L C^-1, and the balanced state has
/// each node's load in proportion to its capacity, l_v = c_v sum l / sum c. The capacities are
/// the speeds over the slowest one's (c_v >= 1), so that the alpha that keeps I - alpha L
/// nonnegative and convergent keeps I - alpha L C^-1 so too (C^-1/2 L C^-1/2 <= L).
struct FlowCapacities {
  std::vector<double> of;  ///< c_v by node; empty: every node equally fast (all 1)
  double total = 0;        ///< sum c_v (the node count where `of` is empty)
  double spread = 1;       ///< the largest c_v
  bool empty() const { return of.empty(); }
  double operator[](std::size_t v) const { return of.empty() ? 1.0 : of[v]; }
};
/// From the nodes' speeds (one per node, or none: all 1): `of` empty where they are all equal.
FlowCapacities flow_capacities(std::span<const double> speeds, std::size_t nodes);
/// From the phase's node_alpha (speeds.hpp, node_speeds).
FlowCapacities flow_capacities(const Phase& phase);

/// A bound on gamma of I - alpha L C^-1 from gamma of I - alpha L, for capacities whose largest
/// is `spread` (the smallest 1): the eigenvalues of alpha C^-1/2 L C^-1/2 lie in
/// [alpha mu_2 / spread, alpha mu_max], so gamma' <= 1 - (1 - gamma) / spread; `gamma` itself for
/// spread 1.
double heterogeneous_gamma(double gamma, double spread);

/// The stop rule of the rounds, from the parameters above.
struct FlowStop {
  std::optional<std::uint64_t> rounds;  ///< nullopt: auto
  double tolerance = 0.05;
  static FlowStop from(const Parameters& p);
  /// The factor by which the scheme must shrink ||l - mean|| (Euclidean) so that it is at most
  /// tolerance x mean: then max/mean - 1 is within the tolerance too. The first reduction
  /// gathers the sum of squares with the loads. At least 1 (nothing to shrink). With
  /// capacities, the mean is sum l / sum c, the deviations are e_v = l_v - c_v mean, and the
  /// norm is the one the scheme shrinks by gamma each round, ||C^-1/2 e||, times sqrt(spread)
  /// (||e|| <= sqrt(spread) ||C^-1/2 e||, and max l_v / c_v - mean <= ||e||).
  double factor(const std::vector<double>& loads, const FlowCapacities& capacities = {}) const;
  /// The rounds to run: `rounds`, or for auto `predicted` (the analysis's count for
  /// factor()); InputError naming `owner` and `why` when that is nullopt.
  std::uint64_t limit(std::optional<std::uint64_t> predicted, const std::string& owner, const std::string& why) const;
};

/// Per (node, neighbour slot) of the topology (Topology::neighbor_offsets), the net load the
/// scheme sent from the node to that neighbour; each edge's two ends hold opposite values.
struct IdealFlow {
  std::vector<double> edge;
  std::vector<double> loads;  ///< the loads the rounds reached
  std::uint64_t rounds = 0;
};

/// First- and second-order diffusion in flow form (rounds/polynomial_kernel.hpp):
///   z(t) = (beta_t - 1) z(t-1) + beta_t l(t),  z(0) = l(0);   f_uv += alpha (z_u - z_v)
/// betas[t] for round t, the last for all later ones; all 1 is first-order diffusion
/// (z = l, Cyb89 eq. 1a). With capacities the heterogeneous scheme (FlowCapacities):
/// f_uv += alpha (z_u / c_u - z_v / c_v), and the rounds stop once max l_v / c_v over
/// sum l / sum c, less 1, is within the tolerance.
IdealFlow polynomial_flow(PhaseContext& ctx, double alpha, const std::vector<double>& betas, std::uint64_t max_rounds,
                          double tolerance, const FlowCapacities& capacities = {});

/// Dimension exchange (Cyb89 Sec. 4) over an edge colouring: round t pairs the ends of the
/// edges of colour t mod C, and f_vp += lambda (l_v - l_p). With capacities each pair moves
/// lambda x 2 of the way to loads in proportion to its capacities (lambda = 1/2: all the way):
/// f_vp += exchange_weight(lambda, c_v, c_p) (l_v / c_v - l_p / c_p).
IdealFlow exchange_flow(PhaseContext& ctx, const EdgeColoring& colouring, double lambda, std::uint64_t max_rounds,
                        double tolerance, const FlowCapacities& capacities = {});
/// 2 lambda c_v c_p / (c_v + c_p): lambda where both capacities are 1.
inline double exchange_weight(double lambda, double cv, double cp) { return 2 * lambda * cv * cp / (cv + cp); }

/// The migration rounds allowed (kFlowHops): auto is the network's diameter, one more on nodes
/// of unequal speed (`unequal`), where the flow also runs between two nodes that both end up
/// receiving (a slow node's early surplus passed on to a fast one), even on a complete graph.
long long flow_hops(const Parameters& p, const Topology& topology, bool unequal);

/// Moves objects along the flow's edges (selection and hops as the parameters above say),
/// reports the objects no neighbour had room for, and sets the flow error.
void realise(PhaseContext& ctx, const IdealFlow& flow, const Parameters& p);

/// gamma(M) of M = I - alpha L on the topology (analysis/polynomial_schemes.hpp): 1 for
/// alpha = 0 (no exchange), 0 on a single node (nothing to balance).
double uniform_gamma(const Topology& topology, double alpha);

/// The flow strategies' parameters after the scheme's own: rounds, tolerance, selection, hops.
std::vector<ParamSpec> with_flow_params(std::vector<ParamSpec> scheme);
/// Those of realise() alone (selection, hops), for a scheme without rounds on the loads.
std::vector<ParamSpec> with_realisation_params(std::vector<ParamSpec> scheme);

}  // namespace dlbkit
