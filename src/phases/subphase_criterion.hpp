#pragma once
// The subphase-aware criterion, an option (subphases=true) of greedy and refine. A phase
// whose subphases end at the program's synchronisations takes the sum over them of the
// slowest node's time in each, alpha x load (phase_time, figures.hpp), so balanced phase loads are not
// enough: a node heavy in one subphase and light in the other looks balanced. Each object's
// load is then a vector, one entry per subphase, as in the multi-constraint partitioning of
// Karypis and Kumar ("Multilevel algorithms for multi-constraint graph partitioning",
// SC'98, whose motivating case is the phases of one computation, each to be balanced); the
// objective here is the phase's time itself. A phase without subphases is one part: the
// strategies keep their scalar criterion.

#include <dlbkit/phases/phase_strategy.hpp>

namespace dlbkit::detail {

/// The option's description, one for every strategy that has it.
inline constexpr const char* kSubphasesText =
    "weigh the phase's time over its subphases (the sum of each one's most loaded node) instead of its load; "
    "the same as false on a phase without subphases";

/// greedy's placement under the criterion: every migratable object, heaviest (phase load)
/// first, to the node with room where it raises the phase's time least; among equals, the
/// node whose subphase loads are least aligned with the object's (the smallest dot product,
/// the "DotProduct" rule of vector bin packing, Panigrahy et al., Microsoft Research 2011),
/// which pairs objects heavy in different subphases. Starts from the unmigratable objects.
void place_by_subphases(PhaseContext& ctx);

/// refine under the criterion: while some subphase's slowest node is above (1 + tolerance) x
/// that subphase's balanced time (its total load / total speed), it gives one object to a node or swaps one with it, the
/// change that lowers the phase's time most, or, keeping the time, the sum of the squared
/// node subphase loads (so that a plateau of equally loaded nodes is left). The receivers are
/// the 8 least loaded nodes of each subphase; a swap's partner is one of the receiver's
/// objects whose total load is nearest the ideal one. It ends when no change helps, or after
/// as many steps as nodes without a lower time.
void refine_by_subphases(PhaseContext& ctx, double tolerance);

}  // namespace dlbkit::detail
