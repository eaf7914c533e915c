#pragma once
/// \file
/// The Gradient Model (WLR93 Sec. III-A and V, parameters from Table II).
///
/// A node is light below the Low-Water-Mark, heavy above the High-Water-Mark and moderate
/// otherwise. Its proximity is 0 when light and min over its neighbours + 1 otherwise (eq. 5),
/// capped at w_max = the network's diameter; a node tells its neighbours whenever its
/// proximity changes. A heavy node with a neighbour of proximity below w_max sends delta tasks
/// to the neighbour of lowest proximity whenever its load changes; tasks arriving at a node that is not light move on
/// to a neighbour of lower proximity, at most max_hops moves per task (the hop counter of
/// Sec. V).

#include <dlbkit/core/registry.hpp>

namespace dlbkit {

StrategyInfo gm_strategy_info();

}  // namespace dlbkit
