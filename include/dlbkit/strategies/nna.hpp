#pragma once
/// \file
/// Synchronous nearest-neighbour averaging (Henrich Sec. 2.3 eq. 3, 5; Sec. 5) as a
/// message-driven agent on a ring. Every `period` a round runs: each node sends its number of
/// queued tasks to both neighbours, then ships to each the elements of the transfer rule
/// (net, default: over each link the difference of the opposed eq.-5 transfers, rounded up to
/// the right and down to the left; gross: ceil(L/3) right and floor(L/3) left), and tells both
/// how many it shipped. Protocol in docs/strategies.md.
///
/// Parameters: transfer (net or gross), period (time between rounds, default 10ms).

#include <dlbkit/core/registry.hpp>

namespace dlbkit {

StrategyInfo nna_strategy_info();

}  // namespace dlbkit
