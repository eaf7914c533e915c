#pragma once
/// \file
/// The figures of a phase under a mapping: what a balancer is judged by.

#include <dlbkit/phases/phase.hpp>

#include <vector>

namespace dlbkit {

struct PhaseFigures {
  double max_load = 0;   ///< seconds: the phase's time on the slowest node
  /// seconds: the phase's time, the slowest node's time alpha x load (alpha_of, phase.hpp),
  /// summed over the subphases where they end at synchronisations; max_load for a phase
  /// without subphases or alphas.
  double subphase_time = 0;
  double mean_load = 0;  ///< seconds: total load / nodes
  double imbalance = 0;  ///< I = max / mean - 1 (0 for a phase without load)
  /// Communication between objects on different nodes.
  double crossing_messages = 0;
  double crossing_bytes = 0;
  double max_memory = 0;  ///< bytes, 0 when the phase has no memory
};

PhaseFigures phase_figures(const Phase& phase, const std::vector<NodeId>& mapping);

/// PhaseFigures::subphase_time alone: the phase's time under `mapping`.
double phase_time(const Phase& phase, const std::vector<NodeId>& mapping);

}  // namespace dlbkit
