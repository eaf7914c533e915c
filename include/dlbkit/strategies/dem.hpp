#pragma once
/// \file
/// The Dimension Exchange Method (WLR93 Sec. III-E and V, parameters from Table II).
///
/// A node whose load drops below L_LOW (eq. 30) broadcasts a balancing request carrying a
/// request ID. Every node then runs one synchronized sweep over the dimensions 0..d-1: in
/// dimension k it exchanges loads with its partner across that dimension, the heavier of the
/// two sends floor((L_a - L_b) / 2) tasks (when at least delta_MIN) and announces how many,
/// and the node goes on to dimension k + 1 only when that exchange is complete. A request
/// whose ID is not above the last one a node knows is obsolete and ignored (Sec. V).
/// On a hypercube the request travels down a spanning tree by dimensions; on any other
/// network it is flooded, and the colour classes of a proper edge colouring
/// (topology/edge_coloring.hpp) play the role of the dimensions.

#include <dlbkit/core/registry.hpp>

namespace dlbkit {

StrategyInfo dem_strategy_info();

}  // namespace dlbkit
