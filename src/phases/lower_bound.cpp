#include <dlbkit/phases/lower_bound.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace dlbkit {

namespace {

/// Whether each object cannot leave its node. PhaseContext moves an object only when it is
/// migratable and the node it joins stays within the bound, and that node then holds at least
/// its own working bytes, the object's block, footprint and working bytes; a mapping within
/// the bound needs the same. An object for which that sum exceeds the bound on every other
/// node ends where it is.
std::vector<char> staying(const Phase& phase, double memory_bound) {
  std::vector<char> stays(phase.objects.size(), 0);
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
    stays[i] = !o.migratable;
    if (!stays[i] && memory) {
      const NodeId v = phase.node_of[i];
      const double own = v == least ? second : phase.node_working_bytes[least];
      const double block = o.memory.block >= 0 ? phase.block_bytes[o.memory.block] : 0.0;
      stays[i] = own + block + o.memory.footprint_bytes + o.memory.working_bytes > memory_bound;
    }
  }
  return stays;
}

/// The loads of the units no strategy splits, and the load that must stay on each node.
struct Units {
  std::vector<double> loads;
  std::vector<double> pinned;
};

Units units_of(const Phase& phase, double memory_bound, bool whole_clusters) {
  const std::vector<char> stays = staying(phase, memory_bound);
  Units units{.loads = {}, .pinned = std::vector<double>(phase.nodes, 0.0)};
  if (!whole_clusters) {
    for (std::size_t i = 0; i < phase.objects.size(); ++i) {
      units.loads.push_back(phase.objects[i].load);
      if (stays[i]) units.pinned[phase.node_of[i]] += phase.objects[i].load;
    }
    return units;
  }
  // A node's migratable objects of one block at the start are a cluster; clusters merge as
  // they move but never split, an object of no block stays, and so does a cluster with an
  // object that stays.
  struct Cluster {
    NodeId node;
    double load;
    bool stays;
  };
  std::vector<Cluster> clusters;
  std::unordered_map<std::uint64_t, std::size_t> cluster_of;  // node << 32 | block
  for (std::size_t i = 0; i < phase.objects.size(); ++i) {
    const PhaseObject& o = phase.objects[i];
    const NodeId v = phase.node_of[i];
    if (!o.migratable || o.memory.block < 0) {
      units.loads.push_back(o.load);
      units.pinned[v] += o.load;
      continue;
    }
    const auto key = static_cast<std::uint64_t>(v) << 32 | static_cast<std::uint32_t>(o.memory.block);
    const auto [at, added] = cluster_of.try_emplace(key, clusters.size());
    if (added) clusters.push_back({v, 0.0, false});
    clusters[at->second].load += o.load;
    clusters[at->second].stays |= stays[i] != 0;
  }
  for (const Cluster& c : clusters) {
    units.loads.push_back(c.load);
    if (c.stays) units.pinned[c.node] += c.load;
  }
  return units;
}

}  // namespace

double max_load_lower_bound(const Phase& phase, double memory_bound, bool whole_clusters) {
  Units units = units_of(phase, memory_bound, whole_clusters);
  std::vector<double>& loads = units.loads;
  double bound = std::accumulate(loads.begin(), loads.end(), 0.0) / total_speed(phase);
  // A unit's time is at least its load on the fastest node, the least alpha.
  const double fastest =
      phase.node_alpha.empty() ? 1.0 : *std::min_element(phase.node_alpha.begin(), phase.node_alpha.end());
  if (!loads.empty()) bound = std::max(bound, *std::max_element(loads.begin(), loads.end()) * fastest);
  const std::size_t p = phase.nodes;
  if (loads.size() > p) {  // the P + 1 heaviest first, the (P+1)-th at index p
    std::nth_element(loads.begin(), loads.begin() + static_cast<std::ptrdiff_t>(p), loads.end(), std::greater<>());
    const double p_th = *std::min_element(loads.begin(), loads.begin() + static_cast<std::ptrdiff_t>(p));
    bound = std::max(bound, (p_th + loads[p]) * fastest);
  }
  for (NodeId v = 0; v < phase.nodes; ++v) bound = std::max(bound, units.pinned[v] * alpha_of(phase, v));
  return bound;
}

}  // namespace dlbkit
