#pragma once
/// \file
/// The dynamic load generator for Zambonelli's experiments (Sec. 4): "dummy" processes, g per
/// node on average, whose creation and completion change the load at a chosen dynamicity
/// (delta-sigma per second) and dispersion (delta-delta as a fraction of delta-sigma), both
/// measured with the paper's own formulas (Sec. 4.1, workloads/load_metrics.hpp).
///
/// The model (docs/reproductions/zambonelli.md has the reasoning):
/// - The population is constant while the generator runs: every process that completes is
///   replaced by a new one. With probability p the replacement is created elsewhere (a
///   relocation: -1 here, +1 there), otherwise on the same node (no change of load).
/// - A process needs an exponentially distributed amount of work of mean `work`; under
///   processor sharing a busy node completes processes at rate 1/work whatever its load, so a
///   node relocates load at r = p / work per second.
/// - The destination of a relocation is, with probability q, a random direct neighbour of
///   the node where the process completed (a local reshuffle: low dispersion), otherwise a
///   hot spot: once as many processes as its domain has nodes have been relocated there, they
///   are created together, one on each node of the domain (concentrated change: high
///   dispersion); the hot spot moves to a random node after receiving g processes.
/// - r and q are calibrated (calibrate_dynamic_load) by simulating this load process alone and
///   measuring delta-sigma and delta-delta per second with the interval delta_t.
/// - After duration * N / work completions (about `duration` seconds with every node busy)
///   completed processes are no longer replaced and the load drains.

#include <dlbkit/sim/workload.hpp>

namespace dlbkit {

struct DynamicLoadCalibration {
  double relocation_rate = 0;  ///< r: relocations per node per second
  double near_fraction = 1;    ///< q: share of relocations to a neighbour (the rest to a hot spot)
  double dsigma_per_second = 0;  ///< what the load process alone measured at (r, q)
  double ddelta_per_second = 0;
};

/// Finds r and q giving `dynamicity` (delta-sigma per second) and `dispersion` (delta-delta /
/// delta-sigma) on `topology` with `granularity` processes per node, measured over intervals
/// of `delta_t`. Deterministic. Throws InputError when the dispersion is out of the range the
/// generator reaches at that dynamicity on that topology (the message gives the range). A
/// negative `dispersion` (-0.0 included) fixes q = -dispersion and calibrates r only.
DynamicLoadCalibration calibrate_dynamic_load(const Topology& topology, double granularity, double dynamicity,
                                              double dispersion, SimTime delta_t);

}  // namespace dlbkit
