#pragma once
/// \file
/// The fully distributed baseline of AG91 Sec. 6: when a task arrives at a node, from
/// outside or from a neighbour, the node asks its neighbours for their loads; when every
/// answer is in, the task moves to the least-loaded neighbour if that neighbour's load is
/// lower than the node's own (without the task), and otherwise stays. A task migrates at
/// most `transfer_limit` times (the diameter by default, as in AG91 Table IV).

#include <dlbkit/core/registry.hpp>

namespace dlbkit {

StrategyInfo fully_distributed_strategy_info();

}  // namespace dlbkit
