#pragma once
/// \file
/// The registry of every phase strategy dlbkit ships (docs/phases.md). Immutable, built on
/// first use.
///
/// ```
/// auto greedy = dlbkit::builtin_phase_strategies().configure("greedy", {});
/// ```

#include <dlbkit/phases/phase_strategy.hpp>

namespace dlbkit {

const PhaseStrategyRegistry& builtin_phase_strategies();

}  // namespace dlbkit
