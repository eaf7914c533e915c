#include <dlbkit/topology/edge_coloring.hpp>
#include <dlbkit/topology/topology.hpp>

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
    std::set<int> used;
    for (NodeId v = 0; v < t.size(); ++v) {
      const auto nb = t.neighbors(v);
      ASSERT_EQ(c.of[v].size(), nb.size());
      std::set<int> at_v(c.of[v].begin(), c.of[v].end());
      EXPECT_EQ(at_v.size(), nb.size()) << "two edges of one colour at node " << v;
      for (std::size_t i = 0; i < nb.size(); ++i) {
        const int color = c.of[v][i];
        EXPECT_GE(color, 0);
        EXPECT_LT(color, c.colors);
        EXPECT_EQ(c.partner(t, nb[i], color), v) << "edge " << v << "-" << nb[i] << " coloured differently at its ends";
        EXPECT_EQ(c.partner(t, v, color), nb[i]);
        used.insert(color);
      }
    }
    EXPECT_EQ(static_cast<int>(used.size()), c.colors);
    EXPECT_LE(c.colors, 2 * static_cast<int>(t.max_degree()) - 1 + (t.max_degree() == 0 ? 1 : 0));
  }
}

TEST(EdgeColoring, ColoursByDimensionWhereThatIsProper) {
  EXPECT_EQ(edge_coloring(parse_topology("hypercube:5")).colors, 5);
  EXPECT_EQ(edge_coloring(parse_topology("torus:4x4")).colors, 4);
  EXPECT_EQ(edge_coloring(parse_topology("torus:4x2")).colors, 3);
  EXPECT_EQ(edge_coloring(parse_topology("mesh:3x5")).colors, 4);
  EXPECT_EQ(edge_coloring(parse_topology("ring:8")).colors, 2);
  const Topology cube = parse_topology("hypercube:3");
  const EdgeColoring c = edge_coloring(cube);
  for (NodeId v = 0; v < 8; ++v)
    for (int k = 0; k < 3; ++k) EXPECT_EQ(c.partner(cube, v, k), v ^ (NodeId{1} << k));
  EXPECT_EQ(edge_coloring(parse_topology("ring:7")).colors, 3);  // an odd cycle needs three
}
