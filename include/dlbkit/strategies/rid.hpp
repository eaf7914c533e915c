#pragma once
/// \file
/// Receiver Initiated Diffusion (WLR93 Sec. III-C, parameters from Table II).
///
/// A node whose own load drops below L_LOW, and that has no request outstanding, computes
/// the domain average (eq. 8); if it lies below it by more than L_threshold (eq. 16) it asks
/// each neighbour k above the average for delta_k = (Lbar - l_p) h_k / H_p tasks (eq. 17-18),
/// rounded down, when delta_k >= delta_MIN. A neighbour gives at most half of its current
/// load, and acknowledges every request with the number it sends. Neighbour loads come from
/// the load update policy (Sec. III-F, u = 9/10).

#include <dlbkit/core/registry.hpp>

namespace dlbkit {

StrategyInfo rid_strategy_info();

}  // namespace dlbkit
