#pragma once
/// \file
/// Sender Initiated Diffusion (WLR93 Sec. III-B, parameters from Table II).
///
/// When a neighbour's load update arrives reporting l_k < L_LOW, a node computes the domain
/// average Lbar (eq. 8) over itself and its neighbours' last reported loads; if its own load
/// exceeds it by more than L_threshold (eq. 9) it apportions the excess l_p - Lbar to the
/// neighbours below the average in proportion to their deficiency h_k / H_p (eq. 10-12) and
/// sends each floor(delta_k) tasks when that is at least delta_MIN. Loads travel by the load
/// update policy (Sec. III-F, u = 9/10).

#include <dlbkit/core/registry.hpp>

namespace dlbkit {

StrategyInfo sid_strategy_info();

}  // namespace dlbkit
