#pragma once
/// \file
/// The Hierarchical Balancing Method (WLR93 Sec. III-D, parameters from Table II).
///
/// The 2^d nodes form a binary hierarchy of balancing domains (Fig. 4): the level-i domain of
/// node p is the subcube of the 2^i nodes that agree with p on the bits above i - 1, and its
/// controller is the lowest id in it. Domain loads go up the tree by the load update policy
/// (Sec. III-F, u = 1/2), from leaves and intermediate nodes alike. A controller at level i
/// compares the loads of its two halves; when |L_L - L_R| > L_threshold(i) (eq. 22) it tells
/// every node of the heavier half, by a broadcast down that half, to send
/// delta_i = Delta_i / 2^i tasks (eq. 23) to its partner q = p XOR 2^(i-1) (eq. 24).
/// On a hypercube partners are neighbours; on another network of 2^d nodes the messages and
/// tasks are routed and pay for the hops. Other node counts are rejected.

#include <dlbkit/core/registry.hpp>

namespace dlbkit {

StrategyInfo hbm_strategy_info();

}  // namespace dlbkit
