#pragma once
/// \file
/// The registry of every phase strategy dlbkit ships (docs/phases.md). Immutable, built on
/// first use.
///
/// ```
/// auto greedy = dlbkit::builtin_phase_strategies().configure("greedy", {});
/// ```

#include <dlbkit/phases/phase_strategy.hpp>

#include <string>
#include <vector>

namespace dlbkit {

const PhaseStrategyRegistry& builtin_phase_strategies();

/// The names of those whose criterion weighs the nodes' speeds (PhaseStrategyInfo::weighs_speeds), in
/// registry order.
std::vector<std::string> strategies_weighing_speeds();

}  // namespace dlbkit
