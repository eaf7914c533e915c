#include <dlbkit/phases/figures.hpp>
#include <dlbkit/phases/memory.hpp>

#include <algorithm>
#include <numeric>

namespace dlbkit {

namespace {

/// The sum over `parts` of the slowest node's time, alpha x load, with `loads` node-major.
double slowest_times(const Phase& phase, const std::vector<double>& loads, std::size_t parts) {
  double time = 0;
  for (std::size_t s = 0; s < parts; ++s) {
    double slowest = 0;
    for (NodeId v = 0; v < phase.nodes; ++v) slowest = std::max(slowest, alpha_of(phase, v) * loads[v * parts + s]);
    time += slowest;
  }
  return time;
}

}  // namespace

PhaseFigures phase_figures(const Phase& phase, const std::vector<NodeId>& mapping) {
  PhaseFigures figures;
  const std::vector<double> loads = node_loads(phase, mapping);
  figures.max_load = *std::max_element(loads.begin(), loads.end());
  // The loads at hand serve a phase without subphases.
  figures.subphase_time = phase.subphases == 0 ? slowest_times(phase, loads, 1) : phase_time(phase, mapping);
  figures.mean_load = std::accumulate(loads.begin(), loads.end(), 0.0) / static_cast<double>(phase.nodes);
  // max >= mean: a quotient just under 1 is the rounding of the sum, not a negative imbalance.
  figures.imbalance = figures.mean_load > 0 ? std::max(0.0, figures.max_load / figures.mean_load - 1) : 0.0;
  for (const ObjectCommunication& c : phase.communications)
    if (mapping[c.from] != mapping[c.to]) {
      figures.crossing_messages += c.messages;
      figures.crossing_bytes += c.bytes;
    }
  figures.max_memory = NodeMemory(phase, mapping).max();
  return figures;
}

double phase_time(const Phase& phase, const std::vector<NodeId>& mapping) {
  return phase.subphases == 0 ? slowest_times(phase, node_loads(phase, mapping), 1)
                              : slowest_times(phase, node_subphase_loads(phase, mapping), phase.subphases);
}

}  // namespace dlbkit
