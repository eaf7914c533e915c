#pragma once
/// \file
/// A proper edge colouring: no two edges at a node share a colour, so each colour class is
/// a matching and plays the role of a hypercube dimension in dimension exchange (DEM on
/// other networks, WLR93 Sec. III-E; generalized dimension exchange in the round loop).
///
/// ```
/// auto torus = dlbkit::parse_topology("torus:4x4");
/// dlbkit::EdgeColoring c = dlbkit::edge_coloring(torus);   // 4 colours
/// std::optional<dlbkit::NodeId> p = c.partner(torus, 5, 0); // node 5's neighbour across colour 0
/// ```
/// Hypercube: the colour is the edge's dimension (d colours, Cyb89 Sec. 4). Mesh, and torus
/// or ring whose extents are all even: the colour is 2 axis + the parity of the coordinate
/// the edge steps up from (2 colours per axis of extent > 2, one for an axis of extent 2).
/// Every other network (odd rings and tori, trees, complete, bisectional, odd, files):
/// greedy, edges in the order (lower end point, neighbour index), each taking the smallest
/// colour free at both ends, which uses at most 2 max_degree - 1 colours. Colours are
/// numbered 0..colors()-1 in increasing order of the scheme's colour; the result depends on
/// the topology only. One colour per (node, neighbour) slot: 4 bytes an edge end.
/// Immutable after construction; safe to read from several threads.

#include <dlbkit/topology/topology.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace dlbkit {

class EdgeColoring {
public:
  std::size_t colors() const { return colors_; }
  /// The colour of the edge from v to its i-th neighbour (the same from both ends).
  std::uint32_t color(NodeId v, std::size_t i) const { return color_of_slot_[offsets_[v] + i]; }
  /// The neighbour of v across the edge of colour `color`, if v has one.
  std::optional<NodeId> partner(const Topology& topology, NodeId v, std::uint32_t color) const;

private:
  friend EdgeColoring edge_coloring(const Topology& topology);
  std::vector<std::size_t> offsets_;         // first slot of each node, as in the topology
  std::vector<std::uint32_t> color_of_slot_;
  std::size_t colors_ = 0;
};

EdgeColoring edge_coloring(const Topology& topology);

}  // namespace dlbkit
