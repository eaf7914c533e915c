#pragma once
/// \file
/// The registry of every strategy dlbkit ships. Immutable, built on first use.

#include <dlbkit/core/registry.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cstddef>

namespace dlbkit {

const StrategyRegistry& builtin_strategies();

/// `--topology auto`: the first network of `nodes` nodes that `strategy` accepts, among
/// hypercube:d (n = 2^d), complete:n, bisectional:m (n = 2^(m-1), m odd) and ring:n.
/// Throws InputError naming the networks tried when it accepts none of them.
Topology auto_topology(const StrategyInfo& strategy, std::size_t nodes);

}  // namespace dlbkit
