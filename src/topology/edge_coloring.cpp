#include <dlbkit/topology/edge_coloring.hpp>

#include <algorithm>
#include <cassert>

namespace dlbkit {

namespace {

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
int dimension_color(const Topology& t, NodeId v, std::size_t i, NodeId u) {
  const int axis = t.edge_dimension(v, i)->axis;
  if (t.kind() == TopologyKind::hypercube) return axis;
  const auto extents = t.extents();
  std::uint64_t stride = 1;
  for (int a = 0; a < axis; ++a) stride *= static_cast<std::uint64_t>(extents[static_cast<std::size_t>(a)]);
  const auto extent = static_cast<std::uint64_t>(extents[static_cast<std::size_t>(axis)]);
  const std::uint64_t cv = v / stride % extent, cu = u / stride % extent;
  const std::uint64_t up_from = (cv + 1) % extent == cu ? cv : cu;  // the end the edge steps up from
  return 2 * axis + static_cast<int>(up_from % 2);
}

}  // namespace

std::optional<NodeId> EdgeColoring::partner(const Topology& topology, NodeId v, int color) const {
  const auto& colors_of_v = of[v];
  for (std::size_t i = 0; i < colors_of_v.size(); ++i)
    if (colors_of_v[i] == color) return topology.neighbors(v)[i];
  return std::nullopt;
}

EdgeColoring edge_coloring(const Topology& topology) {
  const std::size_t n = topology.size();
  EdgeColoring c;
  c.of.resize(n);
  for (NodeId v = 0; v < n; ++v) c.of[v].assign(topology.degree(v), -1);
  const bool dimension = by_dimension(topology);
  std::vector<std::vector<bool>> used(n);  // greedy: colours taken at each node
  for (NodeId v = 0; v < n; ++v) {
    const auto nb = topology.neighbors(v);
    for (std::size_t i = 0; i < nb.size(); ++i) {
      const NodeId u = nb[i];
      if (u < v) continue;
      int color = 0;
      if (dimension) {
        color = dimension_color(topology, v, i, u);
      } else {
        auto& at_v = used[v];
        auto& at_u = used[u];
        while ((static_cast<std::size_t>(color) < at_v.size() && at_v[static_cast<std::size_t>(color)]) ||
               (static_cast<std::size_t>(color) < at_u.size() && at_u[static_cast<std::size_t>(color)]))
          ++color;
        for (auto* at : {&at_v, &at_u}) {
          if (at->size() <= static_cast<std::size_t>(color)) at->resize(static_cast<std::size_t>(color) + 1, false);
          (*at)[static_cast<std::size_t>(color)] = true;
        }
      }
      c.of[v][i] = color;
      c.of[u][index_of(topology, u, v)] = color;
    }
  }
  // Number the colours that occur 0..colors-1 (a mesh axis of extent 1 or 2 leaves gaps).
  std::vector<int> present;
  for (const auto& row : c.of) present.insert(present.end(), row.begin(), row.end());
  std::sort(present.begin(), present.end());
  present.erase(std::unique(present.begin(), present.end()), present.end());
  for (auto& row : c.of)
    for (int& color : row)
      color = static_cast<int>(std::lower_bound(present.begin(), present.end(), color) - present.begin());
  c.colors = static_cast<int>(present.size());
  return c;
}

}  // namespace dlbkit
