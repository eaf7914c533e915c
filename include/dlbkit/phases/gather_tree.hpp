#pragma once
/// \file
/// How a central strategy's gather reaches its root, rank 0, and its scatter comes back: flat
/// (every rank sends to the root) up to `flat_up_to` ranks; above, through group leaders, as
/// Charm++'s hierarchical balancers do: ranks in groups of ceil(sqrt(P)) consecutive ids send
/// to their group's first rank, and the leaders to the root. The root then handles about
/// 2 sqrt(P) messages instead of P - 1 (510 instead of 65 535 at 65 536 ranks), in two rounds.
/// The simulator's protocol (central.hpp) and the plan API (objects/balancer.hpp) share it.

#include <dlbkit/topology/topology.hpp>

#include <cmath>
#include <cstddef>

namespace dlbkit {

struct GatherTree {
  std::size_t ranks = 1;
  std::size_t group = 1;  ///< ranks per group; `ranks` when flat

  static constexpr std::size_t kFlatUpTo = 1024;

  explicit GatherTree(std::size_t ranks, std::size_t flat_up_to = kFlatUpTo) : ranks(ranks), group(ranks) {
    if (ranks <= flat_up_to) return;
    group = static_cast<std::size_t>(std::sqrt(static_cast<double>(ranks)));
    while (group * group < ranks) ++group;
  }
  bool flat() const { return group >= ranks; }
  NodeId leader(NodeId rank) const { return static_cast<NodeId>(rank / group * group); }
};

}  // namespace dlbkit
