#pragma once
/// \file
/// The registry of every strategy dlbkit ships. Immutable, built on first use.

#include <dlbkit/core/registry.hpp>

namespace dlbkit {

const StrategyRegistry& builtin_strategies();

}  // namespace dlbkit
