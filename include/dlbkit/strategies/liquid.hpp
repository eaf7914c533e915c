#pragma once
/// \file
/// The Liquid model as a message-driven agent (Henrich Sec. 3.2, Table 1, Definition 1), on a
/// D-dimensional torus (torus, ring, hypercube). Shift rounds run `period` apart; round r works
/// in dimension r mod D: every node sends its number of queued tasks L (the load elements that
/// can move) to its predecessor and successor in that dimension, evaluates the shift condition
/// on (L_pred, L, L_succ) and, where it holds, ships one task to its successor. A node waits for
/// its neighbours' loads and its predecessor's shift before the next round, so rounds stay
/// synchronous under any message delays (protocol in docs/strategies.md).
///
/// Parameters: condition (c0..c5, default c5), period (time between rounds, default 10ms).

#include <dlbkit/core/registry.hpp>

namespace dlbkit {

StrategyInfo liquid_strategy_info();

}  // namespace dlbkit
