#pragma once
/// \file
/// The figures of a phase under a mapping: what a balancer is judged by.

#include <dlbkit/phases/phase.hpp>

#include <vector>

namespace dlbkit {

struct PhaseFigures {
  double max_load = 0;   ///< seconds: the phase's time on the slowest node
  double mean_load = 0;  ///< seconds: total load / nodes
  double imbalance = 0;  ///< I = max / mean - 1 (0 for a phase without load)
  /// Communication between objects on different nodes.
  double crossing_messages = 0;
  double crossing_bytes = 0;
  double max_memory = 0;  ///< bytes, 0 when the phase has no memory
};

PhaseFigures phase_figures(const Phase& phase, const std::vector<NodeId>& mapping);

}  // namespace dlbkit
