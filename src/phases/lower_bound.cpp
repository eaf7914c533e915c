#include <dlbkit/phases/lower_bound.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

namespace dlbkit {

namespace {

/// Each node's load of the objects that cannot leave it. PhaseContext moves an object only
/// when it is migratable and the node it joins stays within the bound, and that node then
/// holds at least its own working bytes, the object's block, footprint and working bytes;
/// a mapping within the bound needs the same. An object for which that sum exceeds the bound
/// on every other node ends where it is.
std::vector<double> pinned_loads(const Phase& phase, double memory_bound) {
  std::vector<double> pinned(phase.nodes, 0.0);
  const bool memory = phase.has_memory && std::isfinite(memory_bound);
  // The smallest own working bytes on a node other than v: the least, or the second least on its node.
  NodeId least = 0;
  double second = std::numeric_limits<double>::infinity();
  if (memory) {
    for (NodeId v = 1; v < phase.nodes; ++v)
      if (phase.node_working_bytes[v] < phase.node_working_bytes[least]) least = v;
    for (NodeId v = 0; v < phase.nodes; ++v)
      if (v != least) second = std::min(second, phase.node_working_bytes[v]);
  }
  for (std::size_t i = 0; i < phase.objects.size(); ++i) {
    const PhaseObject& o = phase.objects[i];
    bool stays = !o.migratable;
    if (!stays && memory) {
      const NodeId v = phase.node_of[i];
      const double own = v == least ? second : phase.node_working_bytes[least];
      const double block = o.memory.block >= 0 ? phase.block_bytes[o.memory.block] : 0.0;
      stays = own + block + o.memory.footprint_bytes + o.memory.working_bytes > memory_bound;
    }
    if (stays) pinned[phase.node_of[i]] += o.load;
  }
  return pinned;
}

}  // namespace

double max_load_lower_bound(const Phase& phase, double memory_bound) {
  std::vector<double> loads(phase.objects.size());
  std::transform(phase.objects.begin(), phase.objects.end(), loads.begin(), [](const PhaseObject& o) { return o.load; });
  double bound = std::accumulate(loads.begin(), loads.end(), 0.0) / total_speed(phase);
  // An object's time is at least its load on the fastest node, the least alpha.
  const double fastest =
      phase.node_alpha.empty() ? 1.0 : *std::min_element(phase.node_alpha.begin(), phase.node_alpha.end());
  if (!loads.empty()) bound = std::max(bound, *std::max_element(loads.begin(), loads.end()) * fastest);
  const std::size_t p = phase.nodes;
  if (loads.size() > p) {  // the P + 1 heaviest first, the (P+1)-th at index p
    std::nth_element(loads.begin(), loads.begin() + static_cast<std::ptrdiff_t>(p), loads.end(), std::greater<>());
    const double p_th = *std::min_element(loads.begin(), loads.begin() + static_cast<std::ptrdiff_t>(p));
    bound = std::max(bound, (p_th + loads[p]) * fastest);
  }
  const std::vector<double> pinned = pinned_loads(phase, memory_bound);
  for (NodeId v = 0; v < phase.nodes; ++v) bound = std::max(bound, pinned[v] * alpha_of(phase, v));
  return bound;
}

}  // namespace dlbkit
