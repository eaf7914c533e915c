#pragma once
/// \file
/// A lower bound on the maximum load that any balancing of a phase can reach: what a result is
/// judged against (docs/phases.md, "How far from the best"). Where the phase has alphas it
/// bounds the makespan, the busiest node's time alpha_v x load_v, and with every alpha 1 that
/// is the max load. It is the largest of
///
///   - total load / total speed (l_v <= T / alpha_v on every node, summed: total <= T sum 1/alpha);
///   - the heaviest object on the fastest node (an object is not split);
///   - the P-th and (P+1)-th heaviest objects together on the fastest node, P the nodes (two
///     of the P + 1 heaviest share a node);
///   - on each node, its alpha x the objects that must stay there: unmigratable ones, and
///     under a memory bound those that fit alone on no other node.
///
/// With `whole_clusters` (a strategy that moves only whole clusters, as LBAF's Clustering
/// without subclusters) the units are the clusters, not the objects: each node's migratable
/// objects of one shared block at the start. Clusters merge as they move but never split; an
/// object of no block, and a cluster with an object that must stay, stay where they are.
///
/// ```
/// double bound = dlbkit::max_load_lower_bound(phase, memory_bound);
/// ```

#include <dlbkit/phases/phase.hpp>

namespace dlbkit {

/// Valid for every mapping a phase strategy can make (PhaseContext's moves) and for every
/// mapping within `memory_bound` (bytes per node, infinity: none); with `whole_clusters`, for
/// every mapping that moves only whole clusters.
double max_load_lower_bound(const Phase& phase, double memory_bound, bool whole_clusters = false);

}  // namespace dlbkit
