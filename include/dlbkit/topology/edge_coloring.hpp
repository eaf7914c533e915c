#pragma once
/// \file
/// A proper edge colouring: no two edges at a node share a colour, so each colour class is
/// a matching and can play the role of a hypercube dimension in dimension exchange (DEM on
/// other networks, WLR93 Sec. III-E).
///
/// ```
/// dlbkit::EdgeColoring c = dlbkit::edge_coloring(dlbkit::parse_topology("torus:4x4"));
/// // c.colors == 4; c.partner(topology, 5, 0) is node 5's neighbour across an edge of colour 0
/// ```
/// Hypercube: the colour is the edge's dimension (d colours). Mesh, and torus or ring whose
/// extents are all even: the colour is 2 axis + the parity of the coordinate the edge steps
/// up from (2 colours per axis of extent > 2, one for an axis of extent 2). Every other
/// network (odd rings and tori, trees, complete, bisectional, odd, files): greedy, edges in
/// the order (lower end point, neighbour index), each taking the smallest colour free at both
/// ends, which uses at most 2 max_degree - 1 colours. Colours are numbered 0..colors-1 in
/// increasing order of the scheme's colour; the result depends on the topology only.

#include <dlbkit/topology/topology.hpp>

#include <optional>
#include <vector>

namespace dlbkit {

struct EdgeColoring {
  int colors = 0;
  /// of[v][i]: the colour of the edge from v to its i-th neighbour (the same from both ends).
  std::vector<std::vector<int>> of;

  /// The neighbour of v across the edge of colour `color`, if v has one.
  std::optional<NodeId> partner(const Topology& topology, NodeId v, int color) const;
};

EdgeColoring edge_coloring(const Topology& topology);

}  // namespace dlbkit
