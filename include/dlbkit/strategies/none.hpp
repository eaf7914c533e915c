#pragma once
/// \file
/// `none` (NOBAL in WLR93 Table IV): every node executes its own tasks; nothing moves.

#include <dlbkit/core/registry.hpp>

namespace dlbkit {

StrategyInfo none_strategy_info();

}  // namespace dlbkit
