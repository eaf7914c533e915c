#include <dlbkit/topology/edge_coloring.hpp>

#include <algorithm>
#include <cassert>
#include <limits>

namespace dlbkit {

namespace {

constexpr std::uint32_t kUncolored = std::numeric_limits<std::uint32_t>::max();

// Index of u in v's neighbour list.
std::size_t index_of(const Topology& t, NodeId v, NodeId u) {
  const auto nb = t.neighbors(v);
  const auto it = std::find(nb.begin(), nb.end(), u);
  assert(it != nb.end());
  return static_cast<std::size_t>(it - nb.begin());
}

// Whether colouring by dimension is proper: hypercube and mesh always, torus and ring when
// no axis is odd (an odd cycle needs three colours).
bool by_dimension(const Topology& t) {
  switch (t.kind()) {
    case TopologyKind::hypercube:
    case TopologyKind::mesh: return true;
    case TopologyKind::torus:
    case TopologyKind::ring: {
      const auto e = t.extents();
      return std::all_of(e.begin(), e.end(), [](int a) { return a % 2 == 0; });
    }
    default: return false;
  }
}

// The dimension colour of the edge from v (< u) to its i-th neighbour u.
std::uint32_t dimension_color(const Topology& t, NodeId v, std::size_t i, NodeId u) {
  const int axis = t.edge_dimension(v, i)->axis;
  if (t.kind() == TopologyKind::hypercube) return static_cast<std::uint32_t>(axis);
  const auto extents = t.extents();
  std::uint64_t stride = 1;
  for (int a = 0; a < axis; ++a) stride *= static_cast<std::uint64_t>(extents[static_cast<std::size_t>(a)]);
  const auto extent = static_cast<std::uint64_t>(extents[static_cast<std::size_t>(axis)]);
  const std::uint64_t cv = v / stride % extent, cu = u / stride % extent;
  const std::uint64_t up_from = (cv + 1) % extent == cu ? cv : cu;  // the end the edge steps up from
  return static_cast<std::uint32_t>(2 * axis) + static_cast<std::uint32_t>(up_from % 2);
}

}  // namespace

std::optional<NodeId> EdgeColoring::partner(const Topology& topology, NodeId v, std::uint32_t color) const {
  const auto nb = topology.neighbors(v);
  for (std::size_t i = 0; i < nb.size(); ++i)
    if (color_of_slot_[offsets_[v] + i] == color) return nb[i];
  return std::nullopt;
}

EdgeColoring edge_coloring(const Topology& topology) {
  const std::size_t n = topology.size();
  EdgeColoring c;
  const auto offsets = topology.neighbor_offsets();
  c.offsets_.assign(offsets.begin(), offsets.end());
  c.color_of_slot_.assign(c.offsets_.back(), kUncolored);
  const bool dimension = by_dimension(topology);
  std::vector<char> used(2 * topology.max_degree(), 0);  // greedy: colours taken at the two ends
  for (NodeId v = 0; v < n; ++v) {
    const auto nb = topology.neighbors(v);
    for (std::size_t i = 0; i < nb.size(); ++i) {
      const NodeId u = nb[i];
      if (u < v) continue;  // coloured from its lower end
      std::uint32_t color = 0;
      if (dimension) {
        color = dimension_color(topology, v, i, u);
      } else {
        std::fill(used.begin(), used.end(), 0);
        for (NodeId end : {v, u})
          for (std::size_t k = c.offsets_[end]; k < c.offsets_[end + 1]; ++k)
            if (c.color_of_slot_[k] != kUncolored) used[c.color_of_slot_[k]] = 1;
        // At most 2 (max degree - 1) colours are taken at the two ends, so one is free.
        color = static_cast<std::uint32_t>(std::find(used.begin(), used.end(), 0) - used.begin());
      }
      c.color_of_slot_[c.offsets_[v] + i] = color;
      c.color_of_slot_[c.offsets_[u] + index_of(topology, u, v)] = color;
    }
  }
  // Number the colours that occur 0..colors-1 (a mesh axis of extent 1 or 2 leaves gaps).
  std::vector<std::uint32_t> present(c.color_of_slot_);
  std::sort(present.begin(), present.end());
  present.erase(std::unique(present.begin(), present.end()), present.end());
  for (std::uint32_t& color : c.color_of_slot_)
    color = static_cast<std::uint32_t>(std::lower_bound(present.begin(), present.end(), color) - present.begin());
  c.colors_ = present.size();
  return c;
}

}  // namespace dlbkit
