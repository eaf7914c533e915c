#pragma once
/// \file
/// `lifeline`: lifeline-based global load balancing (V. A. Saraswat, P. Kambadur,
/// S. Kodali, D. Grove, S. Krishnamoorthy, "Lifeline-based global load balancing", PPoPP
/// 2011, Sec. 3; the lifeline graph and the protocol as in X10's GLB library,
/// LocalJobRunner and LifelineGenerator).
///
/// A node that runs out of tasks makes up to `w` random steal attempts, one at a time; a
/// victim with spare tasks (NodeContext::spare) gives half of them (rounded up), otherwise
/// it refuses. When all w fail, the thief asks each of its lifeline buddies in turn whose
/// lifeline is not yet active. A buddy with spare tasks gives half at once; one without
/// records the thief (the lifeline is now active) and refuses. Then the thief sleeps: it
/// sends nothing more until tasks arrive. A node that gets tasks while it has recorded
/// lifeline thieves gives each of them half of its spare tasks in turn (a lifeline gift,
/// which deactivates that lifeline), so work flows back along the lifeline graph to the
/// sleepers.
///
/// The lifeline graph is GLB's cyclic hypercube of base `l`: for P nodes and the least z
/// with l^z >= P, node i's buddy in dimension j is i with its j-th base-l digit lowered by
/// one, cyclically, skipping numbers >= P. With l = 2 it is the binary hypercube (P = 2^z),
/// each node has at most z = ceil(log_l P) buddies, and every node reaches every other.
/// The graph is an overlay: the strategy runs on any topology.

#include <dlbkit/core/registry.hpp>

#include <vector>

namespace dlbkit {

/// Node `self`'s lifeline buddies among `nodes` in the cyclic hypercube of base `base`.
std::vector<NodeId> lifeline_buddies(NodeId self, std::size_t nodes, std::size_t base);

}  // namespace dlbkit
