#include <dlbkit/topology/edge_coloring.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cstdint>
#include <gtest/gtest.h>
#include <set>

using namespace dlbkit;

TEST(EdgeColoring, IsProperSymmetricAndUsesEveryColour) {
  for (const std::string spec : {"hypercube:1", "hypercube:4", "torus:4x4", "torus:4x2", "torus:3x4", "mesh:3x5",
                                 "mesh:1x4", "ring:8", "ring:7", "tree:binary:4", "complete:6", "odd:3",
                                 "bisectional:5"}) {
    SCOPED_TRACE(spec);
    const Topology t = parse_topology(spec);
    const EdgeColoring c = edge_coloring(t);
    std::set<std::uint32_t> used;
    for (NodeId v = 0; v < t.size(); ++v) {
      const auto nb = t.neighbors(v);
      std::set<std::uint32_t> at_v;
      for (std::size_t i = 0; i < nb.size(); ++i) at_v.insert(c.color(v, i));
      EXPECT_EQ(at_v.size(), nb.size()) << "two edges of one colour at node " << v;
      for (std::size_t i = 0; i < nb.size(); ++i) {
        const std::uint32_t color = c.color(v, i);
        EXPECT_LT(color, c.colors());
        EXPECT_EQ(c.partner(t, nb[i], color), v) << "edge " << v << "-" << nb[i] << " coloured differently at its ends";
        EXPECT_EQ(c.partner(t, v, color), nb[i]);
        used.insert(color);
      }
    }
    EXPECT_EQ(used.size(), c.colors());
    EXPECT_LE(c.colors(), 2 * t.max_degree() - 1);
    EXPECT_GE(c.colors(), t.max_degree());
  }
}

TEST(EdgeColoring, ColoursByDimensionWhereThatIsProper) {
  EXPECT_EQ(edge_coloring(parse_topology("hypercube:5")).colors(), 5u);
  EXPECT_EQ(edge_coloring(parse_topology("torus:4x4")).colors(), 4u);
  EXPECT_EQ(edge_coloring(parse_topology("torus:4x2")).colors(), 3u);
  EXPECT_EQ(edge_coloring(parse_topology("mesh:3x5")).colors(), 4u);
  EXPECT_EQ(edge_coloring(parse_topology("ring:8")).colors(), 2u);
  const Topology cube = parse_topology("hypercube:3");
  const EdgeColoring c = edge_coloring(cube);
  for (NodeId v = 0; v < 8; ++v)
    for (std::uint32_t k = 0; k < 3; ++k) EXPECT_EQ(c.partner(cube, v, k), v ^ (NodeId{1} << k));
  EXPECT_EQ(edge_coloring(parse_topology("ring:7")).colors(), 3u);  // an odd cycle needs three
}
