#include <dlbkit/phases/figures.hpp>
#include <dlbkit/phases/memory.hpp>

#include <algorithm>
#include <numeric>

namespace dlbkit {

PhaseFigures phase_figures(const Phase& phase, const std::vector<NodeId>& mapping) {
  PhaseFigures figures;
  const std::vector<double> loads = node_loads(phase, mapping);
  figures.max_load = *std::max_element(loads.begin(), loads.end());
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

}  // namespace dlbkit
